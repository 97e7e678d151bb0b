import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One directory per run: fixture builds shared by test files, and the closing summary of skipped tests.
    globalSetup: ['test/setup/run.ts'],
    // The JSON report lets .ci/run print a plain 'N passed, N failed' line.
    reporters: ['default', ['json', { outputFile: 'test/artifacts/vitest.json' }]],
    // The pipeline and server tests build real DuckDB files: give them room on a 2-core machine shared with
    // other jobs (a loaded machine is slow, not wrong); a test that hangs still fails here.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
