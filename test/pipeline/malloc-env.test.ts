/**
 * glibc's mmap threshold for the pipeline's processes (pipeline/lib/malloc-env.ts): set in a building child's
 * environment on Linux with glibc, left alone when the caller set it, and `rerunWithMallocEnv` runs the command
 * again with it, passing on its output and exit status.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildEnv, MMAP_THRESHOLD_VAR } from '../../pipeline/lib/malloc-env.ts';
import { tempDir } from '../helpers/fixture-build.ts';

const glibc = process.platform === 'linux' && typeof (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header.glibcVersionRuntime === 'string';
const tmp = tempDir('malloc-env');
afterAll(() => tmp.remove());
const withoutVar = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== MMAP_THRESHOLD_VAR));

describe('the mmap threshold of the processes that build', () => {
  it.skipIf(!glibc)('is set in a building child\'s environment, and a value the caller set is kept', () => {
    expect(buildEnv(withoutVar())[MMAP_THRESHOLD_VAR]).toBe('131072');
    expect(buildEnv({ ...withoutVar(), [MMAP_THRESHOLD_VAR]: '65536' })[MMAP_THRESHOLD_VAR]).toBe('65536');
  });

  it.skipIf(!glibc)('makes a command run itself again with it, passing on its output and exit status', () => {
    const script = join(tmp.path, 'rerun.mts');
    writeFileSync(
      script,
      `import { rerunWithMallocEnv } from ${JSON.stringify(join(import.meta.dirname, '../../pipeline/lib/malloc-env.ts'))};\n` +
        `process.stdout.write(\`before \${process.pid}\\n\`);\nrerunWithMallocEnv();\n` +
        `process.stdout.write(\`ran with \${process.env.${MMAP_THRESHOLD_VAR}} \${process.argv.slice(2).join(' ')}\\n\`);\nprocess.exit(3);\n`,
    );
    const r = spawnSync(process.execPath, ['--import', 'tsx', script, 'a', 'b'], { encoding: 'utf8', env: withoutVar() });
    expect(r.status).toBe(3);
    const lines = r.stdout.trim().split('\n');
    // The first process printed "before", ran the second (which printed "before" too, then ran), and exited as it did.
    expect(lines.filter((l) => l.startsWith('before'))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('ran with'))).toEqual(['ran with 131072 a b']);
  });
});

describe('npm run pipeline, run again with the threshold', () => {
  it.skipIf(!glibc)('says what is wrong and exits as its build did', () => {
    const missing = join(tmp.path, 'no-such-snapshot');
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../pipeline/cli.ts'), '--snapshot', missing, '--out', join(tmp.path, 'out')], {
      encoding: 'utf8',
      env: withoutVar(),
    });
    expect(r.status).toBe(1);
    // Said once, by the build (the process that ran it adds nothing).
    expect(r.stderr.match(/the snapshot is invalid/g)).toHaveLength(1);
    expect(r.stderr).toContain('manifest.json — file is missing');
  });
});
