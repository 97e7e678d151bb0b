import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readArray, readOffsets, SortedIds, SortedSearch } from '../../contracts/frame/typed-arrays.ts';

const dir = mkdtempSync(join(tmpdir(), 'typed-arrays-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const f64File = (name: string, values: number[]): string => {
  const path = join(dir, name);
  writeFileSync(path, new Uint8Array(Float64Array.from(values).buffer));
  return path;
};

/** The oracle: a plain scan. */
const scan = (a: ArrayLike<number>, x: number): number => Array.prototype.indexOf.call(a, x);

let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

/** Ascending distinct integers with the given gap generator. */
function ascending(n: number, start: number, gap: () => number): number[] {
  const out: number[] = [];
  for (let v = start, k = 0; k < n; k++, v += gap()) out.push(v);
  return out;
}

describe('SortedSearch', () => {
  const shapes: [string, number[]][] = [
    ['even', ascending(5000, 5_000_000_000, () => 1 + Math.floor(random() * 3))],
    ['clustered', [...ascending(2500, 10, () => 1), ...ascending(2500, 4_000_000_000, () => 1)]],
    ['exponential', ascending(60, 1, () => 0).map((_, k) => 2 ** k)],
    ['one', [42]],
    ['empty', []],
    ['two', [3, 9]],
    ['one block', ascending(64, 100, () => 2)],
    ['one block and one', ascending(65, 100, () => 2)],
    ['two blocks', ascending(128, 100, () => 3)],
  ];
  it.each(shapes)('finds every value and only those (%s spread)', (_, values) => {
    for (const Ctor of [Float64Array, Uint32Array]) {
      if (Ctor === Uint32Array && values.some((v) => v > 0xffffffff)) continue;
      const a = Ctor.from(values);
      const search = new SortedSearch(a);
      for (let k = 0; k < values.length; k++) expect(search.indexOf(values[k]!)).toBe(k);
      const probes = [...values.map((v) => v + 1), ...values.map((v) => v - 1), -1, 0, 2 ** 40, 0.5];
      for (const x of probes) expect(search.indexOf(x)).toBe(scan(a, x));
    }
  });
});

describe('readOffsets', () => {
  it('holds offsets below 2^32 as a Uint32Array with the same values', () => {
    const values = ascending(3_000_000, 0, () => Math.floor(random() * 1000)); // crosses the 8 MiB read chunk
    const got = readOffsets(f64File('small.f64', values));
    expect(got).toBeInstanceOf(Uint32Array);
    expect(got.length).toBe(values.length);
    expect(got.every((v, k) => v === values[k])).toBe(true);
  });
  it('keeps f64 when the last offset is 2^32 or more', () => {
    const values = [0, 10, 2 ** 32];
    const got = readOffsets(f64File('large.f64', values));
    expect(got).toBeInstanceOf(Float64Array);
    expect(Array.from(got)).toEqual(values);
  });
  it('rejects a file that is not whole f64 values', () => {
    const path = join(dir, 'odd.f64');
    writeFileSync(path, new Uint8Array(12));
    expect(() => readOffsets(path)).toThrow(/not a whole number of f64/);
  });
  it('reads an empty file as no offsets', () => {
    expect(readOffsets(f64File('empty.f64', [])).length).toBe(0);
  });
});

describe('SortedIds', () => {
  it('holds A5… ids as a base and 32-bit differences, answering like the f64 values', () => {
    const values = ascending(20_000, 5_000_000_006, () => 1 + Math.floor(random() * 50));
    const ids = SortedIds.load(f64File('authors.f64', values));
    expect(ids.bytes).toBe(values.length * 4 + Math.ceil(values.length / 64) * 8); // the values and the search sample
    expect(ids.length).toBe(values.length);
    values.forEach((v, k) => {
      expect(ids.at(k)).toBe(v);
      expect(ids.indexOf(v)).toBe(k);
    });
    for (const x of [values[0]! - 1, values.at(-1)! + 1, 0, 2 ** 40, ...values.slice(0, 50).map((v) => v + 1)]) expect(ids.indexOf(x)).toBe(values.indexOf(x));
  });
  it('keeps f64 when the ids span 2^32 or more', () => {
    const values = [1, 2, 2 ** 33];
    const ids = SortedIds.load(f64File('wide.f64', values));
    expect(ids.bytes).toBe(3 * 8 + 8);
    values.forEach((v, k) => expect(ids.indexOf(v)).toBe(k));
    expect(ids.indexOf(3)).toBe(-1);
  });
});

describe('readArray', () => {
  it('reads a typed-array file across read chunks into an aligned array', () => {
    const values = Uint32Array.from({ length: 3_000_000 }, (_, k) => (k * 2654435761) >>> 0);
    const path = join(dir, 'u32.bin');
    writeFileSync(path, new Uint8Array(values.buffer));
    const got = readArray(path, 'u32');
    expect(got).toBeInstanceOf(Uint32Array);
    expect(got.byteOffset).toBe(0);
    expect(Buffer.compare(Buffer.from(got.buffer), Buffer.from(values.buffer))).toBe(0);
  });
});
