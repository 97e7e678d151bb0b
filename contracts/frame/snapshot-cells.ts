/**
 * Cell parsers for snapshot CSV files: each turns the raw text of one cell into a typed value or a readable
 * reason. Built on zod transforms so the error text names what was expected and what was found.
 */
import { z } from 'zod';

/** A reason a cell was rejected. */
export class Bad {
  constructor(readonly message: string) {}
}

export type CellSchema<T> = z.ZodType<T, string>;

/** The check behind each cell schema made by cell(). */
const checks = new WeakMap<CellSchema<unknown>, (raw: string) => unknown>();

/** Wraps a check into a zod schema over the raw cell text. */
export function cell<T>(check: (raw: string) => T | Bad): CellSchema<T> {
  const schema = z.string().transform((raw, ctx) => {
    const value = check(raw);
    if (value instanceof Bad) {
      ctx.issues.push({ code: 'custom', message: value.message, input: raw });
      return z.NEVER;
    }
    return value;
  });
  checks.set(schema, check);
  return schema;
}

/**
 * The check a cell schema runs (the same function, not a copy), for callers that only need to know a cell is
 * good and ask the schema for its issues when it is not; undefined for a schema cell() did not make.
 */
export function cellCheck<T>(schema: CellSchema<T>): ((raw: string) => T | Bad) | undefined {
  return checks.get(schema as CellSchema<unknown>) as ((raw: string) => T | Bad) | undefined;
}

const show = (raw: string): string => JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
const LINE_BREAK = /[\r\n]/;

/** Free text without line breaks, up to `max` characters; `''` allowed unless `required`. */
export function text(max: number, options: { required?: boolean; pattern?: RegExp; hint?: string } = {}) {
  return cell((raw) => {
    if (raw === '') return options.required ? new Bad('must not be empty') : '';
    if (raw.length > max) return new Bad(`must be at most ${max} characters (has ${raw.length})`);
    if (LINE_BREAK.test(raw)) return new Bad('must not contain a line break');
    // Filters compare exact values and the query side trims them: a padded value could never be selected.
    if (raw.trim() !== raw) return new Bad(`must not start or end with whitespace, got ${show(raw)}`);
    if (options.pattern && !options.pattern.test(raw)) return new Bad(`must be ${options.hint ?? `like ${options.pattern}`}, got ${show(raw)}`);
    return raw;
  });
}

/** The id letters of the catalogue: W work, A author, F funder, S source (venue). */
export type IdLetter = 'W' | 'A' | 'F' | 'S';

/** An identifier's whole-string pattern: the letter, then digits without a leading zero (at most 15). */
export const idPattern = (letter: IdLetter): RegExp => new RegExp(`^${letter}[1-9][0-9]{0,14}$`);

/** An identifier: a fixed letter followed by digits (`W123`, `A456`, `F4320334593`, `S123456`). */
export function prefixedId(letter: IdLetter) {
  const pattern = idPattern(letter);
  return cell((raw) => (pattern.test(raw) ? raw : new Bad(`must be ${letter} followed by digits, got ${show(raw)}`)));
}

export const bool = cell((raw) => (raw === 'true' ? true : raw === 'false' ? false : new Bad(`must be true or false, got ${show(raw)}`)));

const INTEGER = /^(0|-?[1-9][0-9]{0,15})$/;

/** A whole number in [min, max]; `''` is null when `nullable`. */
export function int(min: number, max: number, options: { nullable?: boolean } = {}) {
  return cell<number | null>((raw) => {
    if (raw === '' && options.nullable) return null;
    if (!INTEGER.test(raw)) return new Bad(`must be a whole number from ${min} through ${max}, got ${show(raw)}`);
    const n = Number(raw);
    if (n < min || n > max) return new Bad(`must be a whole number from ${min} through ${max}, got ${raw}`);
    return n;
  });
}

/** Same as int() but never null, for columns that are always present. */
export function count(min: number, max: number) {
  return int(min, max) as CellSchema<number>;
}

const DECIMAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/** A decimal number in [min, max] written without exponent. */
export function decimal(min: number, max: number) {
  return cell((raw) => {
    if (!DECIMAL.test(raw)) return new Bad(`must be a decimal number from ${min} through ${max}, got ${show(raw)}`);
    const n = Number(raw);
    if (n < min || n > max) return new Bad(`must be a decimal number from ${min} through ${max}, got ${raw}`);
    return n;
  });
}

/** One value of a closed list; `''` is null when `nullable`. */
export function oneOf<const T extends readonly string[]>(values: T, options: { nullable?: boolean } = {}) {
  const set = new Set<string>(values);
  return cell<T[number] | null>((raw) => {
    if (raw === '' && options.nullable) return null;
    return set.has(raw) ? (raw as T[number]) : new Bad(`must be one of ${values.join(', ')}, got ${show(raw)}`);
  });
}

/** Like oneOf() but never null. */
export function required<const T extends readonly string[]>(values: T) {
  return oneOf(values) as CellSchema<T[number]>;
}

/** A `;`-joined set of values of a closed list, written in list order without repeats; `''` is the empty set. */
export function setOf<const T extends readonly string[]>(values: T) {
  const rank = new Map<string, number>(values.map((v, i) => [v, i]));
  return cell<T[number][]>((raw) => {
    if (raw === '') return [];
    const items = raw.split(';');
    let last = -1;
    for (const item of items) {
      const r = rank.get(item);
      if (r === undefined) return new Bad(`lists values of ${values.join(', ')}; ${show(item)} is not one`);
      if (r <= last) return new Bad(`must list values once each, in the order ${values.join(', ')}`);
      last = r;
    }
    return items as T[number][];
  });
}

/**
 * Exactly `n` `;`-joined scores in [0, 1], written as plain decimals. The checked text is kept as written:
 * the work-record serializer splits it, and not building an array per cell keeps validating 4.3 million
 * prediction rows (eight score lists each) affordable.
 */
export function scores(n: number) {
  // One anchored pattern for the whole list: much faster than checking each item on its own.
  const item = '(?:0|1|0\\.[0-9]+|1\\.0+)';
  const whole = new RegExp(`^${item}(?:;${item}){${n - 1}}$`);
  return cell((raw) => {
    if (whole.test(raw)) return raw;
    const count = raw.split(';').length;
    return count !== n
      ? new Bad(`must hold ${n} scores joined by ';', found ${count}`)
      : new Bad(`must hold ${n} decimals from 0 through 1 joined by ';', got ${show(raw)}`);
  });
}

/** A calendar date `YYYY-MM-DD` that exists. */
export const isoDate = cell((raw) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) return new Bad(`must be a date YYYY-MM-DD, got ${show(raw)}`);
  const d = new Date(`${raw}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== raw) return new Bad(`is not a real date: ${raw}`);
  return raw;
});

/** A literal value. */
export function exactly<const T extends string>(value: T) {
  return cell<T>((raw) => (raw === value ? value : new Bad(`must be ${JSON.stringify(value)}, got ${show(raw)}`)));
}
