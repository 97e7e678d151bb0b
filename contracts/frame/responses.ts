/**
 * Response schemas of the frame service: what each endpoint promises. Tests parse real responses with them,
 * and the OpenAPI document (./openapi.ts) is generated from them. Objects are strict where the shape is ours,
 * loose where the content comes from a snapshot document (findings, prediction report).
 */
import { z } from 'zod';
import { CATEGORIES, DESIGNS, ROUTES, SCREEN_MODELS, STRATA, TIERS } from './vocab.ts';
import { snapshotRefSchema } from './snapshot-ref.ts';
import { recentResponse, recentWorkResponse } from './recent.ts';
import { described } from '../common/describe.ts';

const count = z.number().int().min(0);

/** Where a live abstract came from (`/works/{id}?abstract=1`). */
export const ABSTRACT_SOURCES = ['screening_record', 'openalex_live'] as const;
/** Why a work record came without its abstract. */
export const ABSTRACT_UNAVAILABLE = [
  'no_abstract_upstream',
  'not_in_catalogue',
  'upstream_timeout',
  'upstream_error',
  'upstream_invalid',
  'synthetic_snapshot',
] as const;
// Generic over the extra fields, so the inferred response types keep them (pages read meta.total, meta.note).
const meta = <E extends z.ZodRawShape = Record<never, never>>(extra: E = {} as E) =>
  z
    .object({ snapshot: snapshotRefSchema, ...extra })
    .strict()
    .meta({ description: 'Facts about the answer: the snapshot it was computed from, and what the numbers mean.' });
/** The notes every meta block may carry, described once. */
const NOTE = 'How to read the numbers of this answer, in plain words.';
const DIRECT_LABEL_STATUS = 'What the direct labels are: machine labels from the screening models, not validated by people.';
const PREDICTION_STATUS = 'What the predictions are: machine predictions distilled from teacher models, not validated against human judgement.';

const ROUTE_TEXT: Record<(typeof ROUTES)[number], string> = {
  aff: 'a Canadian affiliation of an author',
  fund: 'a Canadian funder',
  venue: 'a Canadian venue (journal or publisher)',
  about: 'a title or abstract about Canada (the about-Canada lexicon)',
};
const routeCounts = z
  .object(
    described(
      Object.fromEntries(ROUTES.map((r) => [r, count])),
      Object.fromEntries(ROUTES.map((r) => [r, `Works admitted by ${ROUTE_TEXT[r]} (a work may have several routes).`])),
    ),
  )
  .strict();

export const summaryResponse = z
  .object(
    described(
      {
        meta: meta(),
        works: count,
        no_aff: count,
        no_abstract: count,
        retracted_openalex: count,
        screened: count,
        retraction_notices: count,
        routes: routeCounts,
        screen_consensus: z
          .object(
            described(
              { n_in_0: count, n_in_1: count, n_in_2: count, n_in_3: count },
              {
                n_in_0: 'Screened works that none of the three models called metaresearch.',
                n_in_1: 'Screened works that exactly one of the three models called metaresearch.',
                n_in_2: 'Screened works that exactly two of the three models called metaresearch.',
                n_in_3: 'Screened works that all three models called metaresearch.',
              },
            ),
          )
          .strict(),
        coverage: z
          .object(
            described(
              { has_venue: count, has_abstract: count, french: count, no_funder: count },
              {
                has_venue: 'Works with a known venue (journal, repository or publisher).',
                has_abstract: 'Works whose abstract the catalogue holds.',
                french: 'Works in French (lang fr).',
                no_funder: 'Works that name no funder.',
              },
            ),
          )
          .strict(),
      },
      {
        meta: 'The snapshot the counts are of.',
        works: 'Works in the frame: every work with at least one Canadian route.',
        no_aff:
          'Works in the frame without a Canadian affiliation (admitted by funder, venue or about-Canada only): the works an affiliation-only search misses.',
        no_abstract: 'Works without an abstract in the catalogue.',
        retracted_openalex: 'Works OpenAlex flags as retracted.',
        screened: 'Works in the stratified screening sample (GET /screened).',
        retraction_notices: 'Works with a Retraction Watch record (retraction, expression of concern, correction or reinstatement).',
        routes: 'Works per route into the frame; the routes overlap, so these do not sum to works.',
        screen_consensus: 'Screened works by how many of the three models called them metaresearch (n_in); sums to screened.',
        coverage: 'How complete the bibliographic fields are: works with each property.',
      },
    ),
  )
  .strict();

const anyAll = <K extends string>(key: K, values: readonly [string, ...string[]], what: string) =>
  z.array(
    z
      .object(
        described(
          { [key]: z.enum(values), any_model: count, all_models: count } as { [k in K]: z.ZodEnum } & { any_model: typeof count; all_models: typeof count },
          {
            [key]: `The ${what}.`,
            any_model: `Works that at least one labelling model put in this ${what}.`,
            all_models: `Works that every model that labelled them put in this ${what}.`,
          } as { [k in K | 'any_model' | 'all_models']: string },
        ),
      )
      .strict(),
  );
export const labelsResponse = z
  .object(
    described(
      {
        meta: meta(described({ status: z.string(), note: z.string() }, { status: DIRECT_LABEL_STATUS, note: NOTE })),
        coverage: z
          .object(
            described(
              { labeled_works: count, label_rows: count, frame_works: count, models: z.array(z.enum(SCREEN_MODELS)) },
              {
                labeled_works: 'Works of the frame with at least one direct label row.',
                label_rows: 'Direct label rows (one per work and model).',
                frame_works: 'Works in the frame, for the share labelled.',
                models: 'The models whose labels are counted.',
              },
            ),
          )
          .strict(),
        by_category: anyAll('category', CATEGORIES, 'metaresearch category'),
        by_design: anyAll('design', DESIGNS, 'study design'),
        by_year: z.array(
          z
            .object(described({ year: z.number().int(), labeled: count }, { year: 'Publication year.', labeled: 'Works of that year with a direct label.' }))
            .strict(),
        ),
        by_lang: z.array(
          z
            .object(
              described(
                { lang: z.string(), labeled: count },
                { lang: 'Language code (ISO 639-1, e.g. en, fr).', labeled: 'Works in that language with a direct label.' },
              ),
            )
            .strict(),
        ),
      },
      {
        meta: 'The snapshot, what the labels are, and how to read them.',
        coverage: 'How much of the frame the direct labels cover.',
        by_category: 'Labelled works per metaresearch category, by any model and by all models.',
        by_design: 'Labelled works per study design, by any model and by all models.',
        by_year: 'Labelled works per publication year.',
        by_lang: 'Labelled works per language.',
      },
    ),
  )
  .strict();

export const byRouteResponse = z
  .object(
    described(
      {
        meta: meta(
          described(
            { total: count, no_aff: count, note: z.string() },
            { total: 'Works in the frame.', no_aff: 'Works without a Canadian affiliation (admitted by another route only).', note: NOTE },
          ),
        ),
        marginals: z
          .array(
            z
              .object(
                described(
                  { route: z.enum(ROUTES), label: z.string(), works: count },
                  {
                    route: 'Route code.',
                    label: 'Route name for people (e.g. Canadian affiliation).',
                    works: 'Works admitted by this route, whatever their other routes.',
                  },
                ),
              )
              .strict(),
          )
          .length(4),
        combinations: z.array(
          z
            .object(
              described(
                { combo: z.string(), n_routes: z.number().int().min(0).max(4), works: count },
                {
                  combo: 'The exact set of routes, joined with + in canonical order (e.g. aff+fund).',
                  n_routes: 'How many routes the combination has.',
                  works: 'Works with exactly this set of routes.',
                },
              ),
            )
            .strict(),
        ),
      },
      {
        meta: 'The snapshot and the frame totals.',
        marginals: 'Each of the four routes with its works (overlapping).',
        combinations: 'Every combination of routes that occurs, each work counted once: these sum to meta.total.',
      },
    ),
  )
  .strict();

export const byYearResponse = z
  .object(
    described(
      {
        meta: meta(
          described(
            { points: count, works_without_year: count },
            { points: 'Number of years listed in results.', works_without_year: 'Works without a publication year, not in results.' },
          ),
        ),
        results: z.array(
          z
            .object(
              described(
                { year: z.number().int(), works: count, no_aff: count, no_abstract: count },
                {
                  year: 'Publication year.',
                  works: 'Works of the frame published that year.',
                  no_aff: 'Of those, works without a Canadian affiliation.',
                  no_abstract: 'Of those, works without an abstract.',
                },
              ),
            )
            .strict(),
        ),
      },
      { meta: 'The snapshot, years listed and works without a year.', results: 'One row per publication year, oldest first.' },
    ),
  )
  .strict();

const named = <K extends string>(key: K, what: string) =>
  z
    .object(
      described(
        { [key]: z.string(), works: count } as { [k in K]: z.ZodString } & { works: typeof count },
        { [key]: `${what} name.`, works: `Works of the frame with this ${what.toLowerCase()}.` } as { [k in K | 'works']: string },
      ),
    )
    .strict();
export const byFieldResponse = z
  .object(
    described(
      {
        meta: meta(described({ note: z.string() }, { note: NOTE })),
        fields: z.array(
          z
            .object(
              described(
                { field: z.string(), works: count, no_abstract: count },
                {
                  field: 'Primary field (OpenAlex field of the primary topic).',
                  works: 'Works in this field.',
                  no_abstract: 'Of those, works without an abstract.',
                },
              ),
            )
            .strict(),
        ),
        languages: z.array(
          z
            .object(
              described(
                { lang: z.string(), works: count, no_abstract: count },
                { lang: 'Language code (ISO 639-1, e.g. en, fr).', works: 'Works in this language.', no_abstract: 'Of those, works without an abstract.' },
              ),
            )
            .strict(),
        ),
        abstract_gap_by_type: z.array(
          z
            .object(
              described(
                { type: z.string(), works: count, no_abstract: count, pct_no_abstract: z.number() },
                {
                  type: 'Work type (article, review, book-chapter…).',
                  works: 'Works of this type.',
                  no_abstract: 'Of those, works without an abstract.',
                  pct_no_abstract: 'no_abstract as a percentage of works (0 … 100).',
                },
              ),
            )
            .strict(),
        ),
        top_venues: z.array(named('venue', 'Venue')),
        top_funders: z.array(named('funder', 'Funder')),
        retraction_states: z.array(
          z
            .object(
              described(
                { nature: z.string(), works: count, openalex_flagged: count, openalex_missed: count },
                {
                  nature: 'Retraction Watch state: Retraction, Expression of concern, Correction, Reinstatement (or Unspecified).',
                  works: 'Works of the frame with a Retraction Watch record of this state.',
                  openalex_flagged: 'Of those, works OpenAlex flags as retracted.',
                  openalex_missed: 'Of those, works OpenAlex does not flag as retracted.',
                },
              ),
            )
            .strict(),
        ),
      },
      {
        meta: 'The snapshot and how to read the numbers.',
        fields: 'Works per primary field, most first.',
        languages: 'Works per language, most first.',
        abstract_gap_by_type: 'How often each work type lacks an abstract.',
        top_venues: 'The venues with the most works in the frame, most first.',
        top_funders: 'The funders named by the most works in the frame, most first.',
        retraction_states: 'Works with a Retraction Watch record, per state, and whether OpenAlex flags them.',
      },
    ),
  )
  .strict();

export const findingsResponse = z
  .object(
    described(
      {
        meta: meta(
          described(
            { count, source: z.string(), evidence_status: z.string(), human_validation: z.string(), note: z.string() },
            {
              count: 'Number of findings.',
              source: 'The file of the snapshot the findings come from.',
              evidence_status: 'What kind of evidence the findings rest on (machine labels, not human review).',
              human_validation: 'Whether, and how far, people have validated the findings.',
              note: NOTE,
            },
          ),
        ),
        findings: z.record(
          z.string(),
          z
            .object(
              described(
                { headline: z.string(), values: z.record(z.string(), z.unknown()), computed_at_utc: z.string() },
                {
                  headline: 'The finding in one sentence.',
                  values: 'The numbers behind the headline, by name, as the snapshot published them.',
                  computed_at_utc: 'When the finding was computed (ISO 8601, UTC).',
                },
              ),
            )
            .loose(),
        ),
      },
      {
        meta: 'The snapshot, where the findings come from and what evidence they rest on.',
        findings: 'The findings published with the snapshot, by finding id, in the order and with the values of its findings file.',
      },
    ),
  )
  .strict();

export const predictionsResponse = z
  .object(
    described(
      {
        meta: meta(
          described(
            { sources: z.record(z.string(), z.string()), evidence_level: z.literal('machine_not_human_accuracy'), note: z.string() },
            {
              sources: 'The snapshot files each part of the answer comes from, by part.',
              evidence_level: 'Always machine_not_human_accuracy: agreement with machine teachers, not accuracy against people.',
              note: NOTE,
            },
          ),
        ),
        predictions: z
          .object(
            described(
              {
                prediction_status: z.string(),
                n_predictions: count,
                limitations: z.array(z.string()),
                model_version: z.string(),
                frame_category_counts: z.record(
                  z.string(),
                  z.object(
                    described(
                      { candidate: count, consensus: count },
                      {
                        candidate: 'Works predicted in the category by either teacher-distilled head (union).',
                        consensus: 'Works predicted in the category by both (intersection).',
                      },
                    ),
                  ),
                ),
              },
              {
                prediction_status: PREDICTION_STATUS,
                n_predictions: 'Works with a prediction (the whole frame when complete).',
                limitations: 'Known limitations of the predictions, one per sentence.',
                model_version: 'Version of the prediction model.',
                frame_category_counts: 'Works of the frame predicted in each category, by category.',
              },
            ),
          )
          .loose(),
        model: z.object(described({ model_version: z.string() }, { model_version: 'Version of the prediction model.' })).loose(),
      },
      {
        meta: 'The snapshot, the source files and the evidence level.',
        predictions: 'The prediction report published with the snapshot (further keys as the report has them).',
        model: 'The model card of the prediction model (further keys as published).',
      },
    ),
  )
  .strict();

const screenModel = z
  .object(
    described(
      { tier: z.enum(TIERS), genre: z.string().nullable(), about_ca: z.boolean(), confidence: z.string(), reasons: z.string().nullable() },
      {
        tier: 'How central metaresearch is to the work: T1 and T2 count as metaresearch (in n_in), T3 is peripheral, OUT is not metaresearch.',
        genre: 'Kind of work the model saw (e.g. empirical study, review); null when it gave none.',
        about_ca: 'Whether the model judged the work to be about Canada.',
        confidence: "The model's confidence in its call (e.g. high, medium, low).",
        reasons: "The model's stated reasons; null when it gave none.",
      },
    ),
  )
  .strict()
  .meta({ description: "One screening model's call on the work." });
const screenModels = Object.fromEntries(SCREEN_MODELS.map((m) => [m, screenModel])) as Record<(typeof SCREEN_MODELS)[number], typeof screenModel>;
const SCREEN_TEXTS = {
  stratum: 'Sampling stratum the work was drawn from (french, about_only, venue_new, fund_new, aff_core, aff_about, residual).',
  stratum_n: 'Works of the frame in that stratum (its population).',
  weight:
    'Design weight: the inverse of the probability of selection in the stratum (stratum population / rows sampled); the weight for Horvitz–Thompson estimates.',
  model_a: "Screening model A's call.",
  model_b: "Screening model B's call.",
  model_c: "Screening model C's call.",
};

const WORK_TEXTS = {
  meta: 'The snapshot and what the labels and predictions are.',
  id: 'Work id (OpenAlex form: W followed by digits).',
  doi: 'DOI without the https://doi.org/ prefix; null when the work has none.',
  title: 'Title as the catalogue has it.',
  year: 'Publication year; null when unknown.',
  lang: 'Language code (ISO 639-1, e.g. en, fr); null when unknown.',
  type: 'Work type (article, review, book-chapter, preprint…).',
  venue: 'Venue name (journal, repository or publisher); null when unknown.',
  topic: 'Primary topic (OpenAlex topic name); null when none.',
  field: 'Field of the primary topic; null when none.',
  cited_by: 'Number of citing works in the catalogue at the release.',
  is_retracted: 'Whether OpenAlex flags the work as retracted (see retraction for Retraction Watch).',
  has_abstract: 'Whether the catalogue holds an abstract (abstract=1 fetches it).',
  routes: 'The routes that admitted the work to the frame, in canonical order (aff, fund, venue, about); at least one.',
  route_flags: 'The same routes as booleans, with whether the work is invisible to an affiliation search.',
  ca_institutions: 'Canadian institutions of its authors, by name.',
  funders: 'Funders it names, by name.',
  keywords: 'Keywords the catalogue assigns.',
  authors: 'Authors in byline order.',
  retraction: 'The Retraction Watch record; null when there is none.',
  screen: "The three screening models' calls when the work is in the screening sample; null otherwise.",
  labels: 'Direct labels, one per model that labelled the work. Empty means unlabelled (unknown), never "not in the category".',
  label_agreement: 'Whether the direct labels agree on the categories: single (one model), agree, split; null when unlabelled.',
  prediction:
    "The full-frame prediction: each teacher's scores per category, domain and design, the candidate (union) and consensus (intersection) sets, and uncertainty scores; null when the work has none.",
  machine_scores: 'Provisional legacy scores of two models (not validated); null when the work has none.',
  abstract: 'With abstract=1: the abstract, or null when none came back.',
  abstract_source:
    'With abstract=1: where the abstract came from (screening_record: the screening sample; openalex_live: fetched from OpenAlex now); null when there is none.',
  abstract_unavailable:
    'With abstract=1 and no abstract: why (the catalogue has none, does not know the work, timed out, failed, answered garbage, or the snapshot is synthetic).',
};

export const workResponse = z
  .object(
    described(
      {
        meta: meta(
          described(
            { direct_label_status: z.string(), prediction_status: z.string() },
            { direct_label_status: DIRECT_LABEL_STATUS, prediction_status: PREDICTION_STATUS },
          ),
        ),
        id: z.string().regex(/^W\d+$/),
        doi: z.string().nullable(),
        title: z.string(),
        year: z.number().int().nullable(),
        lang: z.string().nullable(),
        type: z.string(),
        venue: z.string().nullable(),
        topic: z.string().nullable(),
        field: z.string().nullable(),
        cited_by: count,
        is_retracted: z.boolean(),
        has_abstract: z.boolean(),
        routes: z.array(z.enum(ROUTES)).min(1),
        route_flags: z
          .object(
            described(
              { aff: z.boolean(), fund: z.boolean(), venue: z.boolean(), about: z.boolean(), invisible_to_affiliation: z.boolean() },
              {
                aff: 'Admitted by a Canadian affiliation of an author.',
                fund: 'Admitted by a Canadian funder.',
                venue: 'Admitted by a Canadian venue.',
                about: 'Admitted by a title or abstract about Canada.',
                invisible_to_affiliation: 'True when no author has a Canadian affiliation: a search by affiliation alone misses the work.',
              },
            ),
          )
          .strict(),
        ca_institutions: z.array(z.string()),
        funders: z.array(z.string()),
        keywords: z.array(z.string()),
        authors: z.array(
          z
            .object(
              described(
                { id: z.string(), name: z.string(), orcid: z.string().nullable(), position: z.number().int().min(1), is_ca: z.boolean() },
                {
                  id: 'Author id (OpenAlex form: A followed by digits); the author_id filter takes it.',
                  name: 'Display name.',
                  orcid: 'ORCID iD (0000-0000-0000-0000 form, without the URL); null when unknown.',
                  position: 'Place in the byline, from 1.',
                  is_ca: 'Whether the author has a Canadian affiliation on this work.',
                },
              ),
            )
            .strict(),
        ),
        retraction: z
          .object(
            described(
              { nature: z.string().nullable(), reason: z.string().nullable(), date: z.string().nullable(), openalex_flagged: z.boolean() },
              {
                nature: 'Retraction Watch state: Retraction, Expression of concern, Correction or Reinstatement; null when unspecified.',
                reason: 'Reasons Retraction Watch records, as it words them; null when none.',
                date: 'Date of the notice (ISO 8601); null when unknown.',
                openalex_flagged: 'Whether OpenAlex also flags the work as retracted.',
              },
            ),
          )
          .strict()
          .nullable(),
        screen: z
          .object(
            described(
              { n_in: z.number().int().min(0).max(3), stratum: z.enum(STRATA), stratum_n: count, weight: z.number(), ...screenModels },
              { n_in: 'How many of the three models called the work metaresearch (tier T1 or T2), 0 … 3.', ...SCREEN_TEXTS },
            ),
          )
          .strict()
          .nullable(),
        labels: z.array(
          z
            .object(
              described(
                {
                  model: z.enum(SCREEN_MODELS),
                  categories: z.array(z.string()),
                  domain: z.string().nullable(),
                  study_design: z.string().nullable(),
                  genre: z.string().nullable(),
                  about_ca_system: z.boolean(),
                  about_ca_topic: z.boolean(),
                  confidence: z.string(),
                  status: z.string(),
                },
                {
                  model: 'The labelling model.',
                  categories: 'Metaresearch categories the model assigned (empty: none of them).',
                  domain: 'Metaresearch domain the model assigned (not_metaresearch when none); null when it gave none.',
                  study_design: 'Study design the model assigned; null when it gave none.',
                  genre: 'Kind of work the model saw; null when it gave none.',
                  about_ca_system: 'Whether the model judged the work to be about the Canadian research system.',
                  about_ca_topic: 'Whether the model judged the work to be about a Canadian topic.',
                  confidence: "The model's confidence in its labels.",
                  status: 'What the label is (a machine label, not validated by people).',
                },
              ),
            )
            .strict(),
        ),
        label_agreement: z.enum(['single', 'agree', 'split']).nullable(),
        prediction: z.record(z.string(), z.unknown()).nullable(),
        machine_scores: z
          .object(
            described(
              {
                provisional: z.literal(true),
                score_model_a: z.number(),
                score_model_b: z.number(),
                score_spread: z.number(),
                validation_status: z.string(),
                note: z.string(),
              },
              {
                provisional: 'Always true: these scores are provisional.',
                score_model_a: "Model A's metaresearch score (0 … 1).",
                score_model_b: "Model B's metaresearch score (0 … 1).",
                score_spread: 'How far apart the two scores are (absolute difference).',
                validation_status: 'How far the scores are validated (a baseline, not validated).',
                note: NOTE,
              },
            ),
          )
          .strict()
          .nullable(),
        /** With `abstract=1`: the abstract, or null when none came back. */
        abstract: z.string().nullable().optional(),
        /** With `abstract=1`: where the abstract came from (`screening_record`, `openalex_live`), null when there is none. */
        abstract_source: z.enum(ABSTRACT_SOURCES).nullable().optional(),
        /** With `abstract=1` and no abstract: why (the catalogue has none, does not know the work, failed, timed out, answered garbage). */
        abstract_unavailable: z
          .object(
            described(
              { reason: z.enum(ABSTRACT_UNAVAILABLE), message: z.string() },
              {
                reason:
                  'Why there is no abstract: no_abstract_upstream (the catalogue has none), not_in_catalogue, upstream_timeout, upstream_error, upstream_invalid (the catalogue answered garbage), synthetic_snapshot (made-up works are not looked up).',
                message: 'The reason in plain words.',
              },
            ),
          )
          .strict()
          .optional(),
      },
      WORK_TEXTS,
    ),
  )
  .strict();

const PAGE_TEXTS = {
  page: 'This page (1-based).',
  per_page: 'Results per page.',
  max_per_page: 'Largest per_page accepted (100).',
};

export const screenedResponse = z
  .object(
    described(
      {
        meta: meta(
          described(
            {
              page: z.number().int(),
              per_page: z.number().int(),
              max_per_page: z.literal(100),
              total: count,
              filters: z
                .object(
                  described(
                    { contested_only: z.boolean(), n_in: z.number().int().nullable(), stratum: z.string().nullable() },
                    {
                      contested_only: 'Whether only contested rows (1 or 2 of 3 models in scope) were asked for.',
                      n_in: 'The n_in asked for; null when not given.',
                      stratum: 'The stratum asked for; null when not given.',
                    },
                  ),
                )
                .strict(),
              summary: z.record(z.string(), z.unknown()),
            },
            {
              ...PAGE_TEXTS,
              total: 'Screened rows matching the filters, over all pages.',
              filters: 'The filters as read.',
              summary:
                'The whole sample (not only this page): the n_in histogram, agreement counts, per-model in-scope counts, weighted (design-weighted rates and estimates with their formula and interval method) and strata (population, rows sampled, weight). Unweighted rates of the sample are wrong: use weighted.',
            },
          ),
        ),
        results: z.array(
          z
            .object(
              described(
                {
                  id: z.string(),
                  title: z.string(),
                  year: z.number().int().nullable(),
                  lang: z.string().nullable(),
                  type: z.string(),
                  venue: z.string().nullable(),
                  topic: z.string().nullable(),
                  field: z.string().nullable(),
                  stratum: z.enum(STRATA),
                  stratum_n: count,
                  weight: z.number(),
                  n_in: z.number().int(),
                  ...screenModels,
                },
                {
                  id: WORK_TEXTS.id,
                  title: WORK_TEXTS.title,
                  year: WORK_TEXTS.year,
                  lang: WORK_TEXTS.lang,
                  type: WORK_TEXTS.type,
                  venue: WORK_TEXTS.venue,
                  topic: WORK_TEXTS.topic,
                  field: WORK_TEXTS.field,
                  n_in: 'How many of the three models called the work metaresearch (tier T1 or T2), 0 … 3.',
                  ...SCREEN_TEXTS,
                },
              ),
            )
            .strict(),
        ),
      },
      {
        meta: 'The snapshot, paging, the filters as read and the summary of the whole sample.',
        results: 'The screened rows of this page, n_in descending, then by work id.',
      },
    ),
  )
  .strict();

const graph = z
  .object(
    described(
      {
        nodes: z.array(
          z
            .object(
              described(
                { id: z.string(), name: z.string(), ca_works: count },
                {
                  id: 'Author id (A followed by digits).',
                  name: 'Display name.',
                  ca_works: 'Works of the frame on which the author has a Canadian affiliation.',
                },
              ),
            )
            .strict(),
        ),
        edges: z.array(
          z
            .object(
              described(
                { a: z.string(), b: z.string(), shared_works: count, weight: z.number() },
                {
                  a: 'Author id of one end.',
                  b: 'Author id of the other end.',
                  shared_works: 'Works the two wrote together with both authorships Canadian-affiliated.',
                  weight: "Edge weight as meta states its rule (grows with shared works, shared among each work's authors).",
                },
              ),
            )
            .strict(),
        ),
      },
      { nodes: 'Researchers with Canadian-affiliated work.', edges: 'Co-authorships between them, each pair once.' },
    ),
  )
  .strict();
export const networkResponse = z
  .object(
    described(
      {
        meta: z.object(described({ snapshot: snapshotRefSchema }, { snapshot: 'The snapshot the network was built from.' })).loose(),
        center: z.string().optional(),
        graph: graph.nullable(),
      },
      {
        meta: 'The snapshot and the rules the network was built by (nodes, edges, weights, limits).',
        center: 'With author_id: the researcher at the centre of the neighbourhood.',
        graph: 'The overview graph, or the neighbourhood of author_id; null when the build has no network.',
      },
    ),
  )
  .strict();

/** A work as cohort pages, /works and exports carry it: the work record without its meta block. */
export const workItem = workResponse.omit({ meta: true });

const filters = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
const FILTERS = 'The filters as read, canonical (defaults left out), by parameter name.';
const QUERY = 'The canonical query string of the filters: equal questions have equal query strings.';
const QUERY_HASH = 'Hash of the canonical filters on the snapshot that answered (16 hex digits): the permalink hash of this cohort.';
const paging = {
  filters,
  query: z.string(),
  sort: z.enum(['cited', 'year_desc', 'year_asc', 'relevance']),
  page: z.number().int().min(1).nullable(),
  per_page: z.number().int().min(1).max(100),
  max_per_page: z.literal(100),
  total: count,
  total_is_capped: z.boolean(),
  next_cursor: z.string().nullable(),
};
const PAGING_TEXTS = {
  filters: FILTERS,
  query: QUERY,
  sort: 'The order of the results: cited (most cited first), year_desc, year_asc, relevance (to q).',
  page: 'This page (1-based); null when the page was reached by cursor.',
  per_page: PAGE_TEXTS.per_page,
  max_per_page: PAGE_TEXTS.max_per_page,
  total: 'Works matching, over all pages (exact unless total_is_capped).',
  total_is_capped: 'True when total stopped counting at the cap (10,000 on /works): there are at least that many.',
  next_cursor: 'Pass as cursor= (with the same filters and sort) for the next page; null on the last page.',
};
const cohortMetaTexts = {
  query_hash: QUERY_HASH,
  ...PAGING_TEXTS,
  direct_labels_cover: 'Works of the cohort with at least one direct label: the denominator for label counts.',
  predictions_cover: 'Works of the cohort with a prediction: the denominator for prediction counts.',
  direct_label_status: DIRECT_LABEL_STATUS,
  prediction_status: PREDICTION_STATUS,
  note: NOTE,
};
export const cohortResponse = z
  .object(
    described(
      {
        meta: meta(
          described(
            {
              query_hash: z.string().regex(/^[0-9a-f]{16}$/),
              ...paging,
              direct_labels_cover: count,
              predictions_cover: count,
              direct_label_status: z.string(),
              prediction_status: z.string(),
              note: z.string(),
            },
            cohortMetaTexts,
          ),
        ),
        results: z.array(workItem),
      },
      {
        meta: 'The snapshot, the question as read, exact counts and paging.',
        results: 'The works of this page, each the work record (as GET /works/{id}, without its meta).',
      },
    ),
  )
  .strict();
export const worksListResponse = z
  .object(
    described(
      {
        meta: meta(described({ query_hash: z.string().regex(/^[0-9a-f]{16}$/), ...paging }, { query_hash: QUERY_HASH, ...PAGING_TEXTS })),
        results: z.array(workItem),
      },
      {
        meta: 'The snapshot, the question as read, the count and paging.',
        results: 'The works of this page, each the work record (as GET /works/{id}, without its meta).',
      },
    ),
  )
  .strict();
export const cohortFacetsResponse = z
  .object(
    described(
      {
        meta: meta(
          described(
            { query_hash: z.string(), filters, facet: z.string(), total: count, distinct_values: count, shown: count, note: z.string() },
            {
              query_hash: QUERY_HASH,
              filters: FILTERS,
              facet: 'The facet counted.',
              total: 'Works in the cohort.',
              distinct_values: 'Distinct values of the facet in the cohort.',
              shown: 'Values listed in results (the most frequent when there are many).',
              note: NOTE,
            },
          ),
        ),
        results: z.array(
          z
            .object(
              described(
                { value: z.union([z.string(), z.number(), z.null()]), works: count },
                { value: 'A value of the facet (a year is a number); null counts the works without a value.', works: 'Works of the cohort with this value.' },
              ),
            )
            .strict(),
        ),
      },
      { meta: 'The snapshot, the filters, the facet and its totals.', results: 'Values of the facet with their works, most first.' },
    ),
  )
  .strict();
const typeaheadMeta = meta(described({ q: z.string(), limit: z.literal(12) }, { q: 'The text as read.', limit: 'Most suggestions given (12).' }));
const TYPEAHEAD_TEXTS = { meta: 'The snapshot, the text asked and the limit.', results: 'Suggestions, most works first, at most 12.' };
export const valueFacetResponse = z
  .object(
    described(
      {
        meta: typeaheadMeta,
        results: z
          .array(
            z
              .object(
                described(
                  { value: z.string(), works: count },
                  { value: 'The name, exactly as the filter takes it.', works: 'Works of the frame with this value.' },
                ),
              )
              .strict(),
          )
          .max(12),
      },
      TYPEAHEAD_TEXTS,
    ),
  )
  .strict();
export const authorFacetResponse = z
  .object(
    described(
      {
        meta: typeaheadMeta,
        results: z
          .array(
            z
              .object(
                described(
                  { id: z.string().regex(/^A\d+$/), name: z.string(), ca_works: count },
                  {
                    id: 'Author id, as author_id takes it.',
                    name: 'Display name.',
                    ca_works: 'Works of the frame on which the author has a Canadian affiliation.',
                  },
                ),
              )
              .strict(),
          )
          .max(12),
      },
      TYPEAHEAD_TEXTS,
    ),
  )
  .strict();
/** How the numbers counted now compare with the cited ones. */
export const PERMALINK_COMPARISONS = ['same', 'differs', 'not_recorded'] as const;
/** Where the snapshot a permalink was minted on stands: served by default, retained, or gone. */
export const MINTED_SNAPSHOT_STATUS = ['served', 'retained', 'gone'] as const;

const COVERS = {
  direct_labels_cover: cohortMetaTexts.direct_labels_cover,
  predictions_cover: cohortMetaTexts.predictions_cover,
};
const citedNumbers = z
  .object(
    described(
      {
        snapshot: z.string(),
        recorded: z.boolean(),
        total: count.nullable(),
        direct_labels_cover: count.nullable(),
        predictions_cover: count.nullable(),
      },
      {
        snapshot: 'The snapshot the permalink was minted on.',
        recorded: 'Whether the numbers were recorded at minting (false for permalinks minted before they were kept; the numbers are then null).',
        total: 'Works in the cohort when minted; null when not recorded.',
        direct_labels_cover: 'Works with a direct label when minted; null when not recorded.',
        predictions_cover: 'Works with a prediction when minted; null when not recorded.',
      },
    ),
  )
  .strict();

const mintedSnapshot = z
  .object(
    described(
      {
        id: z.string(),
        status: z.enum(MINTED_SNAPSHOT_STATUS),
        message: z.string(),
        cohort: z.string().nullable(),
        changes: z.string().nullable(),
        total: count.nullable(),
        direct_labels_cover: count.nullable(),
        predictions_cover: count.nullable(),
      },
      {
        id: 'Id of the snapshot the permalink was minted on.',
        status: 'served (it is the snapshot served now), retained (kept: answerable with snapshot=), or gone (no longer kept).',
        message: 'The status in plain words.',
        cohort: 'URL of the cohort on that snapshot (/cohort?snapshot=…); null when it is gone.',
        changes: 'URL of what changed since (/permalink/{hash}/changes); null unless the snapshot is retained.',
        total: 'Works in the cohort on that snapshot, counted now (equals the cited total); null when it is gone.',
        direct_labels_cover: 'Works with a direct label on that snapshot, counted now; null when it is gone.',
        predictions_cover: 'Works with a prediction on that snapshot, counted now; null when it is gone.',
      },
    ),
  )
  .strict();

export const permalinkResponse = z
  .object(
    described(
      {
        hash: z.string().regex(/^[0-9a-f]{16}$/),
        url: z.string(),
        api: z.string(),
        cohort: z.string(),
        filters,
        query: z.string(),
        snapshot: z.string(),
        created_at: z.string(),
        /** The snapshot being served, on which `total` and the covers below were counted now. */
        counted_on: z.string(),
        total: count,
        direct_labels_cover: count,
        predictions_cover: count,
        /** The numbers recorded when the permalink was minted (`recorded: false` for permalinks minted before they were kept). */
        cited: citedNumbers,
        /** Whether the numbers counted now are the cited ones, and why not. */
        comparison: z
          .object(
            described(
              { status: z.enum(PERMALINK_COMPARISONS), message: z.string() },
              {
                status: 'same (the counts now equal the cited ones), differs (at least one changed), not_recorded (nothing was cited).',
                message: 'What differs and why (e.g. total 244 → 251: minted on snapshot A, B is served).',
              },
            ),
          )
          .strict(),
        /** The snapshot the permalink was minted on: still served, retained (answerable with `snapshot=`), or gone. */
        minted_snapshot: mintedSnapshot,
      },
      {
        hash: "The permalink hash (16 hex digits): the cohort's query_hash on the snapshot it was minted on.",
        url: 'Absolute URL of the permalink page for people (/q/{hash}), on PUBLIC_ORIGIN when set.',
        api: 'Absolute URL of this permalink in the API (/api/v1/permalink/{hash}).',
        cohort: 'Absolute URL of the cohort page of the API with the filters (/api/v1/cohort?…).',
        filters: FILTERS,
        query: QUERY,
        snapshot: 'Id of the snapshot the permalink was minted on.',
        created_at: 'When the permalink was first minted (ISO 8601, UTC); minting again keeps it.',
        counted_on: 'Id of the snapshot served now, on which total and the covers were counted.',
        total: 'Works in the cohort on the snapshot served now.',
        ...COVERS,
        cited: 'The numbers recorded when the permalink was minted, to cite.',
        comparison: 'Whether the numbers counted now equal the cited ones, and why not.',
        minted_snapshot: 'The snapshot the permalink was minted on: still served, retained (answerable with snapshot=), or gone.',
      },
    ),
  )
  .strict();

export type PermalinkView = z.infer<typeof permalinkResponse>;

const changedWork = <K extends string>(flag: K, text: string) =>
  z
    .object(
      described(
        { id: z.string(), title: z.string().nullable(), [flag]: z.boolean() } as { id: z.ZodString; title: z.ZodNullable<z.ZodString> } & {
          [k in K]: z.ZodBoolean;
        },
        {
          id: 'Work id.',
          title: 'Title; null when the snapshot that has the work gives none.',
          [flag]: text,
        } as { [k in K | 'id' | 'title']: string },
      ),
    )
    .strict();

/** GET /permalink/{hash}/changes: works that entered and left the cohort between the minted and the served snapshot. */
export const permalinkChangesResponse = z
  .object(
    described(
      {
        meta: meta(
          described(
            { hash: z.string(), filters, query: z.string(), from: z.string(), to: z.string(), per_page: count, order: z.string(), note: z.string() },
            {
              hash: 'The permalink hash.',
              filters: "The permalink's filters, canonical.",
              query: QUERY,
              from: 'Id of the snapshot the permalink was minted on.',
              to: 'Id of the snapshot served now.',
              per_page: 'Most works listed in each of entered and left.',
              order: 'The order of the listed works (work id ascending).',
              note: NOTE,
            },
          ),
        ),
        from: z
          .object(
            described(
              {
                snapshot: z.string(),
                total: count,
                cited: z
                  .object(
                    described({ total: count, direct_labels_cover: count, predictions_cover: count }, { total: 'Works in the cohort when minted.', ...COVERS }),
                  )
                  .strict()
                  .nullable(),
              },
              {
                snapshot: 'The minted snapshot.',
                total: 'Works in the cohort on it, counted now.',
                cited: 'The numbers recorded at minting; null for permalinks minted before they were kept.',
              },
            ),
          )
          .strict(),
        to: z.object(described({ snapshot: z.string(), total: count }, { snapshot: 'The snapshot served now.', total: 'Works in the cohort on it.' })).strict(),
        entered: z
          .object(
            described(
              {
                count,
                new_to_frame: count,
                shown: count,
                results: z.array(
                  changedWork(
                    'in_previous_frame',
                    'Whether the work was in the frame of the minted snapshot (true: it now matches the filters; false: it is new to the frame).',
                  ),
                ),
              },
              {
                count: 'Works in the cohort now and not when minted (exact).',
                new_to_frame: "Of those, works not in the minted snapshot's frame at all.",
                shown: 'Works listed in results.',
                results: 'The first of them by work id.',
              },
            ),
          )
          .strict(),
        left: z
          .object(
            described(
              {
                count,
                removed_from_frame: count,
                shown: count,
                results: z.array(
                  changedWork(
                    'in_current_frame',
                    'Whether the work is in the frame served now (true: it no longer matches the filters; false: it left the frame).',
                  ),
                ),
              },
              {
                count: 'Works in the cohort when minted and not now (exact).',
                removed_from_frame: 'Of those, works no longer in the frame at all.',
                shown: 'Works listed in results.',
                results: 'The first of them by work id.',
              },
            ),
          )
          .strict(),
      },
      {
        meta: 'The permalink, the two snapshots compared and the listing rules.',
        from: 'The cohort on the snapshot the permalink was minted on.',
        to: 'The cohort on the snapshot served now.',
        entered: 'Works that entered the cohort: new to the frame, or now matching.',
        left: 'Works that left the cohort: removed from the frame, or no longer matching.',
      },
    ),
  )
  .strict();

/** GET /snapshots: the snapshot served by default and the retained ones `snapshot=` may name. */
export const snapshotsResponse = z
  .object(
    described(
      {
        meta: meta(described({ note: z.string() }, { note: NOTE })),
        served: snapshotRefSchema,
        retained: z.array(
          snapshotRefSchema
            .extend(described({ loaded: z.boolean() }, { loaded: 'Whether it is in memory now (answering loads it; idle ones are unloaded).' }))
            .strict(),
        ),
      },
      {
        meta: 'The snapshot served and how to use the others.',
        served: 'The snapshot answered by default.',
        retained: 'Older snapshots kept, which snapshot= may name.',
      },
    ),
  )
  .strict();

/** Each GET route below the service prefix, with its response schema (path parameters in OpenAPI braces). */
export const FRAME_RESPONSES = {
  '/api/v1/stats/summary': summaryResponse,
  '/api/v1/stats/labels': labelsResponse,
  '/api/v1/stats/by-route': byRouteResponse,
  '/api/v1/stats/by-year': byYearResponse,
  '/api/v1/stats/by-field': byFieldResponse,
  '/api/v1/findings': findingsResponse,
  '/api/v1/predictions': predictionsResponse,
  '/api/v1/works/{id}': workResponse,
  '/api/v1/screened': screenedResponse,
  '/api/v1/network': networkResponse,
  '/api/v1/cohort': cohortResponse,
  '/api/v1/cohort/facets': cohortFacetsResponse,
  '/api/v1/works': worksListResponse,
  '/api/v1/facets/venue': valueFacetResponse,
  '/api/v1/facets/topic': valueFacetResponse,
  '/api/v1/facets/author': authorFacetResponse,
  '/api/v1/permalink/{hash}': permalinkResponse,
  '/api/v1/permalink/{hash}/changes': permalinkChangesResponse,
  '/api/v1/snapshots': snapshotsResponse,
  '/api/v1/recent': recentResponse,
  '/api/v1/recent/{id}': recentWorkResponse,
} as const;
