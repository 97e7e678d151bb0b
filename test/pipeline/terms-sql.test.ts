/**
 * termsListSql (pipeline/lib/duckdb.ts) cuts ASCII texts into terms in SQL and sends the rest through
 * ori_terms: for any text it must give exactly titleTerms' terms (contracts/frame/title-terms.ts), the one
 * definition the query side folds with. Checked in a real DuckDB on generated texts of every kind: ASCII with
 * control characters and punctuation, accented and non-Latin letters, compatibility forms, mixed.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { titleTerms } from '../../contracts/frame/title-terms.ts';
import { type Duck, openDuck, registerTermsFunction, termsListSql } from '../../pipeline/lib/duckdb.ts';

let duck: Duck;
beforeAll(async () => {
  duck = await openDuck(':memory:', { threads: '1' });
  registerTermsFunction(duck);
});
afterAll(() => duck.close());

const ascii = fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 40 });
const words = fc.array(
  fc.constantFrom('Montréal', 'İstanbul', 'ﬁsh', 'ΣΟΦΟΣ', 'Québec', 'naïve', 'x²', 'Ⅻ', 'straße', 'COVID-19', 'the', 'A.I.', '٣', '日本語'),
  { maxLength: 6 },
);
const texts = fc.oneof(
  ascii,
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.tuple(ascii, words).map(([a, w]) => `${a} ${w.join(' ')}`),
);

async function sqlTerms(values: string[]): Promise<string[][]> {
  await duck.run('CREATE OR REPLACE TEMP TABLE t (k INTEGER, v VARCHAR)');
  const appender = await duck.connection.createAppender('t');
  values.forEach((v, k) => {
    appender.appendInteger(k);
    appender.appendVarchar(v);
    appender.endRow();
  });
  appender.closeSync();
  const rows = await duck.all<{ k: number; terms: string[] | null }>(
    `SELECT k, list_sort(list_filter(${termsListSql('v')}, x -> x <> '')) AS terms FROM t ORDER BY k`,
  );
  return rows.map((r) => [...(r.terms ?? [])]);
}

describe('termsListSql', () => {
  it('gives titleTerms’ terms for every text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(texts, { minLength: 1, maxLength: 50 }), async (values) => {
        const got = await sqlTerms(values);
        // Compared as sets, both sides in JavaScript's order: DuckDB's list_sort orders by code point, JavaScript by
        // UTF-16 unit, and the two differ for characters past U+FFFF (U+10000 sorts before U+FE73 in UTF-16).
        const sorted = (terms: Iterable<string>) => [...terms].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        values.forEach((v, k) => expect(sorted(got[k]!), JSON.stringify(v)).toEqual(sorted(titleTerms(v))));
      }),
      { numRuns: 60 },
    );
  });

  it('gives no terms for a null text', async () => {
    const [{ terms } = { terms: [] }] = await duck.all<{ terms: string[] | null }>(`SELECT ${termsListSql('CAST(NULL AS VARCHAR)')} AS terms`);
    expect(terms ?? []).toEqual([]);
  });
});
