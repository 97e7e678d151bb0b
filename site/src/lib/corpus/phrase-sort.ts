/**
 * The orders of the phrase table (`/corpus/phrases`): one comparator used by the prerendered variants (the
 * no-JavaScript links) and by the script that sorts in place, so both show the same order for the same URL.
 * Ties go to the phrase (A–Z), and a phrase without a median p sorts last in either direction.
 */
import type { PhraseRow } from '../../../../contracts/corpus/documents.ts';
import { VERIFIED_BANDS } from '../../../../contracts/corpus/vocab.ts';

export type SortDir = 'asc' | 'desc';

export interface PhraseColumn {
  /** In the variant's address: `/corpus/phrases/<key>-<dir>`. */
  key: string;
  label: string;
  /** The direction a first click sorts by: A–Z for words, largest first for counts. */
  first: SortDir;
  value: (row: PhraseRow) => string | number | null;
}

export const PHRASE_COLUMNS: readonly PhraseColumn[] = [
  { key: 'phrase', label: 'Phrase', first: 'asc', value: (r) => r.phrase },
  { key: 'verified', label: 'Verified', first: 'desc', value: (r) => r.verified },
  { key: 'articles', label: 'Articles', first: 'desc', value: (r) => r.articles },
  ...VERIFIED_BANDS.map((band) => ({
    key: `band-${band.replace('>', 'gt')}`,
    label: band,
    first: 'desc' as const,
    value: (r: PhraseRow) => r.bands[band],
  })),
  { key: 'median-p', label: 'Median p', first: 'asc', value: (r) => r.median_p },
  { key: 'rejected', label: 'Rejected', first: 'desc', value: (r) => r.rejected },
  { key: 'unverified', label: 'Unverified', first: 'desc', value: (r) => r.unverified },
];

/** The API's own order (most verified first, ties by phrase): the plain `/corpus/phrases` page. */
export const DEFAULT_ORDER = { key: 'verified', dir: 'desc' as SortDir };

export interface PhraseOrder {
  key: string;
  dir: SortDir;
}

/** Every order there is a page for, except the default (which is `/corpus/phrases` itself). */
export function allOrders(): PhraseOrder[] {
  return PHRASE_COLUMNS.flatMap((c) => (['asc', 'desc'] as const).map((dir) => ({ key: c.key, dir }))).filter(
    (o) => !(o.key === DEFAULT_ORDER.key && o.dir === DEFAULT_ORDER.dir),
  );
}

/** The page of an order. */
export const orderPath = (o: PhraseOrder): string =>
  o.key === DEFAULT_ORDER.key && o.dir === DEFAULT_ORDER.dir ? '/corpus/phrases' : `/corpus/phrases/${o.key}-${o.dir}`;

/** `articles-desc` → {key: 'articles', dir: 'desc'}; null when it names no order. */
export function parseOrder(slug: string): PhraseOrder | null {
  const m = /^(.+)-(asc|desc)$/.exec(slug);
  if (!m || !PHRASE_COLUMNS.some((c) => c.key === m[1])) return null;
  return { key: m[1]!, dir: m[2] as SortDir };
}

/** The order a click on a column's header leads to: the other direction if it is the current column. */
export function nextOrder(current: PhraseOrder, column: PhraseColumn): PhraseOrder {
  if (current.key === column.key) return { key: column.key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key: column.key, dir: column.first };
}

/** Code-point order: the same in Node at build time and in any browser (no locale tables involved). */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The rows in an order (a new array). `rows` must be in the API's order (phrases.json): the default order is
 * that order as given, so the plain page and a click back to it show exactly what the API lists.
 */
export function sortPhrases(rows: readonly PhraseRow[], order: PhraseOrder): PhraseRow[] {
  if (order.key === DEFAULT_ORDER.key && order.dir === DEFAULT_ORDER.dir) return [...rows];
  const column = PHRASE_COLUMNS.find((c) => c.key === order.key);
  if (!column) throw new Error(`no phrase column ${order.key}`);
  const sign = order.dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = column.value(a);
    const y = column.value(b);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return sign * (typeof x === 'string' ? byText(x, String(y)) : x - (y as number));
    }
    return byText(a.phrase, b.phrase);
  });
}

/** The table's caption for an order: "Verified phrases, sorted by Articles (largest first)". */
export function orderCaption(order: PhraseOrder): string {
  const column = PHRASE_COLUMNS.find((c) => c.key === order.key);
  const words = order.key === 'phrase' ? (order.dir === 'asc' ? 'A to Z' : 'Z to A') : order.dir === 'asc' ? 'smallest first' : 'largest first';
  return `Verified phrases, sorted by ${column?.label ?? order.key} (${words})`;
}
