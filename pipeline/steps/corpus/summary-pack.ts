/**
 * A package's summary pack (issue 21, session 27): what extraction needs of every member of a bulk package whose
 * articles are all cached, in one file of the extraction cache (extraction-cache.ts, `packs/`), so that a rebuild
 * reads an unchanged package in one read instead of its member list (JSON) plus one summary per article, each a
 * JSON text to parse out of the segments (at 100,000 articles that was 1.6 s of a rebuild's extraction, on its
 * critical path: the plan the worker waits for is made after it).
 *
 * A pack holds, in member order: each member's kind and path; for an article, the sha256 of its bytes, its
 * extraction's cache key, and its summary (article-summary.ts) or the error it was cached as. It follows from the
 * package's bytes and the cache's salt (extractor version, lexicon, band options), which name it; whether the
 * extractions behind it are still in the cache is checked when it is read (`articleKeys`).
 *
 * Layout: "CPACK" and a format byte; a uint32 (LE) byte length and a JSON header (member and article counts, the
 * strings); the articles' content hashes and then their cache keys, 32 bytes each; then each member's record as
 * varints and texts (contracts/frame/work-store.ts's ByteWriter), phrases and id kinds by their number in the header;
 * last, the sha256 of all that, checked before anything is used (a damaged pack is a miss: the package is read as
 * before). Texts of the article (its ids, its licence) are written as bytes at once, not held: they may be slices of
 * the article's whole text, which a held slice keeps alive (extract-corpus.ts), for as long as the package is read.
 */
import { hash } from 'node:crypto';
import { BANDS, type Band, OCCURRENCE_STATUSES, type OccurrenceStatus } from '../../../contracts/corpus/vocab.ts';
import { ByteReader, ByteWriter } from '../../../contracts/frame/work-store.ts';
import type { ArticleSummary } from './article-summary.ts';
import type { CachedSummary, PackageMemberRecord } from './extraction-cache.ts';

const MAGIC = 'CPACK';
/** Bump when the layout changes: a pack of another format is not read (the package is read as before). */
export const PACK_FORMAT = 1;
const HASH = 32;

/** Member kinds in a pack. */
const ARTICLE = 0;
const ARTICLE_ERROR = 1;
const OTHER = 2;
const BROKEN = 3;

/** One member as a pack gives it back: its record and, for an article, its summary (or error) and cache key. */
export type PackedMember =
  | { record: Extract<PackageMemberRecord, { kind: 'article' }>; summary: CachedSummary; key: Uint8Array }
  | { record: Exclude<PackageMemberRecord, { kind: 'article' }>; summary: null };

/** Collects a package's members as they are read, then `finish`es them into a pack. */
export class PackWriter {
  /** Phrases and id kinds: few, and the lexicon's own strings (or short ones parsed from the cache). */
  private readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly body = new ByteWriter();
  private readonly hashes: Buffer[] = [];
  private readonly keys: Buffer[] = [];
  private members = 0;

  private sid(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.strings.push(s) - 1;
      this.ids.set(s, id);
    }
    return id;
  }

  /** A text or null: a flag byte, then the text. */
  private optional(s: string | null): void {
    if (s === null) this.body.byte(0);
    else {
      this.body.byte(1);
      this.body.text(s);
    }
  }

  /** A member that is not an article, or a broken one. */
  other(record: Exclude<PackageMemberRecord, { kind: 'article' }>): void {
    this.members++;
    if (record.kind === 'other') {
      this.body.byte(OTHER);
      this.optional(record.member);
    } else {
      this.body.byte(BROKEN);
      this.optional(record.member);
      this.body.text(record.reason);
    }
  }

  /** An article member: the sha256 of its bytes (hex), its cache key (32 bytes) and its cached summary. */
  article(member: string, sha256: string, key: Uint8Array, summary: CachedSummary): void {
    this.members++;
    this.hashes.push(Buffer.from(sha256, 'hex'));
    this.keys.push(Buffer.from(key));
    const w = this.body;
    if ('error' in summary) {
      w.byte(ARTICLE_ERROR);
      this.optional(member);
      w.text(summary.error);
      return;
    }
    w.byte(ARTICLE);
    this.optional(member);
    const a = summary;
    w.text(a.pmcid);
    w.uvar(this.sid(a.id_kind));
    this.optional(a.pmid);
    if (a.licence === null) w.byte(0);
    else {
      w.byte(1);
      this.optional(a.licence.url);
      this.optional(a.licence.type);
    }
    if (a.year === null) w.byte(0);
    else {
      w.byte(1);
      w.svar(a.year);
    }
    w.uvar(a.sentences_scanned);
    for (const s of OCCURRENCE_STATUSES) w.uvar(a.occurrences[s]);
    w.uvar(a.excerpts.length);
    for (const e of a.excerpts) {
      w.uvar(e.occurrences.length);
      for (const o of e.occurrences) {
        w.uvar(this.sid(o.phrase));
        w.byte(OCCURRENCE_STATUSES.indexOf(o.status));
        w.byte(o.band === null ? 255 : BANDS.indexOf(o.band));
        if (o.p === null) w.byte(0);
        else {
          w.byte(o.p.exact ? 1 : 2);
          if (o.p.value === null) w.byte(0);
          else {
            w.byte(1);
            // + 0: a -0 is written as 0, as the cache's JSON text would give it.
            w.f64(o.p.value + 0);
          }
        }
      }
    }
  }

  /** The pack's bytes. */
  finish(): Buffer {
    const header = Buffer.from(JSON.stringify({ members: this.members, articles: this.hashes.length, strings: this.strings }), 'utf8');
    const head = Buffer.alloc(MAGIC.length + 1 + 4);
    head.write(MAGIC, 0, 'latin1');
    head[MAGIC.length] = PACK_FORMAT;
    head.writeUInt32LE(header.length, MAGIC.length + 1);
    const bytes = Buffer.concat([head, header, ...this.hashes, ...this.keys, this.body.slice(0)]);
    return Buffer.concat([bytes, hash('sha256', bytes, 'buffer')]);
  }
}

/** A pack read back: its articles' cache keys (to check against the cache first), then its members one by one. */
export class PackReader {
  private readonly strings: string[];
  private readonly members: number;
  readonly articles: number;
  private readonly hashesAt: number;
  private readonly keysAt: number;
  private readonly bodyAt: number;

  private readonly buf: Buffer;

  /** Throws on bytes that are not a whole pack of this format. */
  constructor(bytes: Buffer) {
    const at = MAGIC.length + 1 + 4;
    if (bytes.length < at + HASH || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC || bytes[MAGIC.length] !== PACK_FORMAT) throw new Error('not a summary pack of this format');
    const buf = bytes.subarray(0, bytes.length - HASH);
    if (!hash('sha256', buf, 'buffer').equals(bytes.subarray(buf.length))) throw new Error('a damaged summary pack');
    this.buf = buf;
    const headerLength = buf.readUInt32LE(MAGIC.length + 1);
    const header = JSON.parse(buf.toString('utf8', at, at + headerLength)) as { members: number; articles: number; strings: string[] };
    this.strings = header.strings;
    this.members = header.members;
    this.articles = header.articles;
    this.hashesAt = at + headerLength;
    this.keysAt = this.hashesAt + this.articles * HASH;
    this.bodyAt = this.keysAt + this.articles * HASH;
    if (this.bodyAt > buf.length) throw new Error('a truncated summary pack');
  }

  /** Article `k`'s cache key (a view of the pack's bytes). */
  key(k: number): Uint8Array {
    return this.buf.subarray(this.keysAt + k * HASH, this.keysAt + (k + 1) * HASH);
  }

  /** Every member in order. */
  *entries(): Generator<PackedMember> {
    const r = new ByteReader(this.buf);
    r.pos = this.bodyAt;
    const str = (id: number) => {
      const s = this.strings[id];
      if (s === undefined) throw new Error('a damaged summary pack');
      return s;
    };
    const optional = () => (r.byte() === 0 ? null : r.text());
    let article = 0;
    for (let m = 0; m < this.members; m++) {
      const kind = r.byte();
      const member = optional();
      if (kind === OTHER) {
        yield { record: { kind: 'other', member: member! }, summary: null };
        continue;
      }
      if (kind === BROKEN) {
        yield { record: { kind: 'broken', member, reason: r.text() }, summary: null };
        continue;
      }
      if (kind !== ARTICLE && kind !== ARTICLE_ERROR) throw new Error('a damaged summary pack');
      const sha256 = this.buf.toString('hex', this.hashesAt + article * HASH, this.hashesAt + (article + 1) * HASH);
      const key = this.key(article);
      const record = { kind: 'article' as const, member: member!, sha256 };
      article++;
      if (kind === ARTICLE_ERROR) {
        yield { record, summary: { error: r.text() }, key };
        continue;
      }
      const pmcid = r.text();
      const idKind = str(r.uvar()) as ArticleSummary['id_kind'];
      const pmid = optional();
      const licence = r.byte() === 0 ? null : { url: optional(), type: optional() };
      const year = r.byte() === 0 ? null : r.svar();
      const sentences = r.uvar();
      const occurrences = {} as ArticleSummary['occurrences'];
      for (const s of OCCURRENCE_STATUSES) occurrences[s] = r.uvar();
      const excerpts: { occurrences: ArticleSummary['excerpts'][number]['occurrences'][number][] }[] = new Array(r.uvar());
      for (let e = 0; e < excerpts.length; e++) {
        const list: ArticleSummary['excerpts'][number]['occurrences'][number][] = new Array(r.uvar());
        for (let o = 0; o < list.length; o++) {
          const phrase = str(r.uvar());
          const status = OCCURRENCE_STATUSES[r.byte()] as OccurrenceStatus;
          const bandCode = r.byte();
          const band = bandCode === 255 ? null : (BANDS[bandCode] as Band);
          const pKind = r.byte();
          const p = pKind === 0 ? null : { exact: pKind === 1, value: r.byte() === 0 ? null : r.f64() };
          list[o] = { phrase, status, band, p };
        }
        excerpts[e] = { occurrences: list };
      }
      const summary: ArticleSummary = { pmcid, id_kind: idKind, pmid, licence, year, sentences_scanned: sentences, occurrences, excerpts };
      yield { record, summary, key };
    }
    if (article !== this.articles || r.pos !== this.buf.length) throw new Error('a damaged summary pack');
  }
}
