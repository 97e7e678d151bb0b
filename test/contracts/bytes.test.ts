/**
 * The binary toolkit (contracts/common/bytes.ts) against plain oracles: varints against LEB128 written out with
 * BigInt arithmetic, `varintLength` against the bytes written at every power of two and its neighbours up to
 * 2^53 − 1, the reader's bounds (a varint, a length or a count past the end, a varint too long) as BytesErrors
 * naming the source and the offset, and the rank bitset against a sorted list's indexOf.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteBuffer, ByteReader, BytesError, RankBitset, typedColumn, varintLength } from '../../contracts/common/bytes.ts';

/** LEB128 of a whole number, by the definition. */
function leb128(v: number): number[] {
  let x = BigInt(v);
  const out: number[] = [];
  do {
    const low = Number(x & 0x7fn);
    x >>= 7n;
    out.push(x > 0n ? low | 0x80 : low);
  } while (x > 0n);
  return out;
}

const edges = (() => {
  const values = new Set<number>([0, 1]);
  for (let b = 1; b <= 53; b++) for (const v of [2 ** b - 1, 2 ** b, 2 ** b + 1]) if (v <= Number.MAX_SAFE_INTEGER) values.add(v);
  return [...values];
})();

/** The error a read throws, or null. */
function thrown(read: () => unknown): unknown {
  try {
    read();
    return null;
  } catch (err) {
    return err;
  }
}

describe('binary toolkit', () => {
  it('writes LEB128 varints, varintLength bytes long, and reads them back, at every power of two and its neighbours', () => {
    const w = new ByteBuffer(4);
    for (const v of edges) {
      w.reset();
      w.uvar(v);
      expect([...w.view()], String(v)).toEqual(leb128(v));
      expect(varintLength(v), String(v)).toBe(w.length);
      const r = new ByteReader(w.view(), 'test');
      expect(r.uvar()).toBe(v);
      r.done();
    }
  });

  it('reads back what it wrote, signed varints, doubles and texts among bytes', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ k: fc.constant('u' as const), v: fc.maxSafeNat() }),
            fc.record({ k: fc.constant('s' as const), v: fc.integer({ min: -(2 ** 52) + 1, max: 2 ** 52 - 1 }) }),
            fc.record({ k: fc.constant('f' as const), v: fc.double({ noNaN: true }) }),
            fc.record({ k: fc.constant('t' as const), v: fc.string({ unit: 'binary' }) }),
            fc.record({ k: fc.constant('b' as const), v: fc.integer({ min: 0, max: 255 }) }),
          ),
        ),
        (items) => {
          const w = new ByteBuffer(1);
          for (const it of items) {
            if (it.k === 'u') w.uvar(it.v);
            else if (it.k === 's') w.svar(it.v);
            else if (it.k === 'f') w.f64(it.v);
            else if (it.k === 't') w.text(it.v);
            else w.byte(it.v);
          }
          const r = new ByteReader(w.slice(), 'test');
          for (const it of items) {
            const got = it.k === 'u' ? r.uvar() : it.k === 's' ? r.svar() : it.k === 'f' ? r.f64() : it.k === 't' ? r.text() : r.byte();
            // Texts come back as their UTF-8 decodes them (a lone surrogate as U+FFFD).
            expect(got).toEqual(it.k === 't' ? Buffer.from(it.v, 'utf8').toString('utf8') : it.v);
          }
          r.done();
        },
      ),
      { numRuns: 50 },
    );
  });

  it('ends every read past the end, and every varint longer than 8 bytes, in a BytesError naming the source and the offset', () => {
    const cases: [string, number[], (r: ByteReader) => unknown, number][] = [
      ['a byte past the end', [], (r) => r.byte(), 100],
      ['a varint cut', [0x80, 0x80], (r) => r.uvar(), 100],
      ['a varint of 9 bytes', [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], (r) => r.uvar(), 100],
      ['a varint above 2^53', [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f], (r) => r.uvar(), 100],
      ['a text longer than the bytes', [5, 0x61, 0x62], (r) => r.text(), 101],
      ['a count larger than the bytes left', [3, 1, 2], (r) => r.count(), 100],
      ['a double cut', [1, 2, 3], (r) => r.f64(), 100],
    ];
    for (const [what, bytes, read, offset] of cases) {
      const err = thrown(() => read(new ByteReader(Uint8Array.from(bytes), 'some/file.bin', 100)));
      expect(err, what).toBeInstanceOf(BytesError);
      expect((err as BytesError).source, what).toBe('some/file.bin');
      expect((err as BytesError).offset, what).toBe(offset);
      expect((err as Error).message, what).toMatch(/^some\/file\.bin, byte \d+: /);
    }
    // A count that fits is read.
    expect(new ByteReader(Uint8Array.from([2, 1, 2]), 'x').count()).toBe(2);
  });

  it('gives a typed column over whole elements only, naming the source otherwise', () => {
    const bytes = new Uint8Array([1, 0, 2, 0, 3]);
    expect([...typedColumn('u16', bytes.buffer, 'c.u16', 0, 4)]).toEqual([1, 2]);
    const err = thrown(() => typedColumn('u16', bytes.buffer, 'c.u16'));
    expect(err).toBeInstanceOf(BytesError);
    expect((err as BytesError).source).toBe('c.u16');
  });

  it("ranks a set's members as their index in the sorted list", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 999 })), (members) => {
        const sorted = [...members].sort((a, b) => a - b);
        const bits = RankBitset.of(members, 1000);
        for (let i = 0; i < 1000; i++) {
          expect(bits.has(i)).toBe(sorted.includes(i));
          if (bits.has(i)) expect(bits.rank(i)).toBe(sorted.indexOf(i));
        }
      }),
      { numRuns: 50 },
    );
  });
});
