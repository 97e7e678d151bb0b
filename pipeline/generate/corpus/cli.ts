/**
 * `npx tsx pipeline/generate/corpus/cli.ts --articles N --out DIR [--seed S] [--gzip-share F]`
 * Writes a deterministic synthetic JATS corpus with its ground truth (generate.ts).
 */
import { resolve } from 'node:path';
import { commandLine, usageError } from '../../lib/command-line.ts';
import { terminalProgress } from '../../lib/progress.ts';
import { generateCorpus, GROUND_TRUTH_FILE } from './generate.ts';

const HELP = `Usage: npx tsx pipeline/generate/corpus/cli.ts --articles N --out DIR [options]

Writes N synthetic JATS articles (PMC<id>.nxml, some .xml, some gzipped .gz; articles without a PMCID are
named after their DOI) and ${GROUND_TRUTH_FILE}, which lists per article the hedged sentences, the traps
and the text that must not be extracted. The same options always give byte-identical files.

Options:
  --articles N      number of articles (required; 1 through 2000000)
  --out DIR         output directory (required); replaced only if empty or an earlier generated corpus
  --seed S          random seed, a whole number (default 20260701)
  --gzip-share F    share of articles written gzipped, 0 through 1 (default 0.1)
  -h, --help        show this help
`;

const values = commandLine(HELP, {
  articles: { type: 'string' },
  out: { type: 'string' },
  seed: { type: 'string', default: '20260701' },
  'gzip-share': { type: 'string', default: '0.1' },
});
const fail: (message: string) => never = usageError('corpus generator', HELP);
const articles = Number(values.articles);
if (!values.articles || !Number.isInteger(articles) || articles < 1 || articles > 2_000_000) fail('--articles must be a whole number from 1 through 2000000');
if (!values.out) fail('--out DIR is required');
const seed = Number(values.seed);
if (!Number.isInteger(seed)) fail('--seed must be a whole number');
const gzipShare = Number(values['gzip-share']);
if (!(gzipShare >= 0 && gzipShare <= 1)) fail('--gzip-share must be a number from 0 through 1');

const progress = terminalProgress();
const started = performance.now();
try {
  const result = await generateCorpus({ dir: resolve(values.out!), articles, seed, gzipShare, progress });
  progress.log(
    `wrote ${result.files} articles (${(result.bytes / 1e6).toFixed(1)} MB) and ${GROUND_TRUTH_FILE} to ${result.dir} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
