/**
 * Delta-varint coded CSRs (PACKED_CSRS): written by the pipeline from a query, read back by the server's Csr,
 * against the pairs themselves: empty keys, one-value keys, gaps of every varint length up to u32's top.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Csr } from '../../api-dynamic/src/services/frame/cohort/cohort-index.ts';
import { isPackedCsr } from '../../contracts/frame/cohort-index.ts';
import { openDuck } from '../../pipeline/lib/duckdb.ts';
import { writeCsr } from '../../pipeline/steps/frame/cohort-index.ts';
import { tempDir } from '../helpers/fixture-build.ts';
import { mulberry32 } from '../helpers/random.ts';

const tmp = tempDir('packed-csr');
afterAll(() => tmp.remove());

describe('packed CSRs', () => {
  it('give back every key’s values, with term keys and with row keys', async () => {
    expect(isPackedCsr('title_terms') && isPackedCsr('author_term_works') && !isPackedCsr('ca_neighbours')).toBe(true);
    const r = mulberry32(7);
    const lists: number[][] = [];
    for (let k = 0; k < 40; k++) {
      const n = k % 7 === 3 ? 0 : k % 5 === 0 ? 1 : Math.floor(r() * 300);
      const set = new Set<number>();
      // Gaps of 1 byte to 5 bytes: small dense runs, and values up to 2^32 - 1.
      let v = Math.floor(r() * 1000);
      for (let i = 0; i < n && v < 2 ** 32; i++) {
        set.add(v);
        v += 1 + Math.floor(r() ** 6 * 2 ** 31);
      }
      if (k === 39) set.add(2 ** 32 - 1);
      lists.push([...set].sort((a, b) => a - b));
    }
    const duck = await openDuck(':memory:');
    const rows = lists.flatMap((l, k) => l.map((v) => `(${k}, ${v}::UBIGINT, 'term${String(k).padStart(2, '0')}')`));
    await duck.run(`CREATE TABLE p (k INTEGER, v UBIGINT, t VARCHAR)`);
    await duck.run(`INSERT INTO p VALUES ${rows.join(', ')}`);
    for (const [name, sql, keys] of [
      ['author_terms', 'SELECT k, v::DOUBLE FROM p ORDER BY 1, 2', lists.length],
      ['title_terms', 'SELECT t, v::DOUBLE FROM p ORDER BY 1, 2', undefined],
    ] as const) {
      const dir = join(tmp.path, name);
      mkdirSync(dir, { recursive: true });
      const terms = await writeCsr(duck, dir, name, sql, keys);
      const csr = Csr.load(dir, name);
      const expected = keys === undefined ? lists.filter((l) => l.length > 0) : lists;
      if (keys === undefined) expect(terms).toEqual(lists.flatMap((l, k) => (l.length > 0 ? [`term${String(k).padStart(2, '0')}`] : [])));
      expect(csr.keys).toBe(expected.length);
      expected.forEach((l, k) => {
        expect(csr.size(k)).toBe(l.length);
        expect([...csr.list(k)]).toEqual(l);
      });
      expect(() => csr.range(0)).toThrow(/read whole/);
      csr.close();
    }
    duck.close();
  });
});
