/**
 * `npm run bench:corpus -- [--articles 10000] [--sentences 1000000] [--requests 400] [--seed 1] [--keep DIR]`
 * `npm run bench:corpus -- --build DIR [--requests 400]` (only the /excerpts part, on an existing build)
 * `npm run bench:corpus -- --packages …` (bulk packages end to end and incremental rebuilds: bench-corpus-packages.ts)
 *
 * The corpus benchmark, in three parts:
 *   1. extraction throughput: N generated JATS articles (generated first, not timed) read, parsed, split and
 *      analysed one after the other in this process with the calls the pipeline makes (`readArticleFile` +
 *      `extractArticle`, default lexicon compiled once): articles/s and MB/s of input as stored on disk. Single
 *      thread, so articles/s is also the per-core figure. Then the rest of the corpus step on those articles
 *      (database, documents) for information.
 *   2. a corpus database of at least `--sentences` excerpt sentences, made by replicating the extracted articles
 *      under new ids (PMC number + k·10^8 for copy k, generated ids re-hashed, excerpt keys re-keyed) and
 *      written with `writeCorpusDatabase`. Duplicated texts make posting lists (FTS5's and the search index's)
 *      proportionally longer (realistic for how many sentences a word is in) but keep the vocabulary of N articles.
 *   3. `/excerpts` latency, in a fresh child process so its load time and RSS are the server's: `CorpusData.open`
 *      (what the server does per build), then `parseExcerptQuery` + `listExcerpts` + `JSON.stringify` timed
 *      in-process for a mix of requests without q and with q (values drawn from the build), p50/p95/max per
 *      group and per kind. Pathological searches (a term in most sentences) are timed and reported apart.
 * Prints Markdown for docs/benchmarks.md; progress goes to stderr.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { commandLine } from '../pipeline/lib/command-line.ts';
import { gunzipSync } from 'node:zlib';
import { CORPUS_DB_FILE } from '../contracts/corpus/database.ts';
import { ftsExpression, parseExcerptQuery } from '../contracts/corpus/excerpts-query.ts';
import { BANDS } from '../contracts/corpus/vocab.ts';
import { CorpusData } from '../api-dynamic/src/services/corpus/corpus-data.ts';
import { type ExtractedArticle, extractArticle } from '../pipeline/corpus/extract.ts';
import { readArticleFile } from '../pipeline/corpus/jats.ts';
import { compileLexicon } from '../pipeline/corpus/lexicon.ts';
import { generateCorpus } from '../pipeline/generate/corpus/generate.ts';
import { Rng } from '../pipeline/generate/prng.ts';
import { terminalProgress } from '../pipeline/lib/progress.ts';
import { readLexicon } from '../pipeline/steps/corpus/corpus.ts';
import { writeCorpusDatabase } from '../pipeline/steps/corpus/corpus.sqlite.ts';
import { corpusDocuments } from '../pipeline/steps/corpus/documents.ts';
import { compareArticleIds } from '../pipeline/steps/corpus/extract-corpus.ts';
import { corpusInput } from '../pipeline/steps/corpus/inputs.ts';
import { wholeArg } from './lib/whole-arg.ts';

// `--packages`: the bulk-package phase is its own script with its own options.
if (process.argv.includes('--packages')) {
  await import('./bench-corpus-packages.ts');
  process.exit(process.exitCode ?? 0);
}

const values = commandLine(
  'Usage: npm run bench:corpus -- [--articles 10000] [--sentences 1000000] [--requests 400] [--warmup 2] [--seed 1] [--keep DIR]\n' +
    '       npm run bench:corpus -- --build DIR [--requests 400] [--warmup 2] [--seed 1]\n' +
    '       npm run bench:corpus -- --packages --help   (bulk packages end to end, incremental rebuilds)\n\n' +
    'Generates N synthetic JATS articles and measures extraction throughput (single thread: articles/s, MB/s),\n' +
    'times the rest of the corpus step, replicates the extracted articles under new ids into a corpus database\n' +
    'of at least --sentences excerpts, and times /excerpts in-process (parse + listExcerpts + JSON) in a fresh\n' +
    'process: --requests timed requests per group (without q, with q) after --warmup rounds of every kind.\n' +
    'With --build, only the /excerpts part runs, on DIR/corpus/corpus.sqlite. Temporary files go under the\n' +
    'system temp directory and are removed, unless --keep DIR names where to put and keep them.\n' +
    'Prints Markdown tables for docs/benchmarks.md; progress goes to stderr.\n',
  {
    articles: { type: 'string', default: '10000' },
    sentences: { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '400' },
    warmup: { type: 'string', default: '2' },
    seed: { type: 'string', default: '1' },
    keep: { type: 'string' },
    build: { type: 'string' },
  },
);

const out = (s: string) => process.stdout.write(s);
const err = (s: string) => process.stderr.write(s);
const int = wholeArg;
const requests = int('requests', values.requests);
const warmup = int('warmup', values.warmup);
const seed = int('seed', values.seed);
const MiB = 2 ** 20;
const rssMiB = () => process.memoryUsage().rss / MiB;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const fmt = (n: number) => n.toLocaleString('en');
const machine = () => `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;

/** Uniform numbers in [0, 1) from the project's seeded generator (pipeline/generate/prng.ts). */
function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next() / 4294967296;
}

// ---------------------------------------------------------------------------------------------------------
// Part 3 (also the child process): /excerpts latency on a build.
// ---------------------------------------------------------------------------------------------------------

interface Kind {
  group: 'without q' | 'with q' | 'pathological';
  label: string;
  /** The query string of one request (varied per call where the kind allows). */
  next: () => string;
}

async function benchExcerpts(buildDir: string): Promise<void> {
  const rssBefore = rssMiB();
  const t0 = performance.now();
  const corpus = await CorpusData.open(buildDir);
  const loadMs = performance.now() - t0;
  if (!corpus) throw new Error(`${buildDir}: no ${CORPUS_DB_FILE}`);
  global.gc?.();
  const rssAfter = rssMiB();
  const size = corpus.index.size;
  const dbBytes = statSync(join(buildDir, CORPUS_DB_FILE)).size;
  out(`\n### /excerpts on ${fmt(size)} excerpts (in-process)\n\n`);
  out(`Machine: ${machine()}\n`);
  out(
    `Database: ${(dbBytes / MiB).toFixed(0)} MiB. \`CorpusData.open\`: ${(loadMs / 1000).toFixed(2)} s; process RSS ` +
      `${rssBefore.toFixed(0)} MiB before, ${rssAfter.toFixed(0)} MiB after (heap ${(process.memoryUsage().heapUsed / MiB).toFixed(0)} MiB).\n`,
  );
  const stored = corpus.search.storage();
  out(
    `Search index in the database: ${fmt(stored.terms)} terms, postings ${(stored.postingsBytes / MiB).toFixed(1)} MiB, ` +
      `positions ${(stored.positionsBytes / MiB).toFixed(1)} MiB; ${fmt(corpus.search.rows)} excerpt token counts (avgdl ${corpus.search.sizes.avgdl.toFixed(2)}).\n\n`,
  );

  const base = '/corpus/api/v1/excerpts';
  // Searches asked before in this process (warm-up and value sampling included): CorpusData keeps a search's
  // candidates in an LRU (a relevance search keeps both its orders), so a repeat is answered without the search
  // index unless it was evicted meanwhile.
  const searched = new Set<string>();
  const run = (qs: string) => {
    const query = parseExcerptQuery(qs ? `${base}?${qs}` : base, corpus.phrases);
    const expression = query.terms.length === 0 ? null : ftsExpression(query.terms);
    const relevance = query.sort === 'relevance';
    const key = expression === null ? null : `${expression}#${relevance ? 'relevance' : 'id'}`;
    const first = key !== null && !searched.has(key);
    if (key !== null) searched.add(key);
    if (expression !== null && relevance) searched.add(`${expression}#id`);
    const res = corpus.listExcerpts(query);
    const body = JSON.stringify({ ...res, meta: { ...res.meta, snapshot: corpus.snapshot, lexicon_version: corpus.lexiconVersion, synthetic: true } });
    return { total: res.meta.total, bytes: body.length, first };
  };

  // ---- values drawn from the build ----
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  // Phrases by how many excerpts they list (default status), so "common" and "rare" mean the same on any build.
  const phraseTotals = corpus.phrases
    .map((p) => ({ p, n: run(`phrase=${encodeURIComponent(p)}&per_page=1`).total }))
    .filter((x) => x.n > 0)
    .sort((a, b) => b.n - a.n);
  const commonPhrases = phraseTotals.slice(0, 5).map((x) => x.p);
  const rarePhrases = phraseTotals.slice(-5).map((x) => x.p);
  const defaultTotal = run('per_page=1').total;
  const bandTotals = BANDS.map((b) => ({ b, n: run(`band=${encodeURIComponent(b)}&per_page=1`).total }));

  // Vocabulary: document frequency of words in a sample of excerpt texts (read back through the API itself).
  const df = new Map<string, number>();
  const bigrams = new Map<string, number>();
  const sampleDocs = 4000;
  for (let page = 1; page <= sampleDocs / 100; page++) {
    const p = Math.max(1, Math.floor((page / (sampleDocs / 100)) * Math.floor(defaultTotal / 100)));
    const res = corpus.listExcerpts(parseExcerptQuery(`${base}?per_page=100&page=${p}`, corpus.phrases));
    for (const item of res.results) {
      const words = item.text.toLowerCase().match(/\p{L}+/gu) ?? [];
      for (const w of new Set(words)) df.set(w, (df.get(w) ?? 0) + 1);
      for (let k = 0; k + 1 < words.length; k++) {
        const bg = `${words[k]} ${words[k + 1]}`;
        bigrams.set(bg, (bigrams.get(bg) ?? 0) + 1);
      }
    }
  }
  const seen = [...df.values()].reduce((a, b) => Math.max(a, b), 0) > 0 ? sampleDocs : 1;
  const byShare = (lo: number, hi: number, min = 3) =>
    [...df]
      .filter(([w, n]) => w.length >= min && n / seen >= lo && n / seen < hi)
      .sort((a, b) => b[1] - a[1])
      .map(([w]) => w);
  const common = byShare(0.05, 0.3).slice(0, 20); // in 5–30% of sentences
  const mid = byShare(0.005, 0.05).slice(0, 30); // 0.5–5%
  const rare = byShare(0.0002, 0.005).slice(0, 30); // a few in the sample: well under 0.5%
  const heavy = byShare(0.3, 1.01, 1).slice(0, 5); // the pathological ones ("p" and friends)
  const phrasesQ = [...bigrams]
    .filter(([bg, n]) => n / seen >= 0.005 && n / seen < 0.1 && bg.split(' ').every((w) => w.length >= 3))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20)
    .map(([bg]) => bg);
  if (common.length === 0 || mid.length === 0 || rare.length === 0 || phrasesQ.length === 0)
    throw new Error(`not enough vocabulary in the sample (common ${common.length}, mid ${mid.length}, rare ${rare.length}, phrases ${phrasesQ.length})`);
  const enc = encodeURIComponent;
  const band = () => enc(pick(BANDS.filter((b) => b !== 'none')));
  const page = (max: number) => 1 + Math.floor(random() * max);
  const deepPage = Math.max(1, Math.floor(defaultTotal / 25 / 2));

  const kinds: Kind[] = [
    { group: 'without q', label: 'default listing, page 1', next: () => '' },
    { group: 'without q', label: `deep page (page ≈ ${fmt(deepPage)})`, next: () => `page=${deepPage + page(50)}` },
    ...BANDS.map((b): Kind => ({ group: 'without q', label: `band=${b}`, next: () => `band=${enc(b)}&page=${page(3)}` })),
    { group: 'without q', label: 'phrase (5 most common)', next: () => `phrase=${enc(pick(commonPhrases))}&page=${page(3)}` },
    { group: 'without q', label: 'phrase (5 rarest)', next: () => `phrase=${enc(pick(rarePhrases))}` },
    { group: 'without q', label: 'phrase + band', next: () => `phrase=${enc(pick(commonPhrases))}&band=${band()}` },
    { group: 'without q', label: 'sort=p_asc', next: () => `sort=p_asc&page=${page(5)}` },
    { group: 'without q', label: 'sort=p_desc', next: () => `sort=p_desc&page=${page(5)}` },
    { group: 'without q', label: 'sort=year_desc, band', next: () => `sort=year_desc&band=${band()}&page=${page(5)}` },
    { group: 'without q', label: 'status=rejected', next: () => `status=rejected&page=${page(5)}` },
    { group: 'without q', label: 'per_page=100', next: () => `per_page=100&page=${page(20)}` },
    { group: 'with q', label: 'common word (5–30% of sentences), relevance', next: () => `q=${enc(pick(common))}` },
    { group: 'with q', label: 'common word, sort=article, page 1–5', next: () => `q=${enc(pick(common))}&sort=article&page=${page(5)}` },
    { group: 'with q', label: 'two common words', next: () => `q=${enc(`${pick(common)} ${pick(common)}`)}` },
    { group: 'with q', label: 'mid word (0.5–5%), relevance', next: () => `q=${enc(pick(mid))}` },
    { group: 'with q', label: 'rare word (< 0.5%), relevance', next: () => `q=${enc(pick(rare))}` },
    { group: 'with q', label: 'quoted phrase', next: () => `q=${enc(`"${pick(phrasesQ)}"`)}` },
    { group: 'with q', label: 'prefix (mid word, first 4 letters*)', next: () => `q=${enc(`${pick(mid.filter((w) => w.length >= 6)).slice(0, 4)}*`)}` },
    { group: 'with q', label: 'common word + band', next: () => `q=${enc(pick(common))}&band=${band()}` },
    { group: 'with q', label: 'mid word + phrase', next: () => `q=${enc(pick(mid))}&phrase=${enc(pick(commonPhrases))}` },
    { group: 'with q', label: 'common word, sort=p_asc', next: () => `q=${enc(pick(common))}&sort=p_asc` },
    { group: 'with q', label: 'mid word, sort=year_desc', next: () => `q=${enc(pick(mid))}&sort=year_desc&page=${page(3)}` },
    ...heavy.map((w): Kind => ({
      group: 'pathological',
      label: `q=${w} (in ${((df.get(w)! / seen) * 100).toFixed(0)}% of sentences)`,
      next: () => `q=${enc(w)}`,
    })),
    ...heavy.slice(0, 1).map((w): Kind => ({ group: 'pathological', label: `q=${w}, sort=p_asc`, next: () => `q=${enc(w)}&sort=p_asc` })),
  ];
  out(
    `Values from the build: default listing ${fmt(defaultTotal)} excerpts; bands ${bandTotals.map((x) => `${x.b} ${fmt(x.n)}`).join(', ')}; ` +
      `${phraseTotals.length} phrases with excerpts (most common ${commonPhrases[0]} ${fmt(phraseTotals[0]!.n)}, rarest ${rarePhrases.at(-1)} ${fmt(phraseTotals.at(-1)!.n)}).\n` +
      `Words by share of ${fmt(sampleDocs)} sampled sentences: common ${common.slice(0, 6).join(', ')} …; mid ${mid.slice(0, 6).join(', ')} …; ` +
      `rare ${rare.slice(0, 6).join(', ')} …; phrases "${phrasesQ.slice(0, 3).join('", "')}" …; pathological ${heavy.join(', ')}.\n\n`,
  );

  // ---- warm-up, then timed rounds: the kinds of a group interleaved, each call with fresh values. The
  // pathological searches are not warmed up, so the first request for each shows what a new search costs. ----
  for (let w = 0; w < warmup; w++) for (const k of kinds) if (k.group !== 'pathological') run(k.next());
  const times = new Map<Kind, number[]>(kinds.map((k) => [k, []]));
  // CPU time of this process per request too: on a shared machine wall time includes waiting for a core.
  const cpuTimes = new Map<Kind, number[]>(kinds.map((k) => [k, []]));
  const totals = new Map<Kind, number[]>(kinds.map((k) => [k, []]));
  const byCache = { 'with q': { first: [] as number[], repeat: [] as number[] }, pathological: { first: [] as number[], repeat: [] as number[] } };
  for (const group of ['without q', 'with q', 'pathological'] as const) {
    const members = kinds.filter((k) => k.group === group);
    const perKind = group === 'pathological' ? Math.max(10, Math.ceil(requests / 20)) : Math.ceil(requests / members.length);
    err(`timing ${group}: ${members.length} kinds × ${perKind}\n`);
    for (let r = 0; r < perKind; r++)
      for (const k of members) {
        const qs = k.next();
        const c = process.cpuUsage();
        const t = performance.now();
        const { total, first } = run(qs);
        const took = performance.now() - t;
        const cpu = process.cpuUsage(c);
        cpuTimes.get(k)!.push((cpu.user + cpu.system) / 1000);
        times.get(k)!.push(took);
        totals.get(k)!.push(total);
        if (group !== 'without q') byCache[group][first ? 'first' : 'repeat'].push(took);
      }
  }

  const summary: Record<string, { n: number; p50: number; p95: number; max: number }> = {};
  for (const group of ['without q', 'with q', 'pathological'] as const) {
    const members = kinds.filter((k) => k.group === group);
    const all = members.flatMap((k) => times.get(k)!);
    summary[group] = { n: all.length, p50: pct(all, 0.5), p95: pct(all, 0.95), max: Math.max(...all) };
    out(`| ${group} | requests | total (median) | p50 ms | p95 ms | max ms |\n|---|---:|---:|---:|---:|---:|\n`);
    for (const k of members) {
      const ts = times.get(k)!;
      out(`| ${k.label} | ${ts.length} | ${fmt(pct(totals.get(k)!, 0.5))} | ${ms(pct(ts, 0.5))} | ${ms(pct(ts, 0.95))} | ${ms(Math.max(...ts))} |\n`);
    }
    const s = summary[group]!;
    out(`| **all ${group}** | **${s.n}** | | **${ms(s.p50)}** | **${ms(s.p95)}** | **${ms(s.max)}** |\n\n`);
  }
  out(
    `| searches by cache state | requests | p50 ms | p95 ms | max ms |\n|---|---:|---:|---:|---:|\n` +
      (['with q', 'pathological'] as const)
        .flatMap((g) =>
          (['first', 'repeat'] as const).map((c) => {
            const xs = byCache[g][c];
            const label = `${g}: ${c === 'first' ? 'first request for its search (search index asked)' : 'search asked before (cached candidates)'}`;
            return xs.length === 0
              ? `| ${label} | 0 | | | |\n`
              : `| ${label} | ${xs.length} | ${ms(pct(xs, 0.5))} | ${ms(pct(xs, 0.95))} | ${ms(Math.max(...xs))} |\n`;
          }),
        )
        .join('') +
      '\n',
  );
  out(
    `| CPU time per request (this process) | requests | p50 ms | p95 ms | max ms |\n|---|---:|---:|---:|---:|\n` +
      (['without q', 'with q', 'pathological'] as const)
        .map((g) => {
          const xs = kinds.filter((k) => k.group === g).flatMap((k) => cpuTimes.get(k)!);
          return `| ${g} | ${xs.length} | ${ms(pct(xs, 0.5))} | ${ms(pct(xs, 0.95))} | ${ms(Math.max(...xs))} |\n`;
        })
        .join('') +
      '\n',
  );
  out(`RSS after the timed requests: ${rssMiB().toFixed(0)} MiB.\n`);
  const target = 15;
  out(
    `\nTarget /excerpts p95 ≤ ${target} ms: without q ${summary['without q']!.p95 <= target ? '**met**' : '**missed**'} (${ms(summary['without q']!.p95)} ms), ` +
      `with q ${summary['with q']!.p95 <= target ? '**met**' : '**missed**'} (${ms(summary['with q']!.p95)} ms); ` +
      `pathological searches (reported apart) p95 ${ms(summary.pathological!.p95)} ms.\n`,
  );
  corpus.close();
}

if (values.build) {
  await benchExcerpts(resolve(values.build));
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------------------
// Parts 1 and 2: extraction, the corpus step, the 1M build.
// ---------------------------------------------------------------------------------------------------------

const articlesN = int('articles', values.articles);
const sentencesN = int('sentences', values.sentences);
const work = values.keep ? resolve(values.keep) : mkdtempSync(join(tmpdir(), 'bench-corpus-'));
mkdirSync(work, { recursive: true });
const progress = terminalProgress();
const snapshot = join(work, 'snapshot');
const cleanup = () => {
  if (!values.keep) rmSync(work, { recursive: true, force: true });
};
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));

out(
  `## Corpus benchmark\n\nMachine: ${machine()}.\nCommand: \`npm run bench:corpus -- --articles ${articlesN} --sentences ${sentencesN} --requests ${requests}\` (seed ${seed}). Date: ${new Date().toISOString().slice(0, 10)}.\n\n`,
);

// 0. Generate (not timed as extraction).
{
  const t = performance.now();
  const g = await generateCorpus({ dir: join(snapshot, 'corpus'), articles: articlesN, seed, progress });
  err(`generated ${g.files} files (${(g.bytes / MiB).toFixed(1)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
}

// 1. Extraction throughput: the pipeline's calls, one file after the other.
const input = corpusInput(snapshot);
if (input.kind !== 'jats') throw new Error('the generator wrote no JATS corpus');
const { lexicon } = readLexicon();
const matcher = compileLexicon(lexicon);
const gz = input.files.filter((f) => f.endsWith('.gz'));
const gzBytes = gz.reduce((s, f) => s + statSync(join(input.dir, f)).size, 0);
const gzInflated = gz.reduce((s, f) => s + gunzipSync(readFileSync(join(input.dir, f))).length, 0);
const articles: ExtractedArticle[] = [];
let readParseMs = 0;
let extractMs = 0;
let failed = 0;
progress.start('extracting', input.files.length);
const tExtract = performance.now();
for (let i = 0; i < input.files.length; i++) {
  const t = performance.now();
  try {
    const parsed = await readArticleFile(join(input.dir, input.files[i]!));
    const t1 = performance.now();
    readParseMs += t1 - t;
    articles.push(extractArticle(parsed, matcher));
    extractMs += performance.now() - t1;
  } catch {
    failed++;
  }
  if (i % 100 === 99) progress.update(i + 1);
}
const extractSecs = (performance.now() - tExtract) / 1000;
progress.update(input.files.length);
progress.stop();
articles.sort((a, b) => compareArticleIds(a.pmcid, b.pmcid));
const excerptsBase = articles.reduce((s, a) => s + a.excerpts.length, 0);
const sentencesBase = articles.reduce((s, a) => s + a.sentences_scanned, 0);
const perSec = input.files.length / extractSecs;
out(`### Extraction (single thread)\n\n`);
out(
  `| articles | input MB (on disk) | gzipped files | sentences scanned | hedged excerpts | wall s | articles/s (= per core) | MB/s | read + parse s | split + analyse s |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n`,
);
out(
  `| ${fmt(input.files.length)} | ${(input.bytes / MiB).toFixed(1)} | ${fmt(gz.length)} (${(gzBytes / MiB).toFixed(1)} MB; ${(gzInflated / MiB).toFixed(1)} MB inflated) | ${fmt(sentencesBase)} | ${fmt(excerptsBase)} | ` +
    `${extractSecs.toFixed(1)} | **${perSec.toFixed(0)}** | ${(input.bytes / MiB / extractSecs).toFixed(2)} | ${(readParseMs / 1000).toFixed(1)} | ${(extractMs / 1000).toFixed(1)} |\n\n`,
);
out(
  `${failed} files failed. MB/s counts bytes as stored (gzipped files compressed); with the gzipped files inflated the input is ` +
    `${((input.bytes - gzBytes + gzInflated) / MiB).toFixed(1)} MB, ${((input.bytes - gzBytes + gzInflated) / MiB / extractSecs).toFixed(2)} MB/s of XML. ` +
    `The loop runs on one thread, so ${perSec.toFixed(0)} articles/s is the per-core figure. Target ≥ 50 articles/s per core: ${perSec >= 50 ? '**met**' : '**missed**'}.\n\n`,
);

// The rest of the corpus step on the same articles (what buildCorpus does after extraction).
{
  const build = join(work, 'build-step');
  mkdirSync(join(build, 'corpus'), { recursive: true });
  const info = { snapshot: 'bench', lexiconVersion: lexicon.version, lexiconSource: lexicon.source, phrases: matcher.phrases };
  const t = performance.now();
  const db = await writeCorpusDatabase(join(build, CORPUS_DB_FILE), articles, info, progress);
  const dbSecs = (performance.now() - t) / 1000;
  const t2 = performance.now();
  const docs = corpusDocuments({
    articles,
    meta: { snapshot: 'bench', lexicon_version: lexicon.version, synthetic: true },
    lexicon: { version: lexicon.version, source: lexicon.source, phrases: matcher.phrases.length },
    phraseList: matcher.phrases,
  });
  for (const [path, doc] of docs) {
    mkdirSync(dirname(join(build, path)), { recursive: true });
    writeFileSync(join(build, path), JSON.stringify(doc));
  }
  const docSecs = (performance.now() - t2) / 1000;
  out(`| corpus step on ${fmt(articles.length)} articles | s |\n|---|---:|\n`);
  out(
    `| extraction (above) | ${extractSecs.toFixed(1)} |\n| database (${fmt(db.excerpts)} excerpts, FTS5 rebuild + optimize, search index, ${(db.bytes / MiB).toFixed(1)} MiB) | ${dbSecs.toFixed(1)} |\n`,
  );
  out(`| documents (stats, phrases, ${fmt(docs.size - 2)} article files; schema-checked, written) | ${docSecs.toFixed(1)} |\n`);
  out(`| **total** | **${(extractSecs + dbSecs + docSecs).toFixed(1)}** |\n\n`);
  if (!values.keep) rmSync(build, { recursive: true, force: true });
}

// 2. The ≥ 1M-sentence build: copies of the extracted articles under new ids.
const copies = Math.ceil(sentencesN / Math.max(1, excerptsBase));
const big: ExtractedArticle[] = [];
for (let k = 0; k < copies; k++)
  for (const a of articles) {
    const m = /^PMC(\d+)$/.exec(a.pmcid);
    const id =
      k === 0 ? a.pmcid : m ? `PMC${Number(m[1]) + k * 100_000_000}` : `nopmc-${createHash('sha256').update(`${a.pmcid}#${k}`).digest('hex').slice(0, 12)}`;
    big.push(k === 0 ? a : { ...a, pmcid: id, excerpts: a.excerpts.map((e) => ({ ...e, id: id + e.id.slice(a.pmcid.length) })) });
  }
big.sort((a, b) => compareArticleIds(a.pmcid, b.pmcid));
const bigBuild = join(work, 'build-1m');
mkdirSync(join(bigBuild, 'corpus'), { recursive: true });
{
  const t = performance.now();
  const db = await writeCorpusDatabase(
    join(bigBuild, CORPUS_DB_FILE),
    big,
    { snapshot: 'bench-1m', lexiconVersion: lexicon.version, lexiconSource: lexicon.source, phrases: matcher.phrases },
    progress,
  );
  out(`### The ${fmt(db.excerpts)}-excerpt build\n\n`);
  out(
    `Made from the ${fmt(articles.length)} extracted articles above, copied ${copies} times (${fmt(big.length)} articles): copy k of PMC n is ` +
      `PMC(n + k·10^8), a generated id is re-hashed with k, excerpt keys follow the new id; texts, sections, occurrences and years are the ` +
      `originals'. Written with \`writeCorpusDatabase\` in ${((performance.now() - t) / 1000).toFixed(1)} s, ${(db.bytes / MiB).toFixed(0)} MiB. ` +
      `Each text occurs ${copies} times, so posting lists are as long as in a real corpus of this size, but the vocabulary is that of ` +
      `${fmt(articles.length)} generated articles (no long tail of rare words).\n`,
  );
}
big.length = 0;
articles.length = 0;

// 3. /excerpts in a fresh process (its load time and RSS are what a server pays).
const child = spawnSync(
  process.execPath,
  ['--expose-gc', '--import', 'tsx', process.argv[1]!, '--build', bigBuild, '--requests', String(requests), '--warmup', String(warmup), '--seed', String(seed)],
  { stdio: 'inherit' },
);
if (child.status !== 0) {
  err(`the /excerpts run failed (${child.status ?? child.signal})\n`);
  process.exitCode = 1;
}
if (values.keep) err(`kept ${work}\n`);
