/**
 * The statistical model of the synthetic frame: rates that reproduce the published marginals of the real
 * frame (../shared/reference/metacan/frame_summary.json) and the shapes described in research/metacan.md.
 */
import { type CATEGORY_ORDER, DESIGNS, DOMAINS, GENRES, type STRATA } from '../../contracts/frame/vocab.ts';
import { Categorical } from './prng.ts';

/** Published frame: 4,299,418 works. Rates below are its counts divided by that total. */
export const RATES = {
  aff: 2_734_192 / 4_299_418,
  fund: 788_103 / 4_299_418,
  venue: 638_161 / 4_299_418,
  about: 1_316_408 / 4_299_418,
  withVenue: 3_902_048 / 4_299_418,
  withAbstract: 3_296_301 / 4_299_418,
  french: 237_207 / 4_299_418,
  /** 28.8% of the frame names any funder. */
  anyFunder: 1_239_950 / 4_299_418,
};

// Routes: among aff works the other routes are independent draws; works without a Canadian affiliation must
// come in through at least one other route, so their route set is drawn from the combinations below, solved
// so that each marginal matches the published one.
export const ROUTES_GIVEN_AFF = { fund: 0.15, venue: 0.08, about: 0.1 };
const noAff = 1 - RATES.aff;
const within = (total: number, givenAff: number) => (total - RATES.aff * givenAff) / noAff;
const F = within(RATES.fund, ROUTES_GIVEN_AFF.fund);
const V = within(RATES.venue, ROUTES_GIVEN_AFF.venue);
const A = within(RATES.about, ROUTES_GIVEN_AFF.about);
const AF = 0.06;
const AV = 0.07;
const FV = F + V + A - 1 - AF - AV;
/** Route combinations (fund, venue, about) for works without a Canadian affiliation. */
export const NO_AFF_COMBOS = new Categorical<readonly [boolean, boolean, boolean]>([
  [[false, false, true], A - AF - AV],
  [[true, false, false], F - AF - FV],
  [[false, true, false], V - AV - FV],
  [[true, false, true], AF],
  [[false, true, true], AV],
  [[true, true, false], FV],
]);

/** P(venue | no venue route), so that the overall with-venue share matches. */
export const VENUE_GIVEN_NOT_VENUE_ROUTE = (RATES.withVenue - RATES.venue) / (1 - RATES.venue);
/** P(any funder | no funder route). */
export const FUNDER_GIVEN_NOT_FUND_ROUTE = (RATES.anyFunder - RATES.fund) / (1 - RATES.fund);

export const LANGS = new Categorical<string>([
  ['en', 0.884],
  ['fr', RATES.french],
  ['', 0.004],
  ['de', 0.013],
  ['es', 0.012],
  ['pt', 0.009],
  ['zh', 0.007],
  ['ja', 0.005],
  ['it', 0.004],
  ['nl', 0.003],
  ['ru', 0.00383],
]);

export const TYPES = new Categorical<string>([
  ['article', 0.72],
  ['book-chapter', 0.06],
  ['review', 0.05],
  ['preprint', 156_086 / 4_299_418],
  ['dissertation', 0.025],
  ['book', 0.02],
  ['letter', 0.015],
  ['editorial', 0.015],
  ['dataset', 0.01],
  ['report', 0.01],
  ['paratext', 0.008],
  ['erratum', 0.006],
  ['peer-review', 0.005],
  ['other', 0.0197],
]);

const yearPairs: [number, number][] = [];
for (let y = 2000; y <= 2025; y++) yearPairs.push([y, Math.exp(0.06 * (y - 2000)) * (y === 2025 ? 0.6 : 1)]);
export const YEARS = new Categorical<number>(yearPairs);

/** Latent base rates of the eight categories and of insufficient_payload. */
export const CATEGORY_BASE = [0.03, 0.004, 0.01, 0.015, 0.02, 0.012, 0.01, 0.012, 0.02];

/**
 * Teacher thresholds per head (quota-aligned in the original; research/metacan.md §1.5). `null` for the
 * codex side means the head failed its support gate, so it has no codex decision and its consensus is empty.
 */
export const THRESHOLDS: Record<(typeof CATEGORY_ORDER)[number] | 'about_ca_system' | 'about_ca_topic', { codex: number | null; gemma: number }> = {
  metaresearch: { codex: 0.189, gemma: 0.165 },
  metaepi_narrow: { codex: null, gemma: 0.5 },
  metaepi_broad: { codex: null, gemma: 0.5 },
  bibliometrics: { codex: null, gemma: 0.5 },
  sts: { codex: null, gemma: 0.5 },
  scholarly_communication: { codex: null, gemma: 0.5 },
  open_science: { codex: null, gemma: 0.5 },
  research_integrity: { codex: null, gemma: 0.5 },
  insufficient_payload: { codex: 0.299, gemma: 0.32 },
  about_ca_system: { codex: 0.138, gemma: 0.185 },
  about_ca_topic: { codex: 0.503, gemma: 0.399 },
};

export const MODEL_VERSION = 'synthetic-v3-hybrid';

/** Share of the 5,600-work screen allotted to each stratum (v1 design plus the two repair strata). */
export const STRATUM_ALLOCATION: Record<(typeof STRATA)[number], number> = {
  french: 2000,
  about_only: 1000,
  venue_new: 750,
  fund_new: 500,
  aff_core: 750,
  aff_about: 400,
  residual: 200,
};

export const SCREEN_IN_SCOPE = { latent: [0.85, 0.7, 0.65], other: [0.02, 0.012, 0.01] };

export const RETRACTION_NATURE_RW_ONLY = new Categorical<string>([
  ['Expression of concern', 52],
  ['Retraction', 49],
  ['Correction', 32],
  ['Reinstatement', 10],
]);
export const RETRACTION_NATURE_FLAGGED = new Categorical<string>([
  ['Retraction', 0.93],
  ['Expression of concern', 0.03],
  ['Correction', 0.02],
  ['Reinstatement', 0.005],
  ['', 0.015],
]);

/**
 * Venue k is Canadian when k is a multiple of `canadianVenueEvery` (so ceil(venues / 63) = 1,350 Canadian
 * sources; the real pinned list has 1,341). `canadianFunders`: the size of the real pinned funder list.
 */
export const SIZES = {
  venues: 85_000,
  topics: 4_500,
  tailWords: 30_000,
  canadianVenueEvery: 63,
  canadianFunders: 2_182,
};
export { DESIGNS, DOMAINS, GENRES };
