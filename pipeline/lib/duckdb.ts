/** Thin helpers over @duckdb/node-api for the pipeline: open a file database, run SQL, read plain rows. */
import { type DuckDBConnection, DuckDBDoubleVector, DuckDBInstance, DuckDBIntegerVector, DuckDBUSmallIntVector, type DuckDBVector } from '@duckdb/node-api';
import { registerTextFunction } from '../../contracts/common/duckdb.ts';
import { titleTerms } from '../../contracts/frame/title-terms.ts';

export interface Duck {
  run(sql: string): Promise<void>;
  /** Rows as plain JS objects; cast counts to INTEGER/DOUBLE in SQL to get numbers, not bigints. */
  all<T = Record<string, unknown>>(sql: string): Promise<T[]>;
  close(): void;
  connection: DuckDBConnection;
}

export async function openDuck(path: string, options: Record<string, string> = {}): Promise<Duck> {
  const instance = await DuckDBInstance.create(path, options);
  const connection = await instance.connect();
  return {
    connection,
    async run(sql) {
      await connection.run(sql);
    },
    async all<T>(sql: string) {
      const reader = await connection.runAndReadAll(sql);
      return reader.getRowObjectsJS() as T[];
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/**
 * A column of fixed-width numbers without a null in this chunk, as a typed array over DuckDB's own vector;
 * else null. The client's own conversion calls a getter and tests a BigInt validity bit per value, which is
 * most of the JavaScript time of reading the cohort index's integer columns, sorts and lists (docs/decisions.md
 * has the measurement). The values and the validity mask are the client's internal fields (pinned version):
 * if they are not there, the column is converted as before.
 */
function numberColumn(vector: DuckDBVector, n: number): ArrayLike<number> | null {
  if (!(vector instanceof DuckDBIntegerVector || vector instanceof DuckDBDoubleVector || vector instanceof DuckDBUSmallIntVector)) return null;
  const { items, validity } = vector as unknown as { items?: Int32Array | Float64Array | Uint16Array; validity?: { data?: BigUint64Array | null } };
  const mask = validity?.data;
  if (!ArrayBuffer.isView(items) || mask === undefined) return null;
  if (mask !== null)
    for (let w = 0; w * 64 < n; w++) {
      const bits = Math.min(64, n - w * 64);
      const need = bits === 64 ? 0xffffffffffffffffn : (1n << BigInt(bits)) - 1n;
      if ((mask[w]! & need) !== need) return null;
    }
  return items.length === n ? items : items.subarray(0, n);
}

/**
 * Streams a query chunk by chunk (2,048 rows), calling `each(columnValues, count)`. A column of INTEGER, DOUBLE
 * or USMALLINT values without nulls comes as a typed array that is only valid during the call (it views the
 * chunk's memory); any other column as converted values (null for NULL).
 */
export async function forEachChunk(duck: Duck, sql: string, each: (cols: ArrayLike<unknown>[], n: number) => void): Promise<void> {
  const result = await duck.connection.stream(sql);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const n = chunk.rowCount;
    const cols: ArrayLike<unknown>[] = [];
    for (let k = 0; k < chunk.columnCount; k++) cols.push(numberColumn(chunk.getColumnVector(k), n) ?? chunk.getColumnValues(k));
    each(cols, n);
  }
}

/**
 * Registers `ori_terms(text)`: the distinct search terms of a text (contracts/frame/title-terms.ts) joined by
 * spaces, so SQL builds term tables with exactly the function queries are parsed with.
 */
export function registerTermsFunction(duck: Duck): void {
  registerTextFunction(duck, 'ori_terms', (text) => titleTerms(text).join(' '));
}

/**
 * SQL for the distinct search terms of a text column, as a list (it may hold '': keep `term <> ''`), exactly
 * titleTerms' terms. For a text of ASCII characters only, titleTerms' folding is lower case (NFKD and mark
 * removal change nothing) and its separators are every character but a-z and 0-9, so SQL cuts it, on every
 * core, instead of calling ori_terms in the one JavaScript thread: titles are nearly all ASCII, so that is
 * most of the time title terms take (docs/decisions.md). Other texts go through ori_terms. A
 * property test (test/pipeline/terms-sql.test.ts) holds the two to the same terms. Needs registerTermsFunction.
 */
export function termsListSql(col: string): string {
  return `CASE WHEN regexp_matches(${col}, '[^\\x00-\\x7F]') THEN string_split(ori_terms(${col}), ' ')
          ELSE list_distinct(regexp_split_to_array(lower(${col}), '[^a-z0-9]+')) END`;
}

export { lit } from '../../contracts/common/sql.ts';
