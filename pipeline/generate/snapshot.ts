/**
 * Writes a complete synthetic frame snapshot of any size: eleven CSV tables, the findings file, the predictions
 * report and the manifest. Deterministic: the same options give byte-identical files, whatever the number of
 * threads. Written into a temporary directory and renamed into place, so a failed run leaves nothing half-made.
 */
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { stablePretty } from '../../contracts/common/stable-json.ts';
import { type SnapshotManifest, TABLES, type TableName } from '../../contracts/frame/snapshot.ts';
import { SCREEN_MODELS, STRATA } from '../../contracts/frame/vocab.ts';
import { CsvFileWriter, csvCell } from '../lib/csv-writer.ts';
import type { Progress } from '../lib/progress.ts';
import { spawnTsWorker } from '../lib/spawn-ts-worker.ts';
import { canadianFunders, canadianSources, type ListEntry } from './canadian-lists.ts';
import { type FrameTally, findingsDocument, predictionsReport } from './documents.ts';
import {
  authorIdOf,
  bibliographic,
  bibliographicCells,
  FLAG_ABOUT,
  FLAG_ABSTRACT,
  FLAG_AFF,
  FLAG_FUND,
  FLAG_META,
  FLAG_VENUE,
  type GenerateOptions,
  generateRange,
  hash32,
  plan,
  RANGE_FILES,
  type RangeResult,
  STREAM,
  Tables,
  workIdOf,
} from './frame-range.ts';
import { SCREEN_IN_SCOPE, STRATUM_ALLOCATION } from './model.ts';
import { Rng } from './prng.ts';
import { personName, TITLE_HEAD } from './words.ts';
import { swapIntoPlace } from '../lib/swap-dir.ts';

/** 2: the pinned Canadian funder and source lists (canadian_funders.csv, canadian_sources.csv). */
export const GENERATOR_VERSION = '2';

export interface SnapshotOptions extends GenerateOptions {
  out: string;
  name: string;
  releaseDate: string;
  buildDate: string;
  /** Worker threads for the per-work pass; 1 runs in this thread. */
  threads: number;
  progress: Progress;
}

const header = (t: TableName) => TABLES[t].columns.map((c) => c.name);

async function runRanges(o: SnapshotOptions, dir: string): Promise<RangeResult[]> {
  const n = o.works;
  const threads = Math.max(1, Math.min(o.threads, Math.ceil(n / 50_000)));
  const bounds = Array.from({ length: threads + 1 }, (_, k) => Math.round((n * k) / threads));
  const done = new Array(threads).fill(0);
  o.progress.start('generate works', n);
  const report = (k: number, d: number) => {
    done[k] = d;
    o.progress.update(done.reduce((a, b) => a + b, 0));
  };
  const parts = bounds.slice(0, -1).map((start, k) => {
    const partDir = join(dir, `.part-${k}`);
    mkdirSync(partDir, { recursive: true });
    const end = bounds[k + 1]!;
    const opts: GenerateOptions = { seed: o.seed, works: o.works };
    if (threads === 1) return Promise.resolve(generateRange(opts, start, end, partDir, (d) => report(k, d)));
    return new Promise<RangeResult>((resolve, reject) => {
      const worker = spawnTsWorker(new URL('./worker.ts', import.meta.url), {
        options: opts,
        start,
        end,
        dir: partDir,
      });
      worker.on('message', (m: { progress?: number; result?: RangeResult }) => {
        if (m.progress !== undefined) report(k, m.progress);
        if (m.result) resolve(m.result);
      });
      worker.on('error', reject);
      worker.on('exit', (code) => code !== 0 && reject(new Error(`generator thread ${k} exited with ${code}`)));
    });
  });
  const results = await Promise.all(parts);
  o.progress.stop();
  return results;
}

/** Concatenates the part files of one table behind its header. */
function concatenate(dir: string, table: TableName, parts: number): CsvFileWriter {
  const w = new CsvFileWriter(join(dir, TABLES[table].file), header(table));
  const buf = Buffer.allocUnsafe(8 << 20);
  for (let k = 0; k < parts; k++) {
    const path = join(dir, `.part-${k}`, `${table}.part`);
    const fd = openSync(path, 'r');
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      w.raw(buf.subarray(0, n));
    }
    closeSync(fd);
  }
  return w;
}

const GENRE_RAW = [
  'empirical',
  'conceptual',
  'editorial/commentary',
  'policy',
  'infrastructure/announcement',
  'review',
  'methods',
  'commentary',
  'protocol',
  'dataset',
  'other',
];

function sentence(rng: Rng, words: number): string {
  const out: string[] = [];
  for (let k = 0; k < words; k++) out.push(TITLE_HEAD[rng.int(TITLE_HEAD.length)]!);
  return `${out.join(' ').replace(/^./, (c) => c.toUpperCase())}.`;
}

/** Draws the stratified screen and writes screened.csv; returns the n_in histogram. */
function writeScreen(o: SnapshotOptions, dir: string, flags: Uint16Array): { rows: number; nIn: number[] } & ReturnType<CsvFileWriter['close']> {
  const n = o.works;
  const size = Math.min(5_600, Math.max(200, Math.floor(n * 0.05)));
  const members: number[][] = STRATA.map(() => []);
  for (let i = 0; i < n; i++) members[(flags[i]! >> 2) & 7]!.push(i);
  const picked: { i: number; s: number; weight: number; pop: number }[] = [];
  STRATA.forEach((stratum, s) => {
    const pool = members[s]!;
    const k = Math.min(pool.length, Math.round((size * STRATUM_ALLOCATION[stratum]) / 5_600));
    const rng = new Rng(o.seed, STREAM.sample, s);
    for (let j = 0; j < k; j++) {
      const r = j + rng.int(pool.length - j);
      [pool[j], pool[r]] = [pool[r]!, pool[j]!];
      picked.push({ i: pool[j]!, s, weight: pool.length / k, pop: pool.length });
    }
  });
  picked.sort((a, b) => a.i - b.i);
  const w = new CsvFileWriter(join(dir, TABLES.screened.file), header('screened'));
  const nIn = [0, 0, 0, 0];
  for (const { i, s, weight, pop } of picked) {
    const rng = new Rng(o.seed, STREAM.screen, i);
    const f = flags[i]!;
    const meta = (f & FLAG_META) !== 0;
    const models = SCREEN_MODELS.map((_, m) => {
      const inScope = rng.chance(meta ? SCREEN_IN_SCOPE.latent[m]! : SCREEN_IN_SCOPE.other[m]!);
      const tier = inScope ? (rng.chance(0.5) ? 'T1' : 'T2') : rng.chance(0.1) ? 'T3' : 'OUT';
      const reason = `${tier === 'OUT' ? 'Not research on research' : 'Studies research practice'}, judged from title${f & FLAG_ABSTRACT ? ' and abstract' : ' only'}: ${sentence(rng, 6)}`;
      return {
        inScope,
        cells: [
          tier,
          rng.pick(GENRE_RAW),
          String(((f & FLAG_ABOUT) !== 0 && rng.chance(0.9)) || rng.chance(0.03)),
          rng.pick(['high', 'medium', 'low']),
          csvCell(reason),
        ],
      };
    });
    const count = models.filter((m) => m.inScope).length;
    nIn[count]!++;
    const abstract = f & FLAG_ABSTRACT ? `${sentence(rng, 20)} ${sentence(rng, 15)}` : '';
    w.line([workIdOf(i), STRATA[s], pop, String(Number(weight.toFixed(6))), csvCell(abstract), count, ...models.flatMap((m) => m.cells)].join(','));
  }
  return { rows: w.rows, nIn, ...w.close() };
}

function writeAuthors(o: SnapshotOptions, dir: string, used: Uint8Array) {
  const w = new CsvFileWriter(join(dir, TABLES.authors.file), header('authors'));
  for (let k = 0; k < used.length; k++) {
    if (!used[k]) continue;
    const rng = new Rng(o.seed, STREAM.author, k);
    const orcid = rng.chance(0.4)
      ? `0000-000${rng.int(3)}-${String(rng.int(10_000)).padStart(4, '0')}-${String(rng.int(1_000)).padStart(3, '0')}${rng.pick(['0', '1', '5', 'X'])}`
      : '';
    w.line(`${authorIdOf(k)},${csvCell(personName(k, rng))},${orcid}`);
  }
  return { rows: w.rows, ...w.close() };
}

function writeRecent(o: SnapshotOptions, dir: string) {
  const count = Math.min(5_000, Math.max(200, Math.round(o.works * 0.002)));
  const p = plan(o.works);
  const t = new Tables({ seed: o.seed, works: o.works }, p);
  const end = Date.parse(`${o.buildDate}T00:00:00Z`);
  const rows: { date: string; line: string }[] = [];
  for (let r = 0; r < count; r++) {
    const rng = new Rng(o.seed, STREAM.recent, r);
    const date = new Date(end - rng.int(30) * 86_400_000).toISOString().slice(0, 10);
    const b = bibliographic(rng, t, p.retractRate, Number(date.slice(0, 4)));
    b.cited_by = rng.int(4);
    const pmid = rng.chance(0.3) ? String(38_000_000 + r * 3) : '';
    const pmcid = rng.chance(0.2) ? `PMC${11_000_000 + r * 5}` : '';
    rows.push({
      date,
      line: `W${4_100_000_000 + r * 17 + (hash32(r + 5) % 17)},${date},${bibliographicCells(b)},${pmid},${pmcid}`,
    });
  }
  const w = new CsvFileWriter(join(dir, TABLES.recent_works.file), header('recent_works'));
  for (const row of rows) w.line(row.line);
  return { rows: w.rows, ...w.close() };
}

/** Writes one of the pinned lists (id, name), in id order. */
function writeList(dir: string, table: 'canadian_funders' | 'canadian_sources', entries: ListEntry[]) {
  const w = new CsvFileWriter(join(dir, TABLES[table].file), header(table));
  for (const e of entries) w.line(`${e.id},${csvCell(e.name)}`);
  return { file: TABLES[table].file, rows: w.rows, ...w.close() };
}

function writeJson(dir: string, file: string, value: unknown) {
  const text = stablePretty(value);
  writeFileSync(join(dir, file), text);
  return { file, bytes: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') };
}

/** Generates the snapshot into `o.out` (replacing it only once the new one is complete). */
export async function generateSnapshot(o: SnapshotOptions): Promise<SnapshotManifest> {
  const started = performance.now();
  const tmp = `${o.out}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    // Phase 1: every per-work table, in ranges (threads), then concatenated behind their headers.
    const results = await runRanges(o, tmp);
    const flags = new Uint16Array(o.works);
    const authorUsed = new Uint8Array(results[0]!.authorUsed.length);
    let offset = 0;
    const counts = { candidate: new Array(9).fill(0), consensus: new Array(9).fill(0) };
    for (const r of results) {
      flags.set(r.flags, offset);
      offset += r.flags.length;
      for (let k = 0; k < authorUsed.length; k++) authorUsed[k]! |= r.authorUsed[k]!;
      for (const [k, v] of r.counts.candidate.entries()) counts.candidate[k] += v;
      for (const [k, v] of r.counts.consensus.entries()) counts.consensus[k] += v;
    }
    o.progress.log('concatenating tables');
    const tables: Partial<SnapshotManifest['tables']> = {};
    for (const t of RANGE_FILES) {
      const rows = results.reduce((sum, r) => sum + r.rows[t], 0);
      const w = concatenate(tmp, t, results.length);
      tables[t] = { file: TABLES[t].file, rows, ...w.close() };
    }
    for (let k = 0; k < results.length; k++) rmSync(join(tmp, `.part-${k}`), { recursive: true });

    // Phase 2: tables that need the whole frame: the stratified screen and the authors actually used; then
    // the recent layer and the pinned Canadian lists (pure functions of their index: no draws).
    o.progress.log('drawing the screen, writing authors, the recent layer and the pinned Canadian lists');
    const screen = writeScreen(o, tmp, flags);
    tables.screened = {
      file: TABLES.screened.file,
      rows: screen.rows,
      bytes: screen.bytes,
      sha256: screen.sha256,
    };
    tables.authors = { file: TABLES.authors.file, ...writeAuthors(o, tmp, authorUsed) };
    tables.recent_works = { file: TABLES.recent_works.file, ...writeRecent(o, tmp) };
    tables.canadian_funders = writeList(tmp, 'canadian_funders', canadianFunders());
    tables.canadian_sources = writeList(tmp, 'canadian_sources', canadianSources());

    // Phase 3: documents and manifest.
    const tally = tallyOf(o, flags, screen.nIn);
    const at = `${o.buildDate}T00:00:00Z`;
    const documents = {
      findings: writeJson(tmp, 'findings.json', findingsDocument(tally, at)),
      predictions_report: writeJson(tmp, 'predictions-report.json', predictionsReport(o.works, counts, tables.predictions!.sha256, at, o.seed)),
    };
    const manifest: SnapshotManifest = {
      name: o.name,
      title: `Synthetic Canadian-relevance frame of ${o.works} works (generated)`,
      source: 'Generated by pipeline/generate (seeded); marginals follow the published OpenAlex-based frame summary',
      licence: 'CC-BY-4.0',
      release_date: o.releaseDate,
      build_date: o.buildDate,
      author_layer_release: o.releaseDate,
      synthetic: true,
      generator: { name: 'pipeline/generate', version: GENERATOR_VERSION, seed: o.seed, works: o.works },
      tables: tables as SnapshotManifest['tables'],
      documents,
    };
    writeFileSync(join(tmp, 'manifest.json'), stablePretty(manifest));

    // Swap into place.
    swapIntoPlace(tmp, o.out);
    o.progress.log(`snapshot ${o.name}: ${o.works} works written to ${o.out} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return manifest;
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

function tallyOf(o: SnapshotOptions, flags: Uint16Array, nIn: number[]): FrameTally {
  const tally: FrameTally = {
    works: o.works,
    aff: 0,
    fund: 0,
    venue: 0,
    about: 0,
    noAbstract: 0,
    french: 0,
    screened: 0,
    nIn,
  };
  for (let i = 0; i < o.works; i++) {
    const f = flags[i]!;
    if (f & FLAG_AFF) tally.aff++;
    if (f & FLAG_FUND) tally.fund++;
    if (f & FLAG_VENUE) tally.venue++;
    if (f & FLAG_ABOUT) tally.about++;
    if ((f & FLAG_ABSTRACT) === 0) tally.noAbstract++;
    if (((f >> 2) & 7) === 0) tally.french++;
  }
  tally.screened = nIn.reduce((a, b) => a + b, 0);
  return tally;
}
