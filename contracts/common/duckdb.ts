/** DuckDB helpers that the pipeline and the server's services both use (neither imports the other). */
import { type DuckDBConnection, DuckDBScalarFunction, VARCHAR } from '@duckdb/node-api';

/** Anything holding a DuckDB connection (the pipeline's `Duck`, or a bare one). */
export interface DuckHolder {
  connection: DuckDBConnection;
}

/** Registers the SQL scalar function `name(text)`, computed by `fn` in JavaScript (NULL stays NULL). */
export function registerTextFunction(duck: DuckHolder, name: string, fn: (text: string) => string): void {
  duck.connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name,
      returnType: VARCHAR,
      parameterTypes: [VARCHAR],
      mainFunction: (_info, input, output) => {
        const column = input.getColumnVector(0);
        for (let i = 0; i < input.rowCount; i++) {
          const text = column.getItem(i) as string | null;
          output.setItem(i, text === null ? null : fn(text));
        }
        output.flush();
      },
    }),
  );
}
