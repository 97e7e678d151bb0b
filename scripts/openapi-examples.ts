/**
 * `npm run openapi:examples`: records the examples of the three OpenAPI documents from real answers of the
 * sample build (snapshots/sample, built into a temporary directory unless --build names a build) into
 * contracts/<service>/openapi-examples.json. test/api-dynamic/openapi-live.test.ts replays the same requests
 * (scripts/lib/openapi-example-requests.ts) and fails when an example no longer has a live answer's shape.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../api-dynamic/src/app.ts';
import { loadConfig } from '../api-dynamic/src/config.ts';
import { BuildStore } from '../api-dynamic/src/services/build-store.ts';
import type { RecordedExamples } from '../contracts/common/openapi-examples.ts';
import { runPipeline } from '../pipeline/build.ts';
import { commandLine } from '../pipeline/lib/command-line.ts';
import { terminalProgress } from '../pipeline/lib/progress.ts';
import { exampleAnswer, exampleEnv, type ExampleRequest, serviceExampleRequests, SERVICES, type Send } from './lib/openapi-example-requests.ts';

const HELP = `Usage: npm run openapi:examples -- [options]

Builds the sample snapshot (snapshots/sample) into a temporary directory, answers the example requests of
each OpenAPI operation with the real server (in-process, no network: the FAIR resolvers and the catalogue are
closed local ports) and writes the answers to contracts/<service>/openapi-examples.json (arrays cut to their
first items). Run it after a change of a response's shape; the test openapi-live.test.ts says when.

Options:
  --build DIR   use this build output (a directory with current/) instead of building the sample
  -h, --help    this text
`;

const ROOT = join(import.meta.dirname, '..');

async function main() {
  const values = commandLine(HELP, { build: { type: 'string' } });
  const scratch = mkdtempSync(join(tmpdir(), 'openapi-examples-'));
  try {
    let buildOutput = values.build;
    if (buildOutput === undefined) {
      buildOutput = join(scratch, 'out');
      await runPipeline({ snapshot: join(ROOT, 'snapshots/sample'), out: buildOutput, workFiles: true, threads: 0, keep: 1, progress: terminalProgress() });
    }
    const store = await BuildStore.open(buildOutput);
    const config = loadConfig({ BUILD_OUTPUT: buildOutput, SITE_DIR: '/nonexistent', LOG_LEVEL: 'silent', STATE_DIR: join(scratch, 'state'), ...exampleEnv() });
    const app = await buildApp({ config, store, logger: false, site: false });
    const send: Send = async (r) =>
      app.inject({ method: r.method, url: r.url, headers: r.headers ?? {}, ...(r.payload === undefined ? {} : { payload: r.payload }) });
    try {
      for (const service of SERVICES) {
        const requests: Record<string, ExampleRequest[]> = await serviceExampleRequests(service, send);
        const recorded: RecordedExamples = {};
        for (const [operationId, list] of Object.entries(requests))
          for (const request of list) {
            const answer = await exampleAnswer(send, request);
            if (answer === null || recorded[operationId]?.[String(request.status)]) continue;
            (recorded[operationId] ??= {})[String(request.status)] = { method: request.method, url: request.url, body: answer };
          }
        const file = join(ROOT, 'contracts', service, 'openapi-examples.json');
        writeFileSync(file, `${JSON.stringify(recorded, null, 2)}\n`);
        process.stderr.write(`${service}: ${Object.values(recorded).reduce((n, r) => n + Object.keys(r).length, 0)} examples -> ${file}\n`);
      }
    } finally {
      await app.close();
      store.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
