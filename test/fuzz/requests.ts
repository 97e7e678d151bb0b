/**
 * Generated requests for the property-based fuzzing of every route (issue 9): query strings and bodies built
 * from each service's own OpenAPI document, so a new parameter or route is fuzzed without editing this file.
 * Values mix the near-valid (the parameter's enum values, whole numbers, ids of the right shape) with the
 * hostile: unicode and control characters, over-long values, broken percent-encoding, huge, negative and
 * fractional numbers, repeated and unknown keys.
 */
import fc from 'fast-check';

/** What the fuzzer reads of an OpenAPI operation. */
export interface RouteSpec {
  method: 'GET' | 'POST';
  /** The templated path, e.g. `/frame/api/v1/works/{id}`. */
  path: string;
  params: { name: string; in: string; values: string[] }[];
  hasBody: boolean;
}

interface OpenApiLike {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema?: Schema }[]; requestBody?: unknown }>>;
}
interface Schema {
  enum?: unknown[];
  items?: Schema;
  anyOf?: Schema[];
}

/** Example values a parameter's schema names (its enums), to make near-valid requests. */
function enumValues(s: Schema | undefined): string[] {
  if (!s) return [];
  return [...(s.enum ?? []).map(String), ...enumValues(s.items), ...(s.anyOf ?? []).flatMap(enumValues)];
}

export function routesOf(doc: OpenApiLike): RouteSpec[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase() as 'GET' | 'POST',
      path,
      params: (op.parameters ?? []).map((p) => ({ name: p.name, in: p.in, values: enumValues(p.schema) })),
      hasBody: op.requestBody !== undefined,
    })),
  );
}

const CONTROL = fc.constantFrom('\u0000', '\u0001', '\u0007', '\b', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u2028', '\ufeff', '\ud800', '\udfff');

/** Raw text, sometimes hostile. */
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.array(fc.oneof(CONTROL, fc.string({ maxLength: 3 })), { maxLength: 6 }).map((xs) => xs.join('')),
  fc.constantFrom(
    '',
    ' ',
    '  x  ',
    '*',
    '"',
    '""',
    '"a',
    'trend*',
    '"trend toward"',
    'AND',
    'OR',
    'NEAR(a b)',
    "'; DROP TABLE works; --",
    '../../etc/passwd',
    '%',
    '{}',
    '[]',
    'null',
    'undefined',
    'NaN',
    'Infinity',
    '-0',
    'é',
    'ß',
    'Ǆ',
    '𝔘',
    '👍🏽',
  ),
  fc.string({ minLength: 200, maxLength: 3000 }),
);

/** Numbers and number-like strings around every boundary. */
const numberish = fc.oneof(
  fc.integer({ min: -3, max: 120 }).map(String),
  fc.integer().map(String),
  fc.constantFrom(
    '0',
    '1',
    '2',
    '25',
    '100',
    '101',
    '10000',
    '10001',
    '100000',
    '100001',
    '1.5',
    '-1',
    '-0',
    '+1',
    '1e3',
    '0x10',
    '00',
    '007',
    ' 1',
    '1 ',
    '９',
    '1_000',
    '9007199254740993',
    '99999999999999999999999999',
    '1900',
    '2026',
    '1.0',
  ),
  fc.double().map(String),
);

/** Ids shaped like the services' ids (works, authors, PMC, hashes), and near misses. */
const idish = fc.oneof(
  fc.integer({ min: 0, max: 2 ** 40 }).map((n) => `W${n}`),
  fc.integer({ min: 0, max: 2 ** 40 }).map((n) => `A${n}`),
  fc.integer({ min: 0, max: 2 ** 31 }).map((n) => `PMC${n}`),
  fc.constantFrom('W2000000000', 'w2000000000', 'W0', 'PMC0', 'pmc1', 'nopmc-0000', '0123456789abcdef', 'ffffffffffffffff'),
  fc.stringMatching(/^[0-9a-f]{16}$/),
);

/** A value for one parameter: mostly near-valid when the parameter has a closed list. */
function valueFor(values: string[]): fc.Arbitrary<string> {
  const near =
    values.length > 0
      ? [fc.constantFrom(...values), fc.constantFrom(...values).map((v) => v.toUpperCase()), fc.constantFrom(...values).map((v) => ` ${v}`)]
      : [];
  return fc.oneof(...near, numberish, idish, text);
}

/** encodeURIComponent, except that a lone surrogate (no UTF-8 for it) is sent as its raw %uXXXX escape. */
const percent = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return escape(s);
  }
};

/** Percent-encodes, or leaves broken on purpose. */
const encoded = (s: string, broken: number) => {
  if (broken === 1) return s.replace(/[&#]/g, percent); // raw unicode / spaces / controls left in place
  if (broken === 2) return `${percent(s)}%`;
  if (broken === 3) return `%E0%A4${percent(s)}`;
  if (broken === 4) return `%zz${percent(s)}`;
  return percent(s);
};

const KEY_NOISE = fc.constantFrom(
  '',
  '_',
  '_debug',
  'PAGE',
  'Page',
  'page[]',
  'per-page',
  'perPage',
  'x',
  'q ',
  ' q',
  'format',
  'callback',
  '__proto__',
  'constructor',
  'toString',
  'a'.repeat(300),
);

/** Plausible values for a parameter without a closed list (years, counts, words, ids). */
const plain = fc.oneof(
  fc.integer({ min: 1, max: 3 }).map(String),
  fc.integer({ min: 1990, max: 2026 }).map(String),
  fc.constantFrom('en', 'fr', 'article', 'trend', 'cancer', 'W2000000000', 'A1000000001', 'health', 'p'),
);

/** A near-valid query: known keys, each once, with their listed values or plausible ones. */
function cleanQuery(known: RouteSpec['params']): fc.Arbitrary<string> {
  if (known.length === 0) return fc.constant('');
  return fc
    .uniqueArray(fc.constantFrom(...known), { maxLength: 4, selector: (p) => p.name })
    .chain((ps) => fc.tuple(...ps.map((p) => (p.values.length > 0 ? fc.constantFrom(...p.values) : plain).map((v) => `${p.name}=${encodeURIComponent(v)}`))))
    .map((pairs) => pairs.join('&'));
}

/** A query string for a route: near-valid ones, and hostile ones (noise keys, repeats, broken encodings). */
export function queryFor(route: RouteSpec): fc.Arbitrary<string> {
  const known = route.params.filter((p) => p.in === 'query');
  return fc.oneof(cleanQuery(known), hostileQuery(route));
}

function hostileQuery(route: RouteSpec): fc.Arbitrary<string> {
  const known = route.params.filter((p) => p.in === 'query');
  const key =
    known.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known.map((p) => p.name)) }, { weight: 1, arbitrary: KEY_NOISE }) : KEY_NOISE;
  const pair = key.chain((k) =>
    fc.tuple(fc.constant(k), valueFor(known.find((p) => p.name === k)?.values ?? []), fc.integer({ min: 0, max: 12 })).map(([k2, v, broken]) => {
      if (broken === 5) return percent(k2); // a key without '='
      if (broken === 6) return `${percent(k2)}=`;
      if (broken === 7) return `=${encoded(v, 0)}`;
      return `${percent(k2)}=${encoded(v, broken)}`;
    }),
  );
  return fc
    .tuple(fc.array(pair, { maxLength: 7 }), fc.boolean(), fc.constantFrom('&', '&&', ';'))
    .map(([pairs, twice, sep]) => (twice && pairs.length > 0 ? [...pairs, pairs[0]!] : pairs).join(sep));
}

/** The route's path with its templated segments filled (near-valid ids or hostile text). */
export function pathFor(route: RouteSpec): fc.Arbitrary<string> {
  const slots = route.path.match(/\{[^}]+\}/g) ?? [];
  if (slots.length === 0) return fc.constant(route.path);
  return fc
    .tuple(...slots.map(() => fc.tuple(fc.oneof(idish, text, fc.string({ minLength: 201, maxLength: 400 })), fc.integer({ min: 0, max: 8 }))))
    .map((fills) => {
      let p = route.path;
      for (const [v, broken] of fills) p = p.replace(/\{[^}]+\}/, v === '' ? '' : encoded(v, broken).replace(/\//g, broken === 1 ? '/' : '%2F'));
      return p;
    });
}

/** Bodies for a JSON POST: the right shape with odd values, the wrong shape, not JSON, too big. */
export function bodyFor(identifiers: fc.Arbitrary<string>): fc.Arbitrary<{ payload: string; contentType: string | null }> {
  const options = fc.dictionary(
    fc.oneof(fc.constantFrom('metric_version', 'use_registry', 'use_code_host', 'nope', '__proto__'), fc.string({ maxLength: 6 })),
    fc.oneof(fc.constantFrom('metrics_v0.8', 'metrics_v0.5', '0.8', 'v9'), fc.boolean(), fc.jsonValue({ maxDepth: 2 })),
    { maxKeys: 4 },
  );
  const shaped = fc
    .record({ identifier: fc.oneof(identifiers, text, fc.jsonValue({ maxDepth: 1 })), options }, { requiredKeys: [] })
    .map((b) => JSON.stringify(b));
  const payload = fc.oneof(
    { weight: 4, arbitrary: shaped },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: text },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{',
        '{"identifier":',
        '{"identifier": "10.1/x"',
        'null',
        '[]',
        '""',
        '{"identifier": "10.1/x"}{}',
        '\ufeff{"identifier":"x"}',
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 15_000, max: 40_000 }).map((n) => JSON.stringify({ identifier: 'x'.repeat(n) })) },
  );
  const contentType = fc.oneof(
    { weight: 5, arbitrary: fc.constant('application/json') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        null,
        'application/json; charset=utf-8',
        'APPLICATION/JSON',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json; charset=latin1',
        'application/problem+json',
        '*/*',
        ';;;',
      ),
    },
  );
  return fc.record({ payload, contentType });
}
