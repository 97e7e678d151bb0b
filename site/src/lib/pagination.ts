/**
 * The one paging model of every paged page (cohort builder, excerpts, screening, recent works): numbered
 * pages, first/previous/next/last as links, and, where an API stops offset paging (the frame's /cohort at
 * result 10,000), the continuation in a reader's words ("next 25 after result 10,000") with a way back.
 * Pure: the page component (components/layout/Pagination.astro) renders what this returns.
 */

export interface PagingInput {
  /** The page shown (1-based), or null for a page reached by a cursor (past the offset limit). */
  page: number | null;
  perPage: number;
  total: number;
  /** Rows on the page shown. */
  shown: number;
  /** The address of a numbered page. */
  href: (page: number) => string;
  /** Offset paging stops at this many results (the API's limit); Infinity where there is none. */
  maxOffset?: number;
  /** The address of the rows after the offset limit (the API's cursor), when the API gave one. */
  beyond?: string | null;
  /** On a cursor page: where the page starts (its first result's position), when known. */
  cursorStart?: number | null;
}

export interface PageLink {
  label: string;
  href: string | null;
  current?: boolean;
  rel?: 'first' | 'prev' | 'next' | 'last';
  /** Words for a screen reader where the label is a bare number or arrow. */
  aria?: string;
}

export interface Paging {
  /** "Results 26–50 of 1,234", "Results after result 10,000". */
  position: string;
  /** First, previous, numbered pages (with gaps as null), next, last. */
  links: (PageLink | null)[];
  /** The continuation past the offset limit, in words, when there is one. */
  beyond: PageLink | null;
  /** Ways back from a cursor page: the first page and the last numbered one. */
  back: PageLink[];
  /** The last page (for a redirect when a page past the end is asked for). */
  lastPage: number;
}

const fmt = (n: number) => n.toLocaleString('en-CA');

/** The number of pages a total takes (at least 1, so an empty result is "page 1 of 1"). */
export const pageCount = (total: number, perPage: number): number => Math.max(1, Math.ceil(total / perPage));

/** The last page that offset paging can reach. */
export function lastNumberedPage(total: number, perPage: number, maxOffset = Infinity): number {
  return Math.max(1, Math.min(pageCount(total, perPage), Math.floor(maxOffset / perPage)));
}

/** Page numbers around the current one: 1, …, p−2 … p+2, …, last (null marks a gap). */
function window(page: number, last: number): (number | null)[] {
  const wanted = new Set([1, last, page - 2, page - 1, page, page + 1, page + 2].filter((n) => n >= 1 && n <= last));
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  sorted.forEach((n, i) => {
    if (i > 0 && n - sorted[i - 1]! > 1) out.push(null);
    out.push(n);
  });
  return out;
}

export function paging(o: PagingInput): Paging {
  const maxOffset = o.maxOffset ?? Infinity;
  const lastPage = lastNumberedPage(o.total, o.perPage, maxOffset);
  const capped = o.total > lastPage * o.perPage && Number.isFinite(maxOffset);
  if (o.page === null) {
    const start = o.cursorStart ?? maxOffset;
    const position =
      o.cursorStart != null && o.shown > 0
        ? `Results ${fmt(o.cursorStart + 1)}–${fmt(o.cursorStart + o.shown)} of ${fmt(o.total)}`
        : `Results after result ${fmt(start)} of ${fmt(o.total)}`;
    return {
      position,
      links: [],
      beyond: o.beyond ? { label: `Next ${fmt(o.perPage)} results`, href: o.beyond, rel: 'next' } : null,
      back: [
        { label: 'Back to the first page', href: o.href(1), rel: 'first' },
        { label: `Back to page ${fmt(lastPage)} (results up to ${fmt(lastPage * o.perPage)})`, href: o.href(lastPage) },
      ],
      lastPage,
    };
  }
  const page = o.page;
  const from = o.shown === 0 ? 0 : (page - 1) * o.perPage + 1;
  const to = from === 0 ? 0 : from + o.shown - 1;
  const position =
    o.total === 0
      ? 'No results'
      : from === 0
        ? `No results on page ${fmt(page)} (${fmt(o.total)} in all)`
        : `Results ${fmt(from)}–${fmt(to)} of ${fmt(o.total)}`;
  const links: (PageLink | null)[] = [];
  if (lastPage > 1 || page > 1) {
    links.push({ label: 'First', href: page > 1 ? o.href(1) : null, rel: 'first', aria: 'First page' });
    links.push({ label: 'Previous', href: page > 1 ? o.href(Math.min(page - 1, lastPage)) : null, rel: 'prev', aria: 'Previous page' });
    for (const n of window(Math.min(page, lastPage), lastPage))
      links.push(n === null ? null : { label: fmt(n), href: n === page ? null : o.href(n), current: n === page, aria: `Page ${fmt(n)}` });
    links.push({ label: 'Next', href: page < lastPage ? o.href(page + 1) : null, rel: 'next', aria: 'Next page' });
    links.push({ label: 'Last', href: page < lastPage ? o.href(lastPage) : null, rel: 'last', aria: `Last page (${fmt(lastPage)})` });
  }
  const beyond =
    capped && page === lastPage && o.beyond
      ? { label: `Next ${fmt(o.perPage)} after result ${fmt(lastPage * o.perPage)}`, href: o.beyond, rel: 'next' as const }
      : null;
  return { position, links, beyond, back: [], lastPage };
}
