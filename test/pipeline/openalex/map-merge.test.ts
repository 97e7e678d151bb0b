/**
 * Map and merge as separate commands: four partitions mapped by four processes at once (`--map-partition K`,
 * as the tasks of an array job would), then `--merge-only`, give the snapshot the single command builds,
 * byte for byte; a merge with a partition not yet mapped is refused, naming it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/fixture-build.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CLI = join(ROOT, 'pipeline', 'openalex', 'cli.ts');
const OA = 'https://openalex.org/';

/** Record n of partition p: some Canadian by affiliation or title, some newer versions of earlier ones. */
function record(p: number, n: number): string {
  const id = n % 7 === 0 && p > 0 ? n : p * 1000 + n; // every seventh id recurs in each later partition
  const ca = (id + p) % 3 === 0;
  return JSON.stringify({
    id: `${OA}W${id}`,
    title: n % 5 === 0 ? `Winters in Saskatoon, part ${n}` : `Soil study ${id} (version ${p})`,
    publication_year: 1995 + (n % 35),
    type: 'article',
    language: n % 4 === 0 ? 'fr' : 'en',
    cited_by_count: n,
    updated_date: `2026-0${p + 1}-01T00:00:00`,
    authorships: [
      {
        author: { id: `${OA}A${(n % 40) + 1}`, display_name: `Author ${n % 40} v${p}` },
        institutions: [{ display_name: ca ? 'Dalhousie University' : 'ETH', country_code: ca ? 'CA' : 'CH' }],
        countries: [],
      },
    ],
  });
}

describe('snapshot:from-openalex as separate map and merge commands', () => {
  const tmp = tempDir('oa-map-merge');
  const root = join(tmp.path, 'openalex');
  const dir = join(root, 'data', 'jsonl', 'works');
  const common = ['--works', root, '--name', 'frame', '--release', '2026-06-30', '--built', '2026-07-01', '--threads', '1'];
  const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', CLI, ...common, ...args], { cwd: ROOT, encoding: 'utf8' });

  beforeAll(() => {
    const files = [0, 1, 2, 3].map((p) => {
      const rel = `updated_date=2026-0${p + 1}-01/part_000${p}.gz`;
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      writeFileSync(join(dir, rel), gzipSync(`${Array.from({ length: 300 }, (_, n) => record(p, n + 1)).join('\n')}\n`));
      return { url: `s3://openalex/data/jsonl/works/${rel}`, meta: { content_length: statSync(join(dir, rel)).size, record_count: 300 } };
    });
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ date: '2026-06-30', format: 'jsonl', entity: 'works', record_count: 1200, files }));
    writeFileSync(join(dir, 'deleted_ids.csv'), `work_id,deleted_date\n${OA}W15,2026-05-01\n`);
  });
  afterAll(() => tmp.remove());

  it("four map processes and a merge build the single command's snapshot byte for byte", async () => {
    const single = join(tmp.path, 'single');
    expect(run(['--out', single]).status).toBe(0);

    const out = join(tmp.path, 'split');
    const work = join(tmp.path, 'shared-work');
    const refused = run(['--out', out, '--work-dir', work, '--merge-only']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/4 of 4 partitions have no checkpoint .*updated_date=2026-01-01\/part_0000\.gz/);
    const codes = await Promise.all(
      [0, 1, 2, 3].map(
        (k) =>
          new Promise<number | null>((resolve) => {
            const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...common, '--out', out, '--work-dir', work, '--map-partition', String(k)], {
              cwd: ROOT,
              stdio: 'ignore',
            });
            child.on('exit', resolve);
          }),
      ),
    );
    expect(codes).toEqual([0, 0, 0, 0]);
    const merged = run(['--out', out, '--work-dir', work, '--merge-only']);
    expect(merged.status).toBe(0);
    expect(merged.stderr).toMatch(/resuming: 4 of 4 partitions already read/);

    const files = readdirSync(single).sort();
    expect(readdirSync(out).sort()).toEqual(files);
    for (const f of files) expect(readFileSync(join(out, f)).equals(readFileSync(join(single, f))), f).toBe(true);
    expect(readFileSync(join(single, 'works.csv'), 'utf8').split('\n').length).toBeGreaterThan(100);
  }, 240_000);
});
