/**
 * `npm run snapshot:generate -- --works N --out DIR [--seed S] [--name NAME] [--threads T]`
 * Writes a complete, deterministic synthetic frame snapshot.
 */
import { availableParallelism } from 'node:os';
import { basename, resolve } from 'node:path';
import { commandLine, usageError } from '../lib/command-line.ts';
import { terminalProgress } from '../lib/progress.ts';
import { generateSnapshot } from './snapshot.ts';

const HELP = `Usage: npm run snapshot:generate -- --works N --out DIR [options]

Writes a synthetic Research Cohort frame snapshot (11 CSV tables, findings.json, predictions-report.json,
manifest.json). The same options always give byte-identical files.

Options:
  --works N        number of works in the frame (required; 4300000 for the full-size frame)
  --out DIR        output directory, replaced only once the new snapshot is complete (required)
  --seed S         random seed (default 20260624)
  --name NAME      snapshot name in the manifest (default: the directory name)
  --release DATE   catalogue release date YYYY-MM-DD (default 2026-06-24)
  --built DATE     frame build date YYYY-MM-DD (default 2026-07-12)
  --threads T      worker threads for the per-work pass (default: cores, at most 4)
  -h, --help       show this help
`;

const values = commandLine(HELP, {
  works: { type: 'string' },
  out: { type: 'string' },
  seed: { type: 'string', default: '20260624' },
  name: { type: 'string' },
  release: { type: 'string', default: '2026-06-24' },
  built: { type: 'string', default: '2026-07-12' },
  threads: { type: 'string' },
});
const fail: (message: string) => never = usageError('snapshot:generate', HELP);
const works = Number(values.works);
if (!values.works || !Number.isInteger(works) || works < 100 || works > 50_000_000) fail('--works must be a whole number from 100 through 50000000');
if (!values.out) fail('--out DIR is required');
const seed = Number(values.seed);
if (!Number.isInteger(seed)) fail('--seed must be a whole number');
for (const d of [values.release, values.built]) if (!/^\d{4}-\d{2}-\d{2}$/.test(d!)) fail(`dates must be YYYY-MM-DD, got ${d}`);
const out = resolve(values.out!);
const name = values.name ?? basename(out);
if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(name)) fail(`--name must be a lower-case slug, got ${name}`);
const threads = values.threads ? Number(values.threads) : Math.min(4, availableParallelism());
if (!Number.isInteger(threads) || threads < 1 || threads > 64) fail('--threads must be a whole number from 1 through 64');

await generateSnapshot({
  works,
  seed,
  out,
  name,
  releaseDate: values.release!,
  buildDate: values.built!,
  threads,
  progress: terminalProgress(),
});
