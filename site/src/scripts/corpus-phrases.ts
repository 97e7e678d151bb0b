/**
 * Sorting the phrase table in place (components/corpus/PhraseTable.astro). Without this script each column
 * header is a link to the prerendered page of the next order; with it the links become buttons that reorder
 * the rows with the same comparator, set aria-sort on the sorted column, announce the new order, and replace
 * the address with that order's page (so a reload or a shared link shows the same table).
 */
import type { PhraseRow } from '../../../contracts/corpus/documents.ts';
import { nextOrder, orderCaption, orderPath, parseOrder, PHRASE_COLUMNS, type PhraseOrder, sortPhrases } from '../lib/corpus/phrase-sort.ts';

function enhance(root: HTMLElement): void {
  const data = root.querySelector<HTMLScriptElement>('script[data-phrase-rows]');
  const tbody = root.querySelector('tbody');
  const caption = root.querySelector('[data-caption]');
  const status = root.querySelector('[data-sort-status]');
  let order = parseOrder(root.dataset.order ?? '');
  if (!data || !tbody || !caption || !status || !order) return;
  const rows = JSON.parse(data.textContent ?? '[]') as PhraseRow[];
  const byPhrase = new Map([...tbody.querySelectorAll<HTMLTableRowElement>('tr[data-phrase]')].map((tr) => [tr.dataset.phrase!, tr]));

  const apply = (next: PhraseOrder) => {
    order = next;
    for (const row of sortPhrases(rows, next)) {
      const tr = byPhrase.get(row.phrase);
      if (tr) tbody.append(tr);
    }
    for (const th of root.querySelectorAll<HTMLTableCellElement>('th[data-key]')) {
      const sorted = th.dataset.key === next.key;
      if (sorted) th.setAttribute('aria-sort', next.dir === 'asc' ? 'ascending' : 'descending');
      else th.removeAttribute('aria-sort');
      const arrow = th.querySelector('.arrow');
      if (arrow) arrow.textContent = sorted ? (next.dir === 'asc' ? ' ▲' : ' ▼') : '';
    }
    caption.textContent = orderCaption(next);
    status.textContent = `${orderCaption(next)}.`;
    root.dataset.order = `${next.key}-${next.dir}`;
    history.replaceState(history.state, '', orderPath(next));
  };

  for (const link of root.querySelectorAll<HTMLAnchorElement>('th[data-key] a.sort')) {
    const key = link.closest<HTMLElement>('th')!.dataset.key!;
    const column = PHRASE_COLUMNS.find((c) => c.key === key);
    if (!column) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'sort';
    button.append(...link.childNodes);
    button.addEventListener('click', () => apply(nextOrder(order!, column)));
    link.replaceWith(button);
  }
}

for (const root of document.querySelectorAll<HTMLElement>('[data-phrase-table]')) enhance(root);
