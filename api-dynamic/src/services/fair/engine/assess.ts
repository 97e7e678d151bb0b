/**
 * The engine's entry point: `assess(identifier, options, deps)` harvests the evidence (the only step that
 * touches the network, through `deps.fetcher`), evaluates every test of the chosen metric file over it, and
 * scores and summarises the result in the seed's shape plus `details`.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { AssessmentResult, MetricDetail, MetricResult } from '../../../../../contracts/fair/assessment.ts';
import type { Evidence } from '../../../../../contracts/fair/evidence.ts';
import type { FairCategory, MetricFile } from '../../../../../contracts/fair/metrics.ts';
import type { Fetcher } from '../fetcher.ts';
import { metricFile } from '../metrics/load.ts';
import { harvest } from './harvest/harvest.ts';
import { deriveFacts } from './metrics/facts.ts';
import { evaluateMetric } from './metrics/index.ts';
import { parseAssessOptions, type AssessOptionsInput } from './options.ts';
import { scoreMetric, summarize, type FairSummary } from './score.ts';

export interface AssessDeps {
  /** The one door to the network (production: the SSRF-safe fetcher; tests: a loopback one). */
  fetcher: Fetcher;
  /** Clock for the timestamps (tests freeze it). */
  now?: () => Date;
  /** Assessment id generator (default: a random UUID). */
  newId?: () => string;
  /** Aborts the assessment early (e.g. the client went away); the deadline applies as well. */
  signal?: AbortSignal;
}

export interface Evaluation {
  metrics: MetricResult[];
  summary: FairSummary;
  details: MetricDetail[];
}

/** Evaluate and score a metric file over harvested evidence (pure: no network). */
export function evaluateEvidence(evidence: Evidence, file: MetricFile): Evaluation {
  const facts = deriveFacts(evidence);
  const ordered = [...file.metrics].sort((a, b) => a.number - b.number);
  const scored = ordered.map((metric) => ({ metric, score: scoreMetric(metric, evaluateMetric(metric, facts, file.version)) }));
  return {
    metrics: scored.map(({ metric, score }) => ({
      id: metric.id,
      name: metric.shortName,
      principle: metric.principle[0] as FairCategory,
      status: score.status,
      scoreEarned: score.scoreEarned,
      scoreTotal: score.scoreTotal,
      maturity: score.maturity,
    })),
    summary: summarize(scored.map(({ metric, score }) => ({ principle: metric.principle, ...score }))),
    details: scored.map(({ metric, score }) => ({ id: metric.id, statement: metric.name, principle: metric.principle, tests: score.tests })),
  };
}

/**
 * Assess one identifier.
 * @throws UnknownMetricVersionError (→ 400) before any fetch when `options.metricVersion` is not a known version.
 * @throws ResolutionFailedError (→ 422 RESOLUTION_FAILED) when the identifier is not one or cannot be resolved.
 */
export async function assess(identifier: string, options: AssessOptionsInput, deps: AssessDeps): Promise<AssessmentResult> {
  const opts = parseAssessOptions(options);
  const file = metricFile(opts.metricVersion);
  const now = deps.now ?? (() => new Date());
  const started = now();
  const t0 = performance.now();
  const deadline = AbortSignal.timeout(opts.deadlineMs);
  const signal = deps.signal ? AbortSignal.any([deadline, deps.signal]) : deadline;
  // Every fetch of the assessment listens to this signal, a dozen or more at once: not a leak.
  setMaxListeners(0, signal);

  const evidence = await harvest(identifier, opts, deps.fetcher, signal);
  const evaluation = evaluateEvidence(evidence, file);
  const fair = evaluation.summary;
  const category = (c: FairCategory) => fair.categories[c]?.scorePercent ?? 0;
  return {
    id: (deps.newId ?? randomUUID)(),
    objectIdentifier: identifier,
    resolvedUrl: evidence.resolution.landingUrl,
    metricVersion: file.version,
    summary: {
      scoreEarned: fair.FAIR.scoreEarned,
      scoreTotal: fair.FAIR.scoreTotal,
      scorePercent: fair.FAIR.scorePercent,
      findability: category('F'),
      accessibility: category('A'),
      interoperability: category('I'),
      reusability: category('R'),
    },
    metrics: evaluation.metrics,
    details: {
      metricSpecification: file.specification,
      startedAt: started.toISOString(),
      finishedAt: now().toISOString(),
      durationMs: Math.round(performance.now() - t0),
      summary: fair,
      metrics: evaluation.details,
      evidence,
    },
  };
}
