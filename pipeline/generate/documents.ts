/**
 * The two JSON documents of a generated snapshot: a findings file with the pilot's 32 finding slugs
 * (synthetic headlines, values computed from the generated frame where one applies) and a predictions report.
 */
import { CATEGORY_ORDER, DESIGNS, DOMAINS, GENRES } from '../../contracts/frame/vocab.ts';
import { MODEL_VERSION, THRESHOLDS } from './model.ts';
import { Rng } from './prng.ts';

/** The slugs of the 32 findings the real pilot file holds (research/metacan.md §6). */
export const FINDING_SLUGS = [
  'abstract_cascade',
  'active_learning',
  'adjudication',
  'affiliation_gap',
  'agent_variance',
  'agreement',
  'audit_power',
  'base_rate',
  'base_rate_robustness',
  'canadian_linkage',
  'canadian_linkage_misnames_itself',
  'capture_recapture_fails',
  'classifier',
  'distillation_ceiling',
  'erudit',
  'funder_route_recall',
  'gemma_gate',
  'instrument_contradicts_itself',
  'label_limits',
  'language_gap',
  'openalex_is_metered',
  'polysemy',
  'preprint_coverage',
  'retraction_record',
  'screening_cost',
  'the_frame',
  'three_model_screen',
  'topic_route_recall',
  'topics',
  'trial_linkage',
  'v1_to_v2',
  'zero_probability_region',
] as const;

export interface FrameTally {
  works: number;
  aff: number;
  fund: number;
  venue: number;
  about: number;
  noAbstract: number;
  french: number;
  screened: number;
  nIn: number[];
}

const pct = (a: number, b: number) => Math.round((1000 * a) / Math.max(1, b)) / 10;

export function findingsDocument(tally: FrameTally, computedAt: string): Record<string, unknown> {
  const known: Record<string, { headline: string; values: Record<string, unknown> }> = {
    the_frame: {
      headline: `Synthetic frame: ${tally.works} works admitted by at least one of four Canadian routes.`,
      values: {
        works: tally.works,
        route_ca_aff: tally.aff,
        route_ca_fund: tally.fund,
        route_ca_venue: tally.venue,
        route_about_ca: tally.about,
      },
    },
    affiliation_gap: {
      headline: `${tally.works - tally.aff} works (${pct(tally.works - tally.aff, tally.works)}%) have no Canadian affiliation and are invisible to an affiliation-only frame.`,
      values: {
        invisible_to_affiliation: tally.works - tally.aff,
        pct: pct(tally.works - tally.aff, tally.works),
      },
    },
    abstract_cascade: {
      headline: `${tally.noAbstract} works (${pct(tally.noAbstract, tally.works)}%) have no abstract.`,
      values: { no_abstract: tally.noAbstract, pct: pct(tally.noAbstract, tally.works) },
    },
    language_gap: {
      headline: `${tally.french} works (${pct(tally.french, tally.works)}%) are in French.`,
      values: { french: tally.french, pct: pct(tally.french, tally.works) },
    },
    three_model_screen: {
      headline: `Three models screened ${tally.screened} works; ${tally.nIn[3]} were called metaresearch by all three of the ${tally.nIn[1]! + tally.nIn[2]! + tally.nIn[3]!} any model called in scope.`,
      values: {
        screened: tally.screened,
        n_in_0: tally.nIn[0],
        n_in_1: tally.nIn[1],
        n_in_2: tally.nIn[2],
        n_in_3: tally.nIn[3],
      },
    },
  };
  const out: Record<string, unknown> = {};
  for (const slug of FINDING_SLUGS) {
    const f = known[slug] ?? {
      headline: `Placeholder for finding "${slug}" in a generated snapshot; the published figure is in the pilot's findings file.`,
      values: { synthetic: true, caveat: 'generated snapshot: no measured value' },
    };
    out[slug] = { headline: f.headline, values: f.values, computed_at_utc: computedAt };
  }
  return out;
}

export function predictionsReport(
  works: number,
  counts: { candidate: number[]; consensus: number[] },
  predictionsSha256: string,
  generatedAt: string,
  seed: number,
): Record<string, unknown> {
  const rng = new Rng(seed, 11, 0);
  const hardHeads = CATEGORY_ORDER.filter((h) => THRESHOLDS[h].codex !== null);
  const folds = (head: string) =>
    Array.from({ length: 5 }, (_, fold) => {
      const tp = 40 + rng.int(60);
      const fp = 5 + rng.int(40);
      const fn = 5 + rng.int(40);
      const precision = tp / (tp + fp);
      const recall = tp / (tp + fn);
      const f2 = (5 * precision * recall) / (4 * precision + recall);
      const r4 = (x: number) => Math.round(x * 10_000) / 10_000;
      return { head, fold, tp, fp, fn, precision: r4(precision), recall: r4(recall), f2: r4(f2) };
    });
  return {
    predictions: {
      model_version: MODEL_VERSION,
      generated_at_utc: generatedAt,
      n_predictions: works,
      prediction_status: 'machine_predicted_unvalidated',
      provenance: {
        codex_side: 'synthetic distilled student, support-gated per head',
        gemma_side: 'synthetic direct title-only teacher labels',
      },
      candidate_policy: 'positive_for_either_source_codex_student_or_direct_gemma',
      consensus_policy: 'positive_for_both_sources',
      hard_label_heads: hardHeads,
      category_order: CATEGORY_ORDER,
      categorical_score_order: { domain: DOMAINS, study_design: DESIGNS, genre: GENRES },
      thresholds: THRESHOLDS,
      category_counts: Object.fromEntries(CATEGORY_ORDER.map((h, k) => [h, { candidate: counts.candidate[k], consensus: counts.consensus[k] }])),
      sources: { predictions: { path: 'predictions.csv', sha256: predictionsSha256 } },
      limitations: [
        'predictions are machine outputs and not human validated labels',
        'heads without adequate sample support carry no codex decision, so their consensus is empty',
        'counts are not frame-calibrated prevalence; prevalence claims need the design-weighted sample',
        'this snapshot is generated: every score is synthetic',
      ],
    },
    model: {
      model_version: MODEL_VERSION,
      teachers: ['codex', 'gemma'],
      decision_policy: {
        categorical: 'candidate = highest mean teacher score; consensus only when both teachers pick the same value',
      },
      evaluation: { cross_validation: hardHeads.flatMap(folds) },
      claims_not_supported: ['human accuracy', 'frame prevalence'],
      prediction_status: 'machine_predicted_unvalidated',
    },
  };
}
