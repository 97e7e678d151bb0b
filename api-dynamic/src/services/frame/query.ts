/** Runs SQL on a build's frame database and returns plain JS rows (cast counts in SQL to get numbers). */
import type { Build } from '../build-store.ts';

export async function rows<T>(build: Build, sql: string): Promise<T[]> {
  const reader = await build.db!.runAndReadAll(sql);
  return reader.getRowObjectsJS() as T[];
}
