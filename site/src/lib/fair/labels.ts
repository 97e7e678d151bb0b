/**
 * Words for the FAIR result: the principles (categories) and maturity levels of F-UJI's metrics
 * (contracts/fair/metrics.ts), durations of the rate-limit window, and the metric versions the running
 * engine accepts (read from its OpenAPI document, which lists them).
 */
import { DEFAULT_METRIC_VERSION } from '../../../../contracts/fair/request.ts';
import type { FairCategory } from '../../../../contracts/fair/metrics.ts';

export const CATEGORY_NAMES: Record<FairCategory, string> = {
  F: 'Findable',
  A: 'Accessible',
  I: 'Interoperable',
  R: 'Reusable',
};

/** Maturity 0–3 (contracts/fair/metrics.ts maturitySchema). */
export const MATURITY_NAMES = ['incomplete', 'initial', 'moderate', 'advanced'] as const;

/** A maturity in words: 2 → "moderate (2)"; a mean such as 2.75 stays a number. */
export function maturityWords(m: number): string {
  return Number.isInteger(m) && MATURITY_NAMES[m] ? `${MATURITY_NAMES[m]} (${m})` : `${m} of 3`;
}

/** Seconds in words: 3600 → "1 h", 125 → "2 min 5 s". */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return [h ? `${h} h` : '', m ? `${m} min` : '', rest || s === 0 ? `${rest} s` : ''].filter(Boolean).join(' ');
}

interface OpenApiLike {
  paths?: Record<string, { post?: { requestBody?: { content?: Record<string, { schema?: unknown }> } } }>;
}

/** The metric versions the service accepts, from its OpenAPI document (the default first). */
export function metricVersionsOf(doc: unknown, assessPath: string): string[] {
  const schema = (doc as OpenApiLike)?.paths?.[assessPath]?.post?.requestBody?.content?.['application/json']?.schema as
    { properties?: { options?: { properties?: { metric_version?: { examples?: unknown } } } } } | undefined;
  const examples = schema?.properties?.options?.properties?.metric_version?.examples;
  const versions = Array.isArray(examples) ? examples.filter((v): v is string => typeof v === 'string') : [];
  return [DEFAULT_METRIC_VERSION, ...versions.filter((v) => v !== DEFAULT_METRIC_VERSION)];
}
