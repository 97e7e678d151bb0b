// The quoted-line reader of row validation against csv-parse, the reader it stands in for: on every line it
// accepts, csv-parse must read exactly one record with the same cells.
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quotedLineCells } from '../../pipeline/steps/frame/csv-line.ts';

const csvParse = (line: string): string[][] | 'error' => {
  try {
    return parse(line, { relax_column_count: true }) as string[][];
  } catch {
    return 'error';
  }
};

describe('quotedLineCells', () => {
  it('reads quoted cells, doubled quotes and empty cells', () => {
    expect(quotedLineCells('W1,"a, b","say ""hi""",,""')).toEqual(['W1', 'a, b', 'say "hi"', '', '']);
    expect(quotedLineCells('"x",')).toEqual(['x', '']);
    expect(quotedLineCells(',"x"')).toEqual(['', 'x']);
  });

  it('refuses what is not one well-formed record', () => {
    for (const bad of ['"unclosed', 'a"b,c', '"a"b,c', '"a" ,b', ' "a",b', '"a"\r', '"a\rb"']) expect(quotedLineCells(bad), bad).toBeNull();
  });

  it('agrees with csv-parse on every line it accepts (generated lines)', () => {
    const alphabet = fc.constantFrom('a', 'é', ' ', ',', '"', '""', ';', '\t', '\r', '😀', 'x,"y"', '"');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (parts) => {
        const line = parts.join('');
        if (!line.includes('"')) return; // such lines never reach the reader
        const mine = quotedLineCells(line);
        const theirs = csvParse(line);
        if (mine === null) return; // csv-parse decides, and names the problem
        expect(theirs).toEqual([mine]);
      }),
      { numRuns: 20_000, seed: 24 },
    );
  });

  it('accepts the quoted lines of a well-formed row (the common case is fast)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', ',', '"', ' ', 'é') }), { minLength: 1, maxLength: 8 }), (cells) => {
        const line = cells.map((c) => `"${c.replaceAll('"', '""')}"`).join(',');
        expect(quotedLineCells(line)).toEqual(cells);
      }),
      { numRuns: 5_000, seed: 24 },
    );
  });
});
