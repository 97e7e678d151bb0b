/**
 * Typeahead for a text input of the cohort builder, over the API's facet endpoints (`/facets/venue|topic|author`):
 * the ARIA 1.2 combobox pattern (an input with a popup listbox; arrow keys move through the options, Enter
 * picks, Escape closes; the input keeps focus). Nothing here runs without JavaScript: the input stays a plain
 * text field, which the API accepts as typed.
 */

/** The facets' shortest query (the API answers 400 below it; DECISIONS.md §4). */
const MIN_CHARS = 2;
const DEBOUNCE_MS = 200;

export interface Suggestion {
  /** What the option reads. */
  label: string;
  /** A smaller note after it (counts, ids). */
  note: string;
  /** Passed back to onPick. */
  value: string;
  id?: string;
}

interface ValueFacetAnswer {
  results: { value: string; works: number }[];
}
interface AuthorFacetAnswer {
  results: { id: string; name: string; ca_works: number }[];
}

const fmt = new Intl.NumberFormat('en-CA');

/** Fetches suggestions for `q` from one facet endpoint. */
export async function fetchSuggestions(api: string, facet: 'venue' | 'topic' | 'author', q: string, signal: AbortSignal): Promise<Suggestion[]> {
  const r = await fetch(`${api}/facets/${facet}?q=${encodeURIComponent(q)}`, { signal, headers: { accept: 'application/json' } });
  if (!r.ok) return [];
  if (facet === 'author') {
    const body = (await r.json()) as AuthorFacetAnswer;
    return body.results.map((a) => ({ label: a.name, note: `${a.id}, ${fmt.format(a.ca_works)} Canadian works`, value: a.name, id: a.id }));
  }
  const body = (await r.json()) as ValueFacetAnswer;
  return body.results.map((v) => ({ label: v.value, note: `${fmt.format(v.works)} works`, value: v.value }));
}

/**
 * Makes `input` a combobox whose options come from `source`. `onPick` runs when the reader chooses one (by
 * click, or Enter on the highlighted option).
 */
export function attachTypeahead(
  input: HTMLInputElement,
  source: (q: string, signal: AbortSignal) => Promise<Suggestion[]>,
  onPick: (s: Suggestion) => void,
): void {
  const listbox = document.createElement('ul');
  listbox.id = `${input.id}-listbox`;
  listbox.setAttribute('role', 'listbox');
  listbox.setAttribute('aria-label', `Suggestions for ${input.labels?.[0]?.textContent ?? input.name}`);
  listbox.hidden = true;
  input.after(listbox);
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-expanded', 'false');
  input.setAttribute('aria-controls', listbox.id);

  let options: Suggestion[] = [];
  let active = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inflight: AbortController | null = null;

  const close = () => {
    listbox.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  };
  const highlight = (i: number) => {
    active = i;
    [...listbox.children].forEach((li, k) => li.setAttribute('aria-selected', String(k === i)));
    if (i < 0) input.removeAttribute('aria-activedescendant');
    else {
      const li = listbox.children[i] as HTMLElement;
      input.setAttribute('aria-activedescendant', li.id);
      li.scrollIntoView({ block: 'nearest' });
    }
  };
  const pick = (i: number) => {
    const s = options[i];
    if (!s) return;
    close();
    onPick(s);
  };
  const render = () => {
    listbox.replaceChildren(
      ...options.map((s, i) => {
        const li = document.createElement('li');
        li.id = `${listbox.id}-${i}`;
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', 'false');
        li.append(s.label, ' ');
        const note = document.createElement('span');
        note.className = 'count';
        note.textContent = `(${s.note})`;
        li.append(note);
        // mousedown, not click: the input must keep focus (a blur would close the list first).
        li.addEventListener('mousedown', (e) => {
          e.preventDefault();
          pick(i);
        });
        return li;
      }),
    );
    if (options.length === 0) close();
    else {
      listbox.hidden = false;
      input.setAttribute('aria-expanded', 'true');
      highlight(-1);
    }
  };
  const lookup = () => {
    const q = input.value.trim();
    inflight?.abort();
    if (q.length < MIN_CHARS) {
      options = [];
      render();
      return;
    }
    const controller = new AbortController();
    inflight = controller;
    source(q, controller.signal)
      .then((found) => {
        if (controller.signal.aborted) return;
        options = found;
        render();
      })
      .catch(() => {
        /* aborted or offline: no suggestions, the field still works as typed */
      });
  };

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(lookup, DEBOUNCE_MS);
  });
  input.addEventListener('keydown', (e) => {
    const open = !listbox.hidden && options.length > 0;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) lookup();
      else highlight((active + 1) % options.length);
    } else if (e.key === 'ArrowUp' && open) {
      e.preventDefault();
      highlight(active <= 0 ? options.length - 1 : active - 1);
    } else if (e.key === 'Enter' && open && active >= 0) {
      // Enter on a highlighted option picks it; otherwise Enter submits the form as usual.
      e.preventDefault();
      pick(active);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      close();
    }
  });
  input.addEventListener('blur', close);
}
