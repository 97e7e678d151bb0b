/**
 * Every metric test evaluator, by test id, and the evaluation of one metric file over one evidence object.
 * A test id in a metric file without an evaluator is a programming error caught by the engine's tests.
 */
import type { MetricDefinition } from '../../../../../../contracts/fair/metrics.ts';
import { ACCESSIBLE } from './accessible.ts';
import type { Facts } from './facts.ts';
import { FINDABLE } from './findable.ts';
import { INTEROPERABLE } from './interoperable.ts';
import { REUSABLE } from './reusable.ts';
import { SOFTWARE } from './software.ts';
import type { TestEvaluator, TestOutcome } from './types.ts';

export const EVALUATORS: Readonly<Record<string, TestEvaluator>> = { ...FINDABLE, ...ACCESSIBLE, ...INTEROPERABLE, ...REUSABLE, ...SOFTWARE };

/**
 * The evaluator of a test in a metric version: `<version>/<test id>` where F-UJI's evaluator branches on the
 * version for a test id both versions share (R1.3-01M), else the test id.
 */
export function evaluatorFor(version: string, testId: string): TestEvaluator | undefined {
  return EVALUATORS[`${version}/${testId}`] ?? EVALUATORS[testId];
}

/** Evaluate every test of a metric of the given version; outcomes are in the metric file's test order. */
export function evaluateMetric(metric: MetricDefinition, facts: Facts, version: string): TestOutcome[] {
  return metric.tests.map((test) => {
    const evaluator = evaluatorFor(version, test.id);
    if (!evaluator) throw new Error(`no evaluator for metric test ${test.id}`);
    return evaluator(facts);
  });
}
