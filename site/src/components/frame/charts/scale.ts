/**
 * Axis arithmetic shared by the frame's SVG charts: a zero-based linear scale with round tick values, and
 * label thinning for crowded category axes. Pure functions (no DOM), used at render time only.
 */

/** A round step (1, 2 or 5 × 10^k) giving about `count` ticks from 0 to `max`. */
export function niceStep(max: number, count = 5): number {
  if (!(max > 0)) return 1;
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

/** Ticks from 0 to the first round value at or above `max` (at least one step). */
export function ticks(max: number, count = 5): number[] {
  const step = niceStep(max, count);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const out: number[] = [];
  // Integer multiples avoid accumulated floating-point error (0.1 + 0.2 …).
  for (let k = 0; k * step <= top + step / 1e9; k++) out.push(Number((k * step).toPrecision(12)));
  return out;
}

/** Maps [0, domainMax] onto [0, length]. */
export function linear(domainMax: number, length: number): (v: number) => number {
  const d = domainMax > 0 ? domainMax : 1;
  return (v: number) => (length * v) / d;
}

/** Show every n-th label of a category axis so that labels `labelWidth` wide fit in `slot` each. */
export function labelEvery(slot: number, labelWidth: number): number {
  return Math.max(1, Math.ceil(labelWidth / Math.max(1, slot)));
}

/** A label cut to `max` characters with an ellipsis (the full text stays in the chart's <title> and table). */
export const shorten = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
