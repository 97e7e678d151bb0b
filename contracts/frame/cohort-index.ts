/**
 * The cohort index: the files the pipeline writes under `frame/cohort/` and the server loads into typed
 * arrays to answer cohort, works and facet queries in memory (DuckDB answers a broad exact count in 5–15 ms
 * and a page of 25 full rows in 50–250 ms at 4.3M works; see docs/benchmarks.md). One place for the layout, so
 * the writer and the reader cannot disagree.
 *
 * Rows are the works in numeric id order (ids have no leading zeros, so that is (length, string) order); a
 * sort's ties are broken by that order. Every column file is a typed column (contracts/common/bytes.ts) of one value
 * per row.
 */
import { z } from 'zod';
import type { TypedName } from '../common/bytes.ts';
import { ROUTES } from './vocab.ts';

export const COHORT_DIR = 'frame/cohort';

/** Bits of the `flags` column. */
export const FLAG = {
  aff: 1,
  fund: 2,
  venue: 4,
  about: 8,
  retracted: 16,
  has_abstract: 32,
  predicted: 64,
  direct_labeled: 128,
} as const;
export const ROUTE_FLAG: Record<(typeof ROUTES)[number], number> = {
  aff: FLAG.aff,
  fund: FLAG.fund,
  venue: FLAG.venue,
  about: FLAG.about,
};

/** Per-row columns: name → element type and meaning. Coded columns hold 1 + the index into their dictionary; 0 is "none". */
export const COLUMNS = {
  id: ['f64', 'numeric part of the work id'],
  year: ['i16', 'publication year; 0 when unknown'],
  cited: ['i32', 'cited_by'],
  flags: ['u8', 'route, retraction, abstract, prediction and direct-label bits (FLAG)'],
  n_in: ['i8', 'screening consensus 0..3; -1 when not screened'],
  lang: ['u16', 'code of lang'],
  type: ['u16', 'code of type'],
  field: ['u16', 'code of field'],
  topic: ['u16', 'code of topic'],
  venue: ['u32', 'code of venue'],
  pred_cand: ['u16', 'predicted candidate categories (bit k = CATEGORY_ORDER[k])'],
  pred_cons: ['u16', 'predicted consensus categories'],
  pred_design_cand: ['u8', '1 + DESIGNS index of study_design_candidate; 0 none'],
  pred_design_cons: ['u8', '1 + DESIGNS index of study_design_consensus; 0 none'],
  direct_any: ['u16', 'categories some direct-labelling model applied'],
  direct_all: ['u16', 'categories every direct-labelling model applied'],
  direct_design_any: ['u16', 'designs some model gave (bit k = DESIGNS[k])'],
  direct_design_all: ['u16', 'the design every model gave (at most one bit)'],
  ntok: ['u8', 'distinct title terms (capped at 255); relevance ranks shorter titles first'],
} as const satisfies Record<string, readonly [TypedName, string]>;
export type ColumnName = keyof typeof COLUMNS;

/** Dictionaries of the coded columns, in code order; each entry is [value, works in the frame]. */
export const DICTIONARIES = ['lang', 'type', 'field', 'topic', 'venue'] as const;
export type DictionaryName = (typeof DICTIONARIES)[number];

/** Row permutations, one per sort. Ties: cited desc, then row (id) order. */
export const ORDERS = {
  cited: 'cited desc, id',
  year_desc: 'year desc (unknown last), cited desc, id',
  year_asc: 'year asc (unknown last), cited desc, id',
  relevance: 'distinct title terms asc, cited desc, id',
} as const;

/**
 * Compressed sparse rows: for key k, values[offsets[k] .. offsets[k+1]) ascending. Keys are a sorted string
 * list (terms) or rows of another table (author rows).
 */
export const CSRS = {
  title_terms: 'title term → work rows',
  author_terms: 'author-name term → author rows',
  author_term_works: 'author-name term → work rows with an author whose name has the term (same keys as author_terms)',
  author_works: 'author row → work rows',
  ca_neighbours:
    'author row → Canadian co-author rows, strongest first (weight desc, shared works desc, id); with parallel ca_neighbours.shared (u16 or u32) and ca_neighbours.weight.f64',
} as const;
export type CsrName = keyof typeof CSRS;

/**
 * CSRs stored delta-varint coded: per key the first value, then each gap to the previous one, 7 bits a byte;
 * `<name>.byte-offsets.f64` holds each key's first byte (n + 1) and `<name>.counts.u32` its number of values.
 * The term lists only: they are read whole per key (the co-author list is read by position, with parallel
 * arrays), and they are 406 MB of u32 at 4.3M works, about a third of that coded (docs/decisions.md).
 */
export const PACKED_CSRS: readonly CsrName[] = ['title_terms', 'author_terms', 'author_term_works'];
export const isPackedCsr = (name: CsrName) => PACKED_CSRS.includes(name);

export const cohortIndexManifestSchema = z
  .object({
    rows: z.number().int().min(0),
    authors: z.number().int().min(0),
    /** Term lists of the keyed CSRs, sorted by code unit. */
    title_terms: z.array(z.string()),
    author_terms: z.array(z.string()),
    dictionaries: z.record(z.enum(DICTIONARIES), z.array(z.tuple([z.string(), z.number().int()]))),
  })
  .strict();
export type CohortIndexManifest = z.infer<typeof cohortIndexManifestSchema>;

/**
 * A file of unsigned integers written 16 bits wide when every value fits, else 32 (`<base>.u16` or
 * `<base>.u32`; which one exists says): at 4.3M works the work lengths and the network's shared-work counts
 * all fit, which saves 33 MB of the build's 2 GB budget (docs/decisions.md).
 */
export interface NarrowFile {
  u16: string;
  u32: string;
}
const narrow = (base: string): NarrowFile => ({ u16: `${base}.u16`, u32: `${base}.u32` });
/** The name to write values up to `max` under. */
export const narrowName = (f: NarrowFile, max: number): string => (max < 2 ** 16 ? f.u16 : f.u32);

export const file = {
  manifest: 'index.json',
  column: (name: ColumnName) => `${name}.${COLUMNS[name][0]}`,
  order: (sort: keyof typeof ORDERS) => `order_${sort}.u32`,
  csrOffsets: (name: CsrName) => `${name}.offsets.f64`,
  csrValues: (name: CsrName) => `${name}.values.u32`,
  csrPackedValues: (name: CsrName) => `${name}.values.dv`,
  csrByteOffsets: (name: CsrName) => `${name}.byte-offsets.f64`,
  csrCounts: (name: CsrName) => `${name}.counts.u32`,
  neighbourShared: narrow('ca_neighbours.shared'),
  neighbourWeight: 'ca_neighbours.weight.f64',
  /** Authors in numeric id order: numeric id, Canadian-affiliated works, and their names and ORCIDs (texts). */
  authorId: 'author_id.f64',
  authorCaWorks: 'author_ca_works.u32',
  authorNames: 'author_names',
  authorOrcids: 'author_orcids',
  /**
   * The work store (contracts/frame/work-store.ts): every work's packed row, in any order, found by row
   * (`works.start.f64`, absent when the rows are in row order, and `works.length`, u16 or u32), and the symbol tables
   * its codes point into.
   */
  works: 'works.bin',
  workStart: 'works.start.f64',
  workLength: narrow('works.length'),
  workSymbols: 'works.symbols.json',
};

/**
 * Texts found by row, read into memory whole: `<name>.bin` and `<name>.offsets.u32` (n + 1 byte offsets; the
 * text of row k is bytes [offsets[k], offsets[k+1]), an empty text is null where the text is optional).
 */
export const texts = (name: string) => ({ bin: `${name}.bin`, offsets: `${name}.offsets.u32` });

/** Numeric value of a `W…`/`A…` id (ids have at most 15 digits, exact in a double). */
export const idNumber = (id: string): number => Number(id.slice(1));
