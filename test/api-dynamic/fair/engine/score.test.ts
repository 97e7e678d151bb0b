/**
 * Scoring arithmetic (fair.md §1.3–1.4). Every expected number here was computed by hand (shown in the
 * comments), not by the code under test.
 */
import { describe, expect, it } from 'vitest';
import { roundHalfEven, scoreMetric, summarize, type SummaryInput } from '../../../../api-dynamic/src/services/fair/engine/score.ts';
import { metricFile } from '../../../../api-dynamic/src/services/fair/metrics/load.ts';

const v08 = metricFile('metrics_v0.8');
const metric = (id: string) => v08.metrics.find((m) => m.id === id)!;
const outcomes = (...passed: boolean[]) => passed.map((p) => ({ passed: p, reason: p ? 'ok' : 'no' }));

describe('roundHalfEven (Python round)', () => {
  it.each([
    [2.5, 0, 2],
    [3.5, 0, 4],
    [1.5, 0, 2],
    [0.5, 0, 0],
    [-2.5, 0, -2],
    [12.5, 0, 12],
    [0.125, 2, 0.12], // exactly 1/8: a true tie, to even
    [0.375, 2, 0.38], // exactly 3/8: a true tie, 37 is odd → 38
    [2.675, 2, 2.67], // 2.67499999… in binary: below the tie
    [1.005, 2, 1], // 1.00499999… in binary
    [(24 / 26) * 100, 2, 92.31], // 92.3076…
    [(22 / 26) * 100, 2, 84.62], // 84.6153…
    [(2 / 3) * 100, 2, 66.67],
    [100, 2, 100],
  ])('round(%d, %d) = %d', (x, digits, expected) => {
    expect(roundHalfEven(x, digits)).toBe(expected);
  });
});

describe('scoreMetric', () => {
  it('F1-02MD: 0.5 + 0.5 = 1 (the reason a max-for-alternative rule is wrong), maturity 3', () => {
    expect(scoreMetric(metric('FsF-F1-02MD'), outcomes(true, true, false, false))).toMatchObject({
      status: 'pass',
      scoreEarned: 1,
      scoreTotal: 1,
      maturity: 3,
    });
  });

  it('F1-02MD: syntax only earns 0.5 at maturity 1', () => {
    expect(scoreMetric(metric('FsF-F1-02MD'), outcomes(true, false, false, false))).toMatchObject({ status: 'pass', scoreEarned: 0.5, maturity: 1 });
  });

  it("unscored tests that pass raise maturity (F-UJI sets every passed test's maturity) but neither score nor pass the metric", () => {
    const scored = scoreMetric(metric('FsF-F1-02MD'), outcomes(false, false, true, true));
    expect(scored).toMatchObject({ status: 'fail', scoreEarned: 0, maturity: 3 });
    expect(scored.tests.map((t) => t.status)).toEqual(['fail', 'fail', 'pass', 'pass']);
    // R1-01M: type (1/1) and measured variables (0/3): 1 point at maturity 3, as F-UJI reports it
    expect(scoreMetric(metric('FsF-R1-01M'), outcomes(true, false, true))).toMatchObject({ scoreEarned: 1, maturity: 3 });
    expect(scoreMetric(metric('FsF-R1-01M'), outcomes(true, false, false))).toMatchObject({ scoreEarned: 1, maturity: 1 });
  });

  it('I1-01M: two alternative 2-point tests are capped at the total 2; maturity is the highest passed', () => {
    expect(scoreMetric(metric('FsF-I1-01M'), outcomes(true, true))).toMatchObject({ scoreEarned: 2, scoreTotal: 2, maturity: 3 });
    expect(scoreMetric(metric('FsF-I1-01M'), outcomes(true, false))).toMatchObject({ scoreEarned: 2, maturity: 2 });
    expect(scoreMetric(metric('FsF-I1-01M'), outcomes(false, false))).toMatchObject({ status: 'fail', scoreEarned: 0, maturity: 0 });
  });

  it('F2-01M: cumulative 1 + 1, and each test reports its own score and reason', () => {
    const scored = scoreMetric(metric('FsF-F2-01M'), outcomes(true, false));
    expect(scored).toMatchObject({ scoreEarned: 1, maturity: 2 });
    expect(scored.tests).toEqual([
      { id: 'FsF-F2-01M-2', name: 'Core data citation metadata is available', status: 'pass', scoreEarned: 1, scoreTotal: 1, maturity: 2, reason: 'ok' },
      { id: 'FsF-F2-01M-3', name: 'Core descriptive metadata is available', status: 'fail', scoreEarned: 0, scoreTotal: 1, maturity: 0, reason: 'no' },
    ]);
  });
});

describe('summarize', () => {
  const m = (principle: string, scoreEarned: number, scoreTotal: number, maturity: number): SummaryInput => ({
    principle,
    scoreEarned,
    scoreTotal,
    maturity,
    status: scoreEarned > 0 ? 'pass' : 'fail',
  });
  const metrics = [
    m('F1', 1, 1, 3),
    m('F1', 0.5, 1, 2),
    m('F2', 2, 2, 3),
    m('F4', 1, 1, 2),
    m('A1', 1, 1, 3),
    m('A1.1', 0, 2, 0),
    m('I1', 2, 2, 2),
    m('I2', 0, 2, 0),
    m('I3', 2, 2, 3),
    m('R1', 1, 2, 1),
    m('R1.1', 0, 1, 0),
  ];
  const summary = summarize(metrics);

  it('categories: sums, percent to 2 decimals, maturity mean rounded half-even with (0,1) → 1', () => {
    // F: 4.5 / 5 = 90 %; maturities 3, 2, 3, 2 → mean 2.5 → 2 (half to even, not 3)
    expect(summary.categories.F).toEqual({ scoreEarned: 4.5, scoreTotal: 5, scorePercent: 90, maturity: 2, metrics: 4, metricsPassed: 4 });
    // A: 1 / 3 = 33.33 %; maturities 3, 0 → 1.5 → 2
    expect(summary.categories.A).toEqual({ scoreEarned: 1, scoreTotal: 3, scorePercent: 33.33, maturity: 2, metrics: 2, metricsPassed: 1 });
    // I: 4 / 6 = 66.67 %; maturities 2, 0, 3 → 1.67 → 2
    expect(summary.categories.I).toEqual({ scoreEarned: 4, scoreTotal: 6, scorePercent: 66.67, maturity: 2, metrics: 3, metricsPassed: 2 });
    // R: 1 / 3 = 33.33 %; maturities 1, 0 → 0.5 → clamped to 1
    expect(summary.categories.R).toEqual({ scoreEarned: 1, scoreTotal: 3, scorePercent: 33.33, maturity: 1, metrics: 2, metricsPassed: 1 });
  });

  it('principles group by the full principle', () => {
    // F1: 1.5 / 2 = 75 %; maturities 3, 2 → 2.5 → 2
    expect(summary.principles.F1).toEqual({ scoreEarned: 1.5, scoreTotal: 2, scorePercent: 75, maturity: 2, metrics: 2, metricsPassed: 2 });
    expect(summary.principles['A1.1']).toEqual({ scoreEarned: 0, scoreTotal: 2, scorePercent: 0, maturity: 0, metrics: 1, metricsPassed: 0 });
    expect(Object.keys(summary.principles)).toEqual(['F1', 'F2', 'F4', 'A1', 'A1.1', 'I1', 'I2', 'I3', 'R1', 'R1.1']);
  });

  it('FAIR: 10.5 / 17 = 61.76 %, maturity (2 + 2 + 2 + 1) / 4 = 1.75', () => {
    expect(summary.FAIR).toEqual({ scoreEarned: 10.5, scoreTotal: 17, scorePercent: 61.76, maturity: 1.75, metrics: 11, metricsPassed: 8 });
  });

  it('FAIR maturity: absent categories count 0, and a mean in (0, 1) becomes 1', () => {
    // only R present with maturity 1: (0 + 0 + 0 + 1) / 4 = 0.25 → 1
    expect(summarize([m('R1', 1, 2, 1)]).FAIR.maturity).toBe(1);
    expect(summarize([m('R1', 0, 2, 0)]).FAIR).toMatchObject({ maturity: 0, scorePercent: 0 });
  });
});
