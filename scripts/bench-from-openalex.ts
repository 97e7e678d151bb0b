/**
 * `npm run bench:from-openalex -- [--records N] [--partitions P] [--threads T] [--formats jsonl,parquet]`
 * Generates a works snapshot of N records in the real record shape (pipeline/openalex/synthetic-works.ts) in
 * the 2026 layout, as JSON Lines and as Parquet, and times snapshot:from-openalex on each: records per second
 * (and per core), peak RSS of the whole process tree (sampled from /proc), and the projection to the full
 * June 2026 snapshot (510 million records). Figures go to docs/benchmarks.md by hand.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLine } from '../pipeline/lib/command-line.ts';
import { createGzip } from 'node:zlib';
import { openDuck } from '../pipeline/lib/duckdb.ts';
import { referenceTemplates, SyntheticWorks } from '../pipeline/openalex/synthetic-works.ts';

const HELP = `Usage: npm run bench:from-openalex -- [options]

Options:
  --records N       records to generate (default 1000000)
  --partitions P    partition files (default 10)
  --threads T       builder threads (default: cores)
  --formats LIST    jsonl, parquet or both (default jsonl,parquet)
  --dir DIR         where to generate (default: a temporary directory, removed afterwards)
  --keep            keep the generated snapshot
  --reuse           time the builder on the snapshot already generated in --dir (same --records), without generating it again
  -h, --help        show this help
`;
const values = commandLine(HELP, {
  records: { type: 'string', default: '1000000' },
  partitions: { type: 'string', default: '10' },
  threads: { type: 'string' },
  formats: { type: 'string', default: 'jsonl,parquet' },
  dir: { type: 'string' },
  keep: { type: 'boolean', default: false },
  reuse: { type: 'boolean', default: false },
});
const records = Number(values.records);
const partitions = Number(values.partitions);
const threads = values.threads ? Number(values.threads) : availableParallelism();
if (!Number.isInteger(records) || records < 1000) throw new Error('--records must be a whole number of at least 1000');
if (!Number.isInteger(partitions) || partitions < 1) throw new Error('--partitions must be a whole number of at least 1');
const REF = join(import.meta.dirname, '..', '..', 'shared', 'reference', 'openalex', 'works-api');
if (!existsSync(REF)) throw new Error(`${REF} is absent: the generator models its records on the real ones there`);
const root = values.dir ?? join(tmpdir(), `bench-openalex-${process.pid}`);
const formats = values.formats!.split(',');

async function generate(): Promise<{ rel: string; records: number }[]> {
  const gen = new SyntheticWorks(referenceTemplates(REF), 17);
  const dir = join(root, 'data', 'jsonl', 'works');
  const files: { rel: string; records: number; bytes: number }[] = [];
  const t0 = performance.now();
  for (let p = 0; p < partitions; p++) {
    const day = String(1 + (p % 28)).padStart(2, '0');
    const month = String(1 + (Math.floor(p / 28) % 12)).padStart(2, '0');
    const updated = `2026-${month}-${day}`;
    const rel = `updated_date=${updated}/part_${String(p).padStart(4, '0')}.gz`;
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    const n = Math.floor(records / partitions) + (p < records % partitions ? 1 : 0);
    // zlib's default level 6: within 1% of level 9, which the real snapshot's files match (a real legacy
    // partition recompressed: 6,960 bytes at level 9, 7,140 at 6, 8,802 at 1, against its own 6,937), so the
    // printed bytes a record compare with the snapshot's 1.3 kB.
    const gz = createGzip({ level: 6 });
    const out = createWriteStream(join(dir, rel));
    gz.pipe(out);
    const start = p * Math.floor(records / partitions);
    let buf = '';
    for (let k = 0; k < n; k++) {
      buf += `${gen.line(start + k, updated)}\n`;
      if (buf.length > 1 << 22) {
        if (!gz.write(buf)) await new Promise<void>((r) => gz.once('drain', () => r()));
        buf = '';
      }
    }
    gz.end(buf);
    await new Promise<void>((r) => out.once('close', () => r()));
    files.push({ rel, records: n, bytes: statSync(join(dir, rel)).size });
  }
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({
      date: '2026-06-30',
      format: 'jsonl',
      entity: 'works',
      record_count: records,
      files: files.map((f) => ({ url: `s3://openalex/data/jsonl/works/${f.rel}`, meta: { content_length: f.bytes, record_count: f.records } })),
    }),
  );
  const bytes = files.reduce((s, f) => s + f.bytes, 0);
  console.log(
    `generated ${records} records in ${partitions} JSON Lines partitions: ${(bytes / 2 ** 20).toFixed(0)} MiB gzipped (${(bytes / records).toFixed(0)} bytes a record; the real snapshot: ~1,300) in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  return files;
}

async function toParquet(files: { rel: string; records: number }[]): Promise<void> {
  const src = join(root, 'data', 'jsonl', 'works');
  const dir = join(root, 'data', 'parquet', 'works');
  const t0 = performance.now();
  const duck = await openDuck(':memory:', { memory_limit: '3GB', threads: '2', temp_directory: join(root, 'duck-tmp') });
  const out: { url: string; meta: { content_length: number; record_count: number } }[] = [];
  // One explicit schema for every file, inferred once from the first file's first records (the generator
  // cycles through the same templates everywhere): letting read_json infer per file cost 388 s per 100,000
  // records here, most of it on the inverted index, which DuckDB would make a struct of every token. The
  // inverted index is kept as JSON text.
  const first = `read_json('${join(src, files[0]!.rel)}', format = 'newline_delimited', sample_size = 5000, map_inference_threshold = 50, maximum_object_size = 67108864)`;
  const described = await duck.all<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM ${first}`);
  const sq = (s: string) => `'${s.replaceAll("'", "''")}'`;
  const columns = `{${described.map((r) => `${sq(String(r.column_name))}: ${sq(r.column_name === 'abstract_inverted_index' ? 'JSON' : String(r.column_type))}`).join(', ')}}`;
  for (const f of files) {
    const rel = f.rel.replace(/\.gz$/, '.parquet');
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    await duck.run(
      `COPY (SELECT * FROM read_json('${join(src, f.rel)}', format = 'newline_delimited', columns = ${columns}, maximum_object_size = 67108864)) TO '${join(dir, rel)}' (FORMAT parquet, COMPRESSION snappy)`,
    );
    out.push({ url: `s3://openalex/data/parquet/works/${rel}`, meta: { content_length: statSync(join(dir, rel)).size, record_count: f.records } });
  }
  duck.close();
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ date: '2026-06-30', format: 'parquet', entity: 'works', record_count: records, files: out }));
  console.log(
    `converted to Parquet: ${(out.reduce((s, f) => s + f.meta.content_length, 0) / 2 ** 20).toFixed(0)} MiB in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
}

/**
 * RSS and CPU seconds (user + system, all threads) of a process and its descendants, from /proc. CPU time is
 * what the projection uses: on a shared, overloaded machine wall time measures the neighbours as much as us.
 */
function treeUsage(pid: number): { rss: number; cpu: number } {
  let total = 0;
  let cpu = 0;
  const visit = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      cpu += (Number(stat[11]) + Number(stat[12])) / 100;
      for (const c of readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) visit(Number(c));
    } catch {
      /* the process ended */
    }
  };
  visit(pid);
  return { rss: total, cpu };
}

async function run(format: string): Promise<void> {
  const out = join(root, `snapshot-${format}`);
  const args = [
    'tsx',
    'pipeline/openalex/cli.ts',
    '--works',
    root,
    '--out',
    out,
    '--format',
    format,
    '--threads',
    String(threads),
    '--release',
    '2026-06-30',
    '--built',
    '2026-07-01',
  ];
  const t0 = performance.now();
  const child = spawn('npx', args, { stdio: ['ignore', 'inherit', 'inherit'] });
  let peak = 0;
  let cpu = 0;
  const timer = setInterval(() => {
    const u = treeUsage(child.pid!);
    peak = Math.max(peak, u.rss);
    cpu = Math.max(cpu, u.cpu);
  }, 200);
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  clearInterval(timer);
  if (code !== 0) throw new Error(`the builder exited with ${code}`);
  const secs = (performance.now() - t0) / 1000;
  const rate = records / secs;
  // Per core: records per CPU second (all threads of the builder), independent of how loaded the machine is.
  const perCore = records / cpu;
  const full = 510e6;
  const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  console.log(
    `${format}: ${records} records in ${secs.toFixed(1)} s wall with ${threads} threads = ${rate.toFixed(0)} records/s; ${cpu.toFixed(1)} CPU s = ${perCore.toFixed(0)} records per CPU second; ` +
      `peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB; frame ${m.tables.works.rows} works; projected for 510M records on one 2-core machine: ${(full / (perCore * 2) / 3600).toFixed(1)} h`,
  );
}

try {
  mkdirSync(root, { recursive: true });
  if (values.reuse) {
    // Before/after comparisons in one sitting: the same generated input for every run.
    if (!values.dir) throw new Error('--reuse needs --dir');
    for (const f of formats) {
      const m = JSON.parse(readFileSync(join(root, 'data', f, 'works', 'manifest.json'), 'utf8'));
      if (m.record_count !== records) throw new Error(`${root} holds ${m.record_count} ${f} records, not ${records}`);
    }
  } else {
    const files = await generate();
    if (formats.includes('parquet')) await toParquet(files);
  }
  for (const f of formats) await run(f);
} finally {
  if (!values.keep && !values.dir) rmSync(root, { recursive: true, force: true });
}
