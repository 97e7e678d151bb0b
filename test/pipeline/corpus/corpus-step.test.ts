/**
 * The corpus step of the pipeline: inputs (JATS files, the pre-extracted CSV pair, stray files, broken and
 * duplicate articles), the database it writes, `--lexicon`, `--if-stale` and the committed sample corpus.
 */
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_DB_FILE } from '../../../contracts/corpus/database.ts';
import { articleDocSchema, statsDocSchema } from '../../../contracts/corpus/documents.ts';
import { currentManifest, isUpToDate, runPipeline } from '../../../pipeline/build.ts';
import { generateCorpus } from '../../../pipeline/generate/corpus/generate.ts';
import { silentProgress } from '../../../pipeline/lib/progress.ts';
import { buildCorpus, CORPUS_REPORT_FILE } from '../../../pipeline/steps/corpus/corpus.ts';
import { CorpusData } from '../../../api-dynamic/src/services/corpus/corpus-data.ts';
import { parseExcerptQuery } from '../../../contracts/corpus/excerpts-query.ts';
import { fixtureBuild, fixtureSnapshot, tempDir } from '../../helpers/fixture-build.ts';
import { needShared, sharedPath } from '../../helpers/needs.ts';

const tmp = tempDir('corpus-step');
const OTTE = sharedPath('reference/hedged/otte2022/detect_phrases/phrases_505.csv');
const SAMPLE = join(import.meta.dirname, '../../../snapshots/sample');

/** A snapshot directory holding only a corpus (buildCorpus reads nothing else). */
function corpusSnapshot(name: string): string {
  const dir = join(tmp.path, name);
  mkdirSync(join(dir, 'corpus'), { recursive: true });
  return dir;
}
const doc = (out: string, path: string) => JSON.parse(readFileSync(join(out, path), 'utf8'));
const build = (snapshot: string, out: string, lexiconPath?: string) =>
  buildCorpus({ snapshot, out, snapshotId: 'test', synthetic: true, progress: silentProgress, ...(lexiconPath ? { lexiconPath } : {}) });

let generated = '';
beforeAll(async () => {
  generated = join(tmp.path, 'generated');
  await generateCorpus({ dir: generated, articles: 40, seed: 3, progress: silentProgress });
});
afterAll(tmp.remove);

describe('JATS input', () => {
  it('skips and reports a broken file, keeps the first of two copies of one paper, ignores other files', async () => {
    const snap = corpusSnapshot('messy');
    const files = readdirSync(generated)
      .filter((f) => f !== 'ground-truth.json')
      .sort();
    for (const f of files.slice(0, 5)) copyFileSync(join(generated, f), join(snap, 'corpus', f));
    // The same paper again under another name (PMC dumps ship .nxml and .xml of one article).
    const twin = files.find((f) => f.startsWith('PMC') && f.endsWith('.nxml'))!;
    copyFileSync(join(generated, twin), join(snap, 'corpus', `zz-${twin.replace('.nxml', '.xml')}`));
    writeFileSync(join(snap, 'corpus', 'broken.xml'), '<not-an-article>hello</not-an-article>');
    writeFileSync(join(snap, 'corpus', 'README.txt'), 'notes');
    const out = join(tmp.path, 'messy-out');
    const m = await build(snap, out);
    expect(m).toMatchObject({ input: 'jats', input_files: 7, articles: 5, skipped_files: 1, duplicate_articles: 1 });
    const report = doc(out, CORPUS_REPORT_FILE);
    expect(report.skipped).toEqual([{ package: null, file: 'broken.xml', reason: expect.any(String) }]);
    expect(report.duplicates).toEqual([
      { package: null, file: `zz-${twin.replace('.nxml', '.xml')}`, id: twin.replace('.nxml', ''), kept_package: null, kept_file: twin },
    ]);
    expect(statsDocSchema.parse(doc(out, 'corpus/api/v1/stats.json')).articles_scanned).toBe(5);
  });

  it('fails when no file of a non-empty input can be read', async () => {
    const snap = corpusSnapshot('all-broken');
    writeFileSync(join(snap, 'corpus', 'a.xml'), 'nope');
    await expect(build(snap, join(tmp.path, 'all-broken-out'))).rejects.toThrow(/none of the 1 files/);
  });

  it('builds an empty corpus when the snapshot has none', async () => {
    const snap = join(tmp.path, 'no-corpus');
    mkdirSync(snap);
    const out = join(tmp.path, 'no-corpus-out');
    expect(await build(snap, out)).toMatchObject({ input: 'none', fingerprint: 'none', articles: 0 });
    const stats = statsDocSchema.parse(doc(out, 'corpus/api/v1/stats.json'));
    expect(stats).toMatchObject({ articles_scanned: 0, excerpts: 0, median_p: null });
    const corpus = (await CorpusData.open(out))!;
    expect(corpus.listExcerpts(parseExcerptQuery('/x', corpus.phrases)).meta.total).toBe(0);
    corpus.close();
  });
});

describe('the pre-extracted CSV input', () => {
  const papers =
    'paper_id,pmcid,pmid,doi,title,journal,year,authors,licence_url\n' +
    'a,PMC42,,10.1/a,Trial A,J One,2020,Roe Jane; Doe John,https://creativecommons.org/licenses/by/4.0/\n' +
    'b,,,10.1/B,Trial B,J Two,2019,,\n' +
    // Two different untitled papers without PMCID or DOI: two articles, not one "duplicate".
    'c,,,,,,,,\n' +
    'd,,,,,,,,\n';
  const sentences =
    'paper_id,section,section_title,paragraph,text\n' +
    'a,abstract,Results,0,"Mortality showed a trend toward significance (p = 0.07)."\n' +
    'a,body,Results,3,Nothing to see here.\n' +
    'a,body,Results,3,"Mortality showed a trend toward significance (p = 0.07)."\n' +
    'a,body,Results,3,"The effect was marginally significant (P < 0.01)."\n' +
    'b,body,,0,"Pain scores were marginally lower (p = .09)."\n' +
    'c,body,,0,"Sleep was marginally better (p = 0.06)."\n' +
    'd,body,,0,"Mood \u0001was marginally better\u0002 (p = 0.07)."\n';

  it('runs the same analysis over given sentences, with de-duplication and generated ids', async () => {
    const snap = corpusSnapshot('csv');
    writeFileSync(join(snap, 'corpus', 'papers.csv'), papers);
    writeFileSync(join(snap, 'corpus', 'sentences.csv'), sentences);
    const out = join(tmp.path, 'csv-out');
    expect(await build(snap, out)).toMatchObject({ input: 'csv', articles: 4, generated_ids: 3, duplicate_articles: 0 });
    const a = articleDocSchema.parse(doc(out, 'corpus/api/v1/articles/PMC42.json'));
    expect(a.authors).toEqual(['Roe Jane', 'Doe John']);
    expect(a.sentences_scanned).toBe(4);
    expect(a.excerpts.map((e) => [e.section, e.paragraph, e.sentence, e.also_in, e.occurrences[0]!.status, e.occurrences[0]!.band])).toEqual([
      ['abstract', 0, 0, ['body'], 'verified', '0.06-0.08'],
      ['body', 3, 2, [], 'rejected', null],
    ]);
    const stats = statsDocSchema.parse(doc(out, 'corpus/api/v1/stats.json'));
    expect(stats).toMatchObject({ articles_scanned: 4, articles_without_pmcid: 3, excerpts: 4, median_p: 0.07 });
    // Control characters never reach the database (they would break FTS5 highlight markers).
    const corpus = (await CorpusData.open(out))!;
    const hit = corpus.listExcerpts(parseExcerptQuery('/x?q=mood', corpus.phrases)).results[0]!;
    expect(hit.text).toBe('Mood was marginally better (p = 0.07).');
    expect(hit.highlights.map((r) => hit.text.slice(r.start, r.end))).toEqual(['Mood']);
    corpus.close();
    // Stable: with a DOI the id is the DOI's (lower-cased) hash, whatever the file or row order.
    expect(readdirSync(join(out, 'corpus/api/v1/articles'))).toContain(
      `nopmc-${(await import('node:crypto')).createHash('sha256').update('doi:10.1/b').digest('hex').slice(0, 12)}.json`,
    );
  });

  it('names the file, line and column of a bad row', async () => {
    const snap = corpusSnapshot('csv-bad');
    writeFileSync(join(snap, 'corpus', 'papers.csv'), papers.replace('2019', 'nineteen'));
    writeFileSync(join(snap, 'corpus', 'sentences.csv'), sentences);
    await expect(build(snap, join(tmp.path, 'csv-bad-out'))).rejects.toThrow('papers.csv:3 — year: must be a four-digit year or empty');
    writeFileSync(join(snap, 'corpus', 'papers.csv'), papers);
    writeFileSync(join(snap, 'corpus', 'sentences.csv'), sentences.replace('b,body', 'b,methods'));
    await expect(build(snap, join(tmp.path, 'csv-bad-out'))).rejects.toThrow(/sentences\.csv:6 — section/);
    writeFileSync(join(snap, 'corpus', 'sentences.csv'), sentences.replace('b,body', 'z,body'));
    await expect(build(snap, join(tmp.path, 'csv-bad-out'))).rejects.toThrow('paper_id "z" is not in papers.csv');
  });
});

describe.skipIf(!needShared('reference/hedged/otte2022/detect_phrases/phrases_505.csv', 'the --lexicon tests'))('--lexicon', () => {
  it('builds with an Otte-format CSV lexicon and records it', async () => {
    const snap = corpusSnapshot('otte');
    cpSync(generated, join(snap, 'corpus'), { recursive: true });
    const out = join(tmp.path, 'otte-out');
    const m = await build(snap, out, OTTE);
    expect(m.lexicon.version).toMatch(/^otte-csv-[0-9a-f]{12}$/);
    expect(m.lexicon.source).toBe('phrases_505.csv');
    const corpus = (await CorpusData.open(out))!;
    expect(corpus.phrases.length).toBe(503);
    expect(corpus.lexiconVersion).toBe(m.lexicon.version);
    corpus.close();
  });
});

describe('the pipeline with a corpus', () => {
  it('publishes the corpus with the build, and --if-stale notices a changed article or lexicon', async () => {
    const snapshot = await fixtureSnapshot(tmp.path, { name: 'full', works: 500, articles: 12 });
    const out = join(tmp.path, 'full-out');
    await fixtureBuild(snapshot, out, false);
    const manifest = currentManifest(out)!;
    expect(manifest.corpus).toMatchObject({ input: 'jats', input_files: 12, articles: 12 });
    expect(manifest.files[CORPUS_DB_FILE]).toBeDefined();
    expect(manifest.files['corpus/api/v1/stats.json']).toBeDefined();
    expect(isUpToDate(snapshot, out)).toBe(true);
    const lexicon = join(import.meta.dirname, '../../../pipeline/corpus/lexicon/hedging-v1.json');
    const copy = join(tmp.path, 'lexicon-copy.json');
    writeFileSync(copy, readFileSync(lexicon, 'utf8').replace('"description": "', '"description": "changed: '));
    expect(isUpToDate(snapshot, out, copy)).toBe(false);
    const first = readdirSync(join(snapshot, 'corpus')).find((f) => f.endsWith('.nxml'))!;
    writeFileSync(join(snapshot, 'corpus', first), readFileSync(join(snapshot, 'corpus', first), 'utf8').replace('</body>', '<p>More.</p></body>'));
    expect(isUpToDate(snapshot, out)).toBe(false);
  });

  it('leaves the previous build untouched when the corpus fails', async () => {
    const snapshot = await fixtureSnapshot(tmp.path, { name: 'fails', works: 500, articles: 0 });
    const out = join(tmp.path, 'fails-out');
    await fixtureBuild(snapshot, out, false);
    const before = currentManifest(out);
    mkdirSync(join(snapshot, 'corpus'));
    writeFileSync(join(snapshot, 'corpus', 'papers.csv'), 'paper_id\n');
    await expect(runPipeline({ snapshot, out, workFiles: false, threads: 0, keep: 2, progress: silentProgress })).rejects.toThrow(
      /papers\.csv and sentences\.csv/,
    );
    expect(currentManifest(out)).toEqual(before);
  });
});

describe('the committed sample corpus', () => {
  it('is what the generator writes for 300 articles with the default seed, byte for byte', async () => {
    const out = join(tmp.path, 'sample-corpus');
    await generateCorpus({ dir: out, articles: 300, seed: 20260701, progress: silentProgress });
    const committed = readdirSync(join(SAMPLE, 'corpus')).sort();
    expect(readdirSync(out).sort()).toEqual(committed);
    for (const f of committed) expect(readFileSync(join(out, f)).equals(readFileSync(join(SAMPLE, 'corpus', f))), f).toBe(true);
  });
});

describe('article ids', () => {
  it('one rule for PMCIDs: prefix, case, spaces and leading zeros; PMC0 is none', async () => {
    const { canonicalArticleId, normalisePmcid, ARTICLE_ID_PATTERN } = await import('../../../contracts/corpus/article-id.ts');
    for (const raw of ['PMC123', 'pmc123', '123', ' PMC 0123 ']) expect(normalisePmcid(raw), raw).toBe('PMC123');
    for (const raw of ['0', 'PMC0', 'PMC', 'PMC12a', '', '12345678901']) expect(normalisePmcid(raw), raw).toBeNull();
    expect(canonicalArticleId('NOPMC-0123456789AB')).toBe('nopmc-0123456789ab');
    const pattern = new RegExp(ARTICLE_ID_PATTERN);
    for (const raw of ['PMC123', 'pmc0123', '123', 'NOPMC-0123456789ab']) expect(pattern.test(raw), raw).toBe(canonicalArticleId(raw) !== null);
    for (const raw of ['PMC0', 'W1', 'nopmc-0123']) expect(pattern.test(raw), raw).toBe(false);
  });
});

describe('sentences with several occurrences (the excerpt list over a CSV corpus)', () => {
  it('needs one occurrence to pass every filter, and keys p orders on the occurrences listed', async () => {
    const snap = corpusSnapshot('multi');
    writeFileSync(join(snap, 'corpus', 'papers.csv'), 'paper_id,pmcid,pmid,doi,title,journal,year,authors,licence_url\na,PMC7,,,A,J,2020,,\n');
    writeFileSync(
      join(snap, 'corpus', 'sentences.csv'),
      'paper_id,section,section_title,paragraph,text\n' +
        'a,body,,0,"Anxiety was marginally significant (p = 0.01), while sleep showed a trend toward significance (p = 0.09)."\n' +
        'a,body,,1,"Mood was marginally significant (p = 0.06)."\n' +
        'a,body,,2,"Pain was marginally significant (p = 0.08)."\n',
    );
    const out = join(tmp.path, 'multi-out');
    await build(snap, out);
    const corpus = (await CorpusData.open(out))!;
    const ids = (q: string) => corpus.listExcerpts(parseExcerptQuery(`/x?${q}`, corpus.phrases)).results.map((e) => e.id);
    try {
      // Default listing (verified): the first sentence's key is its verified p = 0.09, not the rejected 0.01.
      expect(ids('sort=p_asc')).toEqual(['PMC7/1.0', 'PMC7/2.0', 'PMC7/0.0']);
      expect(ids('sort=p_desc')).toEqual(['PMC7/0.0', 'PMC7/2.0', 'PMC7/1.0']);
      // With rejected occurrences listed too, the rejected p counts.
      expect(ids('sort=p_asc&status=verified&status=rejected')).toEqual(['PMC7/0.0', 'PMC7/1.0', 'PMC7/2.0']);
      // "marginally significant" is rejected in the first sentence, and its 0.08-0.10 occurrence is another phrase.
      expect(ids('phrase=marginally%20significant&band=0.08-0.10')).toEqual(['PMC7/2.0']);
      expect(ids('phrase=marginally%20significant&status=rejected')).toEqual(['PMC7/0.0']);
      expect(ids('phrase=a%20trend%20toward%20significance')).toEqual(['PMC7/0.0']);
      expect(ids('band=0.08-0.10&status=rejected')).toEqual([]);
    } finally {
      corpus.close();
    }
  });
});
