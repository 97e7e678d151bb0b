/**
 * `/frame/api/v1/screened`: the query parser (one zod schema) and the summary arithmetic. The sample is
 * stratified, so every rate over it is design-weighted (Horvitz–Thompson): rate = Σ wᵢ·yᵢ / Σ wᵢ, with wᵢ the
 * row's design weight (inverse selection probability) and yᵢ ∈ {0, 1}.
 */
import { z } from 'zod';
import { ApiError } from '../common/errors.ts';
import { parseStrictQuery, queryOnlyTrue, wholeNumber } from '../common/query.ts';
import { IN_SCOPE_TIERS, SCREEN_MODELS, STRATA } from './vocab.ts';

const whole = (name: string, min: number, max: number) => wholeNumber(min, max, `${name} must be a whole number from ${min} through ${max}`);

export const screenedQuerySchema = z.object({
  contested_only: queryOnlyTrue('contested_only takes only the value 1')
    .optional()
    .meta({ description: 'Only works at least one model put in scope (n_in ≥ 1); contradicts n_in=0.', examples: [true] }),
  n_in: whole('n_in', 0, 3)
    .optional()
    .meta({ description: 'Exact number of models (0 to 3) that put the work in scope.', examples: [2] }),
  stratum: z
    .enum(STRATA, { error: `stratum must be one of ${STRATA.join(', ')}` })
    .optional()
    .meta({ description: 'Sampling stratum.', examples: [STRATA[0]] }),
  page: whole('page', 1, 1_000_000)
    .default(1)
    .meta({ description: 'Page number.', default: 1, examples: [2] }),
  per_page: whole('per_page', 1, 100)
    .default(25)
    .meta({ description: 'Rows per page.', default: 25, examples: [100] }),
});
export type ScreenedQuery = z.infer<typeof screenedQuerySchema>;

export function parseScreenedQuery(url: string): ScreenedQuery {
  const q = parseStrictQuery(screenedQuerySchema, url);
  if (q.contested_only && q.n_in === 0)
    throw new ApiError('INVALID_PARAMETER', 'contested_only=1 selects n_in of 1 or more; it cannot be combined with n_in=0.', [
      { parameter: 'contested_only', message: 'contradicts n_in=0' },
    ]);
  return q;
}

export interface ScreenRow {
  stratum: string;
  stratum_n: number;
  weight: number;
  n_in: number;
  tiers: string[];
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** One stratum's part of a stratified proportion: its frame size, rows sampled, and rows with the outcome. */
interface StratumCount {
  N: number;
  n: number;
  yes: number;
}

const Z95 = 1.959964;

/**
 * A 95% interval for a stratified proportion (the design-weighted rate): the stratified variance with the
 * finite-population correction, V = Σ (N_h/N)² (1 − n_h/N_h) p_h(1 − p_h)/(n_h − 1), turned into an effective
 * sample size n* = p(1 − p)/V and a Wilson score interval at n* (Korn and Graubard's approach; it stays inside
 * [0, 1] and is not degenerate for rare outcomes). With V = 0 (every stratum all-or-nothing) n* is the sample size.
 */
export function stratifiedInterval(strata: readonly StratumCount[]): { low: number; high: number } | null {
  const N = strata.reduce((a, s) => a + s.N, 0);
  const sampled = strata.reduce((a, s) => a + s.n, 0);
  if (N === 0 || sampled === 0) return null;
  let p = 0;
  let v = 0;
  for (const s of strata) {
    if (s.n === 0) continue;
    const ph = s.yes / s.n;
    const share = s.N / N;
    p += share * ph;
    if (s.n > 1) v += (share * share * Math.max(0, 1 - s.n / s.N) * (ph * (1 - ph))) / (s.n - 1);
  }
  const n = v > 0 && p > 0 && p < 1 ? (p * (1 - p)) / v : sampled;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** The sample summary: counts as sampled, and design-weighted estimates for the sampling frame. */
export function screenSummary(rows: readonly ScreenRow[]) {
  const hist = [0, 0, 0, 0];
  const whist = [0, 0, 0, 0];
  let population = 0;
  const perModel = SCREEN_MODELS.map(() => ({ n: 0, w: 0 }));
  const strata = new Map<string, { stratum_n: number; sampled: number; weight: number }>();
  /** Rows per stratum with any model in scope, and with all three (for the intervals). */
  const inScope = new Map<string, { any: number; all: number }>();
  for (const r of rows) {
    hist[r.n_in]!++;
    whist[r.n_in]! += r.weight;
    population += r.weight;
    r.tiers.forEach((t, m) => {
      if (IN_SCOPE_TIERS.has(t)) {
        perModel[m]!.n++;
        perModel[m]!.w += r.weight;
      }
    });
    const s = strata.get(r.stratum) ?? { stratum_n: r.stratum_n, sampled: 0, weight: r.weight };
    s.sampled++;
    strata.set(r.stratum, s);
    const c = inScope.get(r.stratum) ?? { any: 0, all: 0 };
    if (r.n_in >= 1) c.any++;
    if (r.n_in === 3) c.all++;
    inScope.set(r.stratum, c);
  }
  const any = hist[1]! + hist[2]! + hist[3]!;
  const pct = (a: number, b: number) => (b === 0 ? null : round((100 * a) / b, 1));
  const rate = (w: number) => (population === 0 ? null : round(w / population, 6));
  /** The 95% interval of a rate and of its estimate of works in the frame. */
  const interval = (outcome: 'any' | 'all') => {
    const i = stratifiedInterval([...strata].map(([name, s]) => ({ N: s.stratum_n, n: s.sampled, yes: inScope.get(name)?.[outcome] ?? 0 })));
    return (
      i && { rate_low: round(i.low, 6), rate_high: round(i.high, 6), estimate_low: round(i.low * population, 1), estimate_high: round(i.high * population, 1) }
    );
  };
  return {
    n_screened: rows.length,
    histogram: { n_in_0: hist[0], n_in_1: hist[1], n_in_2: hist[2], n_in_3: hist[3] },
    any_model_said_in: any,
    all_three_agreed: hist[3],
    pct_all_three: pct(hist[3]!, any),
    one_model_only: hist[1],
    pct_single_model: pct(hist[1]!, any),
    tiers: 'T1 (core metaresearch) and T2 (metaresearch, adjacent traditions) count as in scope; T3 (adjacent) and OUT do not.',
    per_model_in_scope: SCREEN_MODELS.map((model, m) => ({ model, called_in: perModel[m]!.n })),
    weighted: {
      formula:
        'rate = Σ wᵢ·yᵢ / Σ wᵢ over the screened rows (Horvitz–Thompson, wᵢ = design weight = stratum_n / rows sampled in the stratum); estimate = rate × Σ wᵢ',
      population: round(population, 3),
      any_model_in_scope: {
        rate: rate(whist[1]! + whist[2]! + whist[3]!),
        estimate: round(whist[1]! + whist[2]! + whist[3]!, 1),
        interval_95: interval('any'),
      },
      all_three_in_scope: { rate: rate(whist[3]!), estimate: round(whist[3]!, 1), interval_95: interval('all') },
      interval_method:
        '95% interval: stratified variance with finite-population correction, Σ (N_h/N)² (1 − n_h/N_h) p_h(1 − p_h)/(n_h − 1), as an effective sample size n* = p(1 − p)/V and a Wilson score interval at n*',
      n_in_rates: { n_in_0: rate(whist[0]!), n_in_1: rate(whist[1]!), n_in_2: rate(whist[2]!), n_in_3: rate(whist[3]!) },
      per_model_rate: SCREEN_MODELS.map((model, m) => ({ model, rate: rate(perModel[m]!.w) })),
      note: 'Unweighted rates from this sample are wrong: strata were sampled at very different rates.',
    },
    strata: [...strata]
      .sort(([a], [b]) => STRATA.indexOf(a as (typeof STRATA)[number]) - STRATA.indexOf(b as (typeof STRATA)[number]))
      .map(([stratum, s]) => ({ stratum, ...s })),
  };
}
