/**
 * Builds the Astro site from the current build output into build-output/site and stamps it with the build it
 * was made from (`.build-id`), so `npm start` knows when it is stale.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SITE_DIR = resolve('build-output/site');

export function currentBuildName(out = resolve('build-output')): string | null {
  try {
    return readlinkSync(join(out, 'current'));
  } catch {
    return null;
  }
}

export function siteIsFresh(): boolean {
  const stamp = join(SITE_DIR, '.build-id');
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === currentBuildName();
}

export function buildSite(): void {
  const started = performance.now();
  process.stderr.write('site: building with Astro\n');
  const r = spawnSync(process.execPath, [resolve('node_modules/astro/astro.js'), 'build', '--root', 'site', '--silent'], {
    stdio: 'inherit',
    env: { ...process.env, BUILD_OUTPUT: resolve('build-output'), ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (r.status !== 0) throw new Error(`astro build failed with exit code ${r.status}`);
  writeFileSync(join(SITE_DIR, '.build-id'), currentBuildName() ?? '');
  process.stderr.write(`site: built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
