/**
 * Carrying the search index over (pipeline/steps/corpus/search-index.ts, `carrySearchRows`): the previous
 * build's postings re-numbered and merged with the new excerpts' tokens must give exactly the rows that reading
 * every token back from FTS5 gives (`writeSearchIndex`, the independent way), including the cases a rebuild
 * meets: excerpts dropped (and with them a term, and the only offsets that needed two bytes), excerpts shifted,
 * new terms among old ones, terms beyond U+FFFF (SQLite orders by code point, JS's `<` by UTF-16 unit).
 */
import { describe, expect, it } from 'vitest';
import { CORPUS_DB_SCHEMA } from '../../../contracts/corpus/database.ts';
import { sqlite3, type Sqlite3, type SqliteDb } from '../../../pipeline/lib/sqlite.ts';
import { carrySearchRows } from '../../../pipeline/steps/corpus/search-carry.ts';
import {
  collectSearchRows,
  compareCodePoints,
  type PreviousSearchIndex,
  readSearchIndex,
  writeSearchIndex,
  writeSearchRows,
} from '../../../pipeline/steps/corpus/search-index.ts';
import { mulberry32 } from '../../helpers/random.ts';

/** A corpus database holding `texts` as excerpts 1 … n, its full-text index built. */
function database(s: Sqlite3, texts: readonly string[]): SqliteDb {
  const db = new s.oo1.DB(':memory:');
  db.exec(CORPUS_DB_SCHEMA);
  db.exec('BEGIN');
  db.exec("INSERT INTO articles (id, pmcid, id_kind) VALUES (1, 'PMC1', 'pmcid')");
  const put = db.prepare("INSERT INTO excerpts (id, article, key, section, section_title, paragraph, sentence, text, also_in) VALUES (?, 1, 'k', 'body', '', 0, 0, ?, '[]')");
  texts.forEach((t, i) => put.bind([i + 1, t]).stepReset());
  put.finalize();
  db.exec("INSERT INTO excerpts_fts (excerpts_fts) VALUES ('rebuild')");
  db.exec("INSERT INTO excerpts_fts (excerpts_fts) VALUES ('optimize')");
  return db;
}

/** What a rebuild does with the carried rows: made apart (`carrySearchRows`), then written, when they fit. */
function carrySearchIndex(s: Sqlite3, db: SqliteDb, previous: PreviousSearchIndex, remap: Int32Array, fresh: { id: number; text: string }[], excerpts: number) {
  const made = collectSearchRows();
  const result = carrySearchRows(s, previous, remap, fresh, excerpts, made);
  if (result) writeSearchRows(db, made.rows);
  return result;
}

const rows = (db: SqliteDb) => ({
  terms: db.selectArrays('SELECT rowid, term, docs, hex(postings), hex(positions), offset_width FROM search_terms ORDER BY rowid'),
  documents: db.selectArrays('SELECT excerpts, tokens, hex(sizes), bigram_min_docs FROM search_documents'),
  bigrams: db.selectArrays('SELECT first, second, docs, hex(postings) FROM search_bigrams ORDER BY first, second'),
});

describe('carrying the search index over', () => {
  it('gives the rows a read-back from FTS5 gives, with excerpts dropped, shifted and added', async () => {
    const s = await sqlite3();
    const long = Array.from({ length: 300 }, (_, i) => (i === 299 ? 'tail' : 'filler')).join(' '); // an offset ≥ 256
    const previous = [
      'The effect was marginally significant (p = 0.06).',
      `${long} trend`,
      'A vanishing word appears only here, twice: vanishing.',
      'Café naïve 𝛼-level ＡＢＣ trend towards significance.',
      'Trend trend trend, p = 0.07.',
    ];
    // Excerpt 2 (the long one) and 3 (the only "vanishing") are gone; new excerpts come before, between and after.
    const next = [
      'A new first excerpt with 𝛽 and a trend.',
      previous[0]!,
      'Inserted between: marginally, 𝛼 and ＺＺ.',
      previous[3]!,
      previous[4]!,
      'Added at the end, with a brand new word: zyzzyva.',
    ];
    const remap = Int32Array.from([2, 0, 0, 4, 5]);
    const fresh = [1, 3, 6].map((id) => ({ id, text: next[id - 1]! }));

    const prev = database(s, previous);
    writeSearchIndex(prev);
    const expected = database(s, next);
    const full = writeSearchIndex(expected);
    const carried = database(s, next);
    const result = carrySearchIndex(s, carried, readSearchIndex(prev, 'main'), remap, fresh, next.length);
    // Every term is common in a corpus this small (in 1 of 6 excerpts), new ones too: the pairs are counted again.
    expect(result).toEqual({ ...full, bigrams: 'counted' });
    expect(rows(carried)).toEqual(rows(expected));
    expect(rows(carried).bigrams.length).toBeGreaterThan(0);
    expect(rows(prev).terms.some((r) => r[1] === 'vanishing')).toBe(true);
    expect(rows(carried).terms.some((r) => r[1] === 'vanishing')).toBe(false);
    for (const db of [prev, expected, carried]) db.close();
  });

  it('gives the rows a read-back from FTS5 gives on random corpora, carrying the two-word phrases or counting them again', async () => {
    const s = await sqlite3();
    // A Zipf-like vocabulary: a few words in most excerpts, many in a few; some beyond ASCII and beyond U+FFFF.
    const vocabulary = Array.from({ length: 400 }, (_, i) => (i % 17 === 5 ? `mot${i}é` : i % 23 === 7 ? `𝛼${i}` : `w${i}`));
    const ways = new Set<string>();
    const met = { lost: 0, gained: 0 };
    for (let seed = 1; seed <= 16; seed++) {
      const random = mulberry32(seed);
      const word = (extra: number) => vocabulary[Math.min(vocabulary.length - 1 + extra, Math.floor(vocabulary.length * random() ** 3))] ?? `new${Math.floor(random() * 5)}`;
      // Now and then an excerpt long enough for offsets of two bytes.
      const text = (extra = 0) => Array.from({ length: random() < 0.03 ? 260 + Math.floor(random() * 40) : 2 + Math.floor(random() * 30) }, () => word(extra)).join(' ');
      const previous = Array.from({ length: 150 + Math.floor(random() * 150) }, () => text());
      const minDocs = Math.ceil(previous.length / 32);
      const holders = new Map<string, number[]>();
      previous.forEach((t, i) => {
        for (const w of new Set(t.split(' '))) holders.set(w, [...(holders.get(w) ?? []), i]);
      });
      const holding = (w: string) => holders.get(w) ?? [];
      // Seeds of 4k + 1: a word common before is left in too few excerpts (its pairs with rarer words go); 4k + 2: a
      // word rare before is added to enough new excerpts to become common (the pairs are then counted again).
      const lose = seed % 4 === 1 ? vocabulary.find((w) => holding(w).length >= minDocs && holding(w).length < 3 * minDocs) : undefined;
      const drop = new Set(lose ? holding(lose).slice(0, holding(lose).length - minDocs + 2) : []);
      const gain = seed % 4 === 2 ? vocabulary.find((w) => holding(w).length > 0 && holding(w).length < minDocs) : undefined;
      // 4k + 3: random changes that cannot make a word common (new excerpts of common words only, as many as dropped).
      const commonOnly = seed % 4 === 3 ? vocabulary.filter((w) => holding(w).length >= minDocs + 3) : null;
      const commonText = () => Array.from({ length: 2 + Math.floor(random() * 30) }, () => commonOnly![Math.floor(commonOnly!.length * random() ** 2)]).join(' ');
      const next: string[] = [];
      const remap = new Int32Array(previous.length);
      const fresh: { id: number; text: string }[] = [];
      const addFresh = (t = text(random() < 0.2 ? 1 : 0)) => {
        next.push(t);
        fresh.push({ id: next.length, text: t });
      };
      // (Where a word is to lose its place, nothing else changes by chance: new excerpts hold only words common already.)
      previous.forEach((t, i) => {
        while (random() < 0.06) addFresh(lose ? `${vocabulary[0]} ${vocabulary[1]} ${vocabulary[0]} ${vocabulary[1]}` : commonOnly ? commonText() : undefined);
        if (drop.has(i) || (!lose && random() < 0.05)) return; // dropped
        next.push(t);
        remap[i] = next.length;
      });
      while (!lose && !commonOnly && random() < 0.3) addFresh();
      while (commonOnly && next.length < previous.length) addFresh(commonText());
      if (gain) for (let k = 0; k < 2 * minDocs; k++) addFresh(`${text()} ${gain} ${text()}`);
      const prev = database(s, previous);
      writeSearchIndex(prev);
      const expected = database(s, next);
      const full = writeSearchIndex(expected);
      const carried = database(s, next);
      const made = collectSearchRows();
      const result = carrySearchRows(s, readSearchIndex(prev, 'main'), remap, fresh, next.length, made);
      expect(result, `seed ${seed}`).not.toBeNull();
      writeSearchRows(carried, made.rows);
      expect({ terms: result!.terms, tokens: result!.tokens }, `seed ${seed}`).toEqual(full);
      expect(rows(carried), `seed ${seed}`).toEqual(rows(expected));
      ways.add(result!.bigrams);
      const docs = (db: SqliteDb, w: string) => Number(db.selectValue('SELECT docs FROM search_terms WHERE term = ?', [w]) ?? 0);
      const minNow = Number(expected.selectValue('SELECT bigram_min_docs FROM search_documents'));
      // (Carried, unless another word crossed the line upwards by chance.)
      if (lose && docs(prev, lose) >= minDocs && docs(expected, lose) < minNow && result!.bigrams === 'carried') met.lost++;
      if (commonOnly) expect(result!.bigrams, `seed ${seed}`).toBe('carried');
      if (gain && docs(expected, gain) >= minNow) {
        met.gained++;
        expect(result!.bigrams, `seed ${seed}`).toBe('counted');
      }
      for (const db of [prev, expected, carried]) db.close();
    }
    // Both ways were taken and checked, and both kinds of change met (a word common before and not now, its pairs carried).
    expect([...ways].sort()).toEqual(['carried', 'counted']);
    expect(met.lost).toBeGreaterThanOrEqual(3);
    expect(met.gained).toBeGreaterThanOrEqual(3);
  });

  it('refuses a re-numbering that is not ascending or does not cover every excerpt', async () => {
    const s = await sqlite3();
    const prev = database(s, ['one', 'two']);
    writeSearchIndex(prev);
    const index = readSearchIndex(prev, 'main');
    const db = database(s, ['two', 'one']);
    expect(carrySearchIndex(s, db, index, Int32Array.from([2, 1]), [], 2)).toBeNull(); // order changed
    expect(carrySearchIndex(s, db, index, Int32Array.from([1, 0]), [], 2)).toBeNull(); // excerpt 2 missing
    expect(db.selectValue('SELECT count(*) FROM search_terms')).toBe(0);
    prev.close();
    db.close();
  });

  it('orders texts as SQLite does (by code point)', () => {
    const random = mulberry32(7);
    const units = ['a', 'z', '\u00e9', '\ud7ff', '\ue000', '\uff21', '\uffff', '\ud835\udefc', '\ud83d\ude00'];
    for (let k = 0; k < 2000; k++) {
      const word = () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => units[Math.floor(random() * units.length)]).join('');
      const [a, b] = [word(), word()];
      expect(Math.sign(compareCodePoints(a, b)), `${a} ${b}`).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
    }
  });
});
