/**
 * The cohort builder with JavaScript: typeahead for venue, topic and author; and, as the form changes, the
 * live total and coverage (GET /cohort with per_page=1, the API's own count), the address of the page
 * (history.replaceState: the same query string a submission would send, minus empty fields), the export
 * links and the permalink form; then the results, the pager and the facet counts are updated in place from the
 * server-rendered page of the new query (the same HTML a reload would give). Facet and pager links and the
 * form's submission load that page in place too (history.pushState); without JavaScript they are plain links
 * and a GET form.
 */
import { fmt, pct } from '../lib/format.ts';
import { exportUrl } from '../lib/frame/cohort-links.ts';
import { filtersInWords } from '../lib/frame/cohort-words.ts';
import type { CohortFilters, Sort } from '../../../contracts/frame/cohort-query.ts';
import { attachTypeahead, fetchSuggestions } from './cohort-typeahead.ts';

interface CountAnswer {
  meta: { total: number; direct_labels_cover: number; predictions_cover: number; filters: CohortFilters; query: string; sort: Sort };
}
interface ErrorAnswer {
  message: string;
}

const LIVE_DEBOUNCE_MS = 300;

/** The form's parameters as a submission sends them, without the empty ones (the API ignores those). */
function formQuery(form: HTMLFormElement): URLSearchParams {
  const q = new URLSearchParams();
  for (const [k, v] of new FormData(form)) if (typeof v === 'string' && v.trim() !== '') q.append(k, v);
  return q;
}

function setText(selector: string, text: string): void {
  const el = document.querySelector(selector);
  if (el) el.textContent = text;
}

/** The regions of the builder that a new query replaces (`data-swap` on the page). */
const SWAPPED = ['summary', 'results', 'facets'] as const;

/**
 * Fetches the builder's page for a query string and puts its regions in place of this page's; with
 * `withForm`, the filter panel too (after a facet or pager link, whose filters the form must then show).
 * Returns false when the page could not be loaded (the caller falls back to navigating).
 */
async function loadInPlace(search: string, o: { withForm: boolean; push: boolean }): Promise<boolean> {
  let r: Response;
  try {
    r = await fetch(`/frame/cohort${search ? `?${search}` : ''}`, { headers: { accept: 'text/html' } });
  } catch {
    return false;
  }
  if (!r.ok) return false;
  const next = new DOMParser().parseFromString(await r.text(), 'text/html');
  for (const name of SWAPPED) {
    const mine = document.querySelector(`[data-swap="${name}"]`);
    const theirs = next.querySelector(`[data-swap="${name}"]`);
    if (mine && theirs) mine.replaceChildren(...[...theirs.childNodes].map((n) => document.importNode(n, true)));
  }
  if (o.withForm) {
    const mine = document.querySelector('[data-filters-panel]');
    const theirs = next.querySelector('[data-filters-panel]');
    if (mine && theirs) {
      const open = (mine as HTMLDetailsElement).open;
      mine.replaceWith(document.importNode(theirs, true));
      const panel = document.querySelector<HTMLDetailsElement>('[data-filters-panel]');
      if (panel) panel.open = open;
      const form = document.querySelector<HTMLFormElement>('form[data-cohort-form]');
      if (form) init(form);
    }
  }
  // The address of what is shown: the server's (a redirect, e.g. past the last page, lands elsewhere).
  const shown = new URL(r.url);
  const address = `${shown.pathname}${shown.search}`;
  if (o.push) history.pushState({ cohort: true }, '', address);
  else history.replaceState(history.state, '', address);
  return true;
}

/** Facet and pager links, and the form's submission, load the new cohort in place. */
function interceptNavigation(): void {
  document.addEventListener('click', (e) => {
    const a = (e.target as Element | null)?.closest?.('a[data-facet-link], nav.pagination a, table.works th a');
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const url = new URL((a as HTMLAnchorElement).href);
    if (url.pathname !== '/frame/cohort') return;
    e.preventDefault();
    void loadInPlace(url.searchParams.toString(), { withForm: true, push: true }).then((ok) => {
      if (!ok) location.href = url.href;
      else document.getElementById('results-heading')?.closest('section')?.scrollIntoView({ block: 'start' });
    });
  });
  window.addEventListener('popstate', () => location.reload());
}

function init(form: HTMLFormElement): void {
  const api = form.dataset.api ?? '/frame/api/v1';
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inflight: AbortController | null = null;

  // The summary (counts and actions) exists when the page was answered (and is replaced by each update); the
  // live line always does.
  const live = form.querySelector<HTMLElement>('[data-cohort-live]');
  const liveError = form.querySelector<HTMLElement>('[data-cohort-live-error]');
  const stale = () => document.querySelector<HTMLElement>('[data-stale]');
  const initial = formQuery(form).toString();

  const showCounts = (a: CountAnswer) => {
    const m = a.meta;
    if (live) live.textContent = `${fmt(m.total)} ${m.total === 1 ? 'work matches' : 'works match'}.`;
    setText('[data-cohort-total]', fmt(m.total));
    setText('[data-cohort-direct]', fmt(m.direct_labels_cover));
    setText('[data-cohort-direct-pct]', pct(m.direct_labels_cover, m.total));
    setText('[data-cohort-predicted]', fmt(m.predictions_cover));
    setText('[data-cohort-predicted-pct]', pct(m.predictions_cover, m.total));
    setText('[data-cohort-words]', filtersInWords(m.filters));
    for (const a of document.querySelectorAll<HTMLAnchorElement>('a[data-export]'))
      a.href = exportUrl(
        m.query,
        m.sort,
        a.dataset.export === 'json' ? 'json' : a.dataset.export === 'csv-excel' ? 'csv-excel' : 'csv',
        (form.elements.namedItem('snapshot') as HTMLSelectElement | null)?.value || undefined,
      );
    // The permalink form sends the canonical filters as hidden fields.
    const permalink = document.querySelector<HTMLFormElement>('form[data-permalink-form]');
    if (permalink) {
      for (const old of permalink.querySelectorAll('input[type="hidden"]')) old.remove();
      for (const [k, v] of new URLSearchParams(m.query)) {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = k;
        input.value = v;
        permalink.prepend(input);
      }
    }
  };
  const showError = (message: string | null) => {
    if (liveError) {
      liveError.hidden = message === null;
      liveError.textContent = message ?? '';
    }
    if (live) live.hidden = message !== null;
    const counts = document.querySelector<HTMLElement>('[data-cohort-counts]');
    const actions = document.querySelector<HTMLElement>('.summary .actions');
    if (counts) counts.hidden = message !== null;
    if (actions) actions.hidden = message !== null;
    // A refused query leaves the last good results on the page: mark them as not this query's.
    const mark = stale();
    if (mark) mark.hidden = message === null;
  };

  const refresh = async () => {
    const q = formQuery(form);
    const search = q.toString();
    history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}`);
    const apiLink = document.querySelector<HTMLAnchorElement>('a[data-cohort-api]');
    if (apiLink) apiLink.href = `${api}/cohort${search ? `?${search}` : ''}`;
    const mark = stale();
    if (mark) mark.hidden = search === initial;
    // The count only: one row is enough, wherever the page would start.
    q.set('per_page', '1');
    q.delete('page');
    q.delete('cursor');
    inflight?.abort();
    const controller = new AbortController();
    inflight = controller;
    live?.setAttribute('aria-busy', 'true');
    try {
      const r = await fetch(`${api}/cohort?${q}`, { signal: controller.signal, headers: { accept: 'application/json' } });
      const body = (await r.json()) as CountAnswer | ErrorAnswer;
      if (controller.signal.aborted) return;
      if (r.ok) {
        showError(null);
        showCounts(body as CountAnswer);
        // Then the works and the facet counts of the new cohort, from the page a reload would give.
        if (await loadInPlace(search, { withForm: false, push: false })) {
          const m = stale();
          if (m) m.hidden = true;
        }
      } else showError(`The API refused this query (HTTP ${r.status}): ${(body as ErrorAnswer).message}`);
    } catch (e) {
      if (!controller.signal.aborted) showError(`The total could not be updated (${(e as Error).message}). Press “Show cohort”.`);
    } finally {
      if (inflight === controller) live?.removeAttribute('aria-busy');
    }
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), LIVE_DEBOUNCE_MS);
  };
  form.addEventListener('input', schedule);
  form.addEventListener('change', schedule);
  form.addEventListener('submit', (e) => {
    clearTimeout(timer);
    // A query the API already refused: the plain submission, which answers with the 400 page.
    if (liveError && !liveError.hidden) return;
    e.preventDefault();
    void loadInPlace(formQuery(form).toString(), { withForm: true, push: true }).then((ok) => {
      if (!ok) {
        // A refused query (400) or a network failure: the plain submission shows the page as the server answers.
        const q = formQuery(form).toString();
        location.href = `/frame/cohort${q ? `?${q}` : ''}`;
      }
    });
  });

  // Typeahead: venue and topic take the value; an author suggestion selects that researcher by id.
  for (const wrap of form.querySelectorAll<HTMLElement>('[data-typeahead]')) {
    const facet = wrap.dataset.typeahead as 'venue' | 'topic' | 'author';
    const input = wrap.querySelector<HTMLInputElement>('input');
    if (!input) continue;
    attachTypeahead(
      input,
      (text, signal) => fetchSuggestions(api, facet, text, signal),
      (s) => {
        if (facet === 'author' && s.id) {
          const id = field('author_id');
          if (id) id.value = s.id;
          input.value = '';
          setText('#f-author_id-hint', `Selected: ${s.label} (${s.note}).`);
        } else input.value = s.value;
        schedule();
      },
    );
  }
}

const form = document.querySelector<HTMLFormElement>('form[data-cohort-form]');
if (form) {
  // On a phone the filters stay behind their one button, even when none is set (the page opens them then).
  const panel = document.querySelector<HTMLDetailsElement>('[data-filters-panel]');
  if (panel && window.matchMedia('(max-width: 52rem)').matches) panel.open = false;
  init(form);
  interceptNavigation();
}
