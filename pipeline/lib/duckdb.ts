/** Thin helpers over @duckdb/node-api for the pipeline: open a file database, run SQL, read plain rows. */
import { type DuckDBConnection, DuckDBInstance, DuckDBScalarFunction, VARCHAR } from '@duckdb/node-api';
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

/** Streams a query chunk by chunk (2,048 rows), calling `each(columnValues, count)`. */
export async function forEachChunk(duck: Duck, sql: string, each: (cols: unknown[][], n: number) => void): Promise<void> {
  const result = await duck.connection.stream(sql);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    each(chunk.getColumns() as unknown[][], chunk.rowCount);
  }
}

/**
 * Registers `ori_terms(text)`: the distinct search terms of a text (contracts/frame/title-terms.ts) joined by
 * spaces, so SQL builds term tables with exactly the function queries are parsed with.
 */
export function registerTermsFunction(duck: Duck): void {
  duck.connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: 'ori_terms',
      returnType: VARCHAR,
      parameterTypes: [VARCHAR],
      mainFunction: (_info, input, output) => {
        const column = input.getColumnVector(0);
        for (let i = 0; i < input.rowCount; i++) {
          const text = column.getItem(i) as string | null;
          output.setItem(i, text === null ? null : titleTerms(text).join(' '));
        }
        output.flush();
      },
    }),
  );
}

/**
 * SQL for the distinct search terms of a text column, as a list (it may hold '': keep `term <> ''`), exactly
 * titleTerms' terms. For a text of ASCII characters only, titleTerms' folding is lower case (NFKD and mark
 * removal change nothing) and its separators are every character but a-z and 0-9, so SQL cuts it, on every
 * core, instead of calling ori_terms in the one JavaScript thread: at 4.3M titles, 97% of them ASCII, that is
 * most of the 31 s title terms took (docs/benchmarks.md, issue 24). Other texts go through ori_terms. A
 * property test (test/pipeline/terms-sql.test.ts) holds the two to the same terms. Needs registerTermsFunction.
 */
export function termsListSql(col: string): string {
  return `CASE WHEN regexp_matches(${col}, '[^\\x00-\\x7F]') THEN string_split(ori_terms(${col}), ' ')
          ELSE list_distinct(regexp_split_to_array(lower(${col}), '[^a-z0-9]+')) END`;
}

export { lit } from '../../contracts/common/sql.ts';
