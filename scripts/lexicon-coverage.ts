/**
 * `npm run lexicon:coverage -- [--lexicon FILE] [--reference DIR]`
 *
 * How much of the hedging literature's phrase lists a lexicon covers: Otte et al. 2022's phrases
 * weighted by their occurrences in 567,758 RCTs (`out.01.process/sum_phrases.csv`, summed over the 3-year
 * bins), and Hankins' 509 phrases (`doc/still_not_significant.txt`, unweighted: the list has no counts). A
 * reference phrase is covered when the lexicon's matcher finds a phrase in its text, i.e. a sentence written
 * with it would be picked up. Every phrase not covered is listed with its weight, the share of its manually
 * read p-values below 0.05 (`out.05.process/range_P_values__phrases_100.csv`, Otte's manual reading), and the
 * reason it is left out: an `excluded` entry of the lexicon file when one names it, else what the data say. Reads ../shared/reference/hedged/otte2022 by default.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { commandLine } from '../pipeline/lib/command-line.ts';
import { parse } from 'csv-parse/sync';
import { compileLexicon, DEFAULT_LEXICON_PATH, lexiconFileSchema } from '../pipeline/corpus/lexicon.ts';
import { readLexicon } from '../pipeline/steps/corpus/corpus.ts';

const values = commandLine(
  'Usage: npm run lexicon:coverage -- [--lexicon FILE] [--reference DIR]\n\n' +
    "Measures a lexicon (default: the pipeline's) against Otte et al. 2022's phrases weighted by occurrences and\n" +
    "Hankins' list: covered share, and every phrase not covered with its weight, its share of p < 0.05 and the\n" +
    'reason. DIR is the otte2022 reference folder (default ../shared/reference/hedged/otte2022).\n',
  {
    lexicon: { type: 'string' },
    reference: { type: 'string', default: resolve(import.meta.dirname, '..', '..', 'shared', 'reference', 'hedged', 'otte2022') },
  },
);
const dir = values.reference!;
const sumPath = join(dir, 'out.01.process', 'sum_phrases.csv');
if (!existsSync(sumPath)) {
  process.stderr.write(`${sumPath} is absent: the reference data are not here\n`);
  process.exit(2);
}
const lexiconPath = values.lexicon ?? DEFAULT_LEXICON_PATH;
const matcher = compileLexicon(readLexicon(lexiconPath).lexicon);
const excluded = lexiconPath.endsWith('.json') ? lexiconFileSchema.parse(JSON.parse(readFileSync(lexiconPath, 'utf8'))).excluded : [];

/** Otte's and Hankins' texts carry the "ﬁ" ligature and a trailing space; NFKC and trimming undo both. */
const clean = (s: string) => s.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
const covered = (phrase: string) => matcher.match(phrase).map((m) => m.phrase);

// Otte: occurrences per phrase over all bins.
const weight = new Map<string, number>();
for (const r of parse(readFileSync(sumPath), { columns: true }) as { phrase: string; K: string }[])
  weight.set(clean(r.phrase), (weight.get(clean(r.phrase)) ?? 0) + Number(r.K));
// Otte's manual p-values: share below 0.05 per phrase.
const below = new Map<string, { share: number; n: number }>();
const rangePath = join(dir, 'out.05.process', 'range_P_values__phrases_100.csv');
if (existsSync(rangePath))
  for (const r of parse(readFileSync(rangePath), { columns: true }) as { phrase: string; group: string; prop: string; N: string }[])
    if (r.group === '<0.05') below.set(clean(r.phrase.replace(/"/g, '')), { share: Number(r.prop), n: Number(r.N) });

const reasonFor = (phrase: string): string => {
  const ex = excluded.find((e) => e.phrase.split(' / ').some((p) => clean(p) === phrase));
  if (ex) return `excluded: ${ex.reason}`;
  const b = below.get(phrase);
  if (b && b.share >= 1 / 3)
    return `a third or more of its read p-values are below 0.05 (${(100 * b.share).toFixed(0)}% of ${b.n}): not a marker of a near miss`;
  const w = weight.get(phrase) ?? 0;
  if (w < 10) return `rare: ${w} occurrences in 567,758 RCTs (the long tail; load Otte's list with --lexicon for it)`;
  return 'not in the lexicon, no recorded reason';
};

const rows = [...weight].map(([phrase, k]) => ({ phrase, k, by: covered(phrase) })).sort((a, b) => b.k - a.k || (a.phrase < b.phrase ? -1 : 1));
const total = rows.reduce((s, r) => s + r.k, 0);
const coveredK = rows.filter((r) => r.by.length > 0).reduce((s, r) => s + r.k, 0);

// Hankins: "phrase (p=0.052)" lines after the introduction.
const hankinsPath = join(dir, 'doc', 'still_not_significant.txt');
const hankins = existsSync(hankinsPath)
  ? readFileSync(hankinsPath, 'utf8')
      .split('\n')
      .map((l) => /^(.*\S)\s*\((p|P)\s*[<>=≤≥~].*\)\s*$/.exec(l.trim()))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => clean(m[1]!))
  : [];
const hankinsUncovered = hankins.filter((p) => covered(p).length === 0);

const out = (s: string) => process.stdout.write(`${s}\n`);
const pct = (a: number, b: number) => `${((100 * a) / Math.max(b, 1)).toFixed(1)}%`;
out(`Lexicon ${matcher.version} (${matcher.phrases.length} phrases), reference ${dir}`);
out('');
out(`Otte et al. 2022: ${rows.length} phrases that occurred, ${total} occurrences in all.`);
out(`Covered: ${rows.filter((r) => r.by.length > 0).length} phrases, ${coveredK} occurrences = **${pct(coveredK, total)}** of the weight.`);
out(
  `Hankins: ${hankins.length} phrases; covered ${hankins.length - hankinsUncovered.length} = **${pct(hankins.length - hankinsUncovered.length, hankins.length)}**.`,
);
out('');
out('Otte phrases not covered (occurrences, share of read p-values < 0.05, reason):');
out('');
out('| phrase | occurrences | share of weight | p < 0.05 | reason |');
out('|---|---:|---:|---:|---|');
for (const r of rows.filter((x) => x.by.length === 0)) {
  const b = below.get(r.phrase);
  out(`| ${r.phrase} | ${r.k} | ${pct(r.k, total)} | ${b ? `${(100 * b.share).toFixed(0)}% of ${b.n}` : '–'} | ${reasonFor(r.phrase)} |`);
}
out('');
out(`Hankins phrases not covered (${hankinsUncovered.length}; not in Otte's counts unless listed above):`);
out('');
out(hankinsUncovered.map((p) => `${p}${weight.has(p) ? ` (${weight.get(p)})` : ''}`).join('; '));
