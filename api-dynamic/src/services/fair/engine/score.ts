/**
 * Scoring, exactly as F-UJI computes it (research/fair.md §1.3–1.4):
 * - a test that passes earns its score and reaches its maturity; a failed test earns 0 at maturity 0;
 * - a metric earns min(total, sum of its passed tests' scores); its maturity is the highest maturity of its
 *   passed tests, unscored ones included (F-UJI's evaluators set the maturity of every test that passes, e.g.
 *   FsF-R1-01M-3 or the v0.5 R1.3-02D-1a/b/c sub-tests); it passes when it earns anything;
 * - per category (F, A, I, R) and per principle (F1 … R1.3): earned and total are sums, percent is
 *   earned / total × 100 rounded half-even to 2 decimals, maturity is the mean of the metric maturities with a
 *   mean strictly between 0 and 1 raised to 1, otherwise rounded half-even to an integer;
 * - FAIR: sums rounded to 2 decimals, percent as above, maturity = (F + A + I + R) / 4 rounded to 2 decimals
 *   (again with (0, 1) → 1); an absent category contributes 0.
 * Rounding is Python's `round` (half to even on the exact binary value), never Math.round (half up).
 */
import type { AssessmentStatus, SummaryGroup, TestResult } from '../../../../../contracts/fair/assessment.ts';
import { FAIR_CATEGORIES, type MetricDefinition } from '../../../../../contracts/fair/metrics.ts';
import type { TestOutcome } from './metrics/types.ts';

/**
 * Round half to even at `digits` decimals, on the exact value of the double (as Python's round does):
 * roundHalfEven(2.5) = 2, roundHalfEven(0.125, 2) = 0.12, roundHalfEven(2.675, 2) = 2.67 (2.675 is 2.67499… in binary).
 */
export function roundHalfEven(x: number, digits = 0): number {
  if (!Number.isFinite(x)) return x;
  // toFixed(100) is the exact decimal expansion for every double this engine produces (≥ 2⁻⁴⁸ or 0).
  const [whole, fraction = ''] = Math.abs(x).toFixed(100).split('.');
  let kept = BigInt(whole! + fraction.slice(0, digits));
  const rest = fraction.slice(digits);
  const first = rest[0] ?? '0';
  const beyond = /[1-9]/.test(rest.slice(1));
  if (first > '5' || (first === '5' && (beyond || kept % 2n === 1n))) kept += 1n;
  const rounded = Number(kept) / 10 ** digits;
  return x < 0 ? -rounded : rounded;
}

/** A maturity mean strictly between 0 and 1 counts as 1; otherwise it is rounded half-even (F-UJI). */
function clampMaturity(mean: number, digits: number): number {
  return mean > 0 && mean < 1 ? 1 : roundHalfEven(mean, digits);
}

export interface ScoredMetric {
  status: AssessmentStatus;
  scoreEarned: number;
  scoreTotal: number;
  maturity: number;
  tests: TestResult[];
}

/** Score one metric from its tests' outcomes (in the definition's test order). */
export function scoreMetric(metric: MetricDefinition, outcomes: readonly TestOutcome[]): ScoredMetric {
  const tests: TestResult[] = metric.tests.map((test, i) => {
    const outcome = outcomes[i];
    if (!outcome) throw new Error(`no outcome for ${test.id}`);
    return {
      id: test.id,
      name: test.name,
      status: outcome.passed ? 'pass' : 'fail',
      scoreEarned: outcome.passed ? test.score : 0,
      scoreTotal: test.score,
      maturity: outcome.passed ? test.maturity : 0,
      reason: outcome.reason,
    };
  });
  const passed = tests.filter((t) => t.status === 'pass');
  const earned = Math.min(
    metric.total,
    passed.reduce((sum, t) => sum + t.scoreEarned, 0),
  );
  return {
    // Unscored tests (kept "for backwards compatibility" or information) raise maturity but do not pass a metric.
    status: earned > 0 ? 'pass' : 'fail',
    scoreEarned: earned,
    scoreTotal: metric.total,
    maturity: passed.reduce((max, t) => Math.max(max, t.maturity), 0),
    tests,
  };
}

/** The input summaries need from each metric. */
export interface SummaryInput {
  /** Sub-principle, e.g. `A1.1`; its first letter is the category. */
  principle: string;
  status: AssessmentStatus;
  scoreEarned: number;
  scoreTotal: number;
  maturity: number;
}

function group(metrics: readonly SummaryInput[], maturityDigits: number): SummaryGroup {
  const earned = roundHalfEven(
    metrics.reduce((sum, m) => sum + m.scoreEarned, 0),
    2,
  );
  const total = roundHalfEven(
    metrics.reduce((sum, m) => sum + m.scoreTotal, 0),
    2,
  );
  const mean = metrics.length ? metrics.reduce((sum, m) => sum + m.maturity, 0) / metrics.length : 0;
  return {
    scoreEarned: earned,
    scoreTotal: total,
    scorePercent: total > 0 ? roundHalfEven((earned / total) * 100, 2) : 0,
    maturity: clampMaturity(mean, maturityDigits),
    metrics: metrics.length,
    metricsPassed: metrics.filter((m) => m.status === 'pass').length,
  };
}

export interface FairSummary {
  FAIR: SummaryGroup;
  categories: Record<string, SummaryGroup>;
  principles: Record<string, SummaryGroup>;
}

/** The F-UJI summary over all metrics: per category, per principle and overall. */
export function summarize(metrics: readonly SummaryInput[]): FairSummary {
  const categories: Record<string, SummaryGroup> = {};
  for (const category of FAIR_CATEGORIES) {
    const members = metrics.filter((m) => m.principle.startsWith(category));
    if (members.length) categories[category] = group(members, 0);
  }
  const principles: Record<string, SummaryGroup> = {};
  for (const principle of [...new Set(metrics.map((m) => m.principle))]) {
    principles[principle] = group(
      metrics.filter((m) => m.principle === principle),
      0,
    );
  }
  const fair = group(metrics, 2);
  const categoryMean = FAIR_CATEGORIES.reduce((sum, c) => sum + (categories[c]?.maturity ?? 0), 0) / FAIR_CATEGORIES.length;
  fair.maturity = clampMaturity(categoryMean, 2);
  return { FAIR: fair, categories, principles };
}
