/**
 * `npm run pipeline -- --snapshot snapshots/sample --out build-output`
 * Validates a snapshot and builds the output the site and the API serve.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { commandLine, usageError } from './lib/command-line.ts';
import { isUpToDate, runPipeline } from './build.ts';
import { terminalProgress } from './lib/progress.ts';
import { InvalidSnapshotError } from './steps/frame/validate.ts';

const HELP = `Usage: npm run pipeline -- [options]

Validates a snapshot, builds the frame database, the corpus (from <snapshot>/corpus/: JATS files and/or
PMC OA bulk packages (.tar.gz) with their file lists and deletion lists, or papers.csv + sentences.csv)
and the frozen JSON into a new directory under <out>/builds/, then points <out>/current at it
(atomically). Corpus extractions are kept in <out>/cache/corpus/ and reused by later builds. On invalid input it prints up to 50 problems
as file:line:column — reason, exits 1, and leaves the previous build untouched.

Options:
  --snapshot DIR     snapshot directory (default snapshots/sample)
  --out DIR          build-output directory (default build-output)
  --work-files       also write one JSON document per work under frame/api/v1/works/ (off by default: the
                     server and npm run export:static serialize records from the work store; 4.3M documents
                     take about 14 GB)
  --no-work-files    the default (kept so older scripts still run)
  --if-stale         do nothing when <out>/current was already built from this snapshot
  --threads N        worker threads for row validation and work records (default: automatic; 0 = main thread only)
  --keep N           builds to keep, the current one included (default 2)
  --lexicon FILE     hedging lexicon for the corpus: the project's JSON format, or a .csv phrase list in
                     Otte et al.'s format (default pipeline/corpus/lexicon/hedging-v2.json)
  -h, --help         show this help
`;

const values = commandLine(HELP, {
  snapshot: { type: 'string', default: 'snapshots/sample' },
  out: { type: 'string', default: 'build-output' },
  'work-files': { type: 'boolean', default: false },
  'no-work-files': { type: 'boolean', default: false },
  'if-stale': { type: 'boolean', default: false },
  threads: { type: 'string' },
  keep: { type: 'string', default: '2' },
  lexicon: { type: 'string' },
});
const fail: (message: string) => never = usageError('pipeline', HELP);
const keep = Number(values.keep);
if (!Number.isInteger(keep) || keep < 1) fail('--keep must be a whole number of at least 1');
const threads = values.threads === undefined ? undefined : Number(values.threads);
if (threads !== undefined && (!Number.isInteger(threads) || threads < 0 || threads > 64)) fail('--threads must be a whole number from 0 through 64');
const snapshot = resolve(values.snapshot!);
const out = resolve(values.out!);
const lexicon = values.lexicon === undefined ? undefined : resolve(values.lexicon);
if (lexicon !== undefined && !existsSync(lexicon)) fail(`--lexicon ${values.lexicon}: no such file`);

if (values['if-stale'] && isUpToDate(snapshot, out, lexicon)) {
  process.stderr.write(`pipeline: ${out}/current is up to date with ${snapshot}; nothing to do\n`);
  process.exit(0);
}
try {
  await runPipeline({
    snapshot,
    out,
    workFiles: values['work-files']! && !values['no-work-files'],
    keep,
    progress: terminalProgress(),
    ...(threads !== undefined ? { threads } : {}),
    ...(lexicon !== undefined ? { lexicon } : {}),
  });
} catch (err) {
  if (err instanceof InvalidSnapshotError) {
    process.stderr.write(`pipeline: ${err.message}; the previous build output is untouched.\n${err.report()}\n`);
    process.exit(1);
  }
  throw err;
}
