/**
 * Writes a deterministic synthetic JATS corpus: `<dir>/PMC<id>.nxml` (some `.xml`, articles without a PMCID
 * named after their DOI suffix, a share gzipped as `.gz`) plus `<dir>/ground-truth.json`, which lists per
 * article the hedged sentences an ideal extractor finds, the traps it must not verify and the text it must
 * not extract (ground-truth.ts).
 *
 * Same seed and article count → byte-identical files (gzip output is identical for the same Node/zlib build;
 * Node writes no timestamp into the gzip header). Article i is the same whatever the count, so a small
 * corpus is a prefix of a large one. The corpus is built in a temporary sibling directory and renamed into
 * place, so a failed run leaves no half-written corpus; an existing `dir` is only replaced when it is empty
 * or holds an earlier generated corpus.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { stablePretty } from '../../../contracts/common/stable-json.ts';
import { type Progress, silentProgress } from '../../lib/progress.ts';
import { swapIntoPlace } from '../../lib/swap-dir.ts';
import { generateArticle } from './article.ts';
import { type ArticleTruth, type GroundTruth, groundTruthSchema } from './ground-truth.ts';

/** Bumped whenever the same options would give different bytes. */
export const CORPUS_GENERATOR_VERSION = '1';

/** Name of the ground-truth file inside the corpus directory. */
export const GROUND_TRUTH_FILE = 'ground-truth.json';

export interface CorpusOptions {
  /** Output directory; created, or replaced if it holds an earlier generated corpus. */
  dir: string;
  /** Number of articles (1 … 2,000,000). */
  articles: number;
  /** PRNG seed (an integer). */
  seed: number;
  /** Share of articles written gzipped, 0 … 1 (default 0.1). */
  gzipShare?: number;
  progress?: Progress;
}

export interface CorpusResult {
  dir: string;
  groundTruthPath: string;
  files: number;
  bytes: number;
}

function count(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

/** Refuses to replace a directory that is neither empty nor a generated corpus. */
function assertReplaceable(dir: string): void {
  if (!existsSync(dir)) return;
  const entries = readdirSync(dir);
  if (entries.length === 0 || entries.includes(GROUND_TRUTH_FILE)) return;
  throw new Error(`${dir} exists and is not a generated corpus (no ${GROUND_TRUTH_FILE}); refusing to replace it`);
}

/** Generates the corpus; see the file comment. */
export async function generateCorpus(options: CorpusOptions): Promise<CorpusResult> {
  const { dir, articles, seed } = options;
  const gzipShare = options.gzipShare ?? 0.1;
  const progress = options.progress ?? silentProgress;
  if (!Number.isInteger(articles) || articles < 1 || articles > 2_000_000) throw new RangeError('articles must be a whole number from 1 through 2000000');
  if (!Number.isInteger(seed)) throw new RangeError('seed must be an integer');
  if (!(gzipShare >= 0 && gzipShare <= 1)) throw new RangeError('gzipShare must be between 0 and 1');
  assertReplaceable(dir);

  const tmp = join(dirname(dir), `.${basename(dir)}.tmp-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    const files: ArticleTruth[] = [];
    const totals = {
      files: 0,
      gzipped: 0,
      withPmcid: 0,
      hedges: 0,
      byOutcome: {} as Record<string, number>,
      byBand: {} as Record<string, number>,
      bySection: {} as Record<string, number>,
      traps: 0,
      absent: 0,
    };
    let bytes = 0;
    progress.start('generate articles', articles);
    for (let i = 0; i < articles; i++) {
      const a = generateArticle(seed, i, gzipShare);
      const raw = Buffer.from(a.xml, 'utf8');
      const data = a.gzip ? gzipSync(raw, { level: 6 }) : raw;
      writeFileSync(join(tmp, a.file), data);
      bytes += data.length;
      files.push({ ...a.truth, bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') });
      totals.files++;
      if (a.gzip) totals.gzipped++;
      if (a.truth.pmcid) totals.withPmcid++;
      for (const h of a.truth.hedges) {
        totals.hedges++;
        count(totals.byOutcome, h.outcome);
        count(totals.byBand, h.band ?? 'rejected');
        count(totals.bySection, h.section);
      }
      totals.traps += a.truth.traps.length;
      totals.absent += a.truth.absent.length;
      if ((i & 255) === 255) progress.update(i + 1);
    }
    progress.update(articles);
    progress.stop();

    const truth: GroundTruth = groundTruthSchema.parse({
      generator: 'synthetic-jats-corpus',
      version: CORPUS_GENERATOR_VERSION,
      seed,
      articles,
      gzipShare,
      totals,
      files,
    });
    writeFileSync(join(tmp, GROUND_TRUTH_FILE), stablePretty(truth));

    swapIntoPlace(tmp, dir);
    return { dir, groundTruthPath: join(dir, GROUND_TRUTH_FILE), files: totals.files, bytes };
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}
