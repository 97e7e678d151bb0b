/**
 * `/cohort/export`: the cohort's rows in the request's sort order (ties by id), capped at EXPORT_CAP, as CSV or
 * JSON text chunks. A generator: the HTTP stream pulls the next chunk only when the client has taken the last
 * one (backpressure), so memory stays flat however large the export.
 *
 * An async one that yields to the event loop once it has held it for SLICE_MS: a client that reads as fast as
 * loopback lets the socket take each write at once, so a synchronous generator was drained in one go, and a
 * 30,000-row export held the event loop for up to 3.5 s while every other request waited (npm run bench:load,
 * docs/benchmarks.md). Yielding after every chunk instead made exports under load so slow that some passed a
 * 10 s client timeout; a time slice bounds the stall and lets a cheap chunk run on with the next.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { EXPORT_CAP, type CohortQuery } from '../../../../../contracts/frame/cohort-query.ts';
import { csvField, EXPORT_HEADER } from '../../../../../contracts/frame/export-columns.ts';
import { ByteSink } from '../../../../../contracts/frame/byte-sink.ts';
import { DIRECT_LABEL_STATUS } from '../../../../../contracts/frame/work-record.ts';
import { type StoredWork, writeWorkCsvLine, writeWorkItem } from '../../../../../contracts/frame/work-serialize.ts';
import type { Build } from '../../build-store.ts';
import { PREDICTION_STATUS_TEXT, questionBlock } from './answers.ts';
import { type CohortMatch, rowsInOrder } from './engine.ts';

/**
 * Bytes per yielded chunk (about: a chunk ends with the row that reaches it). Chunks are Buffers the serializers
 * write, held outside V8's heap and freed with their small wrapper by a young-generation collection; when they
 * were strings, chunks of 500 rows (1.3 MB) went to V8's large-object space, which only a full collection frees,
 * and a 100,000-row export's RSS climbed by up to 290 MiB between collections, so chunks were cut to 48 KiB.
 * As Buffers, 256 KiB chunks halve the stream's cost per byte against 48 KiB (docs/decisions.md).
 */
const CHUNK_BYTES = 256 * 1024;
/** Longest the export runs (producing and writing chunks) before it lets other requests in, ms. */
const SLICE_MS = 20;

/** Resolves at once within the slice, on the next turn of the event loop after it (and starts a new slice). */
function slicer(): () => Promise<void> | undefined {
  let start = performance.now();
  return () => {
    if (performance.now() - start < SLICE_MS) return undefined;
    return nextTurn().then(() => {
      start = performance.now();
    });
  };
}

export interface ExportPlan {
  total: number;
  exported: number;
  truncated: boolean;
}

export function exportPlan(m: CohortMatch): ExportPlan {
  const exported = Math.min(m.total, EXPORT_CAP);
  return { total: m.total, exported, truncated: m.total > EXPORT_CAP };
}

/**
 * The last line of a CSV export the server had to cut short (its drain after SIGTERM ran out): the same
 * `# TRUNCATED` prefix as the cap's line, so a reader that drops that line drops this one too.
 */
export function shutdownLine(sent: number, exported: number): string {
  return `# TRUNCATED: the server stopped (shutdown or restart) after ${sent} of ${exported} rows. Request the export again for all of them.\n`;
}

/** The last line of a capped CSV export; `cohortUrl` is the cohort's page URL (same filters and snapshot), whose cursor paging reaches the rest. */
export function truncationLine(total: number, cohortUrl: string): string {
  return `# TRUNCATED: cohort has ${total} works; export capped at ${EXPORT_CAP} rows (in the requested sort order). Page ${cohortUrl} with cursor, or rebuild the frame from the repository, for the rest.\n`;
}

/**
 * The provenance lines at the top of a `csv-excel` export: what a reader of the file needs to cite or redo it
 * (snapshot, query, permalink, time of export, rows). Each line is one cell (quoted when it holds a comma or a
 * quote), so a spreadsheet shows it whole in column A whatever it contains.
 */
export function provenanceLines(o: {
  snapshot: string;
  synthetic: boolean;
  api: string;
  permalink: string;
  exportedAt: string;
  exported: number;
  total: number;
}): string {
  const cell = (s: string) => `${csvField(s)}\n`;
  return [
    '# Research Cohort Query: cohort export',
    `# snapshot: ${o.snapshot}${o.synthetic ? ' (generated sample data, not real works)' : ''}`,
    `# query: ${o.api}`,
    `# permalink: ${o.permalink}`,
    `# exported at: ${o.exportedAt}`,
    `# rows: ${o.exported} of ${o.total} works${o.exported < o.total ? ` (capped at ${EXPORT_CAP})` : ''}`,
  ]
    .map(cell)
    .join('');
}

/**
 * The export's file name: the cohort's hash, then where the rows come from (the snapshot id, and `synthetic`
 * for generated data), so a file kept on disk says so however it is read; `-excel.csv` for the spreadsheet CSV.
 */
export function exportFileName(hash: string, snapshot: { id: string; synthetic: boolean }, format: CohortQuery['format']): string {
  const source = `${snapshot.id.replace(/[^A-Za-z0-9._-]/g, '-')}${snapshot.synthetic ? '-synthetic' : ''}`;
  return `frame-cohort-${hash}-${source}${format === 'csv-excel' ? '-excel.csv' : `.${format}`}`;
}

export async function* exportChunks(
  build: Build,
  q: CohortQuery,
  m: CohortMatch,
  hash: string,
  links: { permalink: string; api: string },
  /** Aborted when the server can wait no longer: CSV ends with shutdownLine, JSON (no place for it) is broken off. */
  cut: AbortSignal,
): AsyncGenerator<string | Buffer> {
  const index = build.cohort;
  const plan = exportPlan(m);
  // Each row is serialized from the work store as bytes as it is reached (contracts/frame/work-serialize.ts).
  const works = index.decodedRows(rowsInOrder(index, m, q.sort, null, plan.exported));
  const sink = new ByteSink(CHUNK_BYTES + (1 << 14));
  let sent = 0;
  /** The next works' bytes, each after `before(sent)`, up to about CHUNK_BYTES and the export's row count (null at the end). */
  const take = (write: (s: ByteSink, w: StoredWork) => void, before: (k: number) => Uint8Array | null): Buffer | null => {
    while (sent < plan.exported && sink.length < CHUNK_BYTES) {
      // next(), not for...of: leaving a for...of loop would close the generator after the first chunk.
      const w = works.next();
      if (w.done) break;
      const sep = before(sent);
      if (sep) sink.bytes(sep);
      write(sink, w.value);
      sent++;
    }
    return sink.length === 0 ? null : sink.take();
  };
  const pause = slicer();
  if (q.format === 'json') {
    const meta = {
      ...questionBlock(build, q, hash),
      cohort_total: m.total,
      direct_labels_cover: m.direct_labels_cover,
      predictions_cover: m.predictions_cover,
      exported: plan.exported,
      export_cap: EXPORT_CAP,
      truncated: plan.truncated,
      direct_label_status: DIRECT_LABEL_STATUS,
      prediction_status: PREDICTION_STATUS_TEXT,
      permalink: links.permalink,
      api: links.api,
    };
    yield `{"meta":${JSON.stringify(meta)},"results":[`;
    for (let chunk = take(writeWorkItem, recordSeparator); chunk; chunk = take(writeWorkItem, recordSeparator)) {
      if (cut.aborted) throw new Error('export cut short: the server is stopping');
      yield chunk;
      await pause();
    }
    yield '\n]}\n';
    return;
  }
  // For a spreadsheet: the byte order mark (Excel reads UTF-8 without it as a legacy code page) and provenance.
  if (q.format === 'csv-excel')
    yield (
      '\uFEFF' +
      provenanceLines({
        snapshot: build.snapshotId,
        synthetic: build.manifest.snapshot.synthetic,
        api: links.api,
        permalink: links.permalink,
        exportedAt: new Date().toISOString(),
        exported: plan.exported,
        total: m.total,
      })
    );
  yield EXPORT_HEADER;
  for (let chunk = take(writeWorkCsvLine, noSeparator); chunk; chunk = take(writeWorkCsvLine, noSeparator)) {
    yield chunk;
    await pause();
    if (cut.aborted && sent < plan.exported) {
      yield shutdownLine(sent, plan.exported);
      return;
    }
  }
  if (plan.truncated) yield truncationLine(m.total, links.api);
}

/** What comes before a JSON export's k-th record: a new line, and a comma after the first. */
const FIRST_RECORD = Buffer.from('\n');
const NEXT_RECORD = Buffer.from(',\n');
const recordSeparator = (k: number) => (k === 0 ? FIRST_RECORD : NEXT_RECORD);
const noSeparator = () => null;
