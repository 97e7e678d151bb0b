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
import type { TestEvaluator, TestOutcome } from './types.ts';

export const EVALUATORS: Readonly<Record<string, TestEvaluator>> = { ...FINDABLE, ...ACCESSIBLE, ...INTEROPERABLE, ...REUSABLE };

/** Evaluate every test of a metric; outcomes are in the metric file's test order. */
export function evaluateMetric(metric: MetricDefinition, facts: Facts): TestOutcome[] {
  return metric.tests.map((test) => {
    const evaluator = EVALUATORS[test.id];
    if (!evaluator) throw new Error(`no evaluator for metric test ${test.id}`);
    return evaluator(facts);
  });
}
