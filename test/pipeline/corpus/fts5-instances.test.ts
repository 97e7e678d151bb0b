/**
 * FTS5's index read from its pages (pipeline/steps/corpus/fts5-instances.ts: `readFts5Pages`) against FTS5's own
 * `instance` vocabulary table (`readFts5Vocab`, which steps through what FTS5 itself reports), on indexes built by
 * FTS5 with the corpus tokenizer: the text of the real reference articles, and texts made to reach the layout's
 * corners (a position list over many pages, terms longer than a page, long shared prefixes, non-ASCII terms,
 * sparse and large excerpt ids). A layout the page reader does not know (two segments) must be refused, never
 * read wrong, and `writeSearchIndex` must then write, through the vocabulary tables, the same rows as from the
 * pages of the same texts' optimised index.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_DB_SCHEMA, CORPUS_FTS_TOKENIZE } from '../../../contracts/corpus/database.ts';
import { type Sqlite3, sqlite3 } from '../../../pipeline/lib/sqlite.ts';
import { Fts5LayoutError, type OnTerm, readFts5Pages, readFts5Vocab } from '../../../pipeline/steps/corpus/fts5-instances.ts';
import { writeSearchIndex } from '../../../pipeline/steps/corpus/search-index.ts';
import { mulberry32 } from '../../helpers/random.ts';
import { needShared, sharedPath } from '../../helpers/needs.ts';

const REAL = sharedPath('reference/hedged/jats');
const realFiles = (() => {
  if (!needShared('reference/hedged/jats', 'the FTS5 comparison on the real reference articles')) return [];
  return readdirSync(REAL).filter((n) => /\.n?xml$/.test(n));
})();

let s: Sqlite3;
beforeAll(async () => {
  s = await sqlite3();
});

/** An FTS5 table `t` with the corpus tokenizer over `docs` (rowid → text), inserted in `batches` transactions; optimised unless told. */
function index(docs: [number, string][], { batches = 1, optimize = true } = {}) {
  const db = new s.oo1.DB(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(text, tokenize='${CORPUS_FTS_TOKENIZE}')`);
  const per = Math.ceil(docs.length / batches);
  for (let b = 0; b < batches; b++) {
    db.exec('BEGIN');
    const put = db.prepare('INSERT INTO t (rowid, text) VALUES (?, ?)');
    for (const [id, text] of docs.slice(b * per, (b + 1) * per)) put.bind([id, text]).stepReset();
    put.finalize();
    db.exec('COMMIT');
  }
  if (optimize) db.exec("INSERT INTO t (t) VALUES ('optimize')");
  return db;
}

/** What a reader reports: one line per term, its ids with counts and its offsets. */
function report(read: (db: InstanceType<Sqlite3['oo1']['DB']>, table: string, onTerm: OnTerm) => void, db: InstanceType<Sqlite3['oo1']['DB']>): string[] {
  const out: string[] = [];
  read(db, 't', (term, t) => {
    const ids = Array.from(t.ids.subarray(0, t.n), (id, k) => `${id}×${t.counts[k]}`).join(',');
    out.push(`${term}: ${ids} @ ${t.offsets.subarray(0, t.k).join(',')}`);
  });
  return out;
}

const pageCount = (db: InstanceType<Sqlite3['oo1']['DB']>) => Number(db.selectValue('SELECT count(*) FROM t_data WHERE id >= 137438953472'));

describe('readFts5Pages', () => {
  it.skipIf(realFiles.length === 0)('reports what FTS5 reports for the text of the real reference articles', () => {
    const docs: [number, string][] = [];
    for (const name of realFiles) {
      const text = readFileSync(join(REAL, name), 'utf8').replace(/<[^>]+>/g, ' ');
      // Paragraph-sized documents, as excerpts are sentence-sized: many documents per term.
      for (let at = 0; at < text.length; at += 600) docs.push([docs.length + 1, text.slice(at, at + 600)]);
    }
    const db = index(docs);
    try {
      expect(pageCount(db)).toBeGreaterThan(50);
      const want = report(readFts5Vocab, db);
      expect(want.length).toBeGreaterThan(5000);
      // Non-ASCII terms are there (Greek letters, symbols the tokenizer keeps).
      expect(want.some((line) => [...line.split(':')[0]!].some((c) => c.codePointAt(0)! > 0x7f))).toBe(true);
      expect(report(readFts5Pages, db)).toEqual(want);
    } finally {
      db.close();
    }
  });

  it('reports what FTS5 reports where position lists, terms and ids cross pages', () => {
    const long = (c: string, n: number) => c.repeat(n);
    const docs: [number, string][] = [
      // One document whose position list spans several pages, and a term over many documents.
      [1, Array.from({ length: 6000 }, (_, i) => (i % 3 === 0 ? 'alpha' : `w${i % 500}`)).join(' ')],
      // Terms longer than a page (FTS5 keeps them whole up to its limit), and long shared prefixes.
      [2, `${long('x', 5000)} ${long('x', 5001)} ${long('x', 4999)}y alpha`],
      [3, Array.from({ length: 400 }, (_, i) => `${long('p', 300)}${i}`).join(' ')],
      // Non-ASCII: diacritics removed by the tokenizer, scripts it keeps.
      [4, 'Ärger naïve Straße 日本語 テキスト αβγ déjà-vu 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀 alpha'],
      // Large and sparse ids: several bytes of id and of delta.
      [1_000_000, 'alpha beta'],
      [1_000_001, 'beta alpha alpha'],
      [2_147_483_000, 'alpha omega'],
    ];
    for (let i = 5; i < 3000; i++) docs.push([i * 7, `alpha w${i % 97} beta ${i % 5 === 0 ? 'gamma gamma gamma' : ''} w${i % 13}`]);
    docs.sort((a, b) => a[0] - b[0]);
    const db = index(docs);
    try {
      expect(pageCount(db)).toBeGreaterThan(20);
      const want = report(readFts5Vocab, db);
      const got = report(readFts5Pages, db);
      expect(got.length).toBe(want.length);
      for (let i = 0; i < want.length; i++) expect(got[i], want[i]!.slice(0, 80)).toBe(want[i]);
    } finally {
      db.close();
    }
  });

  it('refuses an index of more than one segment (and the vocabulary reader reads it)', () => {
    const docs: [number, string][] = Array.from({ length: 2000 }, (_, i) => [i + 1, `alpha w${i % 50} beta w${i % 7}`]);
    const two = index(docs, { batches: 2, optimize: false });
    const one = index(docs);
    try {
      expect(() => report(readFts5Pages, two)).toThrow(Fts5LayoutError);
      expect(report(readFts5Vocab, two)).toEqual(report(readFts5Pages, one));
    } finally {
      two.close();
      one.close();
    }
  });

  it('leaves writeSearchIndex the same rows when it must read through the vocabulary tables instead', () => {
    const random = mulberry32(24);
    const words = ['the', 'was', 'marginally', 'significant', 'trend', 'p', '0', '05', 'effect', 'αβ', 'naïve', 'data'];
    const texts = Array.from({ length: 600 }, () =>
      Array.from({ length: 5 + Math.floor(random() * 20) }, () => words[Math.floor(random() * words.length)]).join(' '),
    );
    /** The corpus schema with `texts` as excerpts; the full-text index built whole (one segment) or in two transactions (two). */
    const corpus = (segments: 1 | 2) => {
      const db = new s.oo1.DB(':memory:');
      db.exec(CORPUS_DB_SCHEMA);
      db.exec("INSERT INTO articles (id, pmcid, id_kind) VALUES (1, 'PMC1', 'pmcid')");
      const put = db.prepare(
        "INSERT INTO excerpts (id, article, key, section, section_title, paragraph, sentence, text, also_in) VALUES (?, 1, 'k', 'body', '', 0, 0, ?, '[]')",
      );
      texts.forEach((text, i) => put.bind([i + 1, text]).stepReset());
      put.finalize();
      if (segments === 1) {
        db.exec("INSERT INTO excerpts_fts (excerpts_fts) VALUES ('rebuild')");
        db.exec("INSERT INTO excerpts_fts (excerpts_fts) VALUES ('optimize')");
      } else {
        db.exec('INSERT INTO excerpts_fts (rowid, text) SELECT id, text FROM excerpts WHERE id <= 300');
        db.exec('INSERT INTO excerpts_fts (rowid, text) SELECT id, text FROM excerpts WHERE id > 300');
      }
      db.exec('BEGIN');
      writeSearchIndex(db);
      db.exec('COMMIT');
      return db;
    };
    const rows = (db: InstanceType<Sqlite3['oo1']['DB']>) => ({
      terms: db.selectArrays('SELECT rowid, term, docs, hex(postings), hex(positions), offset_width FROM search_terms ORDER BY rowid'),
      documents: db.selectArrays('SELECT excerpts, tokens, hex(sizes), bigram_min_docs FROM search_documents'),
      bigrams: db.selectArrays('SELECT first, second, docs, hex(postings) FROM search_bigrams ORDER BY first, second'),
    });
    const one = corpus(1);
    const two = corpus(2);
    try {
      expect(() => readFts5Pages(two, 'excerpts_fts', () => {})).toThrow(Fts5LayoutError);
      const want = rows(one);
      expect(want.terms.length).toBeGreaterThan(10);
      expect(want.bigrams.length).toBeGreaterThan(10);
      expect(rows(two)).toEqual(want);
    } finally {
      one.close();
      two.close();
    }
  });
});
