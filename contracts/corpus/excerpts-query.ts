/**
 * The one parser of `/corpus/api/v1/excerpts` parameters (DECISIONS.md §3, §5), shared by the API route and
 * the site's excerpt browser, so a page and the endpoint answer the same question for the same URL.
 *
 * | parameter | values | default |
 * |---|---|---|
 * | `phrase` | a canonical phrase of the build's lexicon (case and spacing are forgiven) | any |
 * | `band` (repeatable) | `0.05-0.06`, `0.06-0.08`, `0.08-0.10`, `>0.10`, `ns`, `none` | see below |
 * | `status` (repeatable) | `verified`, `rejected`, `unverified`, `indeterminate` | see below |
 * | `q` | words and "quoted phrases", all required; a trailing `*` makes a prefix | none |
 * | `year_from`, `year_to` | publication years 1000 … 9999, inclusive (`year_from` ≤ `year_to`) | any year |
 * | `p_min`, `p_max` | exact p-values 0 … 1, inclusive (`p_min` ≤ `p_max`) | any p |
 * | `sort` | `relevance` (needs q), `p_asc`, `p_desc`, `year_desc`, `article` | `relevance` with q, else `article` |
 * | `page`, `per_page` | 1 … 100,000; 1 … 100 | 1; 25 |
 *
 * A sentence is listed when one of its occurrences matches every occurrence filter given (phrase, band,
 * status, and with `p_min`/`p_max` an exact p-value in the range), in an article of a year in
 * [`year_from`, `year_to`] when either is given (an article without a year then never matches). Without `band` and `status` only verified occurrences count, which is the default listing of
 * DECISIONS.md §5 (rejected ones are kept but out of it); `band=none` lists the sentences without a p-value
 * and `status=rejected` the rejected ones. `q` never reaches FTS5 as written: it is parsed here and rebuilt
 * as quoted strings, so no input can be an FTS5 syntax error (a 500) or an unintended operator; control
 * characters (a NUL would end an FTS5 string early) count as spaces.
 */
import { z } from 'zod';
import { ApiError } from '../common/errors.ts';
import { parseStrictQuery, queryValueTypes, wholeNumber } from '../common/query.ts';
import {
  BANDS,
  type Band,
  EXCERPT_MAX_PAGE_SIZE,
  EXCERPT_PAGE_SIZE,
  EXCERPT_SORTS,
  type ExcerptSort,
  OCCURRENCE_STATUSES,
  type OccurrenceStatus,
} from './vocab.ts';

export const MAX_Q_LENGTH = 200;
export const MAX_Q_TERMS = 12;
export const MAX_PAGE = 100_000;
export const MIN_YEAR = 1000;
export const MAX_YEAR = 9999;

/** A repeatable parameter over a closed vocabulary; canonical (each value once, in vocabulary order). */
const listOf = <T extends readonly [string, ...string[]]>(values: T, name: string) =>
  z
    .array(
      z.enum(values, {
        error: (issue) => `"${String(issue.input)}" is not a ${name}; allowed: ${values.join(', ')}`,
      }),
    )
    // Equal questions get equal cache keys and echoes.
    .transform((xs) => values.filter((v) => (xs as readonly string[]).includes(v)) as unknown as T[number][])
    .optional();

const whole = (name: string, min: number, max: number) => wholeNumber(min, max, `${name} must be a whole number from ${min} to ${max}`);

const year = (name: string, side: string, example: number) => {
  const schema = z
    .string()
    .regex(/^\d{4}$/, `${name} must be a four-digit year from ${MIN_YEAR} to ${MAX_YEAR}`)
    .transform(Number)
    .refine((n) => n >= MIN_YEAR && n <= MAX_YEAR, `${name} must be a four-digit year from ${MIN_YEAR} to ${MAX_YEAR}`);
  queryValueTypes.add(schema, { type: 'integer', minimum: MIN_YEAR, maximum: MAX_YEAR });
  return schema.optional().meta({
    description: `${side} publication year of the article (${MIN_YEAR} … ${MAX_YEAR}), inclusive; only articles with a year match when given.`,
    examples: [example],
  });
};

const pValue = (name: string, side: string, example: number) => {
  const schema = z
    .string()
    // A plain decimal: "0.05", ".05", "1", "0"; no exponent, sign or hex, so the echo is the value asked for.
    .regex(/^(\d+(\.\d*)?|\.\d+)$/, `${name} must be a decimal number from 0 to 1, like 0.05`)
    .transform(Number)
    .refine((n) => n >= 0 && n <= 1, `${name} must be a decimal number from 0 to 1, like 0.05`);
  queryValueTypes.add(schema, { type: 'number', minimum: 0, maximum: 1 });
  return schema.optional().meta({
    description: `${side} of the exact p-value (stated with "=" or a lost operator) of the occurrence that passes the other filters, inclusive, 0 … 1, written as a plain decimal (0.05, not 5e-2); bounds ("p < 0.1") and "n.s." never match.`,
    examples: [example],
  });
};

/** The raw parameters, as zod sees them; the `.meta()` text is their OpenAPI documentation. */
export const excerptParamsSchema = z
  .object({
    phrase: z
      .string()
      .max(200, 'phrase is at most 200 characters')
      .optional()
      .meta({
        description:
          'A canonical phrase of the lexicon (as /phrases lists them; case and spacing are forgiven). A phrase outside the lexicon is a 400 that lists them.',
        examples: ['marginally significant'],
      }),
    band: listOf(BANDS, 'band').meta({
      description: `p-value band of the occurrence; repeatable (any of them). Without band and status only verified occurrences are listed; band=none lists sentences without a p-value.`,
      examples: [['0.05-0.06']],
    }),
    status: listOf(OCCURRENCE_STATUSES, 'status').meta({
      description: 'Verification status of the occurrence; repeatable (any of them). Default: verified when no band is given, else any status.',
      examples: [['verified', 'unverified']],
    }),
    q: z
      .string()
      .max(MAX_Q_LENGTH, `q is at most ${MAX_Q_LENGTH} characters`)
      .optional()
      .meta({
        description: `Full-text search in the sentence: words and "quoted phrases", all required; a trailing * makes a prefix (trend*). At most ${MAX_Q_TERMS} terms and ${MAX_Q_LENGTH} characters.`,
        examples: ['"marginally significant" trend*'],
      }),
    year_from: year('year_from', 'Earliest', 2005),
    year_to: year('year_to', 'Latest', 2020),
    p_min: pValue('p_min', 'Lower bound', 0.05),
    p_max: pValue('p_max', 'Upper bound', 0.1),
    sort: z
      .enum(EXCERPT_SORTS, { error: (issue) => `sort "${String(issue.input)}" is not an order; allowed: ${EXCERPT_SORTS.join(', ')}` })
      .optional()
      .meta({
        description: 'Order: relevance (needs q, else a 400), p_asc, p_desc, year_desc or article. Default: relevance with q, else article.',
        examples: ['p_asc'],
      }),
    page: whole('page', 1, MAX_PAGE)
      .optional()
      .meta({ description: 'Page number.', default: 1, examples: [2] }),
    per_page: whole('per_page', 1, EXCERPT_MAX_PAGE_SIZE)
      .optional()
      .meta({ description: 'Sentences per page.', default: EXCERPT_PAGE_SIZE, examples: [50] }),
  })
  .strict();

/** One element of `q`: a word (optionally a prefix, `trend*`) or a quoted phrase. */
export interface SearchTerm {
  text: string;
  phrase: boolean;
  prefix: boolean;
}

/** The canonical question `/excerpts` answers. */
export interface ExcerptQuery {
  phrase: string | null;
  bands: Band[];
  statuses: OccurrenceStatus[];
  q: string | null;
  terms: SearchTerm[];
  /** Inclusive publication-year range; null where not given. */
  year_from: number | null;
  year_to: number | null;
  /** Inclusive range of exact p-values; null where not given. */
  p_min: number | null;
  p_max: number | null;
  sort: ExcerptSort;
  page: number;
  per_page: number;
}

const WORDY = /[\p{L}\p{N}]/u;

/** Splits `q` into words and quoted phrases; throws a 400 naming `q` when it cannot be searched. */
export function parseSearch(raw: string): SearchTerm[] {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here
  const q = raw.replace(/[\u0000-\u001f\u007f]/g, ' ');
  const terms: SearchTerm[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  const quotes = (q.match(/"/g) ?? []).length;
  if (quotes % 2 === 1) throw invalid('q', 'q has an unbalanced double quote; quote phrases as "trend toward"');
  for (const m of q.matchAll(re)) {
    if (m[1] !== undefined) {
      const text = m[1].trim().replace(/\s+/g, ' ');
      if (!WORDY.test(text)) continue;
      terms.push({ text, phrase: true, prefix: false });
    } else {
      let text = m[2]!;
      const prefix = text.length > 1 && text.endsWith('*');
      if (prefix) text = text.slice(0, -1);
      if (!WORDY.test(text)) continue;
      terms.push({ text, phrase: false, prefix });
    }
  }
  if (terms.length === 0) throw invalid('q', 'q has no word to search for (letters or digits)');
  if (terms.length > MAX_Q_TERMS) throw invalid('q', `q has ${terms.length} terms; at most ${MAX_Q_TERMS} are allowed`);
  return terms;
}

/** The FTS5 MATCH expression for parsed terms: each a quoted string, all required. */
export function ftsExpression(terms: readonly SearchTerm[]): string {
  return terms.map((t) => `"${t.text.replace(/"/g, '""')}"${t.prefix ? '*' : ''}`).join(' AND ');
}

function invalid(parameter: string, message: string, allowed?: readonly string[]): ApiError {
  return new ApiError('INVALID_PARAMETER', message, [{ parameter, message, ...(allowed ? { allowed: [...allowed] } : {}) }]);
}

/** Case and spacing as the lexicon writes phrases: NFKC, lower case, single spaces. */
export function canonicalPhrase(s: string): string {
  return s.normalize('NFKC').toLowerCase().trim().replace(/\s+/g, ' ');
}

/**
 * Parses the query string of `url`. `phrases` are the lexicon's canonical phrases (the build knows them);
 * a phrase outside them is a 400 listing them, never an empty answer that looks like "no such hedges".
 */
export function parseExcerptQuery(url: string, phrases: readonly string[]): ExcerptQuery {
  const p = parseStrictQuery(excerptParamsSchema, url, { multi: ['band', 'status'], emptyIsAbsent: true });
  let phrase: string | null = null;
  if (p.phrase !== undefined) {
    phrase = canonicalPhrase(p.phrase);
    if (!phrases.includes(phrase)) throw invalid('phrase', `phrase "${p.phrase}" is not a phrase of the lexicon; allowed: ${phrases.join(', ')}`, phrases);
  }
  // eslint-disable-next-line no-control-regex -- control characters count as spaces (see parseSearch)
  const q = p.q === undefined ? null : p.q.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  const terms = q === null ? [] : parseSearch(q);
  if (p.year_from !== undefined && p.year_to !== undefined && p.year_from > p.year_to)
    throw invalid('year_from', `year_from (${p.year_from}) is after year_to (${p.year_to}); give year_from ≤ year_to`);
  if (p.p_min !== undefined && p.p_max !== undefined && p.p_min > p.p_max)
    throw invalid('p_min', `p_min (${p.p_min}) is greater than p_max (${p.p_max}); give p_min ≤ p_max`);
  if (p.sort === 'relevance' && q === null)
    throw invalid('sort', 'sort=relevance orders by the match with q; give q, or sort by p_asc, p_desc, year_desc or article', EXCERPT_SORTS);
  return {
    phrase,
    bands: p.band ?? [],
    statuses: p.status ?? (p.band === undefined ? ['verified'] : []),
    q,
    terms,
    year_from: p.year_from ?? null,
    year_to: p.year_to ?? null,
    p_min: p.p_min ?? null,
    p_max: p.p_max ?? null,
    sort: p.sort ?? (q === null ? 'article' : 'relevance'),
    page: p.page ?? 1,
    per_page: p.per_page ?? EXCERPT_PAGE_SIZE,
  };
}

/** The query string of a canonical query (for links: next page, the site's forms, the API link of a page). */
export function excerptQueryString(query: Omit<ExcerptQuery, 'terms'>, overrides: Partial<Omit<ExcerptQuery, 'terms'>> = {}): string {
  const o = { ...query, ...overrides };
  const params = new URLSearchParams();
  if (o.phrase !== null) params.set('phrase', o.phrase);
  for (const b of o.bands) params.append('band', b);
  // The default status (verified, when no band is given) is left implicit, so links stay short.
  const defaultStatus = o.bands.length === 0 && o.statuses.length === 1 && o.statuses[0] === 'verified';
  if (!defaultStatus) for (const s of o.statuses) params.append('status', s);
  if (o.q !== null) params.set('q', o.q);
  if (o.year_from !== null) params.set('year_from', String(o.year_from));
  if (o.year_to !== null) params.set('year_to', String(o.year_to));
  if (o.p_min !== null) params.set('p_min', String(o.p_min));
  if (o.p_max !== null) params.set('p_max', String(o.p_max));
  if (o.sort !== (o.q === null ? 'article' : 'relevance')) params.set('sort', o.sort);
  if (o.page !== 1) params.set('page', String(o.page));
  if (o.per_page !== EXCERPT_PAGE_SIZE) params.set('per_page', String(o.per_page));
  return params.toString();
}
