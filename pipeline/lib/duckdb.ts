/** Thin helpers over @duckdb/node-api for the pipeline: open a file database, run SQL, read plain rows. */
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

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

export { lit } from '../../contracts/common/sql.ts';
