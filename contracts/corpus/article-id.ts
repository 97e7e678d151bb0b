/**
 * Article ids, one rule for the pipeline that assigns them, the server that resolves `{pmcid}` and the
 * OpenAPI pattern (DECISIONS.md §5): `PMC123`, `pmc123` and `123` (spaces around and leading zeros allowed)
 * all name PMC123; PMC ids start at 1. An article without a PMCID has a generated id, `nopmc-` + 12 hex digits.
 */

const PMCID = /^\s*(?:pmc)?\s*0*([1-9]\d{0,9})\s*$/i;
export const GENERATED_ARTICLE_ID = /^nopmc-[0-9a-f]{12}$/;

/** The path pattern of `{pmcid}` in the OpenAPI document (case-insensitive forms spelled out). */
export const ARTICLE_ID_PATTERN = '^(?:[Pp][Mm][Cc])?0*[1-9][0-9]{0,9}$|^[Nn][Oo][Pp][Mm][Cc]-[0-9A-Fa-f]{12}$';

/** "PMC123", "pmc123", "123" → "PMC123"; null when `raw` is not a PMC identifier. */
export function normalisePmcid(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const m = PMCID.exec(raw);
  return m ? `PMC${m[1]}` : null;
}

/** The canonical id of a PMCID or a generated id, or null when `raw` is neither. */
export function canonicalArticleId(raw: string): string | null {
  const pmcid = normalisePmcid(raw);
  if (pmcid) return pmcid;
  const lower = raw.trim().toLowerCase();
  return GENERATED_ARTICLE_ID.test(lower) ? lower : null;
}
