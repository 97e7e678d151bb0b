/**
 * `npm run export:static -- --out DIR [--api-origin URL]`: the current build and its site as a directory any
 * static host can serve (scripts/static-export/, docs/static-hosting.md).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../api-dynamic/src/config.ts';
import { usageError } from '../pipeline/lib/command-line.ts';
import { terminalProgress } from '../pipeline/lib/progress.ts';
import { exportStatic, parseOrigin } from './static-export/export-static.ts';

const HELP = `Usage: npm run export:static -- --out DIR [--api-origin URL] [options]

Writes the build being served (build-output/current) and its site as a static bundle: every prerendered page,
every frozen API document at its own URL path (stored as <path>.json), the OpenAPI documents, the assets, a
page for each server-rendered address, host configuration (nginx/static-bundle.conf, _headers, _redirects) and
a manifest (bundle-manifest.json, bundle-files.tsv: every file with its bytes and sha256). DIR is replaced
only when the export is complete. See docs/static-hosting.md.

  --out DIR            the bundle directory (required)
  --api-origin URL     the live service (e.g. https://research.example.org): pages and API paths that are
                       computed per request redirect there; without it they say this copy is static
  --build-output DIR   the pipeline's output directory (default: BUILD_OUTPUT, build-output)
  --site DIR           the Astro build of that build (default: SITE_DIR, build-output/site)
  --nginx-root DIR     where the bundle will live on the nginx host (default: the absolute --out)
  --no-work-documents  leave out the per-work API documents (by default one per work of the frame, from the
                       cohort index: about 3.4 KB each, 14.7 GB at 4.3M works)
  -h, --help           show this help
`;

const fail: (message: string) => never = usageError('export:static', HELP);

let values;
try {
  ({ values } = parseArgs({
    options: {
      out: { type: 'string' },
      'api-origin': { type: 'string' },
      'build-output': { type: 'string' },
      site: { type: 'string' },
      'nginx-root': { type: 'string' },
      'no-work-documents': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (err) {
  fail((err as Error).message);
}
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
if (!values.out) fail('--out DIR is required');
let apiOrigin: string | null = null;
try {
  apiOrigin = values['api-origin'] ? parseOrigin(values['api-origin']) : null;
} catch (err) {
  fail((err as Error).message);
}
const config = loadConfig({
  ...(values['build-output'] ? { BUILD_OUTPUT: values['build-output'] } : {}),
  ...(values.site ? { SITE_DIR: values.site } : {}),
});
try {
  const r = await exportStatic({
    buildOutput: config.BUILD_OUTPUT,
    siteDir: config.SITE_DIR,
    out: resolve(values.out),
    apiOrigin,
    ...(values['nginx-root'] ? { nginxRoot: values['nginx-root'] } : {}),
    workDocuments: values['no-work-documents'] ? 'none' : 'build',
    progress: terminalProgress(),
  });
  const kinds = Object.entries(r.kinds)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  process.stderr.write(
    `export:static: snapshot ${r.snapshotId}: ${r.files} files, ${(r.bytes / 1e6).toFixed(1)} MB in ${resolve(values.out)} (${kinds}) in ${r.seconds.toFixed(1)} s\n` +
      `  dynamic pages: ${r.dynamicPages.map((p) => p.pattern).join(' ')} → ${apiOrigin ?? 'static notice'}\n`,
  );
} catch (err) {
  process.stderr.write(`export:static: failed, nothing replaced: ${(err as Error).message}\n`);
  process.exit(1);
}
