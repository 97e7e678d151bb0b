/**
 * Files of one record a line, written and read in pieces (pipeline/lib/line-file.ts): every line comes back as
 * written, whatever falls on a piece's edge (a line break, a character of several bytes), with and without a
 * last line break.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLineFile, writeLineFile } from '../../pipeline/lib/line-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'line-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (path: string) => {
  const lines: string[] = [];
  readLineFile(path, (l) => lines.push(l));
  return lines;
};

describe('line files', () => {
  it('gives back 300,000 lines of several pieces, characters of two to four bytes included', () => {
    const lines = Array.from({ length: 300_000 }, (_, i) => `${i}\tcafé ☕ 𝄞 ${'x'.repeat(i % 17)}`);
    const path = join(dir, 'many.tsv');
    writeLineFile(path, lines.length, (i) => lines[i]!);
    expect(readFileSync(path, 'utf8')).toBe(lines.map((l) => `${l}\n`).join(''));
    expect(read(path)).toEqual(lines);
  });

  it('reads a last line without its line break, and an empty file as no lines', () => {
    writeFileSync(join(dir, 'open.txt'), 'a\nb');
    expect(read(join(dir, 'open.txt'))).toEqual(['a', 'b']);
    writeFileSync(join(dir, 'empty.txt'), '');
    expect(read(join(dir, 'empty.txt'))).toEqual([]);
  });
});
