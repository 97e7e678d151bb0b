/**
 * JSON with keys sorted by code unit at every depth, no whitespace. Used wherever bytes must not depend on
 * construction order: hashes, canonical filters, manifests.
 */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** Pretty, key-sorted JSON with a trailing newline: the form of every JSON file the pipeline writes. */
export function stablePretty(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}
