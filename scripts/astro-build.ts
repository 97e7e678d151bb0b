/** Runs Astro's build of site/ for one build directory (used by `npm run build` and by the site tests). */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { currentName } from '../pipeline/lib/build-dir.ts';

/**
 * `astro build` of site/ from the build in `buildOutput` into `siteDir`, stamped with that build's name.
 * `cacheDir` separates concurrent builds (tests); `quiet` keeps Astro's output for the error only.
 */
export function runAstroBuild(o: { buildOutput: string; siteDir: string; cacheDir?: string; quiet?: boolean }): void {
  const root = resolve(import.meta.dirname, '..');
  const r = spawnSync(process.execPath, [join(root, 'node_modules/astro/astro.js'), 'build', '--root', join(root, 'site'), '--silent'], {
    cwd: root,
    stdio: o.quiet ? 'pipe' : 'inherit',
    encoding: 'utf8',
    env: {
      ...process.env,
      BUILD_OUTPUT: o.buildOutput,
      SITE_DIR: o.siteDir,
      ASTRO_TELEMETRY_DISABLED: '1',
      ...(o.cacheDir ? { ASTRO_CACHE_DIR: o.cacheDir } : {}),
    },
  });
  if (r.status !== 0) throw new Error(`astro build failed with exit code ${r.status}${o.quiet ? `:\n${r.stdout}\n${r.stderr}` : ''}`);
  writeFileSync(join(o.siteDir, '.build-id'), currentName(o.buildOutput) ?? '');
}
