/** Number and date formats of every page: one locale, so a page's figures read as the API's do. */
const INT = new Intl.NumberFormat('en-CA');

/** 4300000 → "4,300,000". */
export const fmt = (n: number): string => INT.format(n);

/** A share as a percentage with `digits` decimals: (1, 3) → "33.3%"; 0 of 0 is "–". */
export function pct(part: number, whole: number, digits = 1): string {
  if (whole === 0) return '–';
  return `${((100 * part) / whole).toFixed(digits)}%`;
}

/** An ISO timestamp as its date, "2026-11-21". */
export const day = (iso: string): string => iso.slice(0, 10);

/**
 * A p-value as pages print it: always three decimals (0.07 → "0.070", 0.0625 → "0.063"), so a column of
 * medians lines up and no value looks more precise than another; below 0.001, "< 0.001". Null is "–".
 */
export function fmtP(p: number | null | undefined): string {
  if (p === null || p === undefined) return '–';
  if (p > 0 && p < 0.001) return '< 0.001';
  return p.toFixed(3);
}
