/**
 * Examples in the OpenAPI documents are real answers of the sample build, recorded by
 * `npm run openapi:examples` (scripts/openapi-examples.ts) into contracts/<service>/openapi-examples.json and
 * checked against live answers by test/api-dynamic/openapi-examples.test.ts, so they cannot go stale.
 */

/** One recorded answer: the request that produced it and the body (long arrays cut to their first items). */
export interface RecordedExample {
  method: 'GET' | 'POST';
  url: string;
  body: unknown;
}

/** By operationId, then by HTTP status. */
export type RecordedExamples = Record<string, Record<string, RecordedExample>>;

/** Arrays in an example longer than EXAMPLE_ARRAY_MAX are cut to their first EXAMPLE_ARRAY_ITEMS, so the documents stay readable (short fixed-length arrays stay whole). */
export const EXAMPLE_ARRAY_ITEMS = 3;
export const EXAMPLE_ARRAY_MAX = 5;

export function examplesOf(recorded: RecordedExamples) {
  const get = (operationId: string, status: number) => recorded[operationId]?.[String(status)]?.body;
  return { ok: (operationId: string) => get(operationId, 200), error: (operationId: string, status: number) => get(operationId, status) };
}
