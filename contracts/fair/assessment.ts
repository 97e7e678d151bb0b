/**
 * The FAIR assessment result (seed 000 "Assessment result"): the seed's fields exactly, plus `details`, which
 * carries the per-test outcomes with their reasons, the full F-UJI-style summary (per category and per
 * principle, with maturity) and the harvested evidence, so a user can see why a metric failed.
 */
import { z } from 'zod';
import { described } from '../common/describe.ts';
import { evidenceSchema } from './evidence.ts';
import { FAIR_CATEGORIES, maturitySchema } from './metrics.ts';

/** Metric and test outcomes. F-UJI's `indeterminate` is never set by its code, so we do not offer it. */
export const ASSESSMENT_STATUSES = ['pass', 'fail'] as const;
export type AssessmentStatus = (typeof ASSESSMENT_STATUSES)[number];

const MATURITY = 'Maturity reached: 0 incomplete, 1 initial, 2 moderate, 3 advanced.';
export const metricResultSchema = z.object(
  described(
    {
      id: z.string(),
      name: z.string(),
      principle: z.enum(FAIR_CATEGORIES),
      status: z.enum(ASSESSMENT_STATUSES),
      scoreEarned: z.number().nonnegative(),
      scoreTotal: z.number().positive(),
      maturity: maturitySchema,
    },
    {
      id: 'Metric id, e.g. FsF-F1-01MD (details.metrics has its statement and tests).',
      name: 'Short metric name, e.g. "Persistent Identifier Metadata and Data".',
      principle: 'The FAIR category letter (F, A, I or R); the sub-principle (F1, A1.1…) is in details.metrics.',
      status: 'pass when the metric earned any score, else fail.',
      scoreEarned: "Points earned, the sum of its passed tests' scores.",
      scoreTotal: 'Points available for the metric.',
      maturity: MATURITY,
    },
  ),
);
export type MetricResult = z.infer<typeof metricResultSchema>;

export const summarySchema = z.object(
  described(
    {
      scoreEarned: z.number().nonnegative(),
      scoreTotal: z.number().positive(),
      scorePercent: z.number().min(0).max(100),
      findability: z.number().min(0).max(100),
      accessibility: z.number().min(0).max(100),
      interoperability: z.number().min(0).max(100),
      reusability: z.number().min(0).max(100),
    },
    {
      scoreEarned: 'Points earned over all metrics.',
      scoreTotal: 'Points available over all metrics of the metric version.',
      scorePercent: 'scoreEarned / scoreTotal × 100, rounded half-even to 2 decimals.',
      findability: 'Score percent of the F (findable) metrics, 0 … 100.',
      accessibility: 'Score percent of the A (accessible) metrics, 0 … 100.',
      interoperability: 'Score percent of the I (interoperable) metrics, 0 … 100.',
      reusability: 'Score percent of the R (reusable) metrics, 0 … 100.',
    },
  ),
);
export type Summary = z.infer<typeof summarySchema>;

/** One group of the F-UJI summary: a category (F), a principle (F1) or the whole (FAIR). */
export const summaryGroupSchema = z.object(
  described(
    {
      scoreEarned: z.number().nonnegative(),
      scoreTotal: z.number().nonnegative(),
      scorePercent: z.number().min(0).max(100),
      maturity: z.number().min(0).max(3),
      metrics: z.number().int().nonnegative(),
      metricsPassed: z.number().int().nonnegative(),
    },
    {
      scoreEarned: 'Points earned by the metrics of the group.',
      scoreTotal: 'Points available in the group.',
      scorePercent: 'scoreEarned / scoreTotal × 100 (2 decimals).',
      maturity: 'Categories and principles: the maturity reached, an integer 0 … 3. FAIR: the mean of the four categories, 2 decimals.',
      metrics: 'Metrics in the group.',
      metricsPassed: 'Of those, metrics that passed.',
    },
  ),
);
export type SummaryGroup = z.infer<typeof summaryGroupSchema>;

export const testResultSchema = z.object(
  described(
    {
      id: z.string(),
      name: z.string(),
      status: z.enum(ASSESSMENT_STATUSES),
      scoreEarned: z.number().nonnegative(),
      scoreTotal: z.number().nonnegative(),
      maturity: maturitySchema,
      reason: z.string(),
    },
    {
      id: 'Test id, e.g. FsF-F1-01MD-1.',
      name: 'What the test checks.',
      status: 'pass or fail.',
      scoreEarned: 'Points earned (scoreTotal when passed, else 0).',
      scoreTotal: 'Points the test is worth.',
      maturity: "The test's maturity when passed (1 … 3), else 0.",
      reason: 'Why it passed or failed, in a sentence a user can act on.',
    },
  ),
);
export type TestResult = z.infer<typeof testResultSchema>;

export const metricDetailSchema = z.object(
  described(
    { id: z.string(), statement: z.string(), principle: z.string(), tests: z.array(testResultSchema) },
    {
      id: 'Metric id, as in metrics.',
      statement: 'The full metric statement.',
      principle: 'The FAIR sub-principle, e.g. A1.1.',
      tests: 'Its tests with their outcomes and reasons.',
    },
  ),
);
export type MetricDetail = z.infer<typeof metricDetailSchema>;

export const assessmentDetailsSchema = z.object(
  described(
    {
      metricSpecification: z.string(),
      startedAt: z.string(),
      finishedAt: z.string(),
      durationMs: z.number().nonnegative(),
      summary: z.object(
        described(
          { FAIR: summaryGroupSchema, categories: z.record(z.string(), summaryGroupSchema), principles: z.record(z.string(), summaryGroupSchema) },
          { FAIR: 'All metrics together.', categories: 'Per FAIR category (F, A, I, R).', principles: 'Per FAIR sub-principle (F1, A1.1…).' },
        ),
      ),
      metrics: z.array(metricDetailSchema),
      evidence: evidenceSchema,
    },
    {
      metricSpecification: 'The published specification of the metric version (its DOI or URL).',
      startedAt: 'When the assessment started (ISO 8601, UTC).',
      finishedAt: 'When it finished (ISO 8601, UTC).',
      durationMs: 'How long it took, in milliseconds.',
      summary: 'The F-UJI summary: per category, per principle and overall (FAIR).',
      metrics: "Every metric with its statement and each test's outcome and reason.",
      evidence:
        'What the engine harvested and checked: identifier, resolution, metadata and where it came from, links, the repository, the code host, and every fetch made.',
    },
  ),
);

export const assessmentResultSchema = z.object(
  described(
    {
      id: z.string(),
      objectIdentifier: z.string(),
      resolvedUrl: z.string(),
      metricVersion: z.string(),
      summary: summarySchema,
      metrics: z.array(metricResultSchema),
      details: assessmentDetailsSchema,
    },
    {
      id: 'Id of this assessment (a UUID).',
      objectIdentifier: 'The identifier as requested.',
      resolvedUrl: 'The landing page the identifier resolved to.',
      metricVersion: 'The metric version used, canonical (metrics_v0.8).',
      summary: 'Overall score and the score percent per FAIR category.',
      metrics: 'One entry per metric, in metric-number order.',
      details: "Why: each test's outcome and reason, the full summary, and the harvested evidence.",
    },
  ),
);
export type AssessmentResult = z.infer<typeof assessmentResultSchema>;
