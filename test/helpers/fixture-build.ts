/**
 * Small deterministic inputs and outputs for tests: a generated snapshot and a pipeline build of it, made once
 * per test file in a temporary directory.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PipelineResult, runPipeline } from '../../pipeline/build.ts';
import { generateSnapshot } from '../../pipeline/generate/snapshot.ts';
import { generateCorpus } from '../../pipeline/generate/corpus/generate.ts';
import { silentProgress } from '../../pipeline/lib/progress.ts';
import { buildCorpus } from '../../pipeline/steps/corpus/corpus.ts';
import { CORPUS_DB_FILE } from '../../contracts/corpus/database.ts';

export const FIXTURE_WORKS = 3_000;

export function tempDir(prefix: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Articles of the synthetic corpus every fixture snapshot gets (its own seed, so it is always the same). */
export const FIXTURE_ARTICLES = 80;

export async function fixtureSnapshot(
  root: string,
  /**
   * `synthetic: false` rewrites the generated manifest's flag, standing in for a snapshot of real records (so a
   * test can check what a real build shows: outbound identifier links, live abstracts, no banner).
   */
  options: { works?: number; seed?: number; name?: string; articles?: number; synthetic?: boolean } = {},
): Promise<string> {
  const out = join(root, options.name ?? 'fixture');
  await generateSnapshot({
    works: options.works ?? FIXTURE_WORKS,
    seed: options.seed ?? 11,
    out,
    name: options.name ?? 'fixture',
    releaseDate: '2026-06-24',
    buildDate: '2026-07-12',
    threads: 1,
    progress: silentProgress,
  });
  const articles = options.articles ?? FIXTURE_ARTICLES;
  if (articles > 0) await generateCorpus({ dir: join(out, 'corpus'), articles, seed: 5, progress: silentProgress });
  if (options.synthetic === false) markReal(out);
  return out;
}

/**
 * The corpus step alone on the fixture corpus (FIXTURE_ARTICLES generated articles, seed 5) under `root`: the
 * path of the corpus database it wrote.
 */
export async function fixtureCorpusDatabase(root: string, snapshotId: string): Promise<string> {
  const snapshot = join(root, 'snapshot');
  mkdirSync(join(snapshot, 'corpus'), { recursive: true });
  await generateCorpus({ dir: join(snapshot, 'corpus'), articles: FIXTURE_ARTICLES, seed: 5, progress: silentProgress });
  const out = join(root, 'out');
  await buildCorpus({ snapshot, out, snapshotId, synthetic: true, progress: silentProgress });
  return join(out, CORPUS_DB_FILE);
}

export async function fixtureBuild(snapshot: string, out: string, workFiles = false): Promise<PipelineResult> {
  return runPipeline({ snapshot, out, workFiles, threads: 0, keep: 2, progress: silentProgress });
}

/** Sets the snapshot manifest's `synthetic` flag to false (the tables' checksums do not cover the manifest itself). */
export function markReal(snapshot: string): void {
  const path = join(snapshot, 'manifest.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as { synthetic: boolean };
  writeFileSync(path, `${JSON.stringify({ ...manifest, synthetic: false }, null, 2)}\n`);
}
