/**
 * Runs the pipeline: snapshot → build-output. Steps, in order:
 *   1. validate the snapshot (manifest, checksums, every row)             steps/frame/validate.ts
 *   2. build the full working frame database (in the temporary build       steps/frame/frame.duckdb.ts
 *      directory) and check cross-table rules; write the cohort index from it
 *   3. precompute frozen JSON: stats, findings, predictions, work records  steps/frame/{stats,works}.json.ts
 *      and the pinned Canadian funder/source lists                        steps/frame/canadian-lists.json.ts
 *   4. the corpus: JATS (or CSV) → sqlite-wasm database with FTS5 + frozen  steps/corpus/corpus.ts
 *      stats, phrases and article documents
 *   5. write the served frame database (only what the server queries),    steps/frame/served.duckdb.ts
 *      delete the working one, write manifest.json with the sha256 of      lib/build-dir.ts
 *      every output, then publish
 * Everything is written into a temporary directory; `current` only moves once the build is complete.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BuildManifest, buildManifestSchema, manifestFiles, PIPELINE_VERSION } from '../contracts/common/build-manifest.ts';
import { stablePretty } from '../contracts/common/stable-json.ts';
import { CANADIAN_LISTS_FILE } from '../contracts/frame/canadian-lists.ts';
import type { SnapshotRef } from '../contracts/frame/snapshot-ref.ts';
import { finishBuild, newTempBuild, prune, publish, CURRENT } from './lib/build-dir.ts';
import { type Duck, openDuck } from './lib/duckdb.ts';
import { sha256File, sha256Text } from './lib/hash.ts';
import { type PhaseTiming, PhaseTimer } from './lib/phase-timer.ts';
import type { Progress } from './lib/progress.ts';
import { canadianLists } from './steps/frame/canadian-lists.json.ts';
import { buildFrameDatabase } from './steps/frame/frame.duckdb.ts';
import { writeServedDatabase } from './steps/frame/served.duckdb.ts';
import { frameDocuments } from './steps/frame/stats.json.ts';
import { readManifest, validateSnapshot } from './steps/frame/validate.ts';
import { WORKS_DIR, writeWorkRecords } from './steps/frame/works.json.ts';
import { writeCohortIndex } from './steps/frame/cohort-index.ts';
import { buildCorpus, checkCorpusInput, corpusIdentity } from './steps/corpus/corpus.ts';
import { CORPUS_CACHE_DIR } from './steps/corpus/extraction-cache.ts';

/** The served frame database (pipeline/steps/frame/served.duckdb.ts says what it holds). */
export const FRAME_DB = 'frame/frame.duckdb';
/** The full working database, inside the temporary build directory; deleted before the build is published. */
export const WORKING_DB = '.work/frame-full.duckdb';

export interface PipelineOptions {
  snapshot: string;
  out: string;
  /** Also write one JSON document per work (the CLI's --work-files, off by default); the work store is always written. */
  workFiles: boolean;
  /** Worker threads for row validation and record encoding (default: automatic; 0 = main thread only). */
  threads?: number;
  /** Builds to keep, the current one included. */
  keep: number;
  /** Hedging lexicon for the corpus: the project's JSON format or an Otte-style `.csv` (default hedging-v2). */
  lexicon?: string;
  progress: Progress;
}

export interface PipelineResult {
  buildDir: string;
  manifest: BuildManifest;
  /** True when the current build already matched the snapshot and nothing was built. */
  upToDate: boolean;
  /** Wall time and peak RSS of each phase, in the order they ran. */
  phases: PhaseTiming[];
}

export function snapshotRef(dir: string): SnapshotRef & { manifest_sha256: string } {
  const manifest = readManifest(dir);
  const sha = sha256Text(readFileSync(join(dir, 'manifest.json')));
  return {
    id: `${manifest.name}-${sha.slice(0, 12)}`,
    name: manifest.name,
    source: manifest.source,
    licence: manifest.licence,
    release: manifest.release_date,
    frame_built: manifest.build_date,
    author_layer_release: manifest.author_layer_release,
    synthetic: manifest.synthetic,
    manifest_sha256: sha,
  };
}

/** The current build's manifest, or null when there is none or it cannot be read. */
export function currentManifest(out: string): BuildManifest | null {
  const path = join(out, CURRENT, 'manifest.json');
  if (!existsSync(path)) return null;
  const parsed = buildManifestSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  return parsed.success ? parsed.data : null;
}

/** True when `out/current` was built from this snapshot, its corpus and lexicon by this pipeline version. */
export function isUpToDate(snapshot: string, out: string, lexicon?: string): boolean {
  const m = currentManifest(out);
  if (!m || m.pipeline_version !== PIPELINE_VERSION) return false;
  if (m.snapshot.manifest_sha256 !== sha256Text(readFileSync(join(snapshot, 'manifest.json')))) return false;
  const corpus = corpusIdentity(snapshot, lexicon);
  return m.corpus.fingerprint === corpus.fingerprint && m.corpus.lexicon.sha256 === corpus.lexiconSha256;
}

/**
 * Order-independent content fingerprints of every table of `duck`, added to `into` by table name.
 * A database file's bytes may differ between runs (storage layout); its content must not.
 */
async function contentFingerprints(duck: Duck, into: Record<string, string>): Promise<void> {
  const tables = await duck.all<{ name: string }>('SELECT table_name AS name FROM information_schema.tables ORDER BY 1');
  for (const { name } of tables) {
    const [h] = await duck.all<{ h: string }>(
      // coalesce: an empty table (a snapshot without labels) sums to NULL, which would void the whole string.
      `SELECT (coalesce(sum(hash(t)::HUGEINT), 0) % 18446744073709551616)::VARCHAR || '/' || count(*)::VARCHAR AS h FROM "${name}" t`,
    );
    into[name] = h!.h;
  }
}

export async function runPipeline(o: PipelineOptions): Promise<PipelineResult> {
  const started = performance.now();
  const { progress } = o;
  const timer = new PhaseTimer(progress);
  // Phase 1: validate.
  progress.log(`pipeline: validating ${o.snapshot}`);
  const { manifest } = await timer.time('validate', async () => {
    const summary = await validateSnapshot(o.snapshot, {
      progress,
      ...(o.threads !== undefined ? { threads: o.threads } : {}),
    });
    checkCorpusInput(o.snapshot, o.lexicon);
    return summary;
  });
  const ref = snapshotRef(o.snapshot);
  const { manifest_sha256, ...snapshot } = ref;

  mkdirSync(o.out, { recursive: true });
  const tmp = newTempBuild(o.out);
  try {
    // Phase 2: the frame database.
    progress.log('pipeline: building the frame database');
    mkdirSync(join(tmp, 'frame'), { recursive: true });
    mkdirSync(join(tmp, WORKING_DB, '..'), { recursive: true });
    const spill = join(tmp, '.duckdb-tmp');
    const working = join(tmp, WORKING_DB);
    await buildFrameDatabase(o.snapshot, working, manifest, progress, spill, timer);

    // Phase 2b: the cohort index (in-memory query engine files), from the finished database. (Not run at the same
    // time as the work store: that saves about 1% of the time and raises the peak RSS by over a third;
    // docs/decisions.md has the measurement.)
    progress.log('pipeline: writing the cohort index');
    const indexDuck = await openDuck(working, {
      access_mode: 'READ_ONLY',
      threads: '2',
      memory_limit: '1500MB',
      temp_directory: spill,
      preserve_insertion_order: 'true',
    });
    try {
      await timer.time('cohort index', () => writeCohortIndex(indexDuck, tmp, progress));
    } finally {
      indexDuck.close();
    }
    rmSync(spill, { recursive: true, force: true });

    // Phase 3: frozen JSON and the work store.
    progress.log('pipeline: precomputing frozen JSON');
    const duck = await openDuck(working, { access_mode: 'READ_ONLY', threads: '2', memory_limit: '1500MB' });
    let works: { index: string | null; count: number } = { index: null, count: 0 };
    const database_content: Record<string, string> = {};
    try {
      await timer.time('frozen JSON', async () => {
        const docs = await frameDocuments(duck, o.snapshot, manifest, snapshot);
        for (const [path, doc] of docs) {
          mkdirSync(join(tmp, path, '..'), { recursive: true });
          writeFileSync(join(tmp, path), JSON.stringify(doc));
        }
        writeFileSync(join(tmp, CANADIAN_LISTS_FILE), stablePretty(await canadianLists(duck)));
      });
      works = await timer.time('work records', () => writeWorkRecords(duck, tmp, snapshot, progress, o.workFiles, working, o.threads));
    } finally {
      duck.close();
    }

    // Phase 3b: the served database, then the working one goes.
    await timer.time('served database', async () => {
      const served = await openDuck(join(tmp, FRAME_DB), { threads: '2', memory_limit: '1500MB' });
      try {
        await writeServedDatabase(served, working);
        // The served file's bytes may differ between runs (storage layout): the manifest names it by content.
        // (The working database is not fingerprinted: every output computed from it is listed with its sha256.)
        await contentFingerprints(served, database_content);
      } finally {
        served.close();
      }
      rmSync(join(tmp, WORKING_DB, '..'), { recursive: true, force: true });
    });
    // Phase 4: the corpus.
    progress.log('pipeline: building the corpus');
    const corpus = await timer.time('corpus', () =>
      buildCorpus({
        snapshot: o.snapshot,
        out: tmp,
        snapshotId: snapshot.id,
        cacheDir: join(o.out, CORPUS_CACHE_DIR),
        synthetic: snapshot.synthetic,
        progress,
        ...(o.lexicon !== undefined ? { lexiconPath: o.lexicon } : {}),
      }),
    );

    // Phase 5: manifest, then publish.
    return await timer.time('manifest and publish', async () => {
      const files: BuildManifest['files'] = {};
      for (const rel of manifestFiles(tmp, WORKS_DIR)) {
        files[rel] = { bytes: statSync(join(tmp, rel)).size, sha256: await sha256File(join(tmp, rel)) };
      }
      const buildManifest: BuildManifest = {
        pipeline_version: PIPELINE_VERSION,
        snapshot: { ...snapshot, manifest_sha256 },
        files,
        work_documents: { count: works.count, directory: WORKS_DIR, index: works.index },
        database_content,
        corpus,
      };
      const manifestText = stablePretty(buildManifest);
      writeFileSync(join(tmp, 'manifest.json'), manifestText);
      const name = `${snapshot.id}-${sha256Text(stablePretty({ ...buildManifest, files: Object.fromEntries(Object.entries(files).filter(([k]) => k !== FRAME_DB)) })).slice(0, 8)}`;
      const buildDir = finishBuild(o.out, tmp, name);
      publish(o.out, name);
      prune(o.out, o.keep);
      progress.log(`pipeline: published ${name} as ${join(o.out, CURRENT)} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return { buildDir, manifest: buildManifest, upToDate: false, phases: timer.phases };
    });
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}
