/**
 * The one pager's model (site/src/lib/pagination.ts): positions in words, the numbered window, first/previous/
 * next/last, the continuation past an offset limit and the ways back from a cursor page. Expected values are
 * written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { lastNumberedPage, paging } from '../../site/src/lib/pagination.ts';

const href = (n: number) => `/p?page=${n}`;
const labels = (p: ReturnType<typeof paging>) => p.links.map((l) => (l === null ? '…' : l.current ? `[${l.label}]` : l.href ? l.label : `(${l.label})`));

describe('paging', () => {
  it('numbers the pages around the current one, with first/previous/next/last as links', () => {
    const p = paging({ page: 6, perPage: 25, total: 1000, shown: 25, href });
    expect(p.position).toBe('Results 126–150 of 1,000');
    expect(labels(p)).toEqual(['First', 'Previous', '1', '…', '4', '5', '[6]', '7', '8', '…', '40', 'Next', 'Last']);
    expect(p.links.find((l) => l?.rel === 'last')?.href).toBe('/p?page=40');
    expect(p.links.find((l) => l?.rel === 'prev')?.href).toBe('/p?page=5');
    expect(p.beyond).toBeNull();
  });

  it('disables first/previous on page 1 and next/last on the last page', () => {
    expect(labels(paging({ page: 1, perPage: 10, total: 25, shown: 10, href }))).toEqual(['(First)', '(Previous)', '[1]', '2', '3', 'Next', 'Last']);
    const last = paging({ page: 3, perPage: 10, total: 25, shown: 5, href });
    expect(last.position).toBe('Results 21–25 of 25');
    expect(labels(last)).toEqual(['First', 'Previous', '1', '2', '[3]', '(Next)', '(Last)']);
  });

  it('has no page links for a single page, and says so when there is nothing', () => {
    expect(paging({ page: 1, perPage: 25, total: 7, shown: 7, href }).links).toEqual([]);
    expect(paging({ page: 1, perPage: 25, total: 0, shown: 0, href }).position).toBe('No results');
  });

  it('stops numbering at the offset limit and continues past it in words', () => {
    expect(lastNumberedPage(20_000, 25, 10_000)).toBe(400);
    const p = paging({ page: 400, perPage: 25, total: 20_000, shown: 25, href, maxOffset: 10_000, beyond: '/p?cursor=abc' });
    expect(p.lastPage).toBe(400);
    expect(labels(p).slice(-3)).toEqual(['[400]', '(Next)', '(Last)']);
    expect(p.beyond).toEqual({ label: 'Next 25 after result 10,000', href: '/p?cursor=abc', rel: 'next' });
    // Before the last numbered page, no continuation yet.
    expect(paging({ page: 399, perPage: 25, total: 20_000, shown: 25, href, maxOffset: 10_000, beyond: '/p?cursor=abc' }).beyond).toBeNull();
  });

  it('on a cursor page: where it is, the next results, and the ways back', () => {
    const p = paging({ page: null, perPage: 25, total: 20_000, shown: 25, href, maxOffset: 10_000, beyond: '/p?cursor=def' });
    expect(p.position).toBe('Results after result 10,000 of 20,000');
    expect(p.back.map((l) => [l.label, l.href])).toEqual([
      ['Back to the first page', '/p?page=1'],
      ['Back to page 400 (results up to 10,000)', '/p?page=400'],
    ]);
    expect(p.beyond?.label).toBe('Next 25 results');
  });
});
