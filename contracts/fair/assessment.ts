/**
 * The FAIR assessment result (seed 000 "Assessment result"): the seed's fields exactly, plus `details`, which
 * carries the per-test outcomes with their reasons, the full F-UJI-style summary (per category and per
 * principle, with maturity) and the harvested evidence, so a user can see why a metric failed.
 */
import { z } from 'zod';
import { evidenceSchema } from './evidence.ts';
import { FAIR_CATEGORIES, maturitySchema } from './metrics.ts';

/** Metric and test outcomes. F-UJI's `indeterminate` is never set by its code, so we do not offer it. */
export const ASSESSMENT_STATUSES = ['pass', 'fail'] as const;
export type AssessmentStatus = (typeof ASSESSMENT_STATUSES)[number];

export const metricResultSchema = z.object({
  /** Metric id, e.g. `FsF-F1-01MD`. */
  id: z.string(),
  /** Human-readable metric name (the short name, e.g. "Persistent Identifier Metadata and Data"). */
  name: z.string(),
  /** The FAIR category letter (F, A, I or R); the sub-principle (F1, A1.1 …) is in details. */
  principle: z.enum(FAIR_CATEGORIES),
  status: z.enum(ASSESSMENT_STATUSES),
  scoreEarned: z.number().nonnegative(),
  scoreTotal: z.number().positive(),
  /** 0 incomplete, 1 initial, 2 moderate, 3 advanced. */
  maturity: maturitySchema,
});
export type MetricResult = z.infer<typeof metricResultSchema>;

export const summarySchema = z.object({
  scoreEarned: z.number().nonnegative(),
  scoreTotal: z.number().positive(),
  /** Earned / total × 100, rounded half-even to 2 decimals. */
  scorePercent: z.number().min(0).max(100),
  /** Score percent of the F metrics. */
  findability: z.number().min(0).max(100),
  accessibility: z.number().min(0).max(100),
  interoperability: z.number().min(0).max(100),
  reusability: z.number().min(0).max(100),
});
export type Summary = z.infer<typeof summarySchema>;

/** One group of the F-UJI summary: a category (F), a principle (F1) or the whole (FAIR). */
export const summaryGroupSchema = z.object({
  scoreEarned: z.number().nonnegative(),
  scoreTotal: z.number().nonnegative(),
  scorePercent: z.number().min(0).max(100),
  /** Categories and principles: integer 0–3. FAIR: the mean of the four categories, 2 decimals. */
  maturity: z.number().min(0).max(3),
  metrics: z.number().int().nonnegative(),
  metricsPassed: z.number().int().nonnegative(),
});
export type SummaryGroup = z.infer<typeof summaryGroupSchema>;

export const testResultSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(ASSESSMENT_STATUSES),
  scoreEarned: z.number().nonnegative(),
  scoreTotal: z.number().nonnegative(),
  /** The test's maturity when passed, else 0. */
  maturity: maturitySchema,
  /** Why it passed or failed, in a sentence a user can act on. */
  reason: z.string(),
});
export type TestResult = z.infer<typeof testResultSchema>;

export const metricDetailSchema = z.object({
  id: z.string(),
  /** The full metric statement. */
  statement: z.string(),
  /** The sub-principle, e.g. `A1.1`. */
  principle: z.string(),
  tests: z.array(testResultSchema),
});
export type MetricDetail = z.infer<typeof metricDetailSchema>;

export const assessmentDetailsSchema = z.object({
  metricSpecification: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number().nonnegative(),
  /** The F-UJI summary: per category, per principle and overall (`FAIR`). */
  summary: z.object({
    FAIR: summaryGroupSchema,
    categories: z.record(z.string(), summaryGroupSchema),
    principles: z.record(z.string(), summaryGroupSchema),
  }),
  metrics: z.array(metricDetailSchema),
  evidence: evidenceSchema,
});
export type AssessmentDetails = z.infer<typeof assessmentDetailsSchema>;

export const assessmentResultSchema = z.object({
  /** Identifier of this assessment (a UUID). */
  id: z.string(),
  /** The identifier as requested. */
  objectIdentifier: z.string(),
  /** The landing page the identifier resolved to. */
  resolvedUrl: z.string(),
  /** The metric version used, canonical (`metrics_v0.8`). */
  metricVersion: z.string(),
  summary: summarySchema,
  /** One entry per metric, in metric-number order. */
  metrics: z.array(metricResultSchema),
  details: assessmentDetailsSchema,
});
export type AssessmentResult = z.infer<typeof assessmentResultSchema>;
