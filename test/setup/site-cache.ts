/**
 * Vitest global setup: a fresh directory per test run where the site tests' default fixture is built once
 * (test/helpers/site-server.ts) instead of once per file; removed at the end of the run.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject) {
  const root = join(import.meta.dirname, '..', 'artifacts', 'site-builds');
  mkdirSync(root, { recursive: true });
  const dir = mkdtempSync(join(root, 'shared-'));
  project.provide('siteCache', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    siteCache: string;
  }
}
