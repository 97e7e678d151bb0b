/**
 * `npm run bench:corpus-writer -- --snapshot DIR --copies N [--out FILE]`
 *
 * What writing the corpus database costs in memory (the database on disk as it grows): the JATS
 * articles of DIR/corpus are extracted once, then `writeCorpusDatabase` alone writes N copies of them, each copy
 * made only when the writer loads it (`load(i)`), so the JS heap stays small and what grows is the writer's.
 * Prints one Markdown row: articles, excerpts, database size, seconds, the wasm heap at the end (sqlite's
 * memory: it never shrinks, so it is the peak) and the process's peak RSS. Run it in a fresh process.
 * A generated snapshot: `npm run bench:corpus -- --articles 300 --keep DIR` leaves one in DIR/snapshot.
 */
import { rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLine } from '../pipeline/lib/command-line.ts';
import { type ExtractedArticle, extractArticle } from '../pipeline/corpus/extract.ts';
import { readArticleFile } from '../pipeline/corpus/jats.ts';
import { compileLexicon } from '../pipeline/corpus/lexicon.ts';
import { terminalProgress } from '../pipeline/lib/progress.ts';
import { sqlite3 } from '../pipeline/lib/sqlite.ts';
import { readLexicon } from '../pipeline/steps/corpus/corpus.ts';
import { writeCorpusDatabase } from '../pipeline/steps/corpus/corpus.sqlite.ts';
import { compareArticleIds } from '../pipeline/steps/corpus/extract-corpus.ts';
import { corpusInput } from '../pipeline/steps/corpus/inputs.ts';

const values = commandLine(
  'Usage: npm run bench:corpus-writer -- --snapshot DIR --copies N [--out FILE]\n\n' +
    "Writes a corpus database of N copies of DIR/corpus's articles with writeCorpusDatabase alone (copies made as\n" +
    'they are loaded) and prints its time, wasm heap and peak RSS as a Markdown row. FILE (default: a temporary\n' +
    'file) is removed afterwards.\n',
  { snapshot: { type: 'string' }, copies: { type: 'string', default: '200' }, out: { type: 'string' } },
  ['snapshot'],
);
const copies = Math.max(1, Number(values.copies));
const input = corpusInput(values.snapshot);
if (input.kind !== 'jats') throw new Error(`${values.snapshot}/corpus holds no JATS articles`);
const matcher = compileLexicon(readLexicon().lexicon);
const base: ExtractedArticle[] = [];
for (const f of input.files) base.push(extractArticle(await readArticleFile(join(input.dir, f)), matcher));
base.sort((a, b) => compareArticleIds(a.pmcid, b.pmcid));
const n = base.length * copies;
/** Copy k of article j: a PMCID that sorts copy by copy, excerpt keys following it. */
const load = (i: number): ExtractedArticle => {
  const a = base[i % base.length]!;
  const id = `PMC${Math.floor(i / base.length)}${String(i % base.length).padStart(6, '0')}`;
  return { ...a, pmcid: id, id_kind: 'pmcid', excerpts: a.excerpts.map((e) => ({ ...e, id: id + e.id.slice(a.pmcid.length) })) };
};
// The writer needs only a summary per article (extract-corpus.ts); one shared object stands for every copy.
const articles = Array.from({ length: n }, (_, i) => base[i % base.length]!);
const out = values.out ?? join(tmpdir(), `bench-corpus-writer-${process.pid}.sqlite`);
const s = await sqlite3();
const t = performance.now();
const r = await writeCorpusDatabase(
  out,
  articles,
  { snapshot: 'bench', lexiconVersion: 'bench', lexiconSource: 'bench', phrases: matcher.phrases },
  terminalProgress(),
  load,
);
const secs = (performance.now() - t) / 1000;
const mib = (x: number) => (x / 2 ** 20).toFixed(0);
process.stdout.write(
  `| articles | excerpts | database MiB | s | wasm heap MiB | peak RSS MiB |\n|---:|---:|---:|---:|---:|---:|\n` +
    `| ${n} | ${r.excerpts} | ${mib(statSync(out).size)} | ${secs.toFixed(1)} | ${mib(s.wasm.heap8().byteLength)} | ${mib(process.resourceUsage().maxRSS * 1024)} |\n`,
);
rmSync(out);
