/**
 * `npm run bench:openalex-floor -- FILE [FILE…]`
 * What the OpenAlex builder's readers cost before any rule runs, per record and per CPU second of this one
 * thread, on partition files of a works snapshot (e.g. the ones `npm run bench:from-openalex -- --keep`
 * generates): for a JSON Lines file, gunzip + UTF-8 decoding + line splitting, then the same plus the
 * builder's JSON.parse of each line (the inverted index cut out as readLine does); for a Parquet file, the
 * builder's own DuckDB query (parquetRows), then the same plus JSON.parse of each row. The builder cannot
 * read a record faster than these; the gap to a whole build is the rules (docs/benchmarks.md, issue 17
 * session 20). Each stage reads the file again, in this order, in this process.
 */
import { createReadStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { eachLine, parquetRows } from '../pipeline/openalex/partition.ts';
import { splitAbstractIndex } from '../pipeline/openalex/record.ts';

const HELP = `Usage: npm run bench:openalex-floor -- FILE [FILE…]

Times the builder's reading alone (no rules) on each partition file, one thread:
  .gz / .jsonl   gunzip + decode + split lines, then also JSON.parse each line (index cut out as readLine does)
  .parquet       the builder's DuckDB query, then also JSON.parse each row (and its inverted index text)

Options:
  -h, --help     show this help
`;
const { values, positionals } = parseArgs({ options: { help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
if (values.help || positionals.length === 0) {
  process.stdout.write(HELP);
  process.exit(values.help ? 0 : 2);
}

async function timed(label: string, run: () => Promise<number>): Promise<void> {
  const before = process.cpuUsage();
  const records = await run();
  const used = process.cpuUsage(before);
  const cpu = (used.user + used.system) / 1e6;
  console.log(`${label.padEnd(58)} ${records} records, ${cpu.toFixed(2)} CPU s, ${((1e6 * cpu) / records).toFixed(1)} µs a record, ${Math.round(records / cpu)} records per CPU second`);
}

async function jsonLines(path: string, parse: boolean): Promise<number> {
  const input = createReadStream(path, { highWaterMark: 1 << 20 });
  const text = path.endsWith('.gz') ? input.pipe(createGunzip()) : input;
  text.setEncoding('utf8');
  let records = 0;
  await eachLine(text, (line) => {
    if (line.trim() === '') return;
    records++;
    if (!parse) return;
    const split = splitAbstractIndex(line);
    JSON.parse(split === null ? line : split.rest);
  });
  return records;
}

async function parquet(path: string, parse: boolean): Promise<number> {
  let records = 0;
  for await (const [head, text] of parquetRows(path)) {
    records++;
    if (!parse) continue;
    const rec = JSON.parse(text ?? head) as Record<string, unknown>;
    if (typeof rec.abstract_inverted_index === 'string') JSON.parse(rec.abstract_inverted_index);
  }
  return records;
}

for (const path of positionals) {
  console.log(path);
  if (path.endsWith('.parquet')) {
    await timed('  DuckDB rows (head + projected record as JSON text)', () => parquet(path, false));
    await timed('  DuckDB rows + JSON.parse', () => parquet(path, true));
  } else {
    await timed('  gunzip + decode + split', () => jsonLines(path, false));
    await timed('  gunzip + decode + split + JSON.parse (index cut out)', () => jsonLines(path, true));
  }
}
