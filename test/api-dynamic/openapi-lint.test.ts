/**
 * The three OpenAPI documents pass `redocly lint` with the recommended ruleset (redocly.yaml) with no error
 * and no warning: the documents as the services serve them (FAIR's lists the metric versions of its engine).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { corpusOpenApi } from '../../contracts/corpus/openapi.ts';
import { frameOpenApi } from '../../contracts/frame/openapi.ts';
import { fairApp } from '../helpers/fair-app.ts';
import { tempDir } from '../helpers/fixture-build.ts';

const ROOT = join(import.meta.dirname, '../..');
const tmp = tempDir('openapi-lint');
let files: string[];

beforeAll(async () => {
  const fair = await fairApp();
  const fairDoc = (await fair.app.inject('/fair/api/v1/openapi.json')).json();
  await fair.close();
  const docs = { frame: frameOpenApi('/frame', '1'), corpus: corpusOpenApi('/corpus', '1'), fair: fairDoc };
  files = Object.entries(docs).map(([name, doc]) => {
    const file = join(tmp.path, `${name}.json`);
    writeFileSync(file, JSON.stringify(doc, null, 2));
    return file;
  });
});
afterAll(() => tmp.remove());

function lint(file: string) {
  const run = spawnSync(join(ROOT, 'node_modules/.bin/redocly'), ['lint', '--config', join(ROOT, 'redocly.yaml'), '--format', 'json', file], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    timeout: 60_000,
  });
  const report = JSON.parse(run.stdout) as {
    totals: { errors: number; warnings: number };
    problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
  };
  return { status: run.status, totals: report.totals, problems: report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`) };
}

it.each(['frame', 'corpus', 'fair'])('redocly lint (recommended) of the %s document: 0 errors, 0 warnings', (name) => {
  const result = lint(files.find((f) => f.endsWith(`${name}.json`))!);
  expect(result.problems).toEqual([]);
  expect(result.totals).toMatchObject({ errors: 0, warnings: 0 });
  expect(result.status).toBe(0);
});
