/** What a metric test is: a pure function from the harvested facts to pass/fail with a reason. */
import type { Evidence } from '../../../../../../contracts/fair/evidence.ts';
import type { Facts } from './facts.ts';

export interface TestOutcome {
  passed: boolean;
  /** Why, in a sentence a user can act on (what was found, or what was missing). */
  reason: string;
}

export type TestEvaluator = (facts: Facts) => TestOutcome;

export const pass = (reason: string): TestOutcome => ({ passed: true, reason });
export const fail = (reason: string): TestOutcome => ({ passed: false, reason });

/** `"a", "b" and 3 more` for reasons. */
export function listed(values: readonly string[], max = 3): string {
  const shown = values.slice(0, max).map((v) => `"${v.length > 120 ? `${v.slice(0, 117)}...` : v}"`);
  const rest = values.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ');
}

export type { Evidence };
