/**
 * A partition file that cannot be read to its end (a truncated or corrupt gzip) is a bad record in report.json
 * with its reason, after the lines read before the damage; the build neither crashes nor hangs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { silentProgress } from '../../../pipeline/lib/progress.ts';
import { buildFromOpenAlex } from '../../../pipeline/openalex/build.ts';
import { tempDir } from '../../helpers/fixture-build.ts';

const line = (n: number) =>
  JSON.stringify({ id: `https://openalex.org/W${n}`, title: `Work ${n} on Nunavut`, publication_year: 2012, updated_date: '2026-01-01' });

describe('snapshot:from-openalex on an unreadable partition', () => {
  const tmp = tempDir('oa-unreadable');
  afterAll(() => tmp.remove());

  it.each([
    ['truncated', (gz: Buffer) => gz.subarray(0, Math.floor(gz.length * 0.6))],
    ['corrupt', (gz: Buffer) => Buffer.concat([gz.subarray(0, 20), Buffer.alloc(gz.length - 20, 7)])],
  ])(
    'counts a %s gzip as a bad record and keeps the good partition',
    async (kind, damage) => {
      const works = join(tmp.path, kind);
      mkdirSync(works);
      const many = Array.from({ length: 3000 }, (_, k) => line(1000 + k)).join('\n');
      writeFileSync(join(works, 'a.jsonl.gz'), gzipSync(`${line(1)}\n${line(2)}\r\n${line(3)}\r${line(4)}\n`));
      writeFileSync(join(works, 'b.jsonl.gz'), damage(gzipSync(`${many}\n`)));
      const out = join(tmp.path, `out-${kind}`);
      const { report } = await buildFromOpenAlex({
        works,
        out,
        name: 'unreadable',
        allowIncomplete: false,
        excludeXpac: false,
        labels: {},
        maxBadFraction: 1,
        threads: 1,
        buildDate: '2026-11-24',
        memoryLimit: '256MB',
        progress: silentProgress,
      });
      expect(report.bad_by_file).toEqual({ 'b.jsonl.gz': 1 });
      expect(report.first_bad[0]).toMatchObject({ file: 'b.jsonl.gz', reason: expect.stringMatching(/^unreadable gzip/) });
      // The good partition's four lines (LF, CRLF and a lone CR end a line, as readline splits them) are all read.
      const ids = readFileSync(join(out, 'works.csv'), 'utf8')
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[0]);
      for (const id of ['W1', 'W2', 'W3', 'W4']) expect(ids).toContain(id);
    },
    60_000,
  );
});
