/**
 * An external F-UJI server as the assessment backend (`FAIR_BACKEND=fuji`, DECISIONS.md §6; F-UJI's REST API
 * in research/fair.md §3). `POST {FUJI_URL}/fuji/api/v1/evaluate` with basic auth and F-UJI's request body,
 * and its `FAIRResults` mapped to our result shape (fair.md §1.4 "Mapping to our API"):
 *
 * - `summary.scoreEarned/Total/Percent` ← F-UJI's `summary.score_earned/score_total/score_percent` under `FAIR`;
 *   `findability … reusability` ← `score_percent` of F, A, I, R;
 * - each `results[]` item → `{id: metric_identifier, name: metric_name, principle: the category letter of the
 *   metric id, status: test_status (indeterminate → fail), scoreEarned/Total: score, maturity}`, in F-UJI's
 *   metric-number order; its tests and `output` go to `details.metrics`.
 *
 * Failures: F-UJI unreachable, timing out, refusing our credentials or rate-limiting us → 503
 * UPSTREAM_UNAVAILABLE; a 4xx about the request (the identifier) → 422 RESOLUTION_FAILED; a 500 (F-UJI crashed
 * on this input, its issues #133, #261) or an answer we cannot read → 502 ASSESSMENT_FAILED. F-UJI never refuses
 * an unresolvable identifier, it scores it: `resolved_url` "not defined" with FsF-F1-02MD and FsF-A1-02MD
 * earning nothing is read as 422 RESOLUTION_FAILED, as fair.md §3.4 advises.
 *
 * F-UJI is the operator's own server (often on a private network), not a user-supplied address, so it is
 * reached with the plain fetch, not the SSRF-safe fetcher.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../../../../contracts/common/errors.ts';
import type { MetricDetail, MetricResult, SummaryGroup, TestResult } from '../../../../contracts/fair/assessment.ts';
import type { AssessRequest, MetricVersions } from '../../../../contracts/fair/request.ts';
import { type FujiAssessmentResult, fujiAssessmentResultSchema } from '../../../../contracts/fair/responses.ts';
import type { AssessmentBackend } from './backend.ts';

export interface FujiBackendOptions {
  /** The server's base URL (`FUJI_URL`), without `/fuji/api/v1`. */
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  /** Milliseconds one evaluation may take (`FUJI_TIMEOUT_MS`). */
  timeoutMs: number;
  metricVersions: MetricVersions;
  /** Clock and id generator (tests freeze them). */
  now?: () => Date;
  newId?: () => string;
}

// ---- F-UJI's FAIRResults, as much of it as we read (fair.md §3.3); everything else passes unread ----

const num = z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number());
const fujiScore = z.object({ earned: num, total: num });
const fujiTest = z.object({
  metric_test_name: z.string().nullish(),
  metric_test_score: fujiScore.nullish(),
  metric_test_maturity: num.nullish(),
  metric_test_status: z.string().nullish(),
});
const fujiMetric = z.object({
  id: num.nullish(),
  metric_identifier: z.string(),
  metric_name: z.string().nullish(),
  metric_tests: z.record(z.string(), fujiTest).nullish(),
  test_status: z.string(),
  score: fujiScore,
  maturity: num,
  output: z.unknown().optional(),
});
const numberMap = z.record(z.string(), num);
export const fujiResultsSchema = z.object({
  test_id: z.string(),
  request: z.object({ normalized_object_identifier: z.string().nullish() }).passthrough().nullish(),
  resolved_url: z.string().nullish(),
  start_timestamp: z.string().nullish(),
  end_timestamp: z.string().nullish(),
  metric_specification: z.string().nullish(),
  metric_version: z.string().nullish(),
  software_version: z.string().nullish(),
  summary: z.object({
    score_earned: numberMap,
    score_total: numberMap,
    score_percent: numberMap,
    maturity: numberMap.nullish(),
    status_total: numberMap.nullish(),
    status_passed: numberMap.nullish(),
  }),
  results: z.array(fujiMetric).min(1),
});
export type FujiResults = z.infer<typeof fujiResultsSchema>;

/** fair.md §1.4: the principle of a metric id (`A1.1` for FsF-A1.1-01MD); its first letter is the category. */
const PRINCIPLE = /^(?:FRSM-[0-9]+|FsF)-(([FAIR])[0-9](\.[0-9])?)/;

const clampMaturity = (m: number) => Math.min(3, Math.max(0, Math.round(m)));

export class FujiBackend implements AssessmentBackend {
  readonly name = 'fuji';
  readonly description: string;
  readonly dependency: string;
  private readonly base: string;
  private readonly authorization: string | null;

  constructor(private readonly options: FujiBackendOptions) {
    this.base = `${options.url.replace(/\/+$/, '')}/fuji/api/v1`;
    this.authorization =
      options.username !== undefined ? `Basic ${Buffer.from(`${options.username}:${options.password ?? ''}`, 'utf8').toString('base64')}` : null;
    this.description = `F-UJI server ${this.base}`;
    this.dependency = `the F-UJI assessment server (${new URL(this.base).host})`;
  }

  async assess(request: AssessRequest): Promise<FujiAssessmentResult> {
    const now = this.options.now ?? (() => new Date());
    const started = now();
    const t0 = performance.now();
    let response: Response;
    try {
      response = await fetch(`${this.base}/evaluate`, {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          ...(this.authorization ? { authorization: this.authorization } : {}),
        },
        body: JSON.stringify({
          object_identifier: request.identifier,
          test_debug: false,
          use_datacite: request.options.use_registry,
          // The software metrics are evaluated from the repository: F-UJI needs its GitHub harvest for them (as our engine does).
          use_github: request.options.use_code_host || request.options.metric_version.endsWith('_software'),
          metric_version: request.options.metric_version,
        }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      throw new ApiError(
        'UPSTREAM_UNAVAILABLE',
        timedOut
          ? `The F-UJI assessment server did not answer within ${Math.round(this.options.timeoutMs / 1000)} s; try again later.`
          : 'The F-UJI assessment server cannot be reached; try again later.',
      );
    }
    const text = await response.text().catch(() => '');
    if (response.status === 401 || response.status === 403 || response.status === 429 || response.status >= 502)
      throw new ApiError('UPSTREAM_UNAVAILABLE', `The F-UJI assessment server refused the request (HTTP ${response.status}); try again later.`);
    if (response.status >= 400 && response.status < 500)
      throw new ApiError(
        'RESOLUTION_FAILED',
        `The identifier "${request.identifier}" could not be assessed: F-UJI answered HTTP ${response.status}${problemDetail(text)}.`,
        [{ parameter: 'identifier', message: `F-UJI HTTP ${response.status}` }],
      );
    if (response.status !== 200)
      throw new ApiError('ASSESSMENT_FAILED', `The F-UJI assessment server failed to assess "${request.identifier}" (HTTP ${response.status}).`);
    let results: FujiResults;
    try {
      results = fujiResultsSchema.parse(JSON.parse(text));
    } catch {
      throw new ApiError('ASSESSMENT_FAILED', `The F-UJI assessment server sent an answer for "${request.identifier}" that is not a FAIRResults document.`);
    }
    const mapped = mapFujiResults(results, request, {
      id: (this.options.newId ?? randomUUID)(),
      startedAt: started.toISOString(),
      finishedAt: now().toISOString(),
      durationMs: Math.round(performance.now() - t0),
      metricVersions: this.options.metricVersions,
    });
    const checked = fujiAssessmentResultSchema.safeParse(mapped);
    if (!checked.success)
      throw new ApiError('ASSESSMENT_FAILED', `The F-UJI assessment server sent a result for "${request.identifier}" that does not map onto the result shape.`);
    return checked.data;
  }

  /** F-UJI has no health endpoint; `GET /metrics/0.8` is cheap and needs no auth (fair.md §3.1). */
  async probe(signal: AbortSignal): Promise<boolean> {
    try {
      const response = await fetch(`${this.base}/metrics/0.8`, { headers: { accept: 'application/json' }, signal });
      await response.body?.cancel();
      return response.status < 500;
    } catch {
      return false;
    }
  }
}

/** `: <detail>` from an RFC 7807 problem body F-UJI sends on a validation failure, if any. */
function problemDetail(text: string): string {
  try {
    const problem = JSON.parse(text) as { detail?: unknown; title?: unknown };
    const detail = typeof problem.detail === 'string' ? problem.detail : typeof problem.title === 'string' ? problem.title : '';
    return detail ? `: ${detail.slice(0, 200)}` : '';
  } catch {
    return '';
  }
}

/**
 * F-UJI's FAIRResults in our result shape. @throws ApiError RESOLUTION_FAILED when F-UJI could not resolve
 * the identifier (resolved_url "not defined" and neither FsF-F1-02MD nor FsF-A1-02MD earned anything).
 */
export function mapFujiResults(
  results: FujiResults,
  request: AssessRequest,
  meta: { id: string; startedAt: string; finishedAt: string; durationMs: number; metricVersions: MetricVersions },
): FujiAssessmentResult {
  const earnedOf = (prefix: string) => results.results.find((r) => r.metric_identifier.startsWith(prefix))?.score.earned ?? 0;
  const resolved = results.resolved_url && /^https?:\/\//i.test(results.resolved_url) ? results.resolved_url : null;
  if (resolved === null && earnedOf('FsF-F1-02MD') === 0 && earnedOf('FsF-A1-02MD') === 0)
    throw new ApiError('RESOLUTION_FAILED', `The identifier "${request.identifier}" could not be resolved: F-UJI found no landing page for it.`, [
      { parameter: 'identifier', message: 'F-UJI: resolved_url not defined' },
    ]);

  const ordered = [...results.results].sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
  const metrics: MetricResult[] = [];
  const details: (MetricDetail & { output: unknown })[] = [];
  for (const r of ordered) {
    const principle = PRINCIPLE.exec(r.metric_identifier);
    if (!principle) continue; // not a FAIR metric (F-UJI has none such today): not scored by us either
    const status = r.test_status === 'pass' ? 'pass' : 'fail';
    metrics.push({
      id: r.metric_identifier,
      name: r.metric_name ?? r.metric_identifier,
      principle: principle[2] as MetricResult['principle'],
      status,
      scoreEarned: r.score.earned,
      scoreTotal: r.score.total,
      maturity: clampMaturity(r.maturity),
    });
    const tests: TestResult[] = Object.entries(r.metric_tests ?? {}).map(([id, t]) => {
      const passed = t.metric_test_status === 'pass';
      return {
        id,
        name: t.metric_test_name ?? id,
        status: passed ? 'pass' : 'fail',
        scoreEarned: t.metric_test_score?.earned ?? 0,
        scoreTotal: t.metric_test_score?.total ?? 0,
        maturity: passed ? clampMaturity(t.metric_test_maturity ?? 0) : 0,
        reason: `F-UJI reports this test as ${passed ? 'passed' : 'failed'}; its evidence is the metric's output.`,
      };
    });
    details.push({ id: r.metric_identifier, statement: r.metric_name ?? r.metric_identifier, principle: principle[1]!, tests, output: r.output ?? null });
  }

  const s = results.summary;
  const group = (key: string): SummaryGroup => ({
    scoreEarned: s.score_earned[key] ?? 0,
    scoreTotal: s.score_total[key] ?? 0,
    scorePercent: s.score_percent[key] ?? 0,
    maturity: s.maturity?.[key] ?? 0,
    metrics: s.status_total?.[key] ?? 0,
    metricsPassed: s.status_passed?.[key] ?? 0,
  });
  const keys = Object.keys(s.score_earned);
  const categories = Object.fromEntries(keys.filter((k) => /^[FAIR]$/.test(k)).map((k) => [k, group(k)]));
  const principles = Object.fromEntries(keys.filter((k) => /^[FAIR][0-9]/.test(k)).map((k) => [k, group(k)]));
  const fair = group('FAIR');
  const requested = results.metric_version ?? request.options.metric_version;
  return {
    id: meta.id,
    objectIdentifier: request.identifier,
    resolvedUrl: resolved ?? results.request?.normalized_object_identifier ?? request.identifier,
    metricVersion: meta.metricVersions.canonical(requested) ?? request.options.metric_version,
    summary: {
      scoreEarned: fair.scoreEarned,
      scoreTotal: fair.scoreTotal,
      scorePercent: fair.scorePercent,
      findability: categories.F?.scorePercent ?? 0,
      accessibility: categories.A?.scorePercent ?? 0,
      interoperability: categories.I?.scorePercent ?? 0,
      reusability: categories.R?.scorePercent ?? 0,
    },
    metrics,
    details: {
      backend: 'fuji',
      metricSpecification: results.metric_specification ?? '',
      startedAt: results.start_timestamp ?? meta.startedAt,
      finishedAt: results.end_timestamp ?? meta.finishedAt,
      durationMs: meta.durationMs,
      summary: { FAIR: fair, categories, principles },
      metrics: details,
      fuji: { testId: results.test_id, softwareVersion: results.software_version ?? null },
    },
  };
}
