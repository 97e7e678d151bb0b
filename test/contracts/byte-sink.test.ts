/**
 * The byte escapes of the work serializers against the string functions they stand for: a string's UTF-8,
 * escaped in place, must give the bytes of JSON.stringify (plain, or with every `"` doubled as inside a CSV
 * cell) and of csvField(exportCell(...)) (export-columns.ts) of the string itself. Generated strings of every
 * kind: control characters, quotes, backslashes, formula starts, non-ASCII and astral characters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteSink } from '../../contracts/frame/byte-sink.ts';
import { csvField, exportCell } from '../../contracts/frame/export-columns.ts';

/** Strings of well-formed UTF-16 (what the work store's UTF-8 can hold), rich in the characters escapes treat apart. */
const textArb = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({
    unit: fc.constantFrom('"', '\\', ',', '\n', '\r', '\t', '\b', '\f', '\u0000', '\u001f', '\u007f', '=', '+', '-', '@', "'", 'a', 'é', '\u2028', '😀'),
  }),
  fc.string({ unit: 'binary' }).map((s) => Buffer.from(s, 'utf8').toString('utf8')),
);

/** Writes `s`'s UTF-8 at an offset inside a larger buffer (escapes read ranges, not whole buffers). */
function placed(s: string): { src: Buffer; from: number; to: number } {
  const body = Buffer.from(s, 'utf8');
  const src = Buffer.concat([Buffer.from('xx"'), body, Buffer.from('",yy')]);
  return { src, from: 3, to: 3 + body.length };
}

describe('ByteSink escapes', () => {
  it('jsonString gives JSON.stringify, and with doubled quotes its CSV-cell form', () => {
    fc.assert(
      fc.property(textArb, (s) => {
        const { src, from, to } = placed(s);
        const sink = new ByteSink(8);
        sink.jsonString(src, from, to, false);
        expect(sink.takeString()).toBe(JSON.stringify(s));
        sink.jsonString(src, from, to, true);
        expect(sink.takeString()).toBe(JSON.stringify(s).replaceAll('"', '""'));
      }),
      { numRuns: 2000 },
    );
    // The worst case for room: every byte a six-byte escape, written into a sink far too small.
    for (const s of ['\u0000'.repeat(100), '\u001f"'.repeat(50)]) {
      const sink = new ByteSink(8);
      const b = Buffer.from(s);
      sink.jsonString(b, 0, b.length, true);
      expect(sink.takeString()).toBe(JSON.stringify(s).replaceAll('"', '""'));
    }
  });

  it('csvCell gives csvField(exportCell(s)): formula guard, quoting and doubled quotes', () => {
    fc.assert(
      fc.property(textArb, (s) => {
        const { src, from, to } = placed(s);
        const sink = new ByteSink(8);
        sink.byte(0x7c); // a byte already written must stay
        sink.csvCell(src, from, to);
        expect(sink.takeString()).toBe(`|${csvField(exportCell(s))}`);
      }),
      { numRuns: 2000 },
    );
    for (const s of ['=SUM(A1)', '-1', '@x', '\tx', '\rx', 'a,b', 'say "hi"', '', 'plain'])
      expect(
        (() => {
          const sink = new ByteSink(8);
          const b = Buffer.from(s);
          sink.csvCell(b, 0, b.length);
          return sink.takeString();
        })(),
      ).toBe(csvField(exportCell(s)));
  });

  it('uint prints integers as String() does, and the sink grows past its first size', () => {
    const sink = new ByteSink(4);
    const values = [0, 7, 9, 10, 99, 100, 12345, 2 ** 31, 2 ** 32 + 1, 2 ** 53 - 1, 1e21, -0];
    for (const v of values) {
      sink.uint(v);
      sink.byte(0x3b);
    }
    expect(sink.takeString()).toBe(values.map((v) => `${String(v)};`).join(''));
    fc.assert(
      fc.property(fc.maxSafeNat(), (v) => {
        sink.uint(v);
        expect(sink.takeString()).toBe(String(v));
      }),
    );
  });
});
