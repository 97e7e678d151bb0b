/**
 * The researcher search as a combobox (WAI-ARIA combobox with a listbox popup): after 2 characters it asks
 * /frame/api/v1/facets/author, lists the researchers it finds, and Enter or a click opens the chosen one's
 * neighbourhood. Arrow keys move through the list, Escape closes it. Submitting without a choice is the plain
 * form (the page lists the researchers), as without JavaScript.
 */
interface Hit {
  id: string;
  name: string;
  ca_works: number;
}

const MIN_CHARS = 2;
const DEBOUNCE_MS = 150;
const fmt = new Intl.NumberFormat('en-CA');

export function enhanceAuthorSearch(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-author-search]')) enhance(form);
}

function enhance(form: HTMLFormElement): void {
  const input = form.querySelector<HTMLInputElement>('input[type="search"]')!;
  const list = form.querySelector<HTMLUListElement>('[role="listbox"]')!;
  const status = form.querySelector<HTMLElement>('[data-status]')!;
  const facet = form.dataset.facet!;
  const page = form.dataset.page!;
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', list.id);
  input.setAttribute('aria-expanded', 'false');

  let hits: Hit[] = [];
  let active = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inflight: AbortController | null = null;

  const open = (show: boolean) => {
    list.hidden = !show;
    input.setAttribute('aria-expanded', String(show));
    if (!show) setActive(-1);
  };
  const setActive = (i: number) => {
    active = i;
    list.querySelectorAll('[role="option"]').forEach((li, k) => li.setAttribute('aria-selected', String(k === i)));
    if (i >= 0) {
      input.setAttribute('aria-activedescendant', `author-option-${i}`);
      list.children[i]?.scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  };
  const go = (hit: Hit) => {
    window.location.assign(`${page}?author_id=${encodeURIComponent(hit.id)}`);
  };
  const render = () => {
    list.replaceChildren(
      ...hits.map((h, i) => {
        const li = document.createElement('li');
        li.id = `author-option-${i}`;
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', 'false');
        li.dataset.id = h.id;
        const works = document.createElement('span');
        works.className = 'works';
        works.textContent = ` (${fmt.format(h.ca_works)} Canadian-affiliated works)`;
        li.append(h.name, works);
        // mousedown, not click: it comes before the input's blur closes the list.
        li.addEventListener('mousedown', (ev) => {
          ev.preventDefault();
          go(h);
        });
        return li;
      }),
    );
    open(hits.length > 0);
  };
  const search = async (q: string) => {
    inflight?.abort();
    inflight = new AbortController();
    try {
      const r = await fetch(`${facet}?q=${encodeURIComponent(q)}`, { signal: inflight.signal });
      const body = (await r.json()) as { results?: Hit[]; message?: string };
      if (!r.ok) {
        hits = [];
        render();
        status.textContent = body.message ?? `The search failed (HTTP ${r.status}).`;
        return;
      }
      hits = body.results ?? [];
      render();
      status.textContent =
        hits.length === 0 ? 'No researcher found.' : `${hits.length} ${hits.length === 1 ? 'researcher' : 'researchers'} found; use the arrow keys to choose.`;
    } catch (err) {
      if ((err as Error).name !== 'AbortError') status.textContent = 'The search could not reach the server.';
    }
  };

  input.addEventListener('input', () => {
    clearTimeout(timer);
    const q = input.value.trim();
    if (q.length < MIN_CHARS) {
      inflight?.abort();
      hits = [];
      render();
      status.textContent = '';
      return;
    }
    timer = setTimeout(() => void search(q), DEBOUNCE_MS);
  });
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'ArrowDown' && hits.length > 0) {
      ev.preventDefault();
      if (list.hidden) open(true);
      setActive((active + 1) % hits.length);
    } else if (ev.key === 'ArrowUp' && hits.length > 0) {
      ev.preventDefault();
      if (list.hidden) open(true);
      setActive(active <= 0 ? hits.length - 1 : active - 1);
    } else if (ev.key === 'Escape' && !list.hidden) {
      ev.preventDefault();
      open(false);
    } else if (ev.key === 'Enter' && active >= 0 && !list.hidden) {
      ev.preventDefault();
      go(hits[active]!);
    }
  });
  input.addEventListener('blur', () => open(false));
  input.addEventListener('focus', () => hits.length > 0 && open(true));
}
