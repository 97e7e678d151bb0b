/**
 * What a corpus build leaves beside the extraction cache for the next build to carry over (issue 21: a rebuild
 * after a daily package must cost under a tenth of a full build, and writing the database and the article
 * documents anew was most of it once extraction was cached). In `<build-output>/cache/corpus/`:
 *
 *   previous/corpus.sqlite   the last build's database: a hard link to the build's file (a copy where the
 *                            cache and the build are on different file systems)
 *   previous/articles.json   the version of the writers that made it, its documents' meta, its database's sha256
 *                            and its number of articles; in `articles.tsv`, a line per article in database order:
 *                            its key (extract-corpus.ts, `keys`), number of excerpts and document path (a file of
 *                            lines, written and read in pieces: millions of articles do not fit in one string)
 *   documents/<key>.json     article documents named by a key of the writers' version, the article's key and
 *                            the documents' meta: hard links to files of the builds that wrote them (all
 *                            removed when the record is unusable: nothing then says which are wanted)
 *   previous.old-<pid>-<t>-<n>/ a record directory a build replaced: removed by the next build, from its start
 *                            (its database is often the last link to a whole file, slow to free)
 *
 * The next build copies the rows of every article whose key is unchanged from the previous database (inside
 * SQLite: no row passes through JS) and links the unchanged documents instead of writing them: a worker thread
 * (rebuild-worker.ts) links every document of the previous build while the articles are extracted, and the
 * documents that changed or went are then replaced or removed. The output does
 * not depend on any of it (tested byte for byte against a build without a cache): a key names exactly what is
 * written, the writers' own code is part of the version, and whatever is missing, damaged or of another
 * version is simply not carried over. Hard links make the files share storage with the builds, which are
 * never modified in place once written.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { sha256Text } from '../../lib/hash.ts';
import { readLineFile, writeLineFile } from '../../lib/line-file.ts';
import { spawnTsWorker } from '../../lib/spawn-ts-worker.ts';
import type { PreviousExcerptIndex } from './excerpt-index-builder.ts';
import type { Compaction, WorkerPlan } from './rebuild-worker.ts';
import type { FreshTerm, SearchRows } from './search-index.ts';
import type { BigramWay } from './search-carry.ts';
import { DocKeySet } from './doc-key-set.ts';

/** The rebuild worker's answers to a plan (rebuild-worker.ts): the search index's rows, and the full-text index. */
export type SearchAnswer = { rows: SearchRows; result: { terms: number; tokens: number; bigrams: BigramWay } } | { result: null } | { error: string };
export type FtsAnswer = { error?: string };
/**
 * Its answer about the previous database: its excerpt index; why it is not the file recorded (nothing is carried
 * over); or, when the worker could not read it or died, null: the caller checks and reads it itself.
 */
export type PreviousAnswer = { index: PreviousExcerptIndex } | { differs: string } | null;

/** What the rebuild worker makes for the database, as it comes. */
export interface WorkerAnswers {
  previous: Promise<PreviousAnswer>;
  fts: Promise<FtsAnswer>;
  search: Promise<SearchAnswer>;
}

const ROOT = join(import.meta.dirname, '../../..');
/** The code that decides what the database and the article documents hold for an article. */
const WRITER_SOURCES = [
  'pipeline/steps/corpus/corpus.sqlite.ts',
  'pipeline/steps/corpus/documents.ts',
  'pipeline/steps/corpus/previous-build.ts',
  'pipeline/steps/corpus/search-index.ts',
  'pipeline/steps/corpus/search-carry.ts',
  'pipeline/steps/corpus/search-bigrams.ts',
  'pipeline/steps/corpus/fts-index.ts',
  'pipeline/steps/corpus/excerpt-index-builder.ts',
  'contracts/corpus/excerpt-index-data.ts',
  'contracts/corpus/database.ts',
  'contracts/corpus/search-postings.ts',
  'contracts/corpus/documents.ts',
  'pipeline/lib/sqlite.ts',
];
/**
 * SQLite's own build: its unicode61 tokenizer made the carried search terms, while the full-text index (and a
 * full build) uses the one installed now.
 */
const SQLITE_PACKAGE = 'node_modules/@sqlite.org/sqlite-wasm/package.json';

let writerHash: string | null = null;
/** A hash of the writers' code and SQLite's version: any change of them and nothing is carried over. */
export function writerVersion(): string {
  if (writerHash) return writerHash;
  const h = createHash('sha256');
  for (const rel of WRITER_SOURCES) h.update(`${rel}\n`).update(readFileSync(join(ROOT, rel))).update('\n');
  h.update(`sqlite-wasm ${readText(join(ROOT, SQLITE_PACKAGE)) ?? 'unknown'}\n`);
  writerHash = h.digest('hex');
  return writerHash;
}

interface PreviousRecord {
  writer: string;
  /** The meta of its documents (JSON), so the documents it stored can be found and removed when unused. */
  meta: string;
  /** sha256 of its database file. */
  db_sha256: string;
  /** False when its documents could not be hard-linked into the cache (another file system): none are linked. */
  linkable?: boolean;
  /** Per article in database order: [key, excerpts, document path (relative to the build) or ""] (articles.tsv). */
  articles: [string, number, string][];
}

/** articles.json: the record without its articles, and how many lines articles.tsv has. */
type RecordHeader = Omit<PreviousRecord, 'articles'> & { articles: number };

/** Reads the record in `dir`, or null when it is missing, damaged or of other writers. */
function readRecord(dir: string): PreviousRecord | null {
  try {
    const text = readText(join(dir, 'articles.json'));
    const h = text === null ? null : (JSON.parse(text) as RecordHeader);
    if (!h || h.writer !== writerVersion() || typeof h.meta !== 'string' || typeof h.db_sha256 !== 'string' || !Number.isInteger(h.articles)) return null;
    const articles: [string, number, string][] = [];
    readLineFile(join(dir, 'articles.tsv'), (line) => {
      const [key, n, path] = line.split('\t');
      const excerpts = Number(n);
      if (!key || !Number.isInteger(excerpts) || excerpts < 0 || path === undefined) throw new Error('damaged');
      articles.push([key, excerpts, path]);
    });
    return articles.length === h.articles ? { ...h, articles } : null;
  } catch {
    return null; // damaged: nothing is carried over
  }
}

/** Per article in listing order, its key (extract-corpus.ts, `keys`), or null: never carried over. */
export interface ArticleKeys {
  readonly length: number;
  get(index: number): string | null;
}

/** Where each new article's rows are in the previous database, for the ones that can be carried over. */
export interface CarryOver {
  /** The previous database file, and the sha256 it had when recorded (checked as it is read). */
  db: string;
  sha256: string;
  /** Per new article: the previous article id (1-based) holding the same rows, or 0. */
  from: Int32Array;
  /** Per previous article id (index id - 1): its first excerpt id; one entry more for the end. */
  firstExcerpt: Float64Array;
}

export class PreviousBuild {
  private readonly dir: string;
  private readonly documents: string;
  private record: PreviousRecord | null = null;
  /** Document keys stored this run (`store`); the previous build's documents kept are in `linked`. */
  private readonly usedDocs = new DocKeySet();
  /** Hard links into the store work here (false once one failed: documents are then written, not kept). */
  private linking = true;
  /** The previous build could keep its documents: links from the store are worth trying. */
  private linkable = true;
  private madeDocuments = false;
  /** The worker (`startWorker`) and its answers: the paths it could not link, the previous database, the full-text index, the search rows. */
  private helper: {
    worker: Worker;
    links: Promise<string[]>;
    previous: Promise<PreviousAnswer>;
    fts: Promise<FtsAnswer>;
    search: Promise<SearchAnswer>;
    hash: Promise<string | null>;
    compacted: Promise<{ error?: string }>;
  } | null = null;
  /** The build directory the worker links into. */
  private out = '';
  /**
   * Per previous article (id - 1): 1 while its document is linked into the build (asked of the worker, then kept
   * by `linkedDocuments` for an article carried over, else removed). Every article carried over asks
   * `reuseDocument`, so once the documents are written these are the previous documents this build uses.
   */
  private linked = new Uint8Array(0);
  /** Per article of this build, the previous article holding the same rows and document (`carryOver`), or 0. */
  private from = new Int32Array(0);
  /** File removals under way in the thread pool (`settled` waits for them). */
  private readonly removals: Promise<unknown>[] = [];
  readonly stats = { docsLinked: 0 };
  /** When the worker's answers came, for the log (`workerTimes`). */
  private answered: string[] = [];
  /** This run's mark in the cache (removed by `save`), and those of runs that died before theirs. */
  private readonly running: string;
  private readonly deadRuns: string[];

  /** `worker`: the rebuild worker's module (tests give one that dies); rebuild-worker.ts by default. */
  constructor(
    cacheDir: string,
    private readonly worker: URL = new URL('./rebuild-worker.ts', import.meta.url),
  ) {
    this.dir = join(cacheDir, 'previous');
    this.documents = join(cacheDir, 'documents');
    this.record = readRecord(this.dir);
    // Storing is still tried (and recorded), so a cache moved to a file system with hard links links again.
    if (this.record?.linkable === false) this.linkable = false;
    // Without a record of this writer, nothing says which stored documents are still wanted: none are kept.
    if (!this.record) rmSync(this.documents, { recursive: true, force: true });
    // A run that died may have stored documents no record names: `save` then looks through all of them.
    const cache = dirname(this.dir);
    this.deadRuns = readNames(cache).filter((n) => n.startsWith(RUNNING) && !processAlive(Number(n.slice(RUNNING.length))));
    mkdirSync(cache, { recursive: true });
    const retired = `${basename(this.dir)}${RETIRED}`;
    for (const name of readNames(cache)) if (name.startsWith(retired)) this.remove(join(cache, name));
    this.running = join(cache, `${RUNNING}${process.pid}`);
    writeFileSync(this.running, '');
  }

  /** The carry-over plan for articles with these keys, or null when the previous build has nothing to give. */
  carryOver(keys: ArticleKeys, excerpts: (i: number) => number): CarryOver | null {
    const r = this.record;
    if (!r || r.articles.length === 0 || !existsSync(join(this.dir, 'corpus.sqlite'))) return null;
    const byKey = new Map<string, number>();
    const firstExcerpt = new Float64Array(r.articles.length + 1);
    let next = 1;
    r.articles.forEach(([key, n], i) => {
      byKey.set(key, i + 1);
      firstExcerpt[i] = next;
      next += n;
    });
    firstExcerpt[r.articles.length] = next;
    const from = new Int32Array(keys.length);
    let any = false;
    for (let i = 0; i < keys.length; i++) {
      const key = keys.get(i);
      const id = key === null ? undefined : byKey.get(key);
      // Same key, same rows; the excerpt count is checked as well, cheaply, against a damaged record.
      if (id !== undefined && r.articles[id - 1]![1] === excerpts(i)) {
        from[i] = id;
        any = true;
      }
    }
    this.from = from;
    return any ? { db: join(this.dir, 'corpus.sqlite'), sha256: r.db_sha256, from, firstExcerpt } : null;
  }

  /** A document's key: the writers' version, the article's key and the meta every article document carries. */
  documentKey(articleKey: string, meta: unknown): string {
    return docKey(articleKey, typeof meta === 'string' ? meta : JSON.stringify(meta));
  }

  /**
   * Whether documents with this meta can be linked from the store: the previous build stored them with the same
   * meta (a new snapshot id changes every document) on a file system with hard links. Otherwise each link would
   * fail, with an exception each, and be removed again.
   */
  private linksFor(metaJson: string): boolean {
    return this.linking && this.linkable && this.record !== null && this.record.meta === metaJson;
  }

  /**
   * Starts the rebuild's worker thread (rebuild-worker.ts), before the articles are extracted, when there is a
   * previous build to carry over; it links every document of the previous build into the build directory `out`
   * at once (issue 21 session 24: on the main thread, or queued after extraction, the links were 1.9 s of the
   * second core's time in the database phase) when they carry the documents' meta `metaJson`. The articles
   * directories must exist.
   */
  startWorker(out: string, metaJson: string): void {
    const r = this.record;
    if (!r || r.articles.length === 0 || this.helper || !existsSync(join(this.dir, 'corpus.sqlite'))) return;
    this.out = out;
    const worker = spawnTsWorker(this.worker, { documents: this.documents, out });
    // Its answers, or its error or exit, whenever they come: `linkedDocuments` and the plan's caller await them.
    let onLinks!: (failed: string[]) => void;
    let onPrevious!: (a: PreviousAnswer) => void;
    let onFts!: (a: FtsAnswer) => void;
    let onSearch!: (a: SearchAnswer) => void;
    let onHash!: (sha256: string | null) => void;
    let onCompact!: (a: { error?: string }) => void;
    let fail!: (err: Error) => void;
    const links = new Promise<string[]>((resolve, reject) => {
      onLinks = resolve;
      fail = reject;
    });
    links.catch(() => {}); // not unhandled before `linkedDocuments` awaits it
    const previous = new Promise<PreviousAnswer>((resolve) => (onPrevious = resolve));
    const fts = new Promise<FtsAnswer>((resolve) => (onFts = resolve));
    const search = new Promise<SearchAnswer>((resolve) => (onSearch = resolve));
    const hash = new Promise<string | null>((resolve) => (onHash = resolve));
    const compacted = new Promise<{ error?: string }>((resolve) => (onCompact = resolve));
    type Message =
      | { kind: 'links'; failed: string[] }
      | ({ kind: 'previous' } & (NonNullable<PreviousAnswer> | { failed: string }))
      | ({ kind: 'fts' } & FtsAnswer)
      | ({ kind: 'search' } & SearchAnswer)
      | { kind: 'hash'; sha256: string | null }
      | { kind: 'compact'; error?: string };
    const started = performance.now();
    const answered: string[] = [];
    this.answered = answered;
    worker.on('message', (m: Message) => {
      answered.push(`${ANSWER_NAMES[m.kind]} ${((performance.now() - started) / 1000).toFixed(1)}`);
      if (m.kind === 'links') onLinks(m.failed);
      else if (m.kind === 'previous') onPrevious('failed' in m ? null : m);
      else if (m.kind === 'fts') onFts(m);
      else if (m.kind === 'hash') onHash(m.sha256);
      else if (m.kind === 'compact') onCompact(m);
      else onSearch(m);
    });
    const died = (why: string) => {
      fail(new Error(why));
      onPrevious(null);
      onFts({ error: why });
      onSearch({ error: why });
      onHash(null);
      onCompact({ error: why });
    };
    // Its death is answered only once it has stopped (`exit`): a worker still running after an unreadable message
    // could go on linking while the main thread removes its links.
    let why: string | null = null;
    const stop = (reason: string) => {
      why ??= reason;
      void worker.terminate();
    };
    worker.on('error', (err) => stop(`the rebuild worker failed: ${String(err)}`));
    worker.on('messageerror', (err) => stop(`a message of the rebuild worker could not be read: ${String(err)}`));
    worker.once('exit', (code) => died(why ?? `the rebuild worker exited (${code})`));
    this.helper = { worker, links, previous, fts, search, hash, compacted };
    this.linked = new Uint8Array(r.articles.length);
    if (this.linksFor(metaJson)) {
      // In batches: a message of every line would not fit in one string at millions of articles.
      let batch: string[] = [];
      r.articles.forEach(([key, , path], j) => {
        // Articles without a key (`save`) or a path never had a document stored.
        if (key.startsWith(NO_KEY) || !path) return;
        this.linked[j] = 1;
        batch.push(`${docKey(key, r.meta)}\t${path}`);
        if (batch.length === LINK_BATCH) {
          worker.postMessage({ links: batch.join('\n') });
          batch = [];
        }
      });
      if (batch.length > 0) worker.postMessage({ links: batch.join('\n') });
      worker.postMessage({ linksEnd: true });
    } else onLinks([]);
    // Then the previous database's check and excerpt index (0.4 + 0.6 s of the main thread at 100,000 articles).
    worker.postMessage({ previous: { db: join(this.dir, 'corpus.sqlite'), sha256: r.db_sha256 } });
  }

  /**
   * Waits for the links the worker was asked for, and keeps those of the previous articles carried over
   * (`carryOver`, called before): an article with the same key has the same document, at the same path (its id is
   * the extraction's). The links of the others (changed, withdrawn) are removed, so their paths are free for the
   * documents written now. Returns null, or why no link can be used: the worker died, and every link it may have
   * made is removed (never written through: it shares its file with the stored document and with earlier
   * builds), so the caller writes those documents.
   */
  async linkedDocuments(): Promise<string | null> {
    const h = this.helper;
    const r = this.record;
    if (!h || !r) return null;
    const path = (j: number) => join(this.out, r.articles[j]![2]);
    let failed: string[];
    try {
      failed = await h.links;
    } catch (err) {
      let n = 0;
      for (let j = 0; j < this.linked.length; j++)
        if (this.linked[j]) {
          rmSync(path(j), { force: true });
          n++;
        }
      this.linked.fill(0);
      return `${(err as Error).message}; its ${n} article documents are written here`;
    }
    if (failed.length > 0) {
      const notLinked = new Set(failed);
      r.articles.forEach(([, , p], j) => {
        if (notLinked.has(p)) this.linked[j] = 0;
      });
    }
    const carried = new Uint8Array(r.articles.length);
    for (const id of this.from) if (id > 0) carried[id - 1] = 1;
    for (let j = 0; j < this.linked.length; j++)
      if (this.linked[j] && !carried[j]) {
        unlinkSync(path(j));
        this.linked[j] = 0;
      }
    return null;
  }

  /**
   * Whether article `index`'s document is already in the build, linked by the worker (after `linkedDocuments`):
   * it is carried over from the previous build. When not, the caller writes it, then `store`s it.
   */
  reuseDocument(index: number): boolean {
    const j = (this.from[index] ?? 0) - 1;
    if (j < 0 || !this.linked[j]) return false;
    this.stats.docsLinked++;
    return true;
  }

  /**
   * Has the worker make the carried-over database's indexes from `plan` (rebuild-worker.ts) while the caller writes
   * the rows; null when there is no worker (the caller makes them itself).
   */
  sendPlan(plan: WorkerPlan): WorkerAnswers | null {
    const h = this.helper;
    if (!h) return null;
    h.worker.postMessage({ plan });
    return { previous: h.previous, fts: h.fts, search: h.search };
  }

  /**
   * Has the worker compact the database the caller has written and closed (rebuild-worker.ts, `compact`) while the
   * caller writes the documents (issue 21 session 27); its answer, or null when there is no worker.
   */
  compact(c: Compaction): Promise<{ error?: string }> | null {
    const h = this.helper;
    if (!h) return null;
    h.worker.postMessage({ compact: c });
    return h.compacted;
  }

  /**
   * Has the worker hash the database just written (its sha256, for the record) while the caller writes the report
   * (issue 21 session 27: 0.2–0.3 s at the end of a rebuild's critical path); null, now or once answered, when there
   * is no worker or it could not: the caller hashes the file itself.
   */
  hashDatabase(path: string): Promise<string | null> | null {
    const h = this.helper;
    if (!h) return null;
    h.worker.postMessage({ hash: path });
    return h.hash;
  }

  /** Sends the worker the new excerpts' tokens (search-index.ts, `tokenizeExcerpts`) after `sendPlan`; null: it makes them. */
  sendTokens(tokens: Map<string, FreshTerm> | null): void {
    this.helper?.worker.postMessage({ tokens });
  }

  /** When the worker's answers came, in seconds from its start (for the log), or null without a worker. */
  workerTimes(): string | null {
    return this.answered.length > 0 ? this.answered.join(', ') : null;
  }

  /** Stops the worker and waits until it is gone (at the end, or when the build fails: the build's directory is then removed, and no link may be made into it meanwhile). */
  async stopWorker(): Promise<void> {
    const h = this.helper;
    if (!h) return;
    this.helper = null;
    await h.worker.terminate();
  }

  /** Keeps the document just written at `path` for the next build. */
  store(docKey: string, path: string): void {
    if (!this.linking) return;
    if (!this.madeDocuments) mkdirSync(this.documents, { recursive: true });
    this.madeDocuments = true;
    const target = join(this.documents, `${docKey}.json`);
    try {
      linkSync(path, target);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        // Stored under this key by a run that died before its record, or linked by this run's worker before it
        // died: the file just written (the same text) replaces it.
        unlinkSync(target);
        linkSync(path, target);
      } else {
        // No hard links here (another file system, or none supported): documents are written, not kept.
        this.linking = false;
        return;
      }
    }
    this.usedDocs.add(docKey);
  }

  /**
   * Records this build for the next one (after it is written): its database and its articles' keys. Stored
   * documents this build did not use are removed: those of the previous build's articles, and after a run that
   * died (its mark is left), every one in the store (reading a directory of 100,000 names costs 0.25 s, so only
   * then), with the record directories such runs left while saving.
   */
  save(dbPath: string, dbSha256: string, keys: ArticleKeys, excerpts: (i: number) => number, meta: unknown, paths: (i: number) => string | undefined): void {
    const tmp = `${this.dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    try {
      linkSync(dbPath, join(tmp, 'corpus.sqlite'));
    } catch {
      copyFileSync(dbPath, join(tmp, 'corpus.sqlite'));
    }
    // An article without a key (CSV input) gets one that matches nothing, keeping the positions; a path that would
    // break its line (none does: ids are PMC and digits, or generated hex) is left out, and the document not linked.
    // Each line made as it is written (issue 21 session 25: the record as an array of lines was 17 MiB at 100,000
    // articles, at the end of the step).
    writeLineFile(join(tmp, 'articles.tsv'), keys.length, (i) => {
      const path = paths(i) ?? '';
      return `${keys.get(i) ?? `${NO_KEY}${i}`}\t${excerpts(i)}\t${/[\t\n\r]/.test(path) ? '' : path}`;
    });
    const header: RecordHeader = { writer: writerVersion(), meta: JSON.stringify(meta), db_sha256: dbSha256, linkable: this.linking, articles: keys.length };
    writeFileSync(join(tmp, 'articles.json'), JSON.stringify(header));
    const old = this.record;
    const reused = this.linked;
    // The previous record directory is moved aside, for the next build to remove in the background from its start
    // (the constructor): its database is often the last link to a whole file (the build it belonged to is gone),
    // which took the file system 0.3 s to free at 100,000 articles.
    // A name no earlier build has left (a container's pid is often the same each run, and a removal may be slow).
    let retired: string;
    do retired = `${this.dir}${RETIRED}${process.pid}-${Date.now().toString(36)}-${++retiredCount}`;
    while (existsSync(retired));
    try {
      renameSync(this.dir, retired);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    renameSync(tmp, this.dir);
    // Saved: the next build reads it from disk; this one has no more use for the previous record.
    this.record = null;
    if (this.deadRuns.length > 0) {
      const used = this.usedDocs;
      old?.articles.forEach(([key], j) => {
        if (reused[j]) used.add(docKey(key, old.meta));
      });
      for (const name of readNames(this.documents)) if (name.endsWith('.json') && !used.has(name.slice(0, -'.json'.length))) rmSync(join(this.documents, name), { force: true });
      // Record directories of runs that died in `save`: each holds a link to a whole database.
      const cache = dirname(this.dir);
      const stale = `${basename(this.dir)}.tmp-`;
      for (const name of readNames(cache)) if (name.startsWith(stale) && !processAlive(Number(name.slice(stale.length)))) rmSync(join(cache, name), { recursive: true, force: true });
      for (const name of this.deadRuns) rmSync(join(cache, name), { force: true });
    } else if (old)
      old.articles.forEach(([key], j) => {
        if (reused[j] || key.startsWith(NO_KEY)) return;
        const k = docKey(key, old.meta);
        if (!this.usedDocs.has(k)) this.remove(join(this.documents, `${k}.json`));
      });
    rmSync(this.running, { force: true });
  }

  /** Removes `path` (a file or a directory) in the thread pool; whatever stops it, the build goes on. */
  private remove(path: string): void {
    this.removals.push(rm(path, { recursive: true, force: true }).catch(() => {}));
  }

  /** Waits for the removals under way: of the record directories earlier builds replaced, and of unused stored documents. */
  async settled(): Promise<void> {
    await Promise.all(this.removals);
  }
}

/** The start of the key recorded for an article without one (it matches no article). */
const NO_KEY = 'none:';

/** Between the record directory's name and a pid, a time and a count: a replaced one, being removed. */
const RETIRED = '.old-';
/** Record directories replaced by this process so far (each gets its own name). */
let retiredCount = 0;

/** Link jobs per message to the worker. */
const LINK_BATCH = 4096;

/** The worker's answers as the log names them. */
const ANSWER_NAMES = { links: 'links', previous: 'previous database', fts: 'full-text index', search: 'search index', compact: 'compaction', hash: 'database hash' } as const;

/** The name of a run's mark in the cache directory, followed by its pid. */
const RUNNING = 'corpus-build.running-';

/**
 * A document's key: the article's key (itself a sha256) and a hash of the writers' version and the meta, hashed
 * once per meta: one sha256 per article, twice per rebuild, was 0.6 s of a rebuild at 100,000 articles.
 */
const docKey = (articleKey: string, metaJson: string) => `${articleKey}-${versionOf(metaJson)}`;

const versions = new Map<string, string>();
function versionOf(metaJson: string): string {
  let v = versions.get(metaJson);
  if (v === undefined) versions.set(metaJson, (v = sha256Text(`${writerVersion()}\n${metaJson}`).slice(0, 32)));
  return v;
}

function readNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
