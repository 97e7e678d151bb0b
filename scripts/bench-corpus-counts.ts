/**
 * `npm run bench:corpus-counts -- --build DIR [--rounds 5] [--calls 20]`
 *
 * The cost of `/excerpts` totals on an existing corpus build: for a fixed set of queries, the mean
 * time of `listExcerpts` (count + page + rows) over `--calls` calls after `--rounds` − 1 warm-up rounds, next to
 * one plain pass over every excerpt's (status, band) mask (what a count without phrase would cost without the mask
 * histograms), in the same process so the two are comparable on a busy machine. Prints a Markdown table.
 */
import { commandLine } from '../pipeline/lib/command-line.ts';
import { CorpusData } from '../api-dynamic/src/services/corpus/corpus-data.ts';
import { parseExcerptQuery } from '../contracts/corpus/excerpts-query.ts';

const values = commandLine(
  'Usage: npm run bench:corpus-counts -- --build DIR [--rounds 5] [--calls 20]\n\nTimes /excerpts totals on DIR/corpus/corpus.sqlite against one pass over every excerpt (Markdown table).\n',
  {
    build: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    calls: { type: 'string', default: '20' },
  },
  ['build'],
);
const rounds = Math.max(1, Number(values.rounds));
const calls = Math.max(1, Number(values.calls));
const corpus = await CorpusData.open(values.build);
if (!corpus) throw new Error(`${values.build} has no corpus database`);
const pairs = (corpus.index as unknown as { pairs: Int32Array }).pairs;
const phrase = encodeURIComponent(corpus.phrases[0]!);
const kinds = [
  '',
  'band=0.05-0.06',
  'band=ns&band=none',
  'status=rejected',
  'year_from=2010&year_to=2015',
  'year_from=2010&band=ns',
  'p_min=0.05&p_max=0.07',
  `phrase=${phrase}`,
  'q=trend',
  'q=trend&year_from=2010',
];
const rows: string[] = [];
for (let round = 0; round < rounds; round++)
  for (const k of kinds) {
    const query = parseExcerptQuery(`/corpus/api/v1/excerpts?${k}`, corpus.phrases);
    const t0 = performance.now();
    let total = 0;
    for (let r = 0; r < calls; r++) total = corpus.listExcerpts(query).meta.total;
    const t1 = performance.now();
    for (let r = 0; r < calls; r++) {
      let n = 0;
      for (let i = 0; i < pairs.length; i++) if ((pairs[i]! & 0xff) !== 0) n++;
      if (n < 0) throw new Error('unreachable');
    }
    const t2 = performance.now();
    if (round === rounds - 1) rows.push(`| ${k || '(default)'} | ${total} | ${((t1 - t0) / calls).toFixed(2)} | ${((t2 - t1) / calls).toFixed(2)} |`);
  }
process.stdout.write(`| query | total | listExcerpts ms | one pass over ${pairs.length} masks ms |\n|---|---:|---:|---:|\n${rows.join('\n')}\n`);
corpus.close();
