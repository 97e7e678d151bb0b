/**
 * The two-token phrases of the search index (pipeline/steps/corpus/search-bigrams.ts) against a plain scan of
 * the excerpts' texts: each text cut into tokens by the server's tokenizer (itself tested token for token
 * against FTS5), every adjacent pair counted per excerpt. Every pair with a token in at least
 * `bigram_min_docs` excerpts must be stored with exactly those excerpts and counts, and no other pair.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchTokenizer } from '../../../api-dynamic/src/services/corpus/search-tokens.ts';
import { openReadOnly, type SqliteDb } from '../../../api-dynamic/src/services/corpus/sqlite.ts';
import { bigramMinDocs, decodePostings, decodeVarints } from '../../../contracts/corpus/search-postings.ts';
import { planChunks, writeSearchBigrams } from '../../../pipeline/steps/corpus/search-bigrams.ts';
import { createDatabase, sqlite3 } from '../../../pipeline/lib/sqlite.ts';
import { tempDir } from '../../helpers/fixture-build.ts';
import { sharedCorpusDatabase } from '../../helpers/shared-fixture.ts';

const tmp = tempDir('search-bigrams');
let db: SqliteDb;
let dbPath: string;

beforeAll(async () => {
  dbPath = await sharedCorpusDatabase();
  db = await openReadOnly(dbPath);
});
afterAll(() => {
  db?.close();
  tmp.remove();
});

describe('search_bigrams', () => {
  it('holds every pair with a common token, as a scan of the texts counts it, and nothing else', () => {
    const tokenizer = new SearchTokenizer(db);
    const texts = db
      .selectArrays('SELECT id, text FROM excerpts ORDER BY id')
      .map(([id, text]) => ({ id: Number(id), tokens: tokenizer.tokens(String(text)) }));
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

  it('writes the same rows a chunk of excerpts at a time, whatever the chunk size, as all tokens at once', async () => {
    // A writable copy of the fixture database (the pipeline's sqlite-wasm), its pairs written again.
    const s = await sqlite3();
    const copy = createDatabase(s, join(tmp.path, 'copy.sqlite'));
    copy.exec({ sql: 'ATTACH ? AS f', bind: [`file:${dbPath}?mode=ro`] });
    copy.exec(
      'CREATE TABLE search_terms AS SELECT * FROM f.search_terms; CREATE TABLE search_documents AS SELECT * FROM f.search_documents; CREATE TABLE search_bigrams AS SELECT * FROM f.search_bigrams WHERE 0',
    );
    copy.exec('DETACH f');
    const rows = (d: { selectArrays: SqliteDb['selectArrays'] }) =>
      d.selectArrays('SELECT first, second, docs, hex(postings) FROM search_bigrams ORDER BY first, second').map((r) => r.join(' '));
    const stored = rows(db);
    expect(stored.length).toBeGreaterThan(100);
    const sizes = db.selectValue('SELECT sizes FROM search_documents') as Uint8Array;
    const excerpts = Number(db.selectValue('SELECT excerpts FROM search_documents'));
    const tokens = Number(db.selectValue('SELECT tokens FROM search_documents'));
    const biggest = Math.max(...decodeVarints(sizes, excerpts));
    // Chunks smaller than one excerpt (each excerpt a chunk of its own), a few excerpts, a few chunks, one.
    for (const chunkTokens of [1, biggest + 1, Math.ceil(tokens / 7), tokens]) {
      const scratch = join(tmp.path, `pairs-${chunkTokens}`);
      copy.exec('DELETE FROM search_bigrams');
      const { bigrams } = writeSearchBigrams(copy, { scratch, chunkTokens });
      expect(bigrams, `chunks of ${chunkTokens}`).toBe(stored.length);
      expect(rows(copy), `chunks of ${chunkTokens}`).toEqual(stored);
      expect(existsSync(scratch), 'the scratch files are removed').toBe(false);
    }
    expect(planChunks(decodeVarints(sizes, excerpts), Math.ceil(tokens / 7)).tokens.length).toBeGreaterThanOrEqual(7);
    copy.close();
  });
});
