/**
 * The per-article extraction cache (docs/corpus-extraction.md, "Incremental rebuilds"), kept between builds in
 * `<build-output>/cache/corpus/`:
 *
 *   segments/<run>.jsonl     extractions appended by one run, one line per article: its summary
 *                            (article-summary.ts) as JSON, a tab, the whole extraction as JSON; or
 *                            only the JSON of why the bytes are not an article
 *   segments/<run>.idx       that segment's index: "<key> <offset> <length> <summary length>" per line (the
 *                            last field, bytes of the summary and its tab, lets a rebuild read only the
 *                            summary; absent in older indexes: the whole line is read), written when the run
 *                            completes (a segment without its index is from a run that died: ignored, removed)
 *   packages/<sha256>.json   a package's member list (member, content hash or what was wrong), so an
 *                            unchanged package is not decompressed again
 *   filelists/<key>.json     a file list's rows as file-lists.ts reads them, under the list's sha256 and
 *                            a hash of that reader's code, so an unchanged list is not parsed again
 *
 * An article's key is sha256(content hash, extractor version, lexicon sha256, band options). The extractor
 * version is a hash of the extraction code itself (pipeline/corpus/*.ts and the contracts it fills), so any
 * change of the code invalidates the cache without anyone remembering to bump a number; the lexicon counts by
 * the sha256 of its file, not by its declared version. Appending to one file per run instead of one file per
 * article: on this project's file systems a small file costs more to create than an article costs to extract.
 * After a successful build `prune` drops segments none of whose entries were used, and rewrites the used
 * entries into one segment once garbage outweighs them; a failed run prunes nothing.
 */
import { createHash, hash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { ExtractedArticle } from '../../corpus/extract.ts';
import type { ArticleSummary } from './article-summary.ts';
import type { FileListEntries } from './file-lists.ts';
import { sha256Text } from '../../lib/hash.ts';
import { pidIsAlive, writeFileAtomicSync } from '../../../contracts/common/local-files.ts';
import { CacheIndex, type Located } from './cache-index.ts';

/** The cache's place inside the build output directory (beside `builds/` and `current`, never inside a build). */
export const CORPUS_CACHE_DIR = 'cache/corpus';

/** The most bytes `getSummaries` reads at once. */
const SPAN = 8 << 20;

/** Bytes read at once when reads follow each other (`readRange`), and how far ahead a read still counts as following. */
const READ_AHEAD = 1 << 20;
const READ_GAP = 64 << 10;

/** What the cache directory holds. */
const CACHE_PARTS = ['segments', 'packages', 'filelists'];

/** Bump when the layout of the cache directory or of an entry changes. */
const CACHE_FORMAT = '2';

const ROOT = join(import.meta.dirname, '../../..');
/** The files whose code decides what an article's extraction is. */
const EXTRACTOR_SOURCES = [
  'pipeline/corpus',
  'pipeline/steps/corpus/article-summary.ts',
  'contracts/corpus/documents.ts',
  'contracts/corpus/article-id.ts',
  'contracts/corpus/vocab.ts',
];

/** The code that reads a file list's rows. */
const FILE_LIST_SOURCES = ['pipeline/steps/corpus/file-lists.ts', 'pipeline/steps/corpus/packages.ts', 'contracts/corpus/article-id.ts'];

const sourceHashes = new Map<readonly string[], string>();
/** A hash of the cache format and of the code in `sources` (files, or folders whose .ts files count). */
function sourcesHash(sources: readonly string[]): string {
  const known = sourceHashes.get(sources);
  if (known) return known;
  const h = createHash('sha256').update(`cache-format ${CACHE_FORMAT}\n`);
  const files: string[] = [];
  for (const rel of sources) {
    const abs = join(ROOT, rel);
    if (rel.endsWith('.ts')) files.push(rel);
    else
      for (const f of readdirSync(abs)
        .filter((n) => n.endsWith('.ts'))
        .sort())
        files.push(`${rel}/${f}`);
  }
  for (const rel of files)
    h.update(`${rel}\n`)
      .update(readFileSync(join(ROOT, rel)))
      .update('\n');
  const hash = h.digest('hex');
  sourceHashes.set(sources, hash);
  return hash;
}

/** A hash of the extraction code (see the file comment). */
export function extractorVersion(): string {
  return sourcesHash(EXTRACTOR_SOURCES);
}

/** One member of a package as the last full read of it found it. */
export type PackageMemberRecord =
  { kind: 'article'; member: string; sha256: string } | { kind: 'other'; member: string } | { kind: 'broken'; member: string | null; reason: string };

/** What the cache keeps per article: its extraction, or why its bytes are not an article. */
export type CachedExtraction = ExtractedArticle | { error: string };
/** An article's summary, or why its bytes are not an article. */
export type CachedSummary = ArticleSummary | { error: string };

export interface CacheStats {
  /** Articles whose extraction came from the cache. */
  hits: number;
  /** Articles parsed and extracted in this run. */
  misses: number;
  /** Packages whose member list came from the cache (not decompressed). */
  packageHits: number;
  /** Entries removed by `prune`. */
  pruned: number;
}

export class ExtractionCache {
  readonly stats: CacheStats = { hits: 0, misses: 0, packageHits: 0, pruned: 0 };
  private readonly salt: string;
  /** Every entry of the complete segments and of this run's, with the entries this run used marked. */
  private readonly index = new CacheIndex();
  /** The last article key computed (a hit and then its use ask for the same one in turn). */
  private lastKey: { sha: string; key: Buffer } = { sha: '', key: Buffer.alloc(32) };
  /**
   * The keys `getSummaries` computed for its package, asked for again as each article is used (a sha256 each:
   * 0.15 s of a rebuild at 100,000 articles).
   */
  private batchKeys = new Map<string, Buffer>();
  private readonly usedPackages = new Set<string>();
  private readonly usedFileLists = new Set<string>();
  private readonly fds = new Map<string, number>();
  /** This run's segment: its name, what was written to it, and what waits in `pending` to be. */
  private segment: string | null = null;
  private written = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Reused for reads that fit: one allocation instead of one per article. */
  private readonly readBuffer = Buffer.allocUnsafe(64 << 10);
  /** The bytes read ahead (`readRange`): `bytes` of `segment` from `start` in `buf`; `next`: where the last read ended. */
  private window = { segment: '', start: 0, bytes: 0, next: 0, buf: Buffer.allocUnsafe(0) };

  /** `dir` null: nothing is kept (every article is extracted, nothing written). */
  constructor(
    readonly dir: string | null,
    lexiconSha256: string,
    bandOptions: unknown = {},
  ) {
    this.salt = `${extractorVersion()}\n${lexiconSha256}\n${JSON.stringify(bandOptions)}`;
    if (dir) this.load();
  }

  private get segments(): string {
    return join(this.dir!, 'segments');
  }

  /** Reads the indexes of complete segments; removes what a dead run left (a segment without index). */
  private load(): void {
    if (!existsSync(this.segments)) return;
    const names = readdirSync(this.segments);
    for (const name of names.filter((n) => n.endsWith('.jsonl')).sort()) {
      const seg = name.slice(0, -'.jsonl'.length);
      if (!names.includes(`${seg}.idx`)) {
        if (!pidAlive(seg)) rmSync(join(this.segments, name), { force: true });
        continue;
      }
      const text = readFileSync(join(this.segments, `${seg}.idx`));
      // Sized by its lines (a byte search for each), not its length over the shortest line: that over-counts by a
      // fifth and could double the table when the real load is near its limit.
      let lines = 0;
      for (let at = text.indexOf(10); at >= 0; at = text.indexOf(10, at + 1)) lines++;
      this.index.reserve(this.index.size + lines + 1);
      readIndexLines(text, (key, offset, length, summary) => this.index.set(key, { segment: seg, offset, length, summary }));
    }
  }

  /** The key of an article's extraction given the sha256 of its bytes (hex), as its 32 bytes (what the index holds). */
  private keyBytes(contentSha256: string): Buffer {
    const batched = this.batchKeys.get(contentSha256);
    if (batched) return batched;
    // One-shot `crypto.hash`: a Hash object per article cost twice as much (0.24 s of a rebuild at 100,000).
    if (this.lastKey.sha !== contentSha256) this.lastKey = { sha: contentSha256, key: hash('sha256', `${contentSha256}\n${this.salt}`, 'buffer') };
    return this.lastKey.key;
  }

  private packagePath(sha: string): string {
    return join(this.dir!, 'packages', `${sha}.json`);
  }

  /** The whole extraction (a hit). */
  getArticle(contentSha256: string): CachedExtraction | null {
    return this.counted(this.loadArticle(contentSha256));
  }

  /** The summary only, without parsing the article's texts (a hit). */
  getSummary(contentSha256: string): CachedSummary | null {
    // Only the summary's bytes when the index says how many (a rebuild reads every article's summary).
    const line = this.read(contentSha256, 'summary');
    if (line === null) return null;
    const tab = line.indexOf('\t');
    return this.counted(parseEntry<CachedSummary>(tab < 0 ? line : line.slice(0, tab)));
  }

  /**
   * `getSummary` of many articles at once (an unchanged package's), in the same order: the entries are read
   * in a few large reads of their segments instead of one read each (one read per article was most of what
   * a rebuild spent on the summaries).
   */
  getSummaries(contentSha256s: readonly string[]): (CachedSummary | null)[] {
    const out: (CachedSummary | null)[] = new Array(contentSha256s.length).fill(null);
    if (!this.dir) return out;
    const wanted: { i: number; key: Buffer; at: Located }[] = [];
    this.batchKeys = new Map();
    contentSha256s.forEach((sha, i) => {
      const key = this.keyBytes(sha);
      this.batchKeys.set(sha, key);
      const at = this.index.get(key);
      if (at) wanted.push({ i, key, at });
    });
    if (wanted.some((w) => w.at.segment === this.segment)) this.flush();
    wanted.sort((a, b) => (a.at.segment < b.at.segment ? -1 : a.at.segment > b.at.segment ? 1 : a.at.offset - b.at.offset));
    const bytes = (w: (typeof wanted)[number]) => (w.at.summary > 0 ? w.at.summary : w.at.length);
    for (let g = 0; g < wanted.length;) {
      // A run of entries of one segment, read as one span (gaps of other entries included) up to SPAN bytes.
      const first = wanted[g]!.at;
      let end = g + 1;
      while (end < wanted.length && wanted[end]!.at.segment === first.segment && wanted[end]!.at.offset + bytes(wanted[end]!) - first.offset <= SPAN) end++;
      const last = wanted[end - 1]!;
      const spanBytes = last.at.offset + bytes(last) - first.offset;
      const span = this.fits(first.segment, first.offset, spanBytes) ? Buffer.allocUnsafe(spanBytes) : null;
      if (span && readSync(this.fd(first.segment), span, 0, span.length, first.offset) === span.length)
        for (let k = g; k < end; k++) {
          const w = wanted[k]!;
          const start = w.at.offset - first.offset;
          const line = span.toString('utf8', start, start + bytes(w));
          const tab = line.indexOf('\t');
          out[w.i] = this.counted(parseEntry<CachedSummary>(tab < 0 ? line : line.slice(0, tab)));
          if (out[w.i] !== null) this.index.markUsed(w.key);
        }
      g = end;
    }
    return out;
  }

  /** The whole extraction of an article whose summary was a hit (not counted again). */
  loadArticle(contentSha256: string): CachedExtraction | null {
    const json = this.loadArticleJson(contentSha256);
    return json === null ? null : parseEntry<CachedExtraction>(json);
  }

  /** The JSON text of the whole extraction (`loadArticle` without the parse), as `putArticle` was given it. */
  loadArticleJson(contentSha256: string): string | null {
    const line = this.read(contentSha256, 'whole');
    return line === null ? null : line.slice(line.indexOf('\t') + 1);
  }

  private counted<T>(entry: T | null): T | null {
    if (entry !== null) this.stats.hits++;
    return entry;
  }

  /**
   * The entry's line, marked used; null when there is none (or it cannot be read). When the index knows where
   * the summary ends, `summary` reads only the summary and its tab, `whole` only what follows the tab (so a
   * caller that looks for the tab finds none and takes it all); otherwise both read the whole line.
   */
  private read(contentSha256: string, part: 'line' | 'summary' | 'whole' = 'line'): string | null {
    if (!this.dir) return null;
    const key = this.keyBytes(contentSha256);
    const at = this.index.get(key);
    if (!at) return null;
    if (at.segment === this.segment && at.offset + at.length > this.written) this.flush();
    const skip = part === 'whole' ? at.summary : 0;
    const length = part === 'summary' && at.summary > 0 ? at.summary : at.length - skip;
    if (!this.fits(at.segment, at.offset + skip, length)) return null;
    const text = this.readRange(at.segment, at.offset + skip, length);
    if (text === null) return null;
    this.index.markUsed(key);
    return text;
  }

  /**
   * `length` bytes of a segment at `offset`, as text; null when the file is shorter. A read that starts at or
   * shortly after where the previous one ended reads a window of READ_AHEAD bytes, from which the next reads are
   * served: the documents and the database rows visit the articles in listing order, mostly the order in which
   * they were appended, and one `pread` per article would be ~2% of a full build's CPU (docs/decisions.md). Reads
   * elsewhere (a rebuild's few new articles among old ones) read only what they need.
   */
  private readRange(segment: string, offset: number, length: number): string | null {
    const w = this.window;
    const end = offset + length;
    if (w.segment === segment && offset >= w.start && end <= w.start + w.bytes) {
      w.next = end;
      return w.buf.toString('utf8', offset - w.start, end - w.start);
    }
    const fd = this.fd(segment);
    const following = w.segment === segment && offset >= w.next && offset - w.next <= READ_GAP;
    if (following) {
      if (w.buf.length < Math.max(READ_AHEAD, length)) w.buf = Buffer.allocUnsafe(Math.max(READ_AHEAD, length));
      const got = readSync(fd, w.buf, 0, w.buf.length, offset);
      w.start = offset;
      w.bytes = got;
      if (got < length) {
        w.segment = '';
        return null;
      }
      w.next = end;
      return w.buf.toString('utf8', 0, length);
    }
    const buf = length <= this.readBuffer.length ? this.readBuffer : Buffer.allocUnsafe(length);
    if (readSync(fd, buf, 0, length, offset) !== length) return null;
    // Not a window (nothing kept to serve from), but where the next read would follow.
    w.segment = segment;
    w.start = 0;
    w.bytes = 0;
    w.next = end;
    return buf.toString('utf8', 0, length);
  }

  /**
   * True when `length` bytes at `offset` can be in the segment: a damaged index line (a length past the file's
   * end, a summary longer than its line) is a miss, not an allocation of what it says. Lengths up to READ_AHEAD
   * are read as they are (a short read is a miss too); longer ones are checked against the file's size.
   */
  private fits(segment: string, offset: number, length: number): boolean {
    return length >= 0 && (length <= READ_AHEAD || offset + length <= fstatSync(this.fd(segment)).size);
  }

  /** A segment's file, opened for reading once per run. */
  private fd(segment: string): number {
    let fd = this.fds.get(segment);
    if (fd === undefined) {
      fd = openSync(join(this.segments, `${segment}.jsonl`), 'r');
      this.fds.set(segment, fd);
    }
    return fd;
  }

  /** Keeps an extraction, given as the object or as its JSON text, with its summary's JSON when it is an article. */
  putArticle(contentSha256: string, article: CachedExtraction | string, summary?: string): void {
    this.stats.misses++;
    if (!this.dir) return;
    const key = this.keyBytes(contentSha256);
    if (this.segment === null) {
      mkdirSync(this.segments, { recursive: true });
      this.segment = segmentName();
      writeFileSync(join(this.segments, `${this.segment}.jsonl`), '');
    }
    const json = typeof article === 'string' ? article : JSON.stringify(article);
    const head = summary === undefined ? '' : `${summary}\t`;
    const bytes = Buffer.from(`${head}${json}\n`, 'utf8');
    const offset = this.written + this.pendingBytes;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.index.set(key, { segment: this.segment, offset, length: bytes.length - 1, summary: Buffer.byteLength(head) });
    this.index.markUsed(key);
    if (this.pendingBytes >= 4 << 20) this.flush();
  }

  private flush(): void {
    if (this.segment === null || this.pendingBytes === 0) return;
    const fd = openSync(join(this.segments, `${this.segment}.jsonl`), 'a');
    try {
      writeSync(fd, Buffer.concat(this.pending, this.pendingBytes));
    } finally {
      closeSync(fd);
    }
    this.written += this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** A file list's rows, given the sha256 of its bytes: from the cache, else `parse` (then kept). */
  fileList(sha256: string | undefined, parse: () => FileListEntries): FileListEntries {
    if (!this.dir || sha256 === undefined) return parse();
    const key = sha256Text(`${sha256}\n${sourcesHash(FILE_LIST_SOURCES)}`);
    const path = join(this.dir, 'filelists', `${key}.json`);
    this.usedFileLists.add(key);
    const cached = readJson<FileListEntries>(path);
    if (cached && Array.isArray(cached)) return cached;
    const rows = parse();
    mkdirSync(join(this.dir, 'filelists'), { recursive: true });
    writeFileAtomicSync(path, JSON.stringify(rows));
    return rows;
  }

  getPackage(sha256: string): PackageMemberRecord[] | null {
    if (!this.dir) return null;
    const members = readJson<PackageMemberRecord[]>(this.packagePath(sha256));
    if (members) {
      this.usedPackages.add(sha256);
      this.stats.packageHits++;
    }
    return members;
  }

  putPackage(sha256: string, members: readonly PackageMemberRecord[]): void {
    if (!this.dir) return;
    this.usedPackages.add(sha256);
    mkdirSync(join(this.dir, 'packages'), { recursive: true });
    writeFileAtomicSync(this.packagePath(sha256), JSON.stringify(members));
  }

  /**
   * Completes the run: writes this run's segment index, then (the build having succeeded) drops what it did
   * not use: package lists, segments without a used entry, and all garbage at once when it outweighs the
   * entries in use (their extractions are copied into a fresh segment). Anything else in the directory is what
   * older code kept for the next build (its database, article documents, summary packs): removed.
   */
  prune(): void {
    if (!this.dir) return;
    if (existsSync(this.dir))
      for (const name of readdirSync(this.dir)) if (!CACHE_PARTS.includes(name)) rmSync(join(this.dir, name), { recursive: true, force: true });
    this.flush();
    if (this.segment !== null) this.writeIndex(this.segment);
    for (const [sub, used] of [
      ['packages', this.usedPackages],
      ['filelists', this.usedFileLists],
    ] as const) {
      const dir = join(this.dir, sub);
      if (existsSync(dir))
        for (const name of readdirSync(dir))
          if (!used.has(name.replace(/\.json$/, ''))) {
            rmSync(join(dir, name), { force: true });
            this.stats.pruned++;
          }
    }
    // Per segment: entries and bytes used by this run, all its entries and all its bytes.
    const bySegment = new Map<string, { used: number; usedBytes: number; bytes: number; entries: number }>();
    for (const [, at, isUsed] of this.index.entries()) {
      let s = bySegment.get(at.segment);
      if (!s) {
        s = { used: 0, usedBytes: 0, bytes: statSync(join(this.segments, `${at.segment}.jsonl`)).size, entries: 0 };
        bySegment.set(at.segment, s);
      }
      s.entries++;
      if (isUsed) {
        s.used++;
        s.usedBytes += at.length + 1;
      }
    }
    const drop = (seg: string, entries: number) => {
      const fd = this.fds.get(seg);
      if (fd !== undefined) closeSync(fd);
      this.fds.delete(seg);
      rmSync(join(this.segments, `${seg}.idx`), { force: true });
      rmSync(join(this.segments, `${seg}.jsonl`), { force: true });
      this.stats.pruned += entries;
    };
    let used = 0;
    let total = 0;
    for (const [seg, s] of bySegment) {
      if (s.used === 0) drop(seg, s.entries);
      else {
        used += s.usedBytes;
        total += s.bytes;
      }
    }
    if (total > 2 * used) {
      // Compaction: every used extraction into one new segment (its entries now point there), then the old segments go.
      const olds = [...bySegment].filter(([, s]) => s.used > 0);
      const seg = `${segmentName()}-c`;
      const fd = openSync(join(this.segments, `${seg}.jsonl`), 'w');
      let offset = 0;
      try {
        for (const [key, at, isUsed] of this.index.entries()) {
          if (!isUsed) continue;
          const buf = Buffer.allocUnsafe(at.length + 1);
          const src = this.fds.get(at.segment) ?? openSync(join(this.segments, `${at.segment}.jsonl`), 'r');
          this.fds.set(at.segment, src);
          readSync(src, buf, 0, at.length + 1, at.offset);
          writeSync(fd, buf);
          this.index.set(key, { segment: seg, offset, length: at.length, summary: at.summary });
          offset += at.length + 1;
        }
      } finally {
        closeSync(fd);
      }
      this.writeIndex(seg);
      for (const [old, s] of olds) drop(old, s.entries - s.used);
    }
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }

  /** Writes the index of segment `seg`: its entries' lines, in pieces (never the whole index as one string). */
  private writeIndex(seg: string): void {
    writeFileAtomicSync(join(this.segments, `${seg}.idx`), (fd) => {
      let lines: string[] = [];
      for (const [key, at] of this.index.entries()) {
        if (at.segment !== seg) continue;
        lines.push(`${Buffer.from(key).toString('hex')} ${at.offset} ${at.length} ${at.summary}\n`);
        if (lines.length === 4096) {
          writeSync(fd, lines.join(''));
          lines = [];
        }
      }
      writeSync(fd, lines.join(''));
    });
  }
}

/** The shortest line of a segment index: a key, a space and two one-digit numbers, and its line break. */
const MIN_INDEX_LINE = 64 + 5;

/**
 * Calls `entry` for each line of a segment index (`<key> <offset> <length>[ <summary length>]`: 64 lower-case hex
 * digits and decimal numbers) with the key's bytes (a buffer reused from line to line), skipping any other line as
 * damaged. Read byte by byte: a regular expression, `split` and `Buffer.from(hex)` per line would cost ~0.3 s of a
 * rebuild at 100,000 articles, before anything else can start (docs/decisions.md).
 */
export function readIndexLines(text: Uint8Array, entry: (key: Buffer, offset: number, length: number, summary: number) => void): void {
  const key = Buffer.alloc(32);
  const fields = [0, 0, 0];
  const nibble = (c: number) => (c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1);
  for (let at = 0; at < text.length;) {
    let end = text.indexOf(10, at);
    if (end < 0) end = text.length;
    let ok = end - at >= MIN_INDEX_LINE - 1 && text[at + 64] === 32;
    for (let k = 0; ok && k < 32; k++) {
      const hi = nibble(text[at + 2 * k]!);
      const lo = nibble(text[at + 2 * k + 1]!);
      if (hi < 0 || lo < 0) ok = false;
      else key[k] = hi * 16 + lo;
    }
    // Two or three numbers after the key, each of digits only, one space apart.
    let n = 0;
    for (let p = at + 65; ok && p <= end; n++) {
      let v = 0;
      const from = p;
      for (; p < end && text[p] !== 32; p++) {
        const d = text[p]! - 48;
        if (d < 0 || d > 9 || n === 3) ok = false;
        v = v * 10 + d;
      }
      if (p === from) ok = false;
      if (n < 3) fields[n] = v;
      p++;
    }
    if (ok && n >= 2) entry(key, fields[0]!, fields[1]!, n === 3 ? fields[2]! : 0);
    at = end + 1;
  }
}

/** A segment name is "<time>-<pid>[-c]": true while the run that writes it may still be going. */
/**
 * A new segment's name: time, process id and a sequence number within the process, so names sort in the order
 * they were made and two runs in one process within a millisecond (the tests do that) never share a file.
 */
let segmentsMade = 0;
function segmentName(): string {
  return `${Date.now().toString(36).padStart(10, '0')}-${process.pid}-${(segmentsMade++).toString(36).padStart(6, '0')}`;
}

function pidAlive(segment: string): boolean {
  const pid = Number(segment.split('-')[1]);
  return Number.isInteger(pid) && pid !== process.pid && pidIsAlive(pid);
}

/** A damaged entry is a miss: the article is extracted again and appended anew. */
function parseEntry<T>(json: string): T | null {
  try {
    return JSON.parse(json) as T;
  } catch {
    return null;
  }
}

function readJson<T>(path: string): T | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    return null; // a damaged entry is a miss; the article is extracted again and the entry rewritten
  }
}
