/**
 * `npm run test:unit`, the fast inner loop: the test files that build no fixture and start no server, Redis,
 * nginx or browser, as what they import says. `npm test` runs them all.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

const SLOW_DIRS = /^test\/(browser|e2e|fuzz|site)\//;
const SLOW_IMPORTS =
  /helpers\/(fixture-build|shared-fixture|site-server|browser|snapshot|server-process|redis|nginx)\.ts|\b(generateSnapshot|generateCorpus|runPipeline|buildCorpus)\b/;

const unit = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .map((f) => join('test', f))
  .filter((f) => f.endsWith('.test.ts') && !SLOW_DIRS.test(f) && !SLOW_IMPORTS.test(readFileSync(f, 'utf8')))
  .sort();

export default defineConfig({ ...base, test: { ...base.test, include: unit } });
