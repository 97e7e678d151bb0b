/**
 * The shape of the FAIR engine's metric definition files (`api-dynamic/src/services/fair/metrics/metrics_v*.json`).
 * The files are the project's own, written from the F-UJI facts in research/fair.md §1; this schema is what
 * makes a typo in a score or an id fail at load time instead of silently changing every assessment.
 */
import { z } from 'zod';

/** The four FAIR categories, in the order summaries list them. */
export const FAIR_CATEGORIES = ['F', 'A', 'I', 'R'] as const;
export type FairCategory = (typeof FAIR_CATEGORIES)[number];

/** `F1`, `A1.1`, `R1.3` …: a category letter, a digit and an optional `.digit`. */
export const principleSchema = z.string().regex(/^[FAIR][0-9](\.[0-9])?$/);

/** Maturity levels: 0 incomplete, 1 initial, 2 moderate, 3 advanced. */
export const maturitySchema = z.number().int().min(0).max(3);

/** Data metric ids (FAIRsFAIR, `FsF-F1-01MD`) and software metric ids (FAIR4RS, `FRSM-01-F1`). */
const METRIC_ID = /^(?:FsF-[FAIR][0-9](\.[0-9])?-[0-9]{2}[MD]+|FRSM-[0-9]{2}-[FAIR][0-9](\.[0-9])?)$/;
const TEST_ID = /^(?:FsF-[FAIR][0-9](\.[0-9])?-[0-9]{2}[MD]+-[0-9][a-z]?|FRSM-[0-9]{2}-[FAIR][0-9](\.[0-9])?-[0-9])$/;

/** Does a metric id carry this principle (`FsF-<principle>-…` or `FRSM-nn-<principle>`)? */
function idMatchesPrinciple(id: string, principle: string): boolean {
  return id.startsWith('FRSM-') ? id.endsWith(`-${principle}`) : id.startsWith(`FsF-${principle}-`);
}

export const metricTestDefinitionSchema = z.object({
  /** Test id: the metric id plus `-n`, e.g. `FsF-F1-02MD-2` or `FRSM-13-R1-2`. */
  id: z.string().regex(TEST_ID),
  /** What the test checks, in one sentence. */
  name: z.string().min(1),
  /** Points the test earns when it passes; 0 marks a test kept for information only. */
  score: z.number().min(0),
  /** Maturity the metric reaches when this test passes. */
  maturity: maturitySchema,
});

export const metricDefinitionSchema = z
  .object({
    /** Metric id, e.g. `FsF-F1-01MD` (prefix, principle-and-number, M metadata / D data) or `FRSM-13-R1` (software). */
    id: z.string().regex(METRIC_ID),
    /** F-UJI's `metric_number`; results are sorted by it. */
    number: z.number().int().positive(),
    /** The short human name (F-UJI `metric_short_name`). */
    shortName: z.string().min(1),
    /** The full statement (F-UJI `metric_name`). */
    name: z.string().min(1),
    principle: principleSchema,
    /** Points available. */
    total: z.number().positive(),
    /** How the tests relate. Informational: every metric scores min(total, sum of passed tests) (fair.md §1.3). */
    mechanism: z.enum(['cumulative', 'alternative']),
    tests: z.array(metricTestDefinitionSchema).min(1),
  })
  .superRefine((metric, ctx) => {
    for (const test of metric.tests) {
      if (!test.id.startsWith(`${metric.id}-`)) {
        ctx.addIssue({ code: 'custom', message: `test ${test.id} does not belong to ${metric.id}` });
      }
    }
    if (!idMatchesPrinciple(metric.id, metric.principle)) {
      ctx.addIssue({ code: 'custom', message: `${metric.id} does not match principle ${metric.principle}` });
    }
  });
export type MetricDefinition = z.infer<typeof metricDefinitionSchema>;

export const metricFileSchema = z
  .object({
    /** Canonical version name, e.g. `metrics_v0.8` or `metrics_v0.7_software`; also what results echo in `metricVersion`. */
    version: z.string().regex(/^metrics_v[0-9]+\.[0-9]+(?:_software)?$/),
    /** What the version assesses: research data (FAIRsFAIR) or research software in a code repository (FAIR4RS). */
    target: z.enum(['data', 'software']).default('data'),
    /** The specification the file implements (a DOI URL). */
    specification: z.string().url(),
    /** Declared totals, checked against the metrics so an edit cannot drift from them. */
    metricCount: z.number().int().positive(),
    totalScore: z.number().positive(),
    metrics: z.array(metricDefinitionSchema).min(1),
  })
  .superRefine((file, ctx) => {
    const ids = new Set<string>();
    for (const metric of file.metrics) {
      if (ids.has(metric.id)) ctx.addIssue({ code: 'custom', message: `duplicate metric ${metric.id}` });
      ids.add(metric.id);
    }
    if (file.metrics.length !== file.metricCount) {
      ctx.addIssue({ code: 'custom', message: `${file.metrics.length} metrics, declared ${file.metricCount}` });
    }
    const total = file.metrics.reduce((sum, metric) => sum + metric.total, 0);
    if (total !== file.totalScore) {
      ctx.addIssue({ code: 'custom', message: `metric totals sum to ${total}, declared ${file.totalScore}` });
    }
  });
export type MetricFile = z.infer<typeof metricFileSchema>;
