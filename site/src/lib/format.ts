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
