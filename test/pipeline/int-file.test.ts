/**
 * Scratch files of 32-bit integers (pipeline/lib/int-file.ts) against the plain array they were written from:
 * buffers far smaller than the data, ranges longer than the buffer, records read across buffer ends, a reader
 * asked for more than its buffer holds, and a file cut within an integer.
 */
import { existsSync, readdirSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IntFileReader, IntFileWriter } from '../../pipeline/lib/int-file.ts';
import { tempDir } from '../helpers/fixture-build.ts';
import { mulberry32 } from '../helpers/random.ts';

const tmp = tempDir('int-file');
afterAll(() => tmp.remove());

describe('IntFileWriter and IntFileReader', () => {
  it('give back every integer in order, whatever the buffer sizes and record lengths', () => {
    const rand = mulberry32(7);
    // Records of a length and then that many values (negative ones too), some longer than every buffer.
    const want: number[] = [];
    const path = join(tmp.path, 'records');
    const w = new IntFileWriter(path, 16);
    for (let r = 0; r < 500; r++) {
      const n = r % 50 === 0 ? 100 + Math.floor(rand() * 100) : Math.floor(rand() * 10);
      const values = Int32Array.from({ length: n }, () => Math.floor((rand() - 0.5) * 2 ** 31));
      w.push(n);
      want.push(n);
      if (r % 3 === 0) w.pushRange(values, 0, n);
      else if (r % 3 === 1) for (const v of values) w.push(v);
      else {
        let k = 0;
        for (; k + 1 < n; k += 2) w.push2(values[k]!, values[k + 1]!);
        if (k < n) w.push(values[k]!);
      }
      want.push(...values);
    }
    w.close();
    expect(w.length).toBe(want.length);
    for (const size of [1, 3, 16, 1024]) {
      const r = new IntFileReader(path, size);
      const got: number[] = [];
      while (r.ensure(1)) {
        const n = r.buffer[r.at]!;
        expect(r.ensure(1 + n), `a record of ${n} with a buffer of ${size}`).toBe(true);
        got.push(...r.buffer.subarray(r.at, r.at + 1 + n));
        r.at += 1 + n;
      }
      r.close();
      expect(got, `buffer of ${size}`).toEqual(want);
    }
  });

  it('says when the file ends before the integers asked for, and refuses a file cut within one', () => {
    const path = join(tmp.path, 'short');
    const w = new IntFileWriter(path, 4);
    for (let i = 0; i < 10; i++) w.push(i);
    w.close();
    const r = new IntFileReader(path, 4);
    expect(r.ensure(10)).toBe(true);
    r.at += 7;
    expect(r.ensure(4)).toBe(false);
    expect(Array.from(r.buffer.subarray(r.at, r.end))).toEqual([7, 8, 9]);
    r.close();
    truncateSync(path, 4 * 10 - 1);
    const cut = new IntFileReader(path, 64);
    expect(() => cut.ensure(10)).toThrow(/not whole 32-bit integers/);
    cut.close();
  });

  // Hundreds of chunks at the whole OA subset's size; many systems allow 1,024 open files (256 on macOS).
  it.skipIf(!existsSync('/proc/self/fd'))('holds no file open between writes and reads, however many files there are', () => {
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    const writers = Array.from({ length: 2000 }, (_, i) => new IntFileWriter(join(tmp.path, `many-${i}`), 4));
    writers.forEach((w, i) => {
      for (let k = 0; k < 9; k++) w.push(i * 10 + k);
    });
    expect(open() - before).toBeLessThan(10);
    for (const w of writers) w.close();
    const readers = writers.map((w) => new IntFileReader(w.path, 4));
    readers.forEach((r, i) => {
      expect(r.ensure(3)).toBe(true);
      expect(r.buffer[r.at]).toBe(i * 10);
    });
    expect(open() - before).toBeLessThan(10);
    for (const r of readers) r.close();
  });
});
