/**
 * The cohort builder's form: one control per parameter of the `/cohort` surface, named exactly as the API
 * names it, so the page's query string is the API's query string (a GET form submits the same parameters the
 * API parses). Closed vocabularies come from contracts/frame (vocab.ts, cohort-query.ts); nothing here
 * decides what a parameter means: the page hands the query string to the API and parseCohortQuery().
 */
import { type CohortQuery, DEFAULT_PER_PAGE, parseCohortQuery, SORTS, SURFACES } from '../../../../contracts/frame/cohort-query.ts';
import { CATEGORIES, DESIGNS, ROUTE_LABEL, ROUTES } from '../../../../contracts/frame/vocab.ts';

export interface Option {
  value: string;
  label: string;
}

interface ControlBase {
  /** The API's parameter name (also the form field's name). */
  name: string;
  label: string;
  /** One line under the control: what the API does with it. */
  hint?: string;
  /** The glossary's entry for the term (`/frame/glossary#<anchor>`), linked under the control. */
  glossary?: string;
}
export interface TextControl extends ControlBase {
  kind: 'text' | 'number';
  /** A typeahead facet (`/facets/<facet>`) the script attaches to this input. */
  typeahead?: 'venue' | 'topic' | 'author';
  /** A <datalist> of common values (open vocabularies: languages, types, fields). */
  suggestions?: 'lang' | 'type' | 'field';
  min?: number;
  max?: number;
  placeholder?: string;
  /** Narrow inputs (years, counts). */
  size?: 'short';
}
export interface SelectControl extends ControlBase {
  kind: 'select';
  /** The first option is the "any" choice, whose value is empty (an empty value is the same as no parameter). */
  options: readonly Option[];
}
export type Control = TextControl | SelectControl;
export interface Group {
  legend: string;
  controls: readonly Control[];
}

/** How each sort reads (labels of the select and of the result table's headers). */
export const SORT_LABEL: Record<(typeof SORTS)[number], string> = {
  cited: 'most cited (default)',
  year_desc: 'newest first',
  year_asc: 'oldest first',
  relevance: 'title relevance (needs title words)',
};

const words = (s: string) => s.replaceAll('_', ' ');
const ANY: Option = { value: '', label: 'any' };
const triState = (required: string, excluded: string): Option[] => [ANY, { value: '1', label: required }, { value: '0', label: excluded }];

/** Every filter of the `/cohort` surface plus sort and page size, grouped as the page shows them. */
export const GROUPS: readonly Group[] = [
  {
    legend: 'Search',
    controls: [
      { name: 'q', kind: 'text', label: 'Title words', hint: 'Every word must occur in the title.' },
      {
        name: 'author',
        kind: 'text',
        label: 'Author name',
        typeahead: 'author',
        hint: 'Every word must occur in an author’s name; may match several people. Pick a suggestion to filter by that researcher’s id.',
      },
      { name: 'author_id', kind: 'text', label: 'Author id', placeholder: 'A5000000012', hint: 'One researcher exactly (A followed by digits).' },
    ],
  },
  {
    legend: 'Publication',
    controls: [
      { name: 'year_from', kind: 'number', label: 'Year from', min: 1000, max: 9999, size: 'short' },
      { name: 'year_to', kind: 'number', label: 'Year to', min: 1000, max: 9999, size: 'short' },
      { name: 'cited_min', kind: 'number', label: 'Cited at least', min: 0, max: 10_000_000, size: 'short', hint: 'Citation count ≥ this number.' },
      { name: 'lang', kind: 'text', label: 'Language code', suggestions: 'lang', placeholder: 'en, fr…', size: 'short' },
      { name: 'type', kind: 'text', label: 'Work type', suggestions: 'type', placeholder: 'article' },
      { name: 'field', kind: 'text', label: 'Field', suggestions: 'field', hint: 'Exact primary field.' },
      { name: 'venue', kind: 'text', label: 'Venue', typeahead: 'venue', hint: 'Exact venue name; type two letters for suggestions.' },
      { name: 'topic', kind: 'text', label: 'Topic', typeahead: 'topic', hint: 'Exact primary topic; type two letters for suggestions.' },
    ],
  },
  {
    legend: 'Routes into the frame',
    controls: ROUTES.map((r) => ({
      name: `route_${r}`,
      kind: 'select' as const,
      label: ROUTE_LABEL[r],
      options: triState('required', 'excluded'),
    })),
  },
  {
    legend: 'Record status',
    controls: [
      { name: 'retracted', kind: 'select', label: 'Retracted', options: triState('only retracted', 'no retracted works') },
      {
        name: 'abstract',
        kind: 'select',
        label: 'Abstract',
        options: [ANY, { value: 'has', label: 'has an abstract' }, { value: 'none', label: 'no abstract' }],
      },
      {
        name: 'n_in',
        kind: 'select',
        label: 'Screening consensus',
        glossary: 'screening',
        hint: 'Screened works that this many of the three models called metaresearch.',
        options: [ANY, ...[0, 1, 2, 3].map((n) => ({ value: String(n), label: `${n} of 3 models` }))],
      },
      { name: 'labeled', kind: 'select', label: 'Direct labels', glossary: 'direct-label', options: triState('has direct labels', 'no direct labels') },
    ],
  },
  {
    legend: 'Labels',
    controls: [
      {
        name: 'category',
        kind: 'select',
        label: 'Category',
        glossary: 'direct-label',
        options: [ANY, ...CATEGORIES.map((c) => ({ value: c, label: words(c) }))],
      },
      { name: 'design', kind: 'select', label: 'Study design', options: [ANY, ...DESIGNS.map((d) => ({ value: d, label: words(d) }))] },
      {
        name: 'label_source',
        kind: 'select',
        label: 'Label source',
        glossary: 'label-source',
        hint: 'Where category and design come from.',
        options: [
          { value: '', label: 'direct labels (default)' },
          { value: 'predicted', label: 'predictions (whole frame)' },
        ],
      },
      {
        name: 'prediction_mode',
        kind: 'select',
        label: 'Prediction mode',
        glossary: 'candidate',
        hint: 'Predictions only.',
        options: [
          { value: '', label: 'candidate: either teacher (default)' },
          { value: 'consensus', label: 'consensus: both teachers' },
        ],
      },
      {
        name: 'agreement',
        kind: 'select',
        label: 'Model agreement',
        glossary: 'agreement',
        hint: 'Direct labels only.',
        options: [
          { value: '', label: 'any model suffices (default)' },
          { value: 'all', label: 'every labelling model agrees' },
        ],
      },
    ],
  },
  {
    legend: 'Results',
    controls: [
      {
        name: 'sort',
        kind: 'select',
        label: 'Sort by',
        options: SORTS.map((s) => ({ value: s === 'cited' ? '' : s, label: SORT_LABEL[s] })),
      },
      {
        name: 'per_page',
        kind: 'select',
        label: 'Rows per page',
        options: [10, DEFAULT_PER_PAGE, 50, 100].map((n) => ({ value: n === DEFAULT_PER_PAGE ? '' : String(n), label: String(n) })),
      },
    ],
  },
];

/** Paging parameters: a new search starts again at the first page. */
const PAGING: readonly string[] = ['page', 'cursor'];

export const CONTROL_NAMES: readonly string[] = GROUPS.flatMap((g) => g.controls.map((c) => c.name));

/** What the form shows for a request, and what the page knows about the query before calling the API. */
export interface FormState {
  /** Each control's value (empty: not given). */
  values: Record<string, string>;
  /** Parameters of the surface that have no control of their own (synonyms such as `route`), carried along as hidden inputs. */
  hidden: [name: string, value: string][];
  /** The parsed query, or null when parseCohortQuery refused it (the API then says why, with the same message). */
  query: CohortQuery | null;
}

const asParam = (v: unknown): string => (typeof v === 'boolean' ? (v ? '1' : '0') : String(v));

/**
 * The form's values for a page URL. A query the parser accepts fills the controls from its canonical filters
 * (so `route=no_aff` shows as "Canadian affiliation: excluded"), except the free-text searches, which keep the
 * reader's own words (they parse to the same terms). A refused query keeps every value as typed, so the reader
 * can correct it; a parameter with no control of its own then travels in a hidden input.
 */
export function formState(url: URL): FormState {
  const raw = url.searchParams;
  const values: Record<string, string> = Object.fromEntries(CONTROL_NAMES.map((n) => [n, '']));
  let query: CohortQuery | null = null;
  try {
    query = parseCohortQuery(url.pathname + url.search, 'cohort');
  } catch {
    query = null;
  }
  const hidden: [string, string][] = [];
  if (query) {
    for (const [k, v] of Object.entries(query.filters)) if (k in values) values[k] = asParam(v);
    for (const k of ['q', 'author'] as const) if (query.filters[k] !== undefined) values[k] = (raw.get(k) ?? '').trim();
    values.sort = query.sort === 'cited' ? '' : query.sort;
    values.per_page = query.per_page === DEFAULT_PER_PAGE ? '' : String(query.per_page);
  } else {
    const known: readonly string[] = SURFACES.cohort;
    for (const [k, v] of raw) {
      if (k in values) values[k] = v;
      // `snapshot` has its own control outside the filters (SnapshotChoice.astro).
      else if (known.includes(k) && !PAGING.includes(k) && k !== 'snapshot') hidden.push([k, v]);
    }
  }
  return { values, hidden, query };
}

/** The page's own address with some parameters replaced (null removes one); other parameters stay as given. */
export function pageLink(url: URL, changes: Record<string, string | null>): string {
  const q = new URLSearchParams(url.searchParams);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) q.delete(k);
    else q.set(k, v);
  }
  const s = q.toString();
  return `${url.pathname}${s ? `?${s}` : ''}`;
}
