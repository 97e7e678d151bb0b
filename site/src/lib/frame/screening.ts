/**
 * The screening dossier (`/frame/screening`) over `GET /frame/api/v1/screened`: the answer's types, the form's
 * controls and the page's links. The page's query string is the API's: nothing here decides what a parameter
 * means (parseScreenedQuery in contracts/frame/screened.ts does, inside the API call); this module only turns
 * the answer into what the page prints.
 */
import type { z } from 'zod';
import type { screenedResponse } from '../../../../contracts/frame/responses.ts';
import { screenedQuerySchema, type screenSummary } from '../../../../contracts/frame/screened.ts';
import { SCREEN_MODELS, STRATA, type ScreenModel, type TIERS } from '../../../../contracts/frame/vocab.ts';
import { FRAME_API, withQuery } from '../paths.ts';
import { fmt, pct } from '../format.ts';

/** The page and the API it shows. */
export const SCREENING_PAGE = '/frame/screening';
export const SCREENED_API = `${FRAME_API}/screened`;

/** One verdict of a model on a work. The response schema spreads the model keys, so zod's type loses them. */
export interface Verdict {
  tier: (typeof TIERS)[number];
  genre: string | null;
  about_ca: boolean;
  confidence: string;
  reasons: string | null;
}
type Schema = z.infer<typeof screenedResponse>;
export type ScreenedRow = Schema['results'][number] & Record<ScreenModel, Verdict>;
/** `meta.summary`: the whole sample, as contracts/frame/screened.ts computes it (the schema leaves it open). */
export type SampleSummary = ReturnType<typeof screenSummary>;
/**
 * `meta` as the route writes it and the response schema checks it (its helper takes the extra keys as a
 * plain shape, so zod's type keeps only the snapshot).
 */
export interface ScreenedMeta {
  snapshot: Schema['meta']['snapshot'];
  page: number;
  per_page: number;
  max_per_page: number;
  total: number;
  filters: { contested_only: boolean; n_in: number | null; stratum: string | null };
  summary: SampleSummary;
}
export interface ScreenedAnswer {
  meta: ScreenedMeta;
  results: ScreenedRow[];
}

export const MODELS = SCREEN_MODELS;

/** What each consensus level means, in words. */
export const N_IN_LABEL = ['0: no model put it in scope', '1: one model', '2: two models', '3: all three models'] as const;

/** The strata in words (their definitions: docs/api-frame.md, the snapshot generator's stratumOf). */
export const STRATUM_LABEL: Record<(typeof STRATA)[number], string> = {
  french: 'French-language works',
  about_only: 'About Canada only: no Canadian affiliation, funder or venue',
  venue_new: 'Canadian venue, no Canadian affiliation',
  fund_new: 'Canadian funder, no Canadian affiliation',
  aff_core: 'Canadian affiliation, in English, not about Canada',
  aff_about: 'Canadian affiliation and about Canada (repair stratum)',
  residual: 'Everything else (repair stratum)',
};
export const STRATA_OPTIONS = STRATA;
export const PER_PAGE_OPTIONS = [25, 50, 100] as const;

/**
 * HTML forms send every field, a blank select too (`n_in=`), and `/screened` takes a blank value as invalid.
 * The page answers such a submission with a redirect to the same address without the blank fields of the
 * form (a parameter the API knows, given once); anything else stays, so `bogus=` or a repeated key still
 * reaches the API and gets its 400. Returns null when there is nothing to remove.
 */
export function withoutBlankFields(url: URL): string | null {
  const known = new Set(Object.keys(screenedQuerySchema.shape));
  const entries = [...url.searchParams];
  const count = (k: string) => entries.filter(([key]) => key === k).length;
  const kept = entries.filter(([k, v]) => !(v === '' && known.has(k) && count(k) === 1));
  if (kept.length === entries.length) return null;
  return withQueryKeepingBlanks(url.pathname, kept);
}

/** Like withQuery, but a blank value that is left is kept (so the API sees and names it). */
function withQueryKeepingBlanks(path: string, entries: [string, string][]): string {
  const s = new URLSearchParams(entries).toString();
  return s === '' ? path : `${path}?${s}`;
}

/** The page's address for the same filters with another page number (or page size). */
export function pageHref(search: URLSearchParams, page: number): string {
  const q = new URLSearchParams(search);
  q.delete('page');
  if (page > 1) q.set('page', String(page));
  return withQuery(SCREENING_PAGE, q);
}

/** The filters of an answer in words ("stratum French-language works, exactly 2 models in scope"). */
export function filtersInWords(f: ScreenedAnswer['meta']['filters']): string {
  const parts: string[] = [];
  if (f.contested_only) parts.push('at least one model put the work in scope');
  if (f.n_in !== null) parts.push(`exactly ${f.n_in} of 3 models put the work in scope`);
  if (f.stratum !== null) parts.push(`stratum ${STRATUM_LABEL[f.stratum as (typeof STRATA)[number]] ?? f.stratum} (${f.stratum})`);
  return parts.length === 0 ? 'all screened works' : parts.join('; ');
}

/** A rate of the API (a share from 0 to 1) as a percentage with one decimal: 0.095032 → "9.5%". */
export const rateText = (rate: number | null): string => (rate === null ? '–' : pct(rate, 1));

/** A row of the comparison of weighted and unweighted rates. */
export interface RateRow {
  label: string;
  /** Sampled works with the property (as counted in the sample). */
  count: number;
  /** Share of the sample, unweighted: count / n_screened (what a naive reader would compute; wrong). */
  unweighted: number | null;
  /** The API's design-weighted rate (meta.summary.weighted). */
  weighted: number | null;
  /** The API's weighted estimate of works in the sampling frame, where it gives one. */
  estimate?: number;
  /** The API's 95% interval of the rate and of the estimate, where it gives one. */
  interval?: { rate_low: number; rate_high: number; estimate_low: number; estimate_high: number } | null;
}

/**
 * The rows the dossier compares: any model, all three, each model, each consensus level. Weighted numbers are
 * the API's; the unweighted share is the plain count over the sample size, shown only to make the weighting
 * visible.
 */
export function rateRows(s: SampleSummary): { headline: RateRow[]; perModel: RateRow[]; consensus: RateRow[] } {
  const n = s.n_screened;
  const share = (c: number) => (n === 0 ? null : c / n);
  const w = s.weighted;
  const headline: RateRow[] = [
    {
      label: 'Any model put it in scope',
      count: s.any_model_said_in,
      unweighted: share(s.any_model_said_in),
      weighted: w.any_model_in_scope.rate,
      estimate: w.any_model_in_scope.estimate,
      interval: w.any_model_in_scope.interval_95,
    },
    {
      label: 'All three models put it in scope',
      count: s.all_three_agreed ?? 0,
      unweighted: share(s.all_three_agreed ?? 0),
      weighted: w.all_three_in_scope.rate,
      estimate: w.all_three_in_scope.estimate,
      interval: w.all_three_in_scope.interval_95,
    },
  ];
  const perModel: RateRow[] = s.per_model_in_scope.map((m) => ({
    label: m.model,
    count: m.called_in,
    unweighted: share(m.called_in),
    weighted: w.per_model_rate.find((r) => r.model === m.model)?.rate ?? null,
  }));
  const hist = s.histogram;
  const consensus: RateRow[] = ([0, 1, 2, 3] as const).map((k) => ({
    label: N_IN_LABEL[k],
    count: hist[`n_in_${k}`] ?? 0,
    unweighted: share(hist[`n_in_${k}`] ?? 0),
    weighted: w.n_in_rates[`n_in_${k}`],
  }));
  return { headline, perModel, consensus };
}

/** "Page 2 of 8 (works 26–50 of 200)". */
export function pageWords(page: number, perPage: number, total: number): string {
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (total === 0) return 'No works';
  const first = (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  return first > total
    ? `Page ${fmt(page)} is past the last page (${fmt(pages)})`
    : `Page ${fmt(page)} of ${fmt(pages)} (works ${fmt(first)}–${fmt(last)} of ${fmt(total)})`;
}
