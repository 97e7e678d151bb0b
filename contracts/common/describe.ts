/**
 * Field descriptions of response schemas. `described(shape, texts)` gives each field of an object shape its
 * `.meta({ description })`, the one source of the field texts in the OpenAPI documents, and so in the rendered
 * reference (/api) and in clients generated from the documents. `texts` must name every field of the shape (a
 * compile error otherwise), so a field added to a response cannot go undocumented.
 */
import type { z } from 'zod';

export function described<S extends z.ZodRawShape>(shape: S, texts: { readonly [K in keyof S]: string }): S {
  const out: Record<string, unknown> = { ...shape };
  for (const key of Object.keys(texts)) out[key] = (shape[key] as z.ZodType).meta({ description: texts[key as keyof S] });
  return out as S;
}
