/**
 * The cohort index's author table as the work store's decoder needs it: authors in numeric id order, with
 * their names and ORCIDs held in memory (about 30 bytes an author), found by numeric id. Read by the server's
 * cohort index and by the pipeline when it writes the optional per-work documents.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { file, texts } from './cohort-index.ts';
import { readArray, SortedIds } from './typed-arrays.ts';
import type { AuthorLookup, TextBytes } from './work-store.ts';

/** Texts found by row, held in memory whole. */
export class Texts implements TextBytes {
  private constructor(
    readonly offsets: Uint32Array,
    readonly bin: Buffer,
  ) {}
  /** Texts of the given strings, by their position. */
  static of(values: readonly string[]): Texts {
    const parts = values.map((v) => Buffer.from(v, 'utf8'));
    const offsets = new Uint32Array(values.length + 1);
    parts.forEach((p, k) => (offsets[k + 1] = offsets[k]! + p.length));
    return new Texts(offsets, Buffer.concat(parts));
  }
  static load(dir: string, name: string, rows: number): Texts {
    const t = texts(name);
    const offsets = readArray(join(dir, t.offsets), 'u32');
    if (offsets.length !== rows + 1) throw new Error(`${t.offsets} has ${offsets.length - 1} rows, the index ${rows}`);
    return new Texts(offsets, readFileSync(join(dir, t.bin)));
  }
  get bytes(): number {
    return this.offsets.byteLength + this.bin.byteLength;
  }
  get(row: number): string {
    return this.bin.toString('utf8', this.offsets[row]!, this.offsets[row + 1]!);
  }
}

export class AuthorTable implements AuthorLookup {
  private constructor(
    /** Numeric author ids by row, ascending. */
    readonly ids: SortedIds,
    readonly names: Texts,
    readonly orcids: Texts,
  ) {}
  /** `dir` is the cohort index directory. */
  static load(dir: string): AuthorTable {
    const ids = SortedIds.load(join(dir, file.authorId));
    return new AuthorTable(ids, Texts.load(dir, file.authorNames, ids.length), Texts.load(dir, file.authorOrcids, ids.length));
  }
  get bytes(): number {
    return this.ids.bytes + this.names.bytes + this.orcids.bytes;
  }
  /** Row of a numeric author id, or -1. */
  row(n: number): number {
    return this.ids.indexOf(n);
  }
}
