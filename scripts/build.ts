/**
 * `npm run build`: runs the pipeline on the sample snapshot (or --snapshot DIR) and builds the site.
 * With --if-stale (used by `npm start`) each step runs only when its output is missing or out of date.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { commandLine } from '../pipeline/lib/command-line.ts';
import { BUILD_OUTPUT, buildSite, siteIsFresh } from './build-site.ts';

const HELP = `Usage: npm run build -- [--snapshot DIR] [--if-stale] [--work-files]

Runs the pipeline (snapshot → $BUILD_OUTPUT/current, default build-output) and builds the Astro site
($SITE_DIR, default build-output/site).
  --snapshot DIR    snapshot to build (default snapshots/sample)
  --if-stale        skip steps whose output is already up to date
  --work-files      also write one JSON document per work (off by default; npm run export:static makes
                    them for a static bundle)
  -h, --help        show this help
`;

const values = commandLine(HELP, {
  snapshot: { type: 'string', default: 'snapshots/sample' },
  'if-stale': { type: 'boolean', default: false },
  'work-files': { type: 'boolean', default: false },
});

export function build(): void {
  const args = [resolve('node_modules/tsx/dist/cli.mjs'), resolve('pipeline/cli.ts'), '--snapshot', values.snapshot!, '--out', BUILD_OUTPUT];
  if (values['if-stale']) args.push('--if-stale');
  if (values['work-files']) args.push('--work-files');
  const r = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  if (!values['if-stale'] || !siteIsFresh()) buildSite();
  else process.stderr.write('site: up to date\n');
}

build();
