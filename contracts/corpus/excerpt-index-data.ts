/**
 * The excerpt index's arrays (the server's filter, count and order over every excerpt: occurrence codes, masks,
 * phrase lists, sort orders; api-dynamic/src/services/corpus/excerpt-index.ts), computed once by the pipeline
 * from the database's rows and stored in the database as binary blobs, so the server reads them at start
 * instead of walking 2.2M rows cell by cell through sqlite-wasm's JS binding and sorting 1M ids five times
 * (that was most of start-up, and grows with the corpus; docs/benchmarks.md has the measurement).
 *
 * Storage: table `excerpt_index` (contracts/corpus/database.ts), rows in id order. Row 1 is the format, JSON:
 * `{ version, size, arrays: [[name, type, length], …] }`; then each array in that order as a typed column
 * (contracts/common/bytes.ts: its raw little-endian bytes), cut into chunks of at most
 * CHUNK_BYTES so that reading one never needs more than a chunk of the wasm heap. Bump EXCERPT_INDEX_VERSION
 * when an array is added, removed or means something else; the server refuses another version.
 */
import { assertLittleEndian, BytesError, columnBytes, TYPED_ARRAYS, type TypedColumn, type TypedName } from '../common/bytes.ts';
import { BANDS, OCCURRENCE_STATUSES } from './vocab.ts';

export const EXCERPT_INDEX_VERSION = 1;

/** Bytes per stored chunk (what one read puts in the wasm heap at a time). */
const CHUNK_BYTES = 1 << 20;

/** Band code of an occurrence without a band (rejected, indeterminate). */
export const NO_BAND = BANDS.length;

/** Bit of a (status, band) pair in an excerpt's mask: 8 bits per status, one per band code (≤ 7 codes). */
export const pairBit = (status: number, band: number) => 1 << (status * 8 + band);

/**
 * The permutations kept. A sentence's p-value key is taken over the occurrences the listing is about: over its
 * verified occurrences when only verified ones are listed (the default listing, any verified band), else over
 * all of them; so a rejected "p = 0.01" never moves a verified p = 0.09 to the top of the default listing.
 */
export const ORDER_NAMES = ['p_asc', 'p_desc', 'year_desc', 'p_asc_verified', 'p_desc_verified'] as const;
export type OrderName = (typeof ORDER_NAMES)[number];

export interface ExcerptIndexData {
  /** Number of excerpts; excerpt ids are 1 … size, in `article` order. */
  size: number;
  /** Occurrences of excerpt i: [occStart[i], occStart[i + 1]). */
  occStart: Int32Array;
  occPhrase: Uint16Array;
  occBand: Uint8Array;
  occStatus: Uint8Array;
  /** Exact p-value of each occurrence (NaN: a bound, "n.s." or none), for `p_min`/`p_max`. */
  occP: Float64Array;
  /** 0-based article row of each excerpt (excerpt index = id − 1). */
  articleOf: Int32Array;
  /** Publication year of each excerpt's article (-1: none). */
  yearOf: Int16Array;
  /** Per excerpt, the `pairBit`s of its occurrences. */
  pairs: Int32Array;
  /** Per phrase code, the excerpts it occurs in (ascending): `phraseExcerpts[phraseStart[p] … phraseStart[p + 1])`. */
  phraseStart: Int32Array;
  phraseExcerpts: Int32Array;
  /** Each order as a permutation of excerpt indexes: missing keys last, ties by id. */
  orders: Record<OrderName, Int32Array>;
}

/** What computing the index needs of a database connection (sqlite-wasm's oo1.DB, server's or pipeline's). */
export interface RowSource {
  selectValue(sql: string): unknown;
  prepare(sql: string): {
    step(): boolean;
    get(i: number): unknown;
    getInt(i: number): number | null;
    getString(i: number): string | null;
    finalize(): unknown;
  };
}

/**
 * What the index is made from, as the rows say it (one entry per excerpt, one per occurrence), before the arrays
 * derived from it (`completeExcerptIndex`). Read from the database (`computeExcerptIndex`) or gathered while the
 * rows are written (pipeline/steps/corpus/excerpt-index-builder.ts): both must give the same.
 */
export type ExcerptIndexRows = Pick<ExcerptIndexData, 'size' | 'occStart' | 'occPhrase' | 'occBand' | 'occStatus' | 'occP' | 'articleOf' | 'yearOf'> & {
  /** The p-value of each occurrence, exact or a bound (NaN: none stated), for the p orders. */
  occPAny: Float64Array;
};

/** The codes of an occurrence's phrase, band and status; an unknown phrase or status is an error, named. */
export function occurrenceCodes(phrases: readonly string[]) {
  const phraseCode = new Map(phrases.map((p, i) => [p, i]));
  const bandCode = new Map<string | null, number>(BANDS.map((b, i) => [b, i]));
  bandCode.set(null, NO_BAND);
  const statusCode = new Map<string, number>(OCCURRENCE_STATUSES.map((s, i) => [s, i]));
  return {
    phrase(phrase: string): number {
      const code = phraseCode.get(phrase);
      if (code === undefined) throw new Error(`occurrence phrase "${phrase}" is not in the lexicon`);
      return code;
    },
    band: (band: string | null): number => bandCode.get(band)!,
    status(status: string): number {
      const code = statusCode.get(status);
      if (code === undefined) throw new Error(`occurrence status "${status}" is not a status`);
      return code;
    },
  };
}

/** Computes the index from the database's rows (one pass per table, in id order), as the server once did at start. */
export function computeExcerptIndex(db: RowSource, phrases: readonly string[]): ExcerptIndexData {
  const size = Number(db.selectValue('SELECT count(*) FROM excerpts'));
  const occurrences = Number(db.selectValue('SELECT count(*) FROM occurrences'));
  const codes = occurrenceCodes(phrases);

  const articleOf = new Int32Array(size);
  const yearOf = new Int16Array(size);
  const st = db.prepare('SELECT e.id, e.article, a.year FROM excerpts e JOIN articles a ON a.id = e.article ORDER BY e.id');
  try {
    let i = 0;
    while (st.step()) {
      if (st.getInt(0) !== i + 1) throw new Error('excerpt ids are not 1 … n in order');
      articleOf[i] = st.getInt(1)! - 1;
      const y = st.get(2);
      yearOf[i] = y === null ? -1 : Number(y);
      i++;
    }
  } finally {
    st.finalize();
  }

  const occStart = new Int32Array(size + 1);
  const occPhrase = new Uint16Array(occurrences);
  const occBand = new Uint8Array(occurrences);
  const occStatus = new Uint8Array(occurrences);
  const occP = new Float64Array(occurrences).fill(NaN);
  const occPAny = new Float64Array(occurrences).fill(NaN);
  const so = db.prepare('SELECT excerpt, phrase, band, status, p_value, p_exact FROM occurrences ORDER BY excerpt, ordinal');
  try {
    let k = 0;
    let current = 0;
    while (so.step()) {
      const excerpt = so.getInt(0)!;
      while (current < excerpt) occStart[current++] = k;
      occPhrase[k] = codes.phrase(so.getString(1)!);
      occBand[k] = codes.band(so.get(2) as string | null);
      occStatus[k] = codes.status(so.getString(3)!);
      const p = so.get(4);
      if (p !== null) {
        occPAny[k] = Number(p);
        if (so.getInt(5) === 1) occP[k] = Number(p);
      }
      k++;
    }
    while (current <= size) occStart[current++] = k;
  } finally {
    so.finalize();
  }
  return completeExcerptIndex({ size, occStart, occPhrase, occBand, occStatus, occP, occPAny, articleOf, yearOf }, phrases.length);
}

/**
 * The excerpt indexes 0 … n − 1 ordered by `key` (ascending with `dir` 1, descending with -1), missing keys (NaN)
 * last, ties by index (the article order), so every order is total and stable: what sorting the indexes with
 * that comparator gives (tested against it), in linear time. The distinct keys are few (p-values have a few
 * decimals, years are years) and are sorted alone; each excerpt then goes, in index order, to its key's bucket:
 * five comparator sorts took 0.6 s at 413k excerpts.
 */
export function orderByKey(key: Float64Array, dir: 1 | -1): Int32Array {
  const n = key.length;
  // Key → rank; +0 and -0 are one key to a Map, as they are equal to the comparator.
  const rank = new Map<number, number>();
  for (let i = 0; i < n; i++) if (!Number.isNaN(key[i]!)) rank.set(key[i]!, 0);
  const distinct = Float64Array.from(rank.keys()).sort();
  if (dir === -1) distinct.reverse();
  distinct.forEach((k, r) => rank.set(k, r));
  const R = distinct.length;
  // Bucket starts: one bucket per rank, then the missing keys.
  const start = new Int32Array(R + 2);
  const rankOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const r = Number.isNaN(key[i]!) ? R : rank.get(key[i]!)!;
    rankOf[i] = r;
    start[r + 1]!++;
  }
  for (let r = 0; r <= R; r++) start[r + 1]! += start[r]!;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[start[rankOf[i]!]!++] = i;
  return order;
}

/** The index from what the rows say: the masks, the phrase lists and the orders derived. */
export function completeExcerptIndex(rows: ExcerptIndexRows, phraseCount: number): ExcerptIndexData {
  const { size, occStart, occPhrase, occBand, occStatus, occPAny } = rows;
  // p-value keys of each excerpt over all its occurrences and over its verified ones (NaN: none stated).
  const pMin = new Float64Array(size).fill(NaN);
  const pMax = new Float64Array(size).fill(NaN);
  const pMinVerified = new Float64Array(size).fill(NaN);
  const pMaxVerified = new Float64Array(size).fill(NaN);
  const widen = (min: Float64Array, max: Float64Array, i: number, v: number) => {
    if (!(min[i]! <= v)) min[i] = v;
    if (!(max[i]! >= v)) max[i] = v;
  };
  const pairs = new Int32Array(size);
  const phraseTotals = new Int32Array(phraseCount + 1);
  // First occurrence of its phrase within the excerpt (an excerpt has a few occurrences: a look back is cheap).
  const firstOfPhrase = (i: number, k: number) => {
    for (let j = occStart[i]!; j < k; j++) if (occPhrase[j] === occPhrase[k]) return false;
    return true;
  };
  for (let i = 0; i < size; i++)
    for (let k = occStart[i]!, end = occStart[i + 1]!; k < end; k++) {
      const p = occPAny[k]!;
      if (!Number.isNaN(p)) {
        widen(pMin, pMax, i, p);
        if (occStatus[k] === 0) widen(pMinVerified, pMaxVerified, i, p);
      }
      pairs[i]! |= pairBit(occStatus[k]!, occBand[k]!);
      if (firstOfPhrase(i, k)) phraseTotals[occPhrase[k]! + 1]!++;
    }
  const phraseStart = new Int32Array(phraseCount + 1);
  for (let p = 0; p < phraseCount; p++) phraseStart[p + 1] = phraseStart[p]! + phraseTotals[p + 1]!;
  const phraseExcerpts = new Int32Array(phraseStart[phraseCount]!);
  const fill = phraseStart.slice(0, phraseCount);
  for (let i = 0; i < size; i++)
    for (let k = occStart[i]!, end = occStart[i + 1]!; k < end; k++) if (firstOfPhrase(i, k)) phraseExcerpts[fill[occPhrase[k]!]!++] = i;

  const yearKey = Float64Array.from(rows.yearOf, (y) => (y < 0 ? NaN : y));
  return {
    size,
    occStart,
    occPhrase,
    occBand,
    occStatus,
    occP: rows.occP,
    articleOf: rows.articleOf,
    yearOf: rows.yearOf,
    pairs,
    phraseStart,
    phraseExcerpts,
    orders: {
      p_asc: orderByKey(pMin, 1),
      p_desc: orderByKey(pMax, -1),
      year_desc: orderByKey(yearKey, -1),
      p_asc_verified: orderByKey(pMinVerified, 1),
      p_desc_verified: orderByKey(pMaxVerified, -1),
    },
  };
}

/** The stored arrays, in storage order, with their element type. */
const ARRAYS: readonly [string, TypedName][] = [
  ['occStart', 'i32'],
  ['occPhrase', 'u16'],
  ['occBand', 'u8'],
  ['occStatus', 'u8'],
  ['occP', 'f64'],
  ['articleOf', 'i32'],
  ['yearOf', 'i16'],
  ['pairs', 'i32'],
  ['phraseStart', 'i32'],
  ['phraseExcerpts', 'i32'],
  ...ORDER_NAMES.map((o): [string, TypedName] => [`order:${o}`, 'i32']),
];

function arrayOf(data: ExcerptIndexData, name: string): ExcerptIndexData['occStart' | 'occPhrase' | 'occBand' | 'occP' | 'yearOf'] {
  if (name.startsWith('order:')) return data.orders[name.slice(6) as OrderName];
  return data[name as Exclude<keyof ExcerptIndexData, 'size' | 'orders'>];
}

interface Format {
  version: number;
  size: number;
  arrays: [string, TypedName, number][];
}

/** What writing needs of a connection: one prepared insert, run per row. */
export interface RowSink {
  prepare(sql: string): { bind(values: (number | string | Uint8Array)[]): { stepReset(): unknown }; finalize(): unknown };
}

/** Stores the index in the (empty) `excerpt_index` table, rows in order. */
export function writeExcerptIndex(db: RowSink, data: ExcerptIndexData): void {
  assertLittleEndian('excerpt_index');
  const format: Format = { version: EXCERPT_INDEX_VERSION, size: data.size, arrays: ARRAYS.map(([name, type]) => [name, type, arrayOf(data, name).length]) };
  const put = db.prepare('INSERT INTO excerpt_index (id, name, data) VALUES (?, ?, ?)');
  try {
    let id = 0;
    put.bind([++id, 'format', new TextEncoder().encode(JSON.stringify(format))]).stepReset();
    for (const [name] of ARRAYS) {
      const bytes = columnBytes(arrayOf(data, name));
      for (let at = 0; at < bytes.length; at += CHUNK_BYTES) put.bind([++id, name, bytes.subarray(at, at + CHUNK_BYTES)]).stepReset();
    }
  } finally {
    put.finalize();
  }
}

/** What reading needs of a connection: a statement stepping over rows, giving texts, numbers and blobs. */
export interface BlobSource {
  prepare(sql: string): {
    step(): boolean;
    get(i: number): unknown;
    getString(i: number): string | null;
    getBlob(i: number): Uint8Array | null;
    finalize(): unknown;
  };
}

/** The format row's JSON, its shape checked (a damaged one is a BytesError, not a TypeError later). */
function parseFormat(bytes: Uint8Array | null, table: string): Format {
  const fail = (what: string): never => {
    throw new BytesError(`${table} format`, 0, what);
  };
  let format: Format;
  try {
    format = JSON.parse(new TextDecoder().decode(bytes ?? new Uint8Array(0))) as Format;
  } catch {
    return fail('not JSON');
  }
  if (typeof format !== 'object' || format === null) return fail('not an object');
  if (format.version !== EXCERPT_INDEX_VERSION)
    throw new Error(`the excerpt index has version ${format.version}; this server reads ${EXCERPT_INDEX_VERSION}: rebuild`);
  if (!Number.isSafeInteger(format.size) || format.size < 0 || !Array.isArray(format.arrays)) return fail('no size or arrays');
  for (const a of format.arrays)
    if (!Array.isArray(a) || typeof a[0] !== 'string' || !Object.hasOwn(TYPED_ARRAYS, a[1]) || !Number.isSafeInteger(a[2]) || a[2] < 0)
      fail(`an array entry ${JSON.stringify(a)}`);
  return format;
}

/** Throws unless `a` ascends from `first` to `last` (offsets into another array). */
function offsets(a: Int32Array, first: number, last: number, source: string): void {
  if (a.length === 0 || a[0] !== first || a[a.length - 1] !== last) throw new BytesError(source, 0, `offsets not from ${first} to ${last}`);
  for (let i = 1; i < a.length; i++) if (a[i]! < a[i - 1]!) throw new BytesError(source, 4 * i, 'offsets not ascending');
}

/** Throws unless every value of `a` is in [0, n). */
function below(a: Int32Array | Uint8Array | Uint16Array, n: number, source: string): void {
  for (let i = 0; i < a.length; i++) if (!(a[i]! >= 0 && a[i]! < n)) throw new BytesError(source, a.BYTES_PER_ELEMENT * i, `${a[i]} not below ${n}`);
}

/**
 * Reads the index stored by writeExcerptIndex, chunk by chunk into its arrays (from `table`: another schema's, such
 * as an attached previous build's). Throws, saying what is wrong, when the format's version is another, an array
 * is missing, short or long, or the table is empty; and a BytesError when the format row is damaged or an array
 * points outside another (offsets, excerpt and occurrence numbers, codes), so damaged bytes never reach a query.
 */
export function readExcerptIndex(db: BlobSource, table = 'excerpt_index'): ExcerptIndexData {
  assertLittleEndian(table);
  // Each array's stored bytes, known before its array is made (a damaged length would make a huge one).
  const stored = new Map<string, number>();
  const sums = db.prepare(`SELECT name, sum(length(data)) FROM ${table} GROUP BY name`);
  try {
    while (sums.step()) stored.set(sums.getString(0)!, Number(sums.get(1)));
  } finally {
    sums.finalize();
  }
  const st = db.prepare(`SELECT name, data FROM ${table} ORDER BY id`);
  try {
    if (!st.step() || st.getString(0) !== 'format') throw new Error('the excerpt index is missing (no format row): rebuild');
    const format = parseFormat(st.getBlob(1), table);
    const arrays = new Map<string, TypedColumn>();
    let row = st.step();
    for (const [name, type, length] of format.arrays) {
      const size = length * TYPED_ARRAYS[type].BYTES_PER_ELEMENT;
      if ((stored.get(name) ?? 0) !== size) throw new Error(`the excerpt index's ${name} has ${stored.get(name) ?? 0} of its ${size} bytes`);
      const a = new TYPED_ARRAYS[type](length);
      const bytes = columnBytes(a);
      let at = 0;
      while (row && st.getString(0) === name) {
        const chunk = st.getBlob(1) ?? new Uint8Array(0);
        if (at + chunk.length > bytes.length) throw new Error(`the excerpt index's ${name} is longer than its ${length} elements`);
        bytes.set(chunk, at);
        at += chunk.length;
        row = st.step();
      }
      if (at !== bytes.length) throw new Error(`the excerpt index's ${name} has ${at} of its ${bytes.length} bytes`);
      arrays.set(name, a);
    }
    if (row) throw new Error(`the excerpt index has an unexpected row "${st.getString(0)}"`);
    const get = <T extends ArrayBufferView>(name: string, type: TypedName): T => {
      const a = arrays.get(name);
      if (!a || !(a instanceof TYPED_ARRAYS[type])) throw new Error(`the excerpt index has no ${name}`);
      return a as unknown as T;
    };
    const size = format.size;
    if (get<Int32Array>('articleOf', 'i32').length !== size || get<Int32Array>('occStart', 'i32').length !== size + 1)
      throw new Error(`the excerpt index's arrays do not have its ${size} excerpts`);
    const orders = Object.fromEntries(ORDER_NAMES.map((o) => [o, get<Int32Array>(`order:${o}`, 'i32')])) as Record<OrderName, Int32Array>;
    const data: ExcerptIndexData = {
      size,
      occStart: get('occStart', 'i32'),
      occPhrase: get('occPhrase', 'u16'),
      occBand: get('occBand', 'u8'),
      occStatus: get('occStatus', 'u8'),
      occP: get('occP', 'f64'),
      articleOf: get('articleOf', 'i32'),
      yearOf: get('yearOf', 'i16'),
      pairs: get('pairs', 'i32'),
      phraseStart: get('phraseStart', 'i32'),
      phraseExcerpts: get('phraseExcerpts', 'i32'),
      orders,
    };
    const where = (name: string) => `${table} ${name}`;
    const occurrences = data.occPhrase.length;
    if (data.occBand.length !== occurrences || data.occStatus.length !== occurrences || data.occP.length !== occurrences)
      throw new BytesError(where('occBand'), 0, `the occurrence arrays differ in length from occPhrase's ${occurrences}`);
    offsets(data.occStart, 0, occurrences, where('occStart'));
    offsets(data.phraseStart, 0, data.phraseExcerpts.length, where('phraseStart'));
    below(data.occPhrase, data.phraseStart.length - 1, where('occPhrase'));
    below(data.occBand, NO_BAND + 1, where('occBand'));
    below(data.occStatus, OCCURRENCE_STATUSES.length, where('occStatus'));
    below(data.phraseExcerpts, size, where('phraseExcerpts'));
    below(data.articleOf, 2 ** 31 - 1, where('articleOf'));
    if (data.pairs.length !== size) throw new BytesError(where('pairs'), 0, `not the ${size} excerpts`);
    for (const o of ORDER_NAMES) {
      if (orders[o].length !== size) throw new BytesError(where(`order:${o}`), 0, `not the ${size} excerpts`);
      below(orders[o], size, where(`order:${o}`));
    }
    return data;
  } finally {
    st.finalize();
  }
}
