/**
 * Vitest global setup: a fresh directory per test run, where fixture builds shared by test files are made
 * once (test/helpers/shared-fixture.ts) and where test files record what they skip and why
 * (test/helpers/needs.ts). At the end of the run it prints one summary of those skips, then removes the
 * directory.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { SkipRecord } from '../helpers/needs.ts';

/** The closing summary: one paragraph per missing thing, naming how to get it and each file's skipped tests. */
export function skipSummary(records: SkipRecord[]): string {
  if (records.length === 0) return '';
  const byMissing = new Map<string, SkipRecord[]>();
  for (const r of records) byMissing.set(`${r.missing} (${r.remedy})`, [...(byMissing.get(`${r.missing} (${r.remedy})`) ?? []), r]);
  const lines = [`Skipped because something is missing (CI=true fails instead): ${records.length} in ${new Set(records.map((r) => r.file)).size} files`];
  for (const [missing, rs] of [...byMissing].sort(([a], [b]) => (a < b ? -1 : 1))) {
    lines.push(`  missing ${missing}:`);
    for (const r of rs.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))) lines.push(`    ${r.file}: ${r.skipped}`);
  }
  return lines.join('\n');
}

export default function setup(project: TestProject) {
  const root = join(import.meta.dirname, '..', 'artifacts', 'runs');
  mkdirSync(root, { recursive: true });
  // Below the repository, not in the system's temporary directory: the site's server half imports Astro's
  // packages by name and must find the repository's node_modules.
  const dir = mkdtempSync(join(root, 'run-'));
  const skipLog = join(dir, 'skips.jsonl');
  project.provide('runDir', dir);
  project.provide('skipLog', skipLog);
  return () => {
    const records = existsSync(skipLog)
      ? readFileSync(skipLog, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as SkipRecord)
      : [];
    const summary = skipSummary(records);
    if (summary) console.log(`\n${summary}\n`);
    rmSync(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's directory for shared fixture builds. */
    runDir: string;
  }
}
