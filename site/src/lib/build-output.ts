/**
 * Typed reads of the pipeline's output for the site's static pages, at build time. (Server-rendered pages
 * get the served build from api-dynamic through Astro.locals instead.) The build script passes the location
 * in BUILD_OUTPUT; the default is build-output/ in the working directory.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type BuildManifest, buildManifestSchema } from '../../../contracts/common/build-manifest.ts';

export function buildOutputDir(): string {
  return resolve(process.env.BUILD_OUTPUT ?? join(process.cwd(), 'build-output'));
}

export function currentManifest(): BuildManifest | null {
  const path = join(buildOutputDir(), 'current', 'manifest.json');
  if (!existsSync(path)) return null;
  return buildManifestSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}

/** A frozen document by its URL path below the build directory, e.g. `frame/api/v1/stats/summary`. */
export function frozen<T>(path: string): T | null {
  const file = join(buildOutputDir(), 'current', `${path}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : null;
}
