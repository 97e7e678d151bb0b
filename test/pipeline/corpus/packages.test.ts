/**
 * PMC OA bulk packages as corpus input (issue 21): real JATS articles packed into a .tar.gz here, read as they
 * are read loose; the file lists' PMID and licence; bad input (a truncated archive, non-XML members, duplicate
 * articles across packages) reported with package and member; incremental rebuilds with the extraction cache
 * (a daily package re-extracts only what changed, a deletion list removes articles) byte-identical to a full
 * rebuild; a failed run leaves the previous build served.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleDocSchema, statsDocSchema } from '../../../contracts/corpus/documents.ts';
import { currentManifest, runPipeline } from '../../../pipeline/build.ts';
import { generateBaselinePackages, generateIncrementPackage, reviseArticleXml } from '../../../pipeline/generate/corpus/packages.ts';
import { generateArticle } from '../../../pipeline/generate/corpus/article.ts';
import { type Progress, silentProgress } from '../../../pipeline/lib/progress.ts';
import { buildCorpus, CORPUS_REPORT_FILE } from '../../../pipeline/steps/corpus/corpus.ts';
import { fixtureBuild, fixtureSnapshot, tempDir } from '../../helpers/fixture-build.ts';
import { needShared, sharedPath } from '../../helpers/needs.ts';

const REAL = sharedPath('reference/hedged/jats');
const OTTE = sharedPath('reference/hedged/otte2022/detect_phrases/phrases_505.csv');
const haveReal = needShared('reference/hedged/jats', 'the real-article package tests');
const haveOtte = needShared('reference/hedged/otte2022/detect_phrases/phrases_505.csv', 'the package cache test under another lexicon');

const tmp = tempDir('corpus-packages');
afterAll(tmp.remove);

/** Writes a .tar.gz of the given members (name → bytes), as PMC's packages are: a gzipped tar. */
async function writeTarGz(path: string, members: [string, Buffer | string][]): Promise<void> {
  const tar = pack();
  const done = pipeline(tar, createGzip(), createWriteStream(path));
  for (const [name, data] of members) tar.entry({ name, mtime: new Date(0) }, Buffer.from(data));
  tar.finalize();
  await done;
}

function corpusDir(name: string): string {
  const dir = join(tmp.path, name, 'corpus');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A progress that keeps the log lines. */
function logProgress(): Progress & { lines: string[] } {
  const lines: string[] = [];
  return { ...silentProgress, lines, log: (m: string) => void lines.push(m) };
}

const build = (snapshot: string, out: string, o: { cacheDir?: string; progress?: Progress; lexiconPath?: string } = {}) =>
  buildCorpus({
    snapshot,
    out,
    snapshotId: 'test',
    synthetic: true,
    progress: o.progress ?? silentProgress,
    ...(o.cacheDir ? { cacheDir: o.cacheDir } : {}),
    ...(o.lexiconPath ? { lexiconPath: o.lexiconPath } : {}),
  });

/** sha256 of every file under `dir`, by relative path. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}
const doc = (out: string, path: string) => JSON.parse(readFileSync(join(out, path), 'utf8'));
/**
 * Every article document of a build is in its schema's form: it parses, and the schema gives back the same text
 * (the step writes them from the extraction's JSON and checks only one in ARTICLE_CHECK_EVERY: documents.ts).
 */
function expectSchemaForm(out: string): number {
  const dir = join(out, 'corpus/api/v1/articles');
  const files = readdirSync(dir);
  for (const f of files) {
    const text = readFileSync(join(dir, f), 'utf8');
    expect(JSON.stringify(articleDocSchema.parse(JSON.parse(text))), f).toBe(text);
  }
  return files.length;
}
const cacheLine = (p: { lines: string[] }) => p.lines.find((l) => l.includes('cache:'))!;

describe.skipIf(!haveReal)('real articles in a bulk package', () => {
  const names = haveReal ? readdirSync(REAL).sort() : [];

  it('reads a .tar.gz of real JATS as it reads the same files loose, and reports non-XML members', async () => {
    const loose = corpusDir('real-loose');
    for (const n of names) copyFileSync(join(REAL, n), join(loose, n));
    const packed = corpusDir('real-packed');
    const pkg = 'oa_comm_xml.PMC000xxxxxx.baseline.2026-01-01.tar.gz';
    await writeTarGz(join(packed, pkg), [
      ...names.map((n): [string, Buffer] => [`PMC000xxxxxx/${n}`, readFileSync(join(REAL, n))]),
      ['PMC000xxxxxx/figure1.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0])],
      ['PMC000xxxxxx/notes.xml', 'these are notes, not XML'],
    ]);
    const a = await build(join(tmp.path, 'real-loose'), join(tmp.path, 'real-loose-out'));
    const b = await build(join(tmp.path, 'real-packed'), join(tmp.path, 'real-packed-out'));
    expect(b).toMatchObject({ input: 'jats', input_files: 0, input_packages: 1, articles: names.length, skipped_files: 2, duplicate_articles: 0 });
    expect(b.articles).toBe(a.articles);
    expect(b.excerpts).toBe(a.excerpts);
    const ta = tree(join(tmp.path, 'real-loose-out', 'corpus'));
    const tb = tree(join(tmp.path, 'real-packed-out', 'corpus'));
    delete ta['report.json'];
    delete tb['report.json'];
    expect(tb).toEqual(ta); // the database, stats, phrases and every article document, byte for byte
    expect(expectSchemaForm(join(tmp.path, 'real-packed-out'))).toBe(names.length);
    const report = doc(join(tmp.path, 'real-packed-out'), CORPUS_REPORT_FILE);
    expect(report.skipped).toEqual([
      { package: pkg, file: 'PMC000xxxxxx/figure1.jpg', reason: expect.stringMatching(/not an XML article/) },
      { package: pkg, file: 'PMC000xxxxxx/notes.xml', reason: expect.any(String) },
    ]);
    expect(report.packages).toEqual([{ package: pkg, members: names.length + 2, articles: names.length + 1, broken: false }]);
    // Generated ids (PLOS and eLife files have no PMCID) name the member they came from.
    expect(report.generated_ids.every((g: { package: string; file: string }) => g.package === pkg && g.file.startsWith('PMC000xxxxxx/'))).toBe(true);
  });

  it("takes PMID and licence from the file list where the article's XML has none", async () => {
    const dir = corpusDir('real-filelist');
    const pkg = 'oa_comm_xml.PMC000xxxxxx.baseline.2026-01-01.tar.gz';
    const xml = readFileSync(join(REAL, 'journal.pone.0067227.xml'), 'utf8').replace(/<license[\s>][\s\S]*?<\/license>/, '');
    expect(xml).not.toContain('<license');
    await writeTarGz(join(dir, pkg), [
      ['PMC000xxxxxx/journal.pone.0067227.xml', xml],
      ['PMC000xxxxxx/pntd.0002065.nxml', readFileSync(join(REAL, 'pntd.0002065.nxml'))],
      ['PMC000xxxxxx/1471-2180-11-174.nxml', readFileSync(join(REAL, '1471-2180-11-174.nxml'))],
    ]);
    writeFileSync(
      join(dir, pkg.replace('.tar.gz', '.filelist.csv')),
      'Article File,Article Citation,AccessionID,LastUpdated (YYYY-MM-DD HH:MM:SS),PMID,License,Retracted\n' +
        'PMC000xxxxxx/journal.pone.0067227.xml,"PLoS One. 2013; 8(6):e67227",,2026-01-01 00:00:00,23840826,CC BY,no\n' +
        // The XML's own PMID wins; its bare <license> (a statement, no URL or type) gives way to the list's code.
        'PMC000xxxxxx/pntd.0002065.nxml,"PLoS Negl Trop Dis. 2013; 7(2):e2065",PMC3585041,2026-01-01 00:00:00,99999999,CC BY,no\n' +
        // A licence with a URL wins over the list's.
        'PMC000xxxxxx/1471-2180-11-174.nxml,"BMC Microbiol. 2011; 11:174",PMC3166277,2026-01-01 00:00:00,21810267,CC BY-NC,no\n',
    );
    const out = join(tmp.path, 'real-filelist-out');
    // With a cache: the documents of articles the list filled in are written from the article, not the cached text.
    await build(join(tmp.path, 'real-filelist'), out, { cacheDir: join(tmp.path, 'real-filelist-cache') });
    expect(expectSchemaForm(out)).toBe(3);
    const articles = readdirSync(join(out, 'corpus/api/v1/articles')).map((f) => articleDocSchema.parse(doc(out, `corpus/api/v1/articles/${f}`)));
    const plos = articles.find((a) => a.doi === '10.1371/journal.pone.0067227')!;
    expect(plos).toMatchObject({ pmid: '23840826', licence: { url: null, type: 'CC BY' } });
    const pntd = articles.find((a) => a.pmcid === 'PMC3585041')!;
    expect(pntd.pmid).toBe('23469300');
    expect(pntd.licence).toEqual({ url: null, type: 'CC BY' });
    const bmc = articles.find((a) => a.pmcid === 'PMC3166277')!;
    expect(bmc.licence).toEqual({ url: 'http://creativecommons.org/licenses/by/2.0', type: 'open-access' });
  });

  it('reports a truncated archive and a duplicate across packages with package and member, and goes on', async () => {
    const dir = corpusDir('real-bad');
    const first = 'oa_comm_xml.PMC000xxxxxx.baseline.2026-01-01.tar.gz';
    const second = 'oa_comm_xml.incr.2026-01-02.tar.gz';
    await writeTarGz(
      join(dir, first),
      names.slice(0, 4).map((n): [string, Buffer] => [`PMC000xxxxxx/${n}`, readFileSync(join(REAL, n))]),
    );
    // The second package repeats the first article, then holds a big one, and is cut inside that one.
    await writeTarGz(join(dir, second), [
      [`incr/${names[0]}`, readFileSync(join(REAL, names[0]!))],
      ['incr/elife-46472-v3.xml', readFileSync(join(REAL, 'elife-46472-v3.xml'))],
    ]);
    truncateSync(join(dir, second), statSync(join(dir, second)).size - 3000);
    const out = join(tmp.path, 'real-bad-out');
    const m = await build(join(tmp.path, 'real-bad'), out);
    expect(m).toMatchObject({ input_packages: 2, articles: 4, duplicate_articles: 1, skipped_files: 1 });
    const report = doc(out, CORPUS_REPORT_FILE);
    expect(report.skipped).toEqual([{ package: second, file: 'incr/elife-46472-v3.xml', reason: expect.stringMatching(/^truncated archive/) }]);
    expect(report.duplicates).toEqual([
      { package: second, file: `incr/${names[0]}`, id: 'PMC3166277', kept_package: first, kept_file: `PMC000xxxxxx/${names[0]}` },
    ]);
    expect(report.packages).toEqual([
      { package: first, members: 4, articles: 4, broken: false },
      { package: second, members: 1, articles: 1, broken: true },
    ]);
  });
});

describe('incremental rebuilds from generated bulk packages', () => {
  const seed = 8;
  const n = 60;
  const snap = join(tmp.path, 'gen');
  const dir = join(snap, 'corpus');
  const cacheDir = join(tmp.path, 'gen-cache');
  const revised = [3, 40];
  const added = [n, n + 1];
  const withdrawnIndex = [5, 6, 7, 8, 9, 10].find((i) => generateArticle(seed, i, 0).truth.pmcid !== null)!;
  const withdrawn = generateArticle(seed, withdrawnIndex, 0).truth.pmcid!;

  beforeAll(async () => {
    await generateBaselinePackages({ dir, articles: n, seed, perPackage: 30 });
  });

  it('re-extracts only new and changed articles, removes withdrawn ones, and equals a full rebuild byte for byte', async () => {
    const p1 = logProgress();
    const m1 = await build(snap, join(tmp.path, 'gen-1'), { cacheDir, progress: p1 });
    expect(m1).toMatchObject({ input_packages: 2, articles: n, skipped_files: 0 });
    expect(cacheLine(p1)).toContain(`cache: 0 reused, ${n} extracted, 0 of 2 packages not reread`);
    expect(expectSchemaForm(join(tmp.path, 'gen-1'))).toBe(n);

    // Nothing changed: nothing is extracted, no package decompressed, and the output is the same.
    const p2 = logProgress();
    await build(snap, join(tmp.path, 'gen-2'), { cacheDir, progress: p2 });
    expect(cacheLine(p2)).toContain(`cache: ${n} reused, 0 extracted, 2 of 2 packages not reread`);
    expect(tree(join(tmp.path, 'gen-2'))).toEqual(tree(join(tmp.path, 'gen-1')));

    // A daily package: two revised articles, two new ones, one withdrawal.
    await generateIncrementPackage({ dir, seed, revised, added, withdrawn: [withdrawn] });
    const p3 = logProgress();
    const m3 = await build(snap, join(tmp.path, 'gen-3'), { cacheDir, progress: p3 });
    expect(cacheLine(p3)).toContain(`cache: ${n} reused, 4 extracted, 2 of 3 packages not reread`);
    expect(m3).toMatchObject({ input_packages: 3, articles: n + 2 - 1, duplicate_articles: 2, deleted_articles: 1 });

    // The same inputs built without a cache: every file the same.
    const full = join(tmp.path, 'gen-full');
    await build(snap, full);
    expect(tree(join(tmp.path, 'gen-3'))).toEqual(tree(full));

    // The revised copy (dated later in its file list) is the one kept; the withdrawn article is gone.
    const report = doc(full, CORPUS_REPORT_FILE);
    expect(report.deleted).toEqual([{ id: withdrawn, list: 'oa_comm.withdrawn.2026-01-02.txt', found: true }]);
    expect(report.duplicates.map((d: { package: string; kept_package: string }) => [d.package, d.kept_package])).toEqual([
      ['oa_comm_xml.PMC000xxxxxx.baseline.2026-01-01.tar.gz', 'oa_comm_xml.incr.2026-01-02.tar.gz'],
      ['oa_comm_xml.PMC001xxxxxx.baseline.2026-01-01.tar.gz', 'oa_comm_xml.incr.2026-01-02.tar.gz'],
    ]);
    expect(existsSync(join(full, `corpus/api/v1/articles/${withdrawn}.json`))).toBe(false);
    const revisedId = generateArticle(seed, 3, 0).truth.pmcid;
    const id3 = revisedId ?? report.duplicates[0].id;
    const a3 = articleDocSchema.parse(doc(full, `corpus/api/v1/articles/${id3}.json`));
    expect(a3.excerpts.some((e) => e.section_title === 'Erratum')).toBe(true);
    expect(statsDocSchema.parse(doc(full, 'corpus/api/v1/stats.json')).articles_scanned).toBe(n + 1);
  });

  it.skipIf(!haveOtte)('re-extracts everything under another lexicon (the lexicon is part of the key)', async () => {
    const p = logProgress();
    const m = await build(snap, join(tmp.path, 'gen-otte'), { cacheDir, progress: p, lexiconPath: OTTE });
    const articlesRead = n + 2 + revised.length; // every copy, duplicates included
    expect(cacheLine(p)).toContain(`cache: 0 reused, ${articlesRead} extracted`);
    expect(m.lexicon.source).toBe('phrases_505.csv');
  });
});

describe("each package's own file list (PMC's incremental members share the baseline's paths)", () => {
  const seed = 8;
  const baseline = 'oa_comm_xml.PMC002xxxxxx.baseline.2026-01-01.tar.gz';
  const incr = 'oa_comm_xml.incr.2026-01-02.tar.gz';
  const HEADER = 'Article File,Article Citation,AccessionID,LastUpdated (YYYY-MM-DD HH:MM:SS),PMID,License,Retracted\n';
  /** Generated article i without its PMID and licence, so the file lists fill them in; `revised`: PMC's revision. */
  function bare(i: number, revised = false) {
    const a = generateArticle(seed, i, 0);
    let xml = a.xml.replace(/<article-id pub-id-type="pmid">[^<]*<\/article-id>/, '').replace(/<license[\s>][\s\S]*?<\/license>/, '');
    if (revised) xml = reviseArticleXml(xml, i);
    return { id: a.truth.pmcid!, member: `PMC002xxxxxx/${a.file.replace(/\.gz$/, '')}`, loose: a.file.replace(/\.gz$/, ''), xml };
  }
  const a0 = bare(0);
  const a1 = bare(1);
  const a2 = bare(2);
  const a3 = bare(3);
  const a1revised = bare(1, true);
  const row = (member: string, id: string, date: string, pmid: string, licence: string) => `${member},"J. 2026",${id},${date},${pmid},${licence},no\n`;

  beforeAll(async () => {
    for (const a of [a0, a1, a2, a3, a1revised]) {
      expect(a.id).toMatch(/^PMC\d+$/);
      expect(a.xml).not.toMatch(/<license[\s>]|pub-id-type="pmid"/);
    }
    const dir = corpusDir('own-lists');
    // Article 2 is a loose file; 0, 1 and 3 are in the baseline; the daily package revises 1 under the same path.
    writeFileSync(join(dir, a2.loose), a2.xml);
    await writeTarGz(
      join(dir, baseline),
      [a0, a1, a3].map((a): [string, string] => [a.member, a.xml]),
    );
    await writeTarGz(join(dir, incr), [[a1revised.member, a1revised.xml]]);
    // The baseline's list does not name article 3 (left to the global list).
    writeFileSync(
      join(dir, baseline.replace('.tar.gz', '.filelist.csv')),
      HEADER + row(a0.member, a0.id, '2026-01-01 00:00:00', '11111110', 'CC BY-NC') + row(a1.member, a1.id, '2026-01-01 00:00:00', '11111111', 'CC BY-NC'),
    );
    writeFileSync(join(dir, incr.replace('.tar.gz', '.filelist.csv')), HEADER + row(a1.member, a1.id, '2026-01-02 00:00:00', '22222221', 'CC0'));
    // The old global list (read after the packages' lists by name): loose files and members their own list misses.
    writeFileSync(
      join(dir, 'oa_file_list.csv'),
      'File,Article Citation,Accession ID,Last Updated (YYYY-MM-DD HH:MM:SS),PMID,License\n' +
        [
          row(a0.member, a0.id, '2026-01-01 00:00:00', '44444440', 'CC BY-ND'),
          row(a2.loose, a2.id, '2026-01-01 00:00:00', '44444442', 'CC BY-SA'),
          row(a3.member, a3.id, '2026-01-01 00:00:00', '44444443', 'CC BY-ND'),
        ]
          .map((l) => l.replace(/,no\n$/, '\n'))
          .join(''),
    );
  });

  const article = (out: string, id: string) => articleDocSchema.parse(doc(out, `corpus/api/v1/articles/${id}.json`));

  it("keeps the revised copy with its own list's PMID, licence and date, and reports the baseline copy as the loser", async () => {
    const out = join(tmp.path, 'own-lists-out');
    const m = await build(join(tmp.path, 'own-lists'), out);
    expect(m).toMatchObject({ articles: 4, duplicate_articles: 1, skipped_files: 0 });
    expect(doc(out, CORPUS_REPORT_FILE).duplicates).toEqual([{ package: baseline, file: a1.member, id: a1.id, kept_package: incr, kept_file: a1.member }]);
    const kept = article(out, a1.id);
    expect(kept.excerpts.some((e) => e.section_title === 'Erratum')).toBe(true);
    expect(kept).toMatchObject({ pmid: '22222221', licence: { url: null, type: 'CC0' } });
    // Own list first, then the global lists: for a member both name, its own; otherwise the global one.
    expect(article(out, a0.id)).toMatchObject({ pmid: '11111110', licence: { url: null, type: 'CC BY-NC' } });
    expect(article(out, a3.id)).toMatchObject({ pmid: '44444443', licence: { url: null, type: 'CC BY-ND' } });
    expect(article(out, a2.id)).toMatchObject({ pmid: '44444442', licence: { url: null, type: 'CC BY-SA' } });
  });

  it('reads the same from the extraction cache (the packages not reread) as without it', async () => {
    const cacheDir = join(tmp.path, 'own-lists-cache');
    const p = logProgress();
    await build(join(tmp.path, 'own-lists'), join(tmp.path, 'own-lists-c1'), { cacheDir });
    await build(join(tmp.path, 'own-lists'), join(tmp.path, 'own-lists-c2'), { cacheDir, progress: p });
    expect(cacheLine(p)).toContain('2 of 2 packages not reread');
    const full = tree(join(tmp.path, 'own-lists-out'));
    expect(tree(join(tmp.path, 'own-lists-c1'))).toEqual(full);
    expect(tree(join(tmp.path, 'own-lists-c2'))).toEqual(full);
  });
});

describe('a failed run', () => {
  it('names a file list without the needed columns', async () => {
    const dir = corpusDir('bad-list');
    await writeTarGz(join(dir, 'a.tar.gz'), [['x/PMC1.xml', '<article/>']]);
    writeFileSync(join(dir, 'a.filelist.csv'), 'name,when\nx/PMC1.xml,today\n');
    await expect(build(join(tmp.path, 'bad-list'), join(tmp.path, 'bad-list-out'))).rejects.toThrow(/a\.filelist\.csv: not a PMC file list/);
  });

  it('leaves the previous build served when no package can be read', async () => {
    const snapshot = await fixtureSnapshot(tmp.path, { name: 'fails', works: 500, articles: 0 });
    const out = join(tmp.path, 'fails-out');
    await fixtureBuild(snapshot, out, false);
    const before = currentManifest(out);
    mkdirSync(join(snapshot, 'corpus'));
    writeFileSync(join(snapshot, 'corpus', 'oa_comm_xml.incr.2026-01-02.tar.gz'), 'not a gzip stream');
    await expect(runPipeline({ snapshot, out, workFiles: false, threads: 0, keep: 2, progress: silentProgress })).rejects.toThrow(
      /none of the 1 files could be read/,
    );
    expect(currentManifest(out)).toEqual(before);
  });
});
