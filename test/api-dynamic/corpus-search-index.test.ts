/**
 * The corpus search index against FTS5 itself (the oracle): for many searches, the set of matching excerpts,
 * the relevance order (`ORDER BY bm25(excerpts_fts), rowid`) and every bm25 value, bit for bit. Two corpora:
 * the fixture's generated articles (every term of the index, words, pairs, phrases and prefixes drawn from
 * its sentences) and a hand-written one full of diacritics, other scripts, ligatures and numbers. Also the
 * query tokenizer against FTS5's, and the two ways of ranking against each other.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bm25Groups, bm25Order, bm25Ranked, documentSizes, groupOf, type ScoredMatch } from '../../api-dynamic/src/services/corpus/bm25.ts';
import { CorpusData } from '../../api-dynamic/src/services/corpus/corpus-data.ts';
import { SearchTokenizer } from '../../api-dynamic/src/services/corpus/search-tokens.ts';
import { openReadOnly, type SqliteDb } from '../../api-dynamic/src/services/corpus/sqlite.ts';
import { CORPUS_DB_FILE } from '../../contracts/corpus/database.ts';
import { ftsExpression, parseExcerptQuery, parseSearch } from '../../contracts/corpus/excerpts-query.ts';
import { generateCorpus } from '../../pipeline/generate/corpus/generate.ts';
import { Rng } from '../../pipeline/generate/prng.ts';
import { silentProgress } from '../../pipeline/lib/progress.ts';
import { buildCorpus } from '../../pipeline/steps/corpus/corpus.ts';
import { FIXTURE_ARTICLES, tempDir } from '../helpers/fixture-build.ts';

const tmp = tempDir('corpus-search');

interface Built {
  corpus: CorpusData;
  /** A second connection to the same database: FTS5, the oracle. */
  fts: SqliteDb;
}

async function build(name: string, fill: (corpusDir: string) => Promise<void>): Promise<Built> {
  const snapshot = join(tmp.path, name);
  mkdirSync(join(snapshot, 'corpus'), { recursive: true });
  await fill(join(snapshot, 'corpus'));
  const out = join(tmp.path, `${name}-out`);
  await buildCorpus({ snapshot, out, snapshotId: name, synthetic: true, progress: silentProgress });
  return { corpus: (await CorpusData.open(out))!, fts: await openReadOnly(join(out, CORPUS_DB_FILE)) };
}

/** Hand-written sentences, each with a hedge (so it is an excerpt) and words unicode61 has opinions on. */
const UNICODE_SENTENCES = [
  'The naïve estimate was marginally significant (p = 0.07).',
  'A NAÏVE Bayes model showed a trend toward significance (p = 0.08).',
  'The Ångström-scale shift was marginally significant (p = 0.06).',
  'Café visits showed a trend toward lower risk (p = 0.09).',
  'Cafe\u0301 owners (decomposed accent) were marginally more satisfied (p = 0.07).',
  'Die Straße und die STRASSE were marginally different (p = 0.08).',
  'İstanbul and Istanbul cohorts were marginally different (p = 0.06).',
  'ǅemal and ǄEMAL showed a trend toward agreement (p = 0.09).',
  'The ĳssel and ﬁnal ﬂow ligatures were marginally significant (p = 0.07).',
  'Roman Ⅻ, half ½, squared ², circled ① were marginally significant (p = 0.08).',
  '東京 and 大阪 participants showed a trend toward significance (p = 0.06).',
  'Привет мир results were marginally significant (p = 0.07).',
  'Ελληνικά δεδομένα showed a trend toward significance (p = 0.09).',
  'Dvořák, Łódź and São Paulo sites were marginally different (p = 0.08).',
  'Æsir, Œuvre, Ørsted and ø were marginally significant (p = 0.06).',
  'The effect (p<0.05 in one arm, 1,234 patients, 3·10⁻⁴ per year) was marginally significant (p = 0.07).',
  'Fullwidth ＡＢＣ and ｐｖａｌ tokens were marginally significant (p = 0.09).',
  'Emoji 😀 and co‐operation (U+2010) were marginally significant (p = 0.08).',
  'Non\u00a0breaking and zero\u200bwidth spaces were marginally significant (p = 0.06).',
  'The naive naive naive repeat was marginally significant (p = 0.07).',
  'The the the repeat showed a trend toward significance (p = 0.08).',
  'A trend toward a trend toward significance was seen (p = 0.09).',
  'Résumé, resume and RÉSUMÉ were marginally different (p = 0.06).',
  'Über, uber and ÜBER were marginally different (p = 0.07).',
  'Dotless ı and dotted i were marginally different (p = 0.08).',
  'Hebrew עברית and Arabic العربية were marginally significant (p = 0.09).',
  'Thai ภาษาไทย and Hindi हिन्दी were marginally significant (p = 0.06).',
  'Numbers 0.05, 0.050 and 005 were marginally significant (p = 0.07).',
];

const UNICODE_QUERIES = [
  'naïve',
  'naive',
  'NAIVE',
  'naï*',
  'na*',
  '"naive bayes"',
  '"naive naive"',
  '"naive naive naive"',
  'Ångström',
  'angstrom',
  'ang*',
  'Café',
  'cafe',
  'CAFE',
  'caf*',
  'café*',
  'Straße',
  'strasse',
  'straße*',
  'stra*',
  'İstanbul',
  'istanbul',
  'ǅemal',
  'dzemal',
  'ǆemal',
  'ĳssel',
  'ijssel',
  'ﬁnal',
  'final',
  'ﬂow',
  'flow',
  'Ⅻ',
  'xii',
  '½',
  '²',
  '①',
  '1',
  '2',
  '東京',
  '東*',
  '大阪',
  'Привет',
  'привет',
  'прив*',
  'Ελληνικά',
  'ελληνικα',
  'Dvořák',
  'dvorak',
  'Łódź',
  'lodz',
  'São',
  'sao',
  '"são paulo"',
  'Æsir',
  'aesir',
  'Œuvre',
  'oeuvre',
  'Ørsted',
  'orsted',
  'ø',
  'o',
  '0.05',
  '"0.05"',
  'p<0.05',
  '0.0*',
  '0*',
  '1,234',
  '3·10⁻⁴',
  '10',
  'ＡＢＣ',
  'abc',
  'ｐｖａｌ',
  'pval',
  '😀',
  'emoji',
  'co‐operation',
  'operation',
  '"co operation"',
  'non\u00a0breaking',
  'zero\u200bwidth',
  'zero',
  'width',
  'zerowidth',
  '"the the"',
  '"the the the"',
  '"a trend toward"',
  '"trend toward a trend"',
  'résumé',
  'RESUME',
  'über',
  'ÜBER',
  'ı',
  'i',
  'עברית',
  'العربية',
  'ภาษาไทย',
  'हिन्दी',
  'हि*',
  '005',
  '0.050',
  'marginally significant',
  '"marginally significant"',
  'marg* sig*',
  'p',
  'the',
  'xyzzy',
  'naive xyzzy',
];

let generated: Built;
let unicode: Built;

beforeAll(async () => {
  // The fixture snapshot's corpus (test/helpers/fixture-build.ts: the same articles and seed).
  generated = await build('generated', (dir) => generateCorpus({ dir, articles: FIXTURE_ARTICLES, seed: 5, progress: silentProgress }).then(() => {}));
  unicode = await build('unicode', async (dir) => {
    writeFileSync(join(dir, 'papers.csv'), 'paper_id,pmcid,pmid,doi,title,journal,year,authors,licence_url\nu,PMC7,,,Unicode,J,2020,,\n');
    const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
    writeFileSync(
      join(dir, 'sentences.csv'),
      'paper_id,section,section_title,paragraph,text\n' + UNICODE_SENTENCES.map((s, i) => `u,body,,${i},${quote(s)}\n`).join(''),
    );
  });
});
afterAll(() => {
  for (const b of [generated, unicode]) {
    b?.corpus.close();
    b?.fts.close();
  }
  tmp.remove();
});

/** FTS5's answer: excerpt ids in bm25 order (ties by id), with their bm25. */
function ftsAnswer(b: Built, q: string): { ids: number[]; scores: number[] } {
  const rows = b.fts.selectArrays('SELECT rowid, bm25(excerpts_fts) FROM excerpts_fts WHERE excerpts_fts MATCH ? ORDER BY bm25(excerpts_fts), rowid', [
    ftsExpression(parseSearch(q)),
  ]);
  return { ids: rows.map((r) => Number(r[0])), scores: rows.map((r) => Number(r[1])) };
}

/** The search index's answer, in the same shape, and its id-ordered list. */
function ours(b: Built, q: string): { ids: number[]; scores: number[]; byId: number[] } {
  const m = b.corpus.search.match(parseSearch(q));
  const order = b.corpus.search.relevanceOrder(m);
  const scores = b.corpus.search.scores(m);
  const scoreOf = new Map(Array.from(m.docs, (d, r) => [d, scores[r]!]));
  return { ids: Array.from(order, (d) => d + 1), scores: Array.from(order, (d) => scoreOf.get(d)!), byId: Array.from(m.docs, (d) => d + 1) };
}

/** Asserts the same ids, the same order and the same bm25 values for each search; returns how many matched. */
function expectSameAsFts5(b: Built, queries: Iterable<string>): { searches: number; nonEmpty: number } {
  let searches = 0;
  let nonEmpty = 0;
  for (const q of new Set(queries)) {
    const want = ftsAnswer(b, q);
    const got = ours(b, q);
    expect(got.ids, `order for q=${q}`).toEqual(want.ids);
    expect(got.byId, `ids for q=${q}`).toEqual([...want.ids].sort((x, y) => x - y));
    // Bit for bit: the same arithmetic in the same order (toEqual on numbers is Object.is).
    expect(got.scores, `bm25 for q=${q}`).toEqual(want.scores);
    searches++;
    if (want.ids.length > 0) nonEmpty++;
  }
  if (process.env.SEARCH_TEST_COUNTS) console.log(`${searches} searches, ${nonEmpty} with matches`);
  return { searches, nonEmpty };
}

/** Search words as people type them: the whitespace-separated pieces of excerpt texts. */
function sampleTexts(b: Built, every: number): string[] {
  return b.fts.selectValues('SELECT text FROM excerpts WHERE id % ? = 0 ORDER BY id', [every]).map(String);
}

const searchable = (q: string) => {
  try {
    parseSearch(q);
    return true;
  } catch {
    return false;
  }
};

describe('the search index answers as FTS5 does (generated corpus)', () => {
  it("has every term FTS5 indexed, in as many excerpts, and every excerpt's token count", () => {
    const { fts } = generated;
    fts.exec('CREATE VIRTUAL TABLE temp.vocab_rows USING fts5vocab(main, excerpts_fts, row)');
    fts.exec('CREATE VIRTUAL TABLE temp.vocab_instances USING fts5vocab(main, excerpts_fts, instance)');
    expect(fts.selectArrays('SELECT term, docs FROM search_terms ORDER BY term')).toEqual(
      fts.selectArrays('SELECT term, doc FROM temp.vocab_rows ORDER BY term'),
    );
    const counts = fts.selectArrays('SELECT doc, count(*) FROM temp.vocab_instances GROUP BY doc ORDER BY doc');
    const { size } = generated.corpus.search.sizes;
    expect(counts.length).toBe(size.length);
    expect(counts.every(([doc, n]) => size[Number(doc) - 1] === Number(n))).toBe(true);
  });

  it('every term of the index, alone and as a prefix', () => {
    const terms = generated.fts.selectValues('SELECT term FROM search_terms ORDER BY term').map(String);
    expect(terms.length).toBeGreaterThan(100);
    const { searches, nonEmpty } = expectSameAsFts5(generated, [...terms, ...terms.map((t) => `${t}*`)]);
    expect(nonEmpty).toBe(searches);
  });

  it('words as written in sentences (punctuation, digits, "0.05)."), random pairs and triples', () => {
    const words = [...new Set(sampleTexts(generated, 3).flatMap((t) => t.split(/\s+/)))].filter(searchable);
    expect(words.length).toBeGreaterThan(200);
    const rng = new Rng(17);
    const pick = () => words[rng.next() % words.length]!;
    const pairs = Array.from({ length: 300 }, () => `${pick()} ${pick()}`);
    const triples = Array.from({ length: 100 }, () => `${pick()} ${pick()} ${pick()}`);
    const { nonEmpty } = expectSameAsFts5(generated, [...words, ...pairs, ...triples]);
    expect(nonEmpty).toBeGreaterThan(300);
  });

  it('quoted phrases taken from sentences, some with a prefix, some with a word beside', () => {
    const rng = new Rng(23);
    const queries: string[] = [];
    for (const text of sampleTexts(generated, 3)) {
      const words = text.split(/\s+/);
      for (let k = 0; k < 3; k++) {
        const len = 2 + (rng.next() % 3);
        const at = rng.next() % Math.max(1, words.length - len);
        const phrase = words
          .slice(at, at + len)
          .join(' ')
          .replace(/"/g, '');
        queries.push(`"${phrase}"`);
        queries.push(`"${phrase}"*`);
        queries.push(`"${phrase}" ${words[rng.next() % words.length]!.replace(/"/g, '')}`);
      }
    }
    const { nonEmpty } = expectSameAsFts5(generated, queries.filter(searchable));
    expect(nonEmpty).toBeGreaterThan(200);
  });

  it('prefixes of 1 to 5 letters, alone, together and inside phrases', () => {
    const words = [...new Set(sampleTexts(generated, 13).flatMap((t) => t.toLowerCase().match(/[a-z0-9]+/g) ?? []))];
    const prefixes = [...new Set(words.flatMap((w) => [1, 2, 3, 4, 5].filter((n) => n <= w.length).map((n) => w.slice(0, n))))];
    const rng = new Rng(29);
    const pick = () => prefixes[rng.next() % prefixes.length]!;
    const queries = [
      ...prefixes.map((p) => `${p}*`),
      ...Array.from({ length: 100 }, () => `${pick()}* ${pick()}*`),
      ...Array.from({ length: 100 }, () => `"${words[rng.next() % words.length]} ${pick()}"*`),
      '"trend tow"*',
      '"p 0"*',
      '"0 0"*',
    ];
    const { nonEmpty } = expectSameAsFts5(generated, queries);
    expect(nonEmpty).toBeGreaterThan(200);
  });

  it('repeated terms, repeated words in a phrase, terms without tokens and absent words', () => {
    expectSameAsFts5(generated, [
      'trend trend',
      '"the the"',
      'p p p',
      '"p p"',
      'p "p"',
      'trend* trend',
      'xyzzy',
      'trend xyzzy',
      '"trend xyzzy"',
      'trend -',
      '-trend',
      'a-b',
      'trend.*',
      '"(p"',
      'p=0.05',
      '0.05',
      '"0.05"',
      '0.0*',
    ]);
  });
});

describe('the search index answers as FTS5 does (diacritics, scripts, ligatures, numbers)', () => {
  it('every hand-written search', () => {
    const { nonEmpty } = expectSameAsFts5(unicode, UNICODE_QUERIES.filter(searchable));
    expect(nonEmpty).toBeGreaterThan(60);
  });

  it('every word of every sentence, as written and as a prefix of it', () => {
    const words = [...new Set(UNICODE_SENTENCES.flatMap((t) => t.split(/\s+/)))].filter(searchable);
    expectSameAsFts5(unicode, [...words, ...words.map((w) => `${w}*`), ...words.map((w) => `${[...w].slice(0, 2).join('')}*`)]);
  });

  it('the API lists the excerpts FTS5 finds, in its order, with highlights', () => {
    const corpus = unicode.corpus;
    const everyStatus = 'status=verified&status=rejected&status=unverified&status=indeterminate';
    for (const q of ['naive', 'cafe', 'strasse', '"a trend toward"', 'marg* sig*', 'p']) {
      const res = corpus.listExcerpts(parseExcerptQuery(`/x?q=${encodeURIComponent(q)}&${everyStatus}&per_page=100`, corpus.phrases));
      const want = ftsAnswer(unicode, q).ids.map((id) => String(unicode.fts.selectValue('SELECT text FROM excerpts WHERE id = ?', [id])));
      expect(want.length, q).toBeGreaterThan(0);
      expect(res.meta.total, q).toBe(want.length);
      expect(
        res.results.map((e) => e.text),
        q,
      ).toEqual(want);
      expect(
        res.results.every((e) => e.highlights.length > 0),
        q,
      ).toBe(true);
    }
  });
});

describe('query tokens', () => {
  let tokenizer: SearchTokenizer;
  beforeAll(() => {
    tokenizer = new SearchTokenizer(unicode.fts);
  });

  it('ASCII text is split as FTS5 splits it (every character, random strings)', () => {
    const rng = new Rng(31);
    const all = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).join('');
    const strings = [all, 'Trend TOWARD p<0.05', 'a_b-c.d,e;f:g(h)i[j]k{l}m|n\\o/p\'q"r`s~t!u@v#w$x%y^z&0*1+2=3?4', ''];
    for (let k = 0; k < 300; k++) strings.push(Array.from({ length: 1 + (rng.next() % 30) }, () => String.fromCharCode(rng.next() % 128)).join(''));
    for (const s of strings) expect(tokenizer.tokens(s), JSON.stringify(s)).toEqual(tokenizer.fts5Tokens(s));
  });

  it('other text goes through FTS5 (folding that JavaScript does differently)', () => {
    expect(tokenizer.tokens('İstanbul ǅemal Straße naïve Ångström ﬁnal')).toEqual(['istanbul', 'ǆemal', 'straße', 'naive', 'angstrom', 'ﬁnal']);
    expect(tokenizer.tokens('Cafe\u0301 0.05 東京')).toEqual(tokenizer.fts5Tokens('Cafe\u0301 0.05 東京'));
  });
});

describe('relevance order', () => {
  it('the counting sort and a comparison sort agree, ties by index', () => {
    const rng = new Rng(37);
    const n = 5000;
    const size = Int32Array.from({ length: 20_000 }, () => 1 + (rng.next() % 60));
    const sizes = documentSizes(
      size,
      size.reduce((a, b) => a + b, 0),
    );
    for (const phrases of [1, 2, 3]) {
      const docs = Int32Array.from(new Set(Array.from({ length: n }, () => rng.next() % size.length))).sort();
      const m: ScoredMatch = {
        docs,
        freqs: Array.from({ length: phrases }, () => Int32Array.from(docs, () => 1 + (rng.next() % 4 === 0 ? rng.next() % 5 : 0))),
        idfs: Array.from({ length: phrases }, (_, i) => [1e-6, 0.7, 2.3][i]!),
      };
      expect(Array.from(bm25Order(m, sizes))).toEqual(Array.from(bm25Order(m, sizes, 0)));
    }
  });

  it('keyed groups (one pass, one or two phrases) give each row the group and counts the comparison of scores gives', () => {
    // Issue 21 session 22: bm25Ranked finds a row's group from its key; the comparison path scores every row.
    const rng = new Rng(43);
    const size = Int32Array.from({ length: 20_000 }, () => 1 + (rng.next() % 60));
    const sizes = documentSizes(
      size,
      size.reduce((a, b) => a + b, 0),
    );
    const tags = { tag: Uint16Array.from(size, () => rng.next() % 5), tags: 5 };
    for (const phrases of [1, 2, 3])
      for (const idfs of [
        [0.7, 2.3, 1.1],
        [1e-6, 1e-6, 1e-6],
      ]) {
        const docs = Int32Array.from(new Set(Array.from({ length: 5000 }, () => rng.next() % size.length))).sort();
        const m: ScoredMatch = {
          docs,
          freqs: Array.from({ length: phrases }, () => Int32Array.from(docs, () => 1 + (rng.next() % 3 === 0 ? rng.next() % 6 : 0))),
          idfs: idfs.slice(0, phrases),
        };
        const ranked = bm25Ranked(m, sizes, tags);
        expect(ranked.group === null, `keyed for ${phrases} phrases`).toBe(phrases <= 2);
        const compared = bm25Groups(m, sizes, 0, tags);
        expect(ranked.groups).toBe(compared.groups);
        expect(Array.from(docs, (d, r) => groupOf(ranked, r, d))).toEqual(Array.from(compared.group));
        expect(Array.from(ranked.tagCounts!)).toEqual(Array.from(compared.tagCounts!));
      }
  });

  it("groups with tags: both ways agree, and each group counts its rows' tags as a plain count does", () => {
    const rng = new Rng(41);
    const size = Int32Array.from({ length: 20_000 }, () => 1 + (rng.next() % 60));
    const sizes = documentSizes(
      size,
      size.reduce((a, b) => a + b, 0),
    );
    const tags = { tag: Uint16Array.from(size, () => rng.next() % 7), tags: 7 };
    for (const phrases of [1, 2]) {
      const docs = Int32Array.from(new Set(Array.from({ length: 5000 }, () => rng.next() % size.length))).sort();
      const m: ScoredMatch = {
        docs,
        freqs: Array.from({ length: phrases }, () => Int32Array.from(docs, () => 1 + (rng.next() % 3 === 0 ? rng.next() % 4 : 0))),
        idfs: Array.from({ length: phrases }, (_, i) => [0.7, 2.3][i]!),
      };
      const keyed = bm25Groups(m, sizes, undefined, tags);
      const compared = bm25Groups(m, sizes, 0, tags);
      expect(Array.from(keyed.group)).toEqual(Array.from(compared.group));
      expect(Array.from(keyed.tagCounts!)).toEqual(Array.from(compared.tagCounts!));
      const plain = new Array<number>(keyed.groups * 7).fill(0);
      docs.forEach((d, r) => plain[keyed.group[r]! * 7 + tags.tag[d]!]!++);
      expect(Array.from(keyed.tagCounts!)).toEqual(plain);
      // And the groups give the order the scores do (bm25Order, the comparison path).
      const order = Array.from(docs.keys())
        .sort((a, b) => keyed.group[a]! - keyed.group[b]! || a - b)
        .map((r) => docs[r]!);
      expect(order).toEqual(Array.from(bm25Order(m, sizes, 0)));
    }
  });
});
