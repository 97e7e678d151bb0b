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
  /**
   * The value the operation's recorded success request gave a path parameter (`id` of `/works/{id}`), so a
   * documented path example names something the sample build has; `fallback` when none was recorded.
   */
  const pathValue = (operationId: string, template: string, name: string, fallback: string): string => {
    const url = recorded[operationId]?.['200']?.url.split('?')[0];
    const pattern = template
      .split(/(\{[^}]+\})/)
      .map((part) => (part === `{${name}}` ? '([^/]+)' : part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('');
    const found = url === undefined ? null : new RegExp(`${pattern}$`).exec(url);
    return found ? decodeURIComponent(found[1]!) : fallback;
  };
  return { ok: (operationId: string) => get(operationId, 200), error: (operationId: string, status: number) => get(operationId, status), pathValue };
}
