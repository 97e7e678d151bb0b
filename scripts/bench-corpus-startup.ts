/**
 * `npm run bench:corpus-startup -- --build DIR`
 *
 * Where the corpus server's start-up time and memory go (serving at the scale of the whole OA subset):
 * opens DIR/corpus/corpus.sqlite as CorpusData.open does, one phase at a time (open through the file VFS, the excerpt index read from
 * its stored chunks, the search index), and prints each phase's
 * wall time and the process memory after it: RSS, the JS heap, ArrayBuffers (typed arrays: outside the JS heap
 * but in RSS) and the wasm heap (sqlite's memory, also outside the JS heap). Run it in a fresh process.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine } from '../pipeline/lib/command-line.ts';
import { CORPUS_DB_FILE } from '../contracts/corpus/database.ts';
import { ExcerptIndex } from '../api-dynamic/src/services/corpus/excerpt-index.ts';
import { SearchIndex } from '../api-dynamic/src/services/corpus/search-index.ts';
import { openReadOnly, sqlite3 } from '../api-dynamic/src/services/corpus/sqlite.ts';

const values = commandLine(
  'Usage: npm run bench:corpus-startup -- --build DIR\n\nTimes and measures each phase of opening DIR/corpus/corpus.sqlite as the server does.\n',
  { build: { type: 'string' } },
  ['build'],
);
const path = join(values.build, CORPUS_DB_FILE);
const mib = (n: number) => (n / 2 ** 20).toFixed(0);
const s = await sqlite3();
const row = (phrase: string, t0: number) => {
  const m = process.memoryUsage();
  const wasm = s.wasm.heap8().byteLength;
  process.stdout.write(
    `| ${phrase} | ${((performance.now() - t0) / 1000).toFixed(2)} | ${mib(m.rss)} | ${mib(m.heapUsed)} | ${mib(m.arrayBuffers)} | ${mib(wasm)} |\n`,
  );
};
process.stdout.write(
  `${path}: ${mib(statSync(path).size)} MiB\n\n| phase | s | RSS MiB | JS heap MiB | ArrayBuffers MiB | wasm heap MiB |\n|---|---:|---:|---:|---:|---:|\n`,
);
row('sqlite-wasm loaded', performance.now());
let t = performance.now();
const db = await openReadOnly(path);
row('opened through the file VFS (pages read on demand)', t);
t = performance.now();
const index = ExcerptIndex.load(db);
row(`excerpt index read from the database (${index.size} excerpts)`, t);
t = performance.now();
SearchIndex.load(db);
row('search index (sizes, warm-up, frequent words)', t);
db.close();
