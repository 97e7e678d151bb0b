/**
 * Builds the Astro site from the current build output into SITE_DIR and stamps it with the build it was made
 * from (`.build-id`), so `npm start` knows when it is stale. Locations come from the server's configuration.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../api-dynamic/src/config.ts';
import { currentName } from '../pipeline/lib/build-dir.ts';
import { runAstroBuild } from './astro-build.ts';

const config = loadConfig();
export const BUILD_OUTPUT = config.BUILD_OUTPUT;
export const SITE_DIR = config.SITE_DIR;

export function siteIsFresh(): boolean {
  const stamp = join(SITE_DIR, '.build-id');
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === currentName(BUILD_OUTPUT);
}

export function buildSite(): void {
  const started = performance.now();
  process.stderr.write(`site: building with Astro into ${SITE_DIR}\n`);
  runAstroBuild({ buildOutput: BUILD_OUTPUT, siteDir: SITE_DIR });
  process.stderr.write(`site: built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
