/**
 * Bands and verification of a phrase occurrence from its associated p-value (DECISIONS.md §5, with the
 * reasons in research/hedged.md §2.2):
 *
 * | band        | associated p                                                        |
 * |-------------|---------------------------------------------------------------------|
 * | `0.05-0.06` | 0.05 ≤ p < 0.06 (exactly 0.05: see `exactlyAlpha`, flagged `atThreshold`) |
 * | `0.06-0.08` | 0.06 ≤ p < 0.08                                                     |
 * | `0.08-0.10` | 0.08 ≤ p ≤ 0.10 (0.10 included: Hankins' second peak, 43 of his 491, 767 of Otte's 11,926) |
 * | `>0.10`     | p > 0.10                                                            |
 * | `ns`        | non-significant without a value: "n.s.", "NS", or a bound that spans bands ("p > 0.05") |
 * | `none`      | no p-value in the sentence                                          |
 *
 * An occurrence is `verified` when its p is non-significant (one of the first five bands), `rejected` when
 * its p is below 0.05 (p < 0.05, p ≤ 0.05, p = 0.0167; kept, but out of the default listing, and not banded),
 * `unverified` when the sentence has no p-value (band `none`), and `indeterminate` for the rare bound that
 * says nothing either way ("p > 0.01").
 *
 * Inequalities (hedged.md §2.2 "Inequalities": "p < 0.10 can be banded by its bound and flagged
 * inequality '<'. p > 0.05 goes to ns. p > 0.10 goes to >0.10."), as one rule — a bound is banded by where
 * the values it allows lie:
 * - `p > 0.05`, `p ≥ 0.05`: all allowed values are ≥ 0.05 but span every band → `ns`, verified. `p ≥ 0.05`
 *   is flagged `atThreshold` since it admits 0.05 itself; it stays verified even when exactly 0.05 counts as
 *   significant, because "p ≥ α" is how authors write "not significant".
 * - `p > 0.1`, `p ≥ 0.1`: allowed values lie above 0.10 (0.10 itself is a single point) → `>0.10`, verified.
 *   `p > 0.06` spans bands → `ns`.
 * - `p < 0.1`, `p ≤ 0.1`: an upper bound above 0.05 does not prove non-significance, but it is the way
 *   marginal results are written (Hankins: "a little significant (p<0.1)") → by default banded by the values
 *   just below the bound (`0.08-0.10`), verified, with `inequality: '<'` so a consumer can exclude it; option
 *   `upperBoundAboveAlpha: 'indeterminate'` turns that off. `p < 0.06` → `0.05-0.06`, `p < 0.2` → `>0.10`.
 * - `p < 0.05`, `p ≤ 0.05` → rejected ("Treat p < / p ≤ with a value ≤ 0.05 as significant", hedged.md §2.1).
 * - A range "0.05 < p < 0.10" is banded like a bound from both sides: one band if it fits, else `ns`.
 * - `p ≈ 0.07` is treated as the point 0.07 (and is not `exact`, which only matters for medians).
 */
import type { PValueHit } from './p-values.ts';

import { type Band, BANDS, OCCURRENCE_STATUSES, type OccurrenceStatus, VERIFIED_BANDS } from '../../contracts/corpus/vocab.ts';

// The vocabularies live in contracts/ (the server and the site use them too); re-exported for the pipeline.
export { BANDS, OCCURRENCE_STATUSES, VERIFIED_BANDS, type Band, type OccurrenceStatus };

/** The significance level every source uses (hedged.md §2.2). */
export const ALPHA = 0.05;

export interface BandOptions {
  /**
   * What a p of exactly 0.05 ("p = 0.05", "p 0.05", "p ≈ 0.05") counts as. Default `verified`: Otte and
   * Hankins include it in their near-miss material, and so do authors ("marginally significant … p 0.05",
   * journal.pone.0068090); it is banded `0.05-0.06` with `atThreshold: true`, so it can be filtered out.
   * `rejected` follows statcheck and metacheck, which call p = .05 significant.
   */
  exactlyAlpha: 'verified' | 'rejected';
  /** How an upper bound above 0.05 ("p < 0.10") is treated; see the file comment. Default `band`. */
  upperBoundAboveAlpha: 'band' | 'indeterminate';
}
export const DEFAULT_BAND_OPTIONS: Readonly<BandOptions> = Object.freeze({
  exactlyAlpha: 'verified',
  upperBoundAboveAlpha: 'band',
});

/** The verdict on one occurrence. `band` is null for rejected and indeterminate occurrences. */
export interface BandResult {
  band: Band | null;
  status: OccurrenceStatus;
  /** The associated p is exactly 0.05, or a bound that admits exactly 0.05 ("p ≥ 0.05"). */
  atThreshold: boolean;
  /** The comparator when the p-value is a bound or range rather than a point, else null. */
  inequality: '<' | '<=' | '>' | '>=' | null;
}

/** Band of a point value p ≥ 0.05 (0.10 belongs to `0.08-0.10`). */
export function bandOfValue(p: number): Band {
  if (p < 0.06) return '0.05-0.06';
  if (p < 0.08) return '0.06-0.08';
  if (p <= 0.1) return '0.08-0.10';
  return '>0.10';
}

/** Band of the values just above a lower bound `l` (l ≥ 0.05). */
function bandAbove(l: number): Band {
  if (l < 0.06) return '0.05-0.06';
  if (l < 0.08) return '0.06-0.08';
  if (l < 0.1) return '0.08-0.10';
  return '>0.10';
}

/** Band of the values just below an upper bound `u` (u > 0.05). */
function bandBelow(u: number): Band {
  if (u <= 0.06) return '0.05-0.06';
  if (u <= 0.08) return '0.06-0.08';
  if (u <= 0.1) return '0.08-0.10';
  return '>0.10';
}

/**
 * Classifies an occurrence by its associated p-value (null when the sentence has none). Pure; the rules
 * are in the file comment.
 */
export function classifyPValue(p: Pick<PValueHit, 'operator' | 'value' | 'kind' | 'lower'> | null, options: Partial<BandOptions> = {}): BandResult {
  const o = { ...DEFAULT_BAND_OPTIONS, ...options };
  const rejected = (atThreshold: boolean, inequality: BandResult['inequality']): BandResult => ({
    band: null,
    status: 'rejected',
    atThreshold,
    inequality,
  });
  const verified = (band: Band, atThreshold: boolean, inequality: BandResult['inequality']): BandResult => ({
    band,
    status: 'verified',
    atThreshold,
    inequality,
  });
  const indeterminate = (inequality: BandResult['inequality']): BandResult => ({
    band: null,
    status: 'indeterminate',
    atThreshold: false,
    inequality,
  });

  if (p === null) return { band: 'none', status: 'unverified', atThreshold: false, inequality: null };
  if (p.kind === 'ns' || p.value === null) return verified('ns', false, null);
  const v = p.value;
  const op = p.operator;

  // A point value.
  if ((op === '=' || op === 'none' || op === '~') && p.lower === null) {
    if (v < ALPHA) return rejected(false, null);
    if (v === ALPHA) return o.exactlyAlpha === 'verified' ? verified('0.05-0.06', true, null) : rejected(true, null);
    return verified(bandOfValue(v), false, null);
  }

  // A lower bound: p > v, p ≥ v.
  if (op === '>' || op === '>=') {
    if (v < ALPHA) return indeterminate(op);
    return verified(bandAbove(v) === '>0.10' ? '>0.10' : 'ns', v === ALPHA && op === '>=', op);
  }

  // An upper bound (p < v, p ≤ v), possibly with a lower bound (a range).
  const ineq = op === '<' || op === '<=' ? op : '<=';
  const lower = p.lower;
  if (lower !== null && lower.value >= ALPHA) {
    const atThreshold = lower.value === ALPHA && lower.inclusive;
    if (atThreshold && o.exactlyAlpha === 'rejected' && v === ALPHA) return rejected(true, ineq);
    const a = bandAbove(lower.value);
    return verified(a === bandBelow(Math.max(v, lower.value)) ? a : 'ns', atThreshold, ineq);
  }
  if (v <= ALPHA) return rejected(false, ineq);
  return o.upperBoundAboveAlpha === 'band' ? verified(bandBelow(v), false, ineq) : indeterminate(ineq);
}
