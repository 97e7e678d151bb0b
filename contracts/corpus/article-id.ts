/**
 * The `{pmcid}` of `/corpus/api/v1/articles/{pmcid}` (DECISIONS.md §5): `PMC123`, `pmc123` and `123` all
 * name PMC123; an article without a PMCID is addressed by its generated id (`nopmc-` + 12 hex digits).
 */

export const GENERATED_ARTICLE_ID = /^nopmc-[0-9a-f]{12}$/;

/** The canonical id, or null when `raw` is neither a PMCID nor a generated id. */
export function canonicalArticleId(raw: string): string | null {
  const m = /^(?:pmc)?0*([1-9]\d{0,9})$/i.exec(raw.trim());
  if (m) return `PMC${m[1]}`;
  const lower = raw.trim().toLowerCase();
  return GENERATED_ARTICLE_ID.test(lower) ? lower : null;
}
