/**
 * The builder's progress bar moves within a partition (bytes read), not only when a partition ends: one
 * partition at a time and two at once, and it never runs past the total.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Progress, silentProgress } from '../../../pipeline/lib/progress.ts';
import { buildFromOpenAlex } from '../../../pipeline/openalex/build.ts';
import { tempDir } from '../../helpers/fixture-build.ts';

function recording() {
  const seen = { updates: [] as number[], total: 0 };
  const progress: Progress = { ...silentProgress, start: (_label, total) => (seen.total = total), update: (n) => seen.updates.push(n) };
  return { progress, seen };
}

describe('snapshot:from-openalex progress', () => {
  const tmp = tempDir('oa-progress');
  const works = join(tmp.path, 'works');
  let bytes: number[] = [];

  beforeAll(() => {
    mkdirSync(works);
    // Two partitions of ~3 MB gzipped each (random text barely compresses), so each is read in several chunks.
    for (const p of [0, 1]) {
      const lines = Array.from({ length: 150 }, (_, k) =>
        JSON.stringify({
          id: `https://openalex.org/W${p * 1000 + k + 1}`,
          title: `Work ${k}`,
          publication_year: 2010,
          updated_date: '2026-01-01',
          note: randomBytes(20_000).toString('base64'),
        }),
      );
      writeFileSync(join(works, `part_${p}.jsonl.gz`), gzipSync(`${lines.join('\n')}\n`, { level: 1 }));
    }
    bytes = [0, 1].map((p) => statSync(join(works, `part_${p}.jsonl.gz`)).size);
  });
  afterAll(() => tmp.remove());

  it.each([1, 2])(
    'reports bytes within a partition with %i thread(s)',
    async (threads) => {
      const { progress, seen } = recording();
      await buildFromOpenAlex({
        works,
        out: join(tmp.path, `out-${threads}`),
        name: 'progress',
        allowIncomplete: false,
        excludeXpac: false,
        labels: {},
        maxBadFraction: 0.001,
        threads,
        buildDate: '2026-11-24',
        memoryLimit: '256MB',
        progress,
      });
      const total = bytes[0]! + bytes[1]!;
      expect(seen.total).toBe(total);
      // Some update falls strictly inside the first partition to finish, i.e. before any partition was done.
      const smallest = Math.min(...bytes);
      expect(seen.updates.some((n) => n > 0 && n < smallest)).toBe(true);
      expect(Math.max(...seen.updates)).toBe(total);
      expect(seen.updates.at(-1)).toBe(total);
    },
    120_000,
  );
});
