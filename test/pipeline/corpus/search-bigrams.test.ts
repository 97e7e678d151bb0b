/**
 * The two-token phrases of the search index (pipeline/steps/corpus/search-bigrams.ts) against a plain scan of
 * the excerpts' texts: each text cut into tokens by the server's tokenizer (itself tested token for token
 * against FTS5), every adjacent pair counted per excerpt. Every pair with a token in at least
 * `bigram_min_docs` excerpts must be stored with exactly those excerpts and counts, and no other pair.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchTokenizer } from '../../../api-dynamic/src/services/corpus/search-tokens.ts';
import { openReadOnly, type SqliteDb } from '../../../api-dynamic/src/services/corpus/sqlite.ts';
import { bigramMinDocs, decodePostings } from '../../../contracts/corpus/search-postings.ts';
import { eachBigram, PAIR_BUDGET, placeTokens, READ_PAIR_BUDGET, readTermTokens } from '../../../pipeline/steps/corpus/search-bigrams.ts';
import { fixtureCorpusDatabase, tempDir } from '../../helpers/fixture-build.ts';

const tmp = tempDir('search-bigrams');
let db: SqliteDb;

beforeAll(async () => {
  db = await openReadOnly(await fixtureCorpusDatabase(tmp.path, 'bigrams'));
});
afterAll(() => {
  db?.close();
  tmp.remove();
});

describe('search_bigrams', () => {
  it('holds every pair with a common token, as a scan of the texts counts it, and nothing else', () => {
    const tokenizer = new SearchTokenizer(db);
    const texts = db.selectArrays('SELECT id, text FROM excerpts ORDER BY id').map(([id, text]) => ({ id: Number(id), tokens: tokenizer.tokens(String(text)) }));
    const docsOf = new Map<string, Set<number>>();
    for (const { id, tokens } of texts) for (const t of tokens) (docsOf.get(t) ?? docsOf.set(t, new Set()).get(t)!).add(id);
    const minDocs = Number(db.selectValue('SELECT bigram_min_docs FROM search_documents'));
    expect(minDocs).toBe(bigramMinDocs(texts.length));
    const common = (t: string) => docsOf.get(t)!.size >= minDocs;
    // The oracle: pair → excerpt id → count.
    const want = new Map<string, Map<number, number>>();
    for (const { id, tokens } of texts)
      for (let i = 0; i + 1 < tokens.length; i++) {
        if (!common(tokens[i]!) && !common(tokens[i + 1]!)) continue;
        const key = `${tokens[i]} ${tokens[i + 1]}`;
        const m = want.get(key) ?? want.set(key, new Map()).get(key)!;
        m.set(id, (m.get(id) ?? 0) + 1);
      }
    const got = new Map<string, Map<number, number>>();
    for (const [first, second, docs, postings] of db.selectArrays('SELECT first, second, docs, postings FROM search_bigrams')) {
      const { docs: ids, freq } = decodePostings(postings as Uint8Array, Number(docs));
      got.set(`${first} ${second}`, new Map(Array.from(ids, (d, k) => [d + 1, freq[k]!])));
    }
    expect(want.size).toBeGreaterThan(100);
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [key, m] of want) expect([...got.get(key)!], key).toEqual([...m]);
    // Some pairs occur twice in one excerpt, so the counts are tested too.
    expect([...want.values()].some((m) => [...m.values()].some((c) => c > 1))).toBe(true);
  });

  it('gives the same pairs whatever the number of pairs sorted at a time', () => {
    const tokens = placeTokens(db as Parameters<typeof placeTokens>[0]);
    const pairs = (budget: number) => {
      const out: string[] = [];
      eachBigram(tokens, budget, (a, b, ids, counts, n) => out.push(`${a} ${b}: ${ids.subarray(0, n).join(',')} / ${counts.subarray(0, n).join(',')}`));
      return out;
    };
    const whole = pairs(PAIR_BUDGET);
    expect(whole.length).toBe(Number(db.selectValue('SELECT count(*) FROM search_bigrams')));
    // One first term at a time (every term over the budget), and ranges of a few terms.
    for (const budget of [1, 40, 1000]) expect(pairs(budget), `budget ${budget}`).toEqual(whole);
  });

  it('gives the same pairs when each range is read from its first terms\' rows instead of scanning every token', () => {
    const tokens = placeTokens(db as Parameters<typeof placeTokens>[0]);
    const pairs = (budget: number, read: boolean) => {
      const out: string[] = [];
      const source = read ? readTermTokens(db as Parameters<typeof readTermTokens>[0], tokens.start) : null;
      try {
        eachBigram(tokens, budget, (a, b, ids, counts, n) => out.push(`${a} ${b}: ${ids.subarray(0, n).join(',')} / ${counts.subarray(0, n).join(',')}`), source?.tokens);
      } finally {
        source?.close();
      }
      return out;
    };
    const whole = pairs(PAIR_BUDGET, false);
    expect(whole.length).toBeGreaterThan(100);
    for (const budget of [1, 40, 1000, READ_PAIR_BUDGET, PAIR_BUDGET]) expect(pairs(budget, true), `budget ${budget}`).toEqual(whole);
  });
});
