/**
 * A package's summary pack (pipeline/steps/corpus/summary-pack.ts) gives back, member by member, what the cache
 * would: each member's record, and each article's summary as the JSON text of its summary parses to (the oracle:
 * the summaries themselves, through JSON as the cache keeps them), its content hash and cache key. On the real
 * reference articles, on generated ones and on hand-made edge cases (errors, non-articles, broken members, nulls,
 * non-ASCII texts); a damaged or truncated pack is refused, never read as something else.
 */
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractArticle } from '../../../pipeline/corpus/extract.ts';
import { parseArticle } from '../../../pipeline/corpus/jats.ts';
import { compileLexicon, loadLexicon } from '../../../pipeline/corpus/lexicon.ts';
import { generateArticle } from '../../../pipeline/generate/corpus/article.ts';
import { type ArticleSummary, summarize } from '../../../pipeline/steps/corpus/article-summary.ts';
import type { CachedSummary, PackageMemberRecord } from '../../../pipeline/steps/corpus/extraction-cache.ts';
import { PackReader, PackWriter } from '../../../pipeline/steps/corpus/summary-pack.ts';
import { tempDir } from '../../helpers/fixture-build.ts';
import { needShared, sharedPath } from '../../helpers/needs.ts';

const REAL = sharedPath('reference/hedged/jats');
const haveReal = needShared('reference/hedged/jats', 'the real-article case');

type Member = { record: PackageMemberRecord; summary: CachedSummary | null; key: Buffer | null };
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

const tmp = tempDir('summary-pack');
afterAll(tmp.remove);
let packs = 0;

/** Writes a pack of `members`; its path. */
function write(members: Member[]): string {
  const path = join(tmp.path, `${packs++}.pack`);
  const w = new PackWriter(path);
  for (const m of members)
    if (m.record.kind === 'article') w.article(m.record.member, m.record.sha256, m.key!, m.summary!);
    else w.other(m.record);
  w.finish();
  return path;
}

/** Opens a pack, every key wanted; the keys it named. */
function open(path: string): { pack: PackReader | null; keys: string[] } {
  const keys: string[] = [];
  const pack = PackReader.open(path, () => true, (k) => void keys.push(Buffer.from(k).toString('hex')));
  return { pack, keys };
}

/** Packs `members`, reads the pack back, and compares member by member with the summaries through JSON. */
function roundTrip(members: Member[]): void {
  const { pack, keys } = open(write(members));
  const articles = members.filter((m) => m.record.kind === 'article');
  expect(pack!.articles).toBe(articles.length);
  expect(keys).toEqual(articles.map((m) => m.key!.toString('hex')));
  const back = [...pack!.entries()];
  expect(back.map((b) => b.record)).toEqual(members.map((m) => m.record));
  back.forEach((b, i) => {
    const m = members[i]!;
    if (m.summary === null) expect(b.summary).toBeNull();
    // Strictly what the cache's JSON text gives back (key order aside).
    else expect(b.summary).toStrictEqual(JSON.parse(JSON.stringify(m.summary)));
    if (b.summary !== null) expect(Buffer.from(b.key).equals(m.key!)).toBe(true);
  });
}

const articleMember = (i: number, summary: CachedSummary, member = `dir/PMC${i}.nxml`): Member => ({
  record: { kind: 'article', member, sha256: sha(`bytes ${i}`) },
  summary,
  key: Buffer.from(sha(`key ${i}`), 'hex'),
});

describe('summary packs', () => {
  const matcher = compileLexicon(loadLexicon());

  it.skipIf(!haveReal)('give back the real reference articles’ summaries', () => {
    const names = readdirSync(REAL).filter((n) => /\.(n?xml)$/.test(n)).sort();
    expect(names.length).toBeGreaterThan(5);
    const members = names.map((n, i) => articleMember(i, summarize(extractArticle(parseArticle(readFileSync(join(REAL, n))), matcher, {})), n));
    expect(members.some((m) => (m.summary as ArticleSummary).excerpts.length > 0)).toBe(true);
    roundTrip(members);
  });

  it('give back generated articles, errors, non-articles and broken members in their order', () => {
    const members: Member[] = [];
    for (let i = 0; i < 300; i++) {
      if (i % 50 === 7) members.push({ record: { kind: 'other', member: `dir/file${i}.pdf` }, summary: null, key: null });
      else if (i % 50 === 8) members.push({ record: { kind: 'broken', member: i % 100 === 8 ? null : `dir/cut${i}.nxml`, reason: `unexpected end of file at member ${i} — “ü”` }, summary: null, key: null });
      else if (i % 50 === 9) members.push(articleMember(i, { error: `not JATS: <html> at ${i}` }));
      else members.push(articleMember(i, summarize(extractArticle(parseArticle(generateArticle(5, i, 0).xml), matcher, {}))));
    }
    roundTrip(members);
  });

  it('keep nulls, licences, non-ASCII texts, every band and status, bounds and p values exactly', () => {
    const members: Member[] = [];
    for (let i = 0; i < 400; i++) {
      const occurrences = Array.from({ length: i % 4 }, (_, k) => ({
        phrase: k === 2 ? 'a trend toward significance' : `phrase ${(i + k) % 7}`,
        status: (['verified', 'rejected', 'unverified', 'indeterminate'] as const)[(i + k) % 4]!,
        band: k === 0 ? null : (['0.05-0.06', '0.06-0.08', '0.08-0.10', '>0.10', 'ns', 'none'] as const)[(i + k) % 6]!,
        p: (i + k) % 5 === 0 ? null : { exact: (i + k) % 2 === 0, value: (i + k) % 3 === 0 ? null : ((i * 7 + k) % 1000) / 997 },
      }));
      const a: ArticleSummary = {
        pmcid: i % 9 === 0 ? `nopmc-${sha(String(i)).slice(0, 12)}` : `PMC${i}`,
        id_kind: i % 9 === 0 ? 'generated' : 'pmcid',
        pmid: i % 3 === 0 ? null : String(10_000_000 + i),
        licence: i % 4 === 0 ? null : { url: i % 8 === 1 ? null : `https://creativecommons.org/licenses/by/4.0/?é=${i}`, type: i % 4 === 2 ? null : 'open-access' },
        year: i % 13 === 0 ? null : 1990 + (i % 35),
        sentences_scanned: i * 3,
        occurrences: { verified: i % 5, rejected: i % 3, unverified: i % 2, indeterminate: i % 7 },
        excerpts: i % 6 === 0 ? [] : [{ occurrences }, { occurrences: occurrences.slice(1) }],
      };
      members.push(articleMember(i, a, `d/${'é'.repeat(i % 3)}PMC${i}.xml`));
    }
    roundTrip(members);
    roundTrip([]);
  });

  it('refuse a damaged, truncated or foreign pack, or one naming an extraction the cache no longer has', () => {
    const members = Array.from({ length: 30 }, (_, i) => articleMember(i, summarize(extractArticle(parseArticle(generateArticle(5, i, 0).xml), matcher, {}))));
    const path = write(members);
    expect(open(path).pack).not.toBeNull();
    const bytes = readFileSync(path);
    for (const at of [0, 5, 6, 20, bytes.length >> 1, bytes.length - 40, bytes.length - 33, bytes.length - 1]) {
      const bad = Buffer.from(bytes);
      bad[at]! ^= 0x01;
      writeFileSync(path, bad);
      expect(open(path).pack, `byte ${at} flipped`).toBeNull();
    }
    for (const cut of [1, 40, bytes.length >> 1]) {
      writeFileSync(path, bytes.subarray(0, bytes.length - cut));
      expect(open(path).pack, `${cut} bytes cut`).toBeNull();
    }
    writeFileSync(path, '{"not":"a pack"}');
    expect(open(path).pack).toBeNull();
    expect(open(join(tmp.path, 'none.pack')).pack).toBeNull();
    // Whole, but one of its extractions is gone from the cache: not used, and no key taken.
    writeFileSync(path, bytes);
    const gone = members[17]!.key!.toString('hex');
    const used: string[] = [];
    expect(PackReader.open(path, (k) => Buffer.from(k).toString('hex') !== gone, (k) => void used.push(String(k)))).toBeNull();
    expect(used).toEqual([]);
  });

  it('are written a piece at a time and read back the same across pieces (a package of many articles)', () => {
    const one = summarize(extractArticle(parseArticle(generateArticle(5, 3, 0).xml), matcher, {}));
    // 1 MiB pieces: 6,000 members and one record larger than a piece are several of them.
    const members = Array.from({ length: 6000 }, (_, i) => articleMember(i, i === 4321 ? { error: 'x'.repeat(3 << 20) } : { ...one, pmcid: `PMC${i}` }));
    const path = write(members);
    expect(statSync(path).size).toBeGreaterThan(4 << 20);
    roundTrip(members);
  });

  it('are read to their last record when the records fill the first piece exactly', () => {
    // 65,536 records of 16 bytes (a length, the kind, a name of 12) are exactly one 1 MiB piece; a record of 3 bytes
    // after them was once taken for the end of the records (fewer than 10 bytes left), and the pack refused.
    const members: { kind: 'other'; member: string }[] = Array.from({ length: 65536 }, (_, i) => ({ kind: 'other' as const, member: `f${String(i).padStart(7, '0')}.pdf` }));
    members.push({ kind: 'other', member: '' });
    const path = join(tmp.path, `${packs++}.pack`);
    const w = new PackWriter(path);
    for (const m of members) w.other(m);
    w.finish();
    const { pack } = open(path);
    expect(pack).not.toBeNull();
    const back = [...pack!.entries()].map((m) => m.record);
    expect(back.length).toBe(members.length);
    expect(back.slice(-2)).toEqual(members.slice(-2));
  });

  it('read the file they checked, even when it is replaced before it is read', () => {
    const members = Array.from({ length: 5 }, (_, i) => articleMember(i, { error: `e${i}` }));
    const path = write(members);
    const { pack } = open(path);
    // As the cache replaces a pack: a new file renamed over it (and then removed).
    writeFileSync(`${path}.new`, 'replaced');
    renameSync(`${path}.new`, path);
    rmSync(path);
    expect([...pack!.entries()].map((m) => m.record)).toEqual(members.map((m) => m.record));
    expect(() => [...pack!.entries()]).toThrow(/read twice/);
    pack!.close();
  });

  it('leave nothing behind when a package is not read through', () => {
    const path = join(tmp.path, 'aborted.pack');
    const w = new PackWriter(path);
    w.other({ kind: 'other', member: 'a.pdf' });
    w.abort();
    expect(readdirSync(tmp.path).filter((n) => n.startsWith('aborted'))).toEqual([]);
  });
});
