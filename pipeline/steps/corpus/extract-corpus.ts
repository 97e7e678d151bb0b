/**
 * Corpus step 1: every input article → its extraction (pipeline/corpus/extract.ts), in the order the corpus
 * is listed by (`sort=article`): PMCIDs numerically, then generated ids.
 *
 * Sources are read one at a time, loose files first (by name), then the bulk packages (by name, members in
 * archive order, streamed: packages.ts). Each article's bytes are hashed; an extraction cached under that hash
 * (with this extractor and lexicon) is reused, anything else is parsed and extracted and cached
 * (extraction-cache.ts). A package whose sha256 the cache knows is not even decompressed when all its articles
 * are cached. What goes wrong is reported, never fatal (real PMC dumps contain the odd broken file, and one
 * must not stop a build of millions): an unreadable article, a member that is not an article, a truncated
 * archive (the members before the damage count). The build fails only when no article at all could be read
 * from a non-empty input.
 *
 * One article, several copies (the same paper as .nxml and .xml.gz, or in a baseline and a daily incremental
 * package): the copy the file lists date latest wins (PMC's `LastUpdated`); without dates the first copy read
 * wins. Every other copy is reported. Then the deletion lists remove the articles PMC withdrew. The file lists'
 * PMID and licence fill in what the article's own XML lacks. A package's members are looked up in its own file
 * list, read with the package and let go after it, then in the lists that pair with no package (file-lists.ts).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BandOptions } from '../../corpus/bands.ts';
import { type ExtractedArticle, extractArticle, extractSentences } from '../../corpus/extract.ts';
import { parseArticle } from '../../corpus/jats.ts';
import type { LexiconMatcher } from '../../corpus/lexicon.ts';
import { sha256Text } from '../../lib/hash.ts';
import type { Progress } from '../../lib/progress.ts';
import { readCsvCorpus } from './csv-input.ts';
import { type ArticleSummary, summarize } from './article-summary.ts';
import { type CountedSummary, SummaryStore } from './summary-store.ts';
import { type CachedSummary, type CacheStats, ExtractionCache, type PackageMemberRecord } from './extraction-cache.ts';
import { type FileListEntries, type FileListRow, type FileLists, indexFileLists, pairFileLists, parseFileList, readDeletionLists } from './file-lists.ts';
import type { CorpusInput } from './inputs.ts';
import { KeptCopies } from './kept-copies.ts';
import { packageMembers } from './packages.ts';

/** Where an article came from: a loose file (`package` null) or a member of a package. */
export interface SourceRef {
  package: string | null;
  /** The loose file's name or the member's path; null when an archive broke before a member was named. */
  file: string | null;
}

export interface CorpusExtraction {
  /** How many articles the corpus has. */
  count: number;
  /**
   * What the corpus-wide documents count of each article, in listing order. Held compactly (summary-store.ts:
   * memory flat with the corpus) and rebuilt as objects one at a time as they are visited; with an
   * extraction cache the whole articles are not held either: `load` reads one from the cache when it is needed.
   */
  summaries: () => Iterable<CountedSummary>;
  /** The id of the article at `index` (listing order). */
  pmcid: (index: number) => string;
  /** The whole article at `index` (listing order). */
  load: (index: number) => ExtractedArticle;
  /**
   * `JSON.stringify(load(index))`, taken as it is from the cache when nothing was filled in from the file lists
   * (the article's document is that text with its meta: documents.ts), so the article is not parsed again.
   */
  loadJson: (index: number) => string;
  /** Inputs that could not be read as articles, with the reason (bad XML, not an article, a damaged archive). */
  skipped: (SourceRef & { reason: string })[];
  /** Copies of an article that were not kept, with the copy that was. */
  duplicates: (SourceRef & { id: string; kept_package: string | null; kept_file: string | null })[];
  /** Articles without a PMCID, with the id they were given. */
  generatedIds: (SourceRef & { id: string })[];
  /** Articles the deletion lists name: removed when present. */
  deleted: { id: string; list: string; found: boolean }[];
  /** Per package: members read, articles among them, and whether the archive was damaged. */
  packages: { package: string; members: number; articles: number; broken: boolean }[];
  /** Input bytes (loose files and packages as stored) and the wall time of extraction. */
  bytes: number;
  seconds: number;
  cache: CacheStats;
}

export interface ExtractOptions {
  /** The extraction cache; without it nothing is reused or kept. */
  cache?: ExtractionCache;
  /** sha256 of input files by name (from `corpusFingerprint`), so unchanged packages are known without rereading. */
  fileHashes?: Map<string, string>;
}

/** Numeric PMCIDs first, in number order; generated ids after them, by text. */
export function compareArticleIds(a: string, b: string): number {
  const na = pmcNumber(a);
  const nb = pmcNumber(b);
  if (na >= 0 && nb >= 0) return na - nb;
  if (na >= 0) return -1;
  if (nb >= 0) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The number of a PMCID (`PMC` and digits), or -1 for another id. By character codes, not a regular expression:
 * sorting 100,000 ids compares them 1.7 million times (0.3 s with two regular expressions a comparison).
 */
function pmcNumber(id: string): number {
  if (id.length < 4 || id.charCodeAt(0) !== 80 || id.charCodeAt(1) !== 77 || id.charCodeAt(2) !== 67) return -1;
  let n = 0;
  for (let i = 3; i < id.length; i++) {
    const d = id.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  // Beyond 15 digits the sum could round otherwise than the number the digits name.
  return id.length > 18 ? Number(id.slice(3)) : n;
}

const firstLine = (err: unknown) => ((err as Error)?.message ?? String(err)).split('\n')[0]!.slice(0, 300);

/**
 * The file list's PMID and licence where the article's XML has none: no `<license>`, or one without a URL or
 * type (a bare `<license-p>` statement), which says less than PMC's licence code ("CC BY").
 */
function withFileList<A extends ArticleSummary>(a: A, row: FileListRow | undefined): A {
  if (!row) return a;
  const pmid = a.pmid ?? row.pmid;
  const bare = a.licence === null || (a.licence.url === null && a.licence.type === null);
  const licence = bare && row.licence !== null ? { url: null, type: row.licence } : a.licence;
  return pmid === a.pmid && licence === a.licence ? a : { ...a, pmid, licence };
}

export async function extractCorpus(
  input: CorpusInput,
  matcher: LexiconMatcher,
  bandOptions: Partial<BandOptions>,
  progress: Progress,
  options: ExtractOptions = {},
): Promise<CorpusExtraction> {
  const started = performance.now();
  const cache = options.cache ?? new ExtractionCache(null, '', bandOptions);
  const out: CorpusExtraction = {
    count: 0,
    summaries: () => [],
    pmcid: () => {
      throw new RangeError('no articles');
    },
    load: () => {
      throw new Error('no articles yet');
    },
    loadJson: () => {
      throw new Error('no articles yet');
    },
    skipped: [],
    duplicates: [],
    generatedIds: [],
    deleted: [],
    packages: [],
    bytes: 0,
    seconds: 0,
    cache: cache.stats,
  };
  /** Per article id, the copy kept: its summary (in `store`), hashes, file-list row, source (kept-copies.ts). */
  const kept = new KeptCopies();
  let read = 0;

  const store = new SummaryStore();
  /** `contentSha256`: the article's bytes' hash, from which (with the cache's salt) its extraction follows. */
  const add = (src: SourceRef, extracted: ArticleSummary, whole: ExtractedArticle | null, row: FileListRow | undefined, contentSha256: string | null) => {
    read++;
    const article = withFileList(extracted, row);
    const updated = row?.updated ?? null;
    const prev = kept.current(article.pmcid);
    const copy = {
      pmcid: article.pmcid,
      generated: article.id_kind === 'generated',
      summary: store.add(article),
      whole: whole && withFileList(whole, row),
      sha: contentSha256,
      row,
      filled: article !== extracted,
      src,
    };
    if (prev === null) {
      kept.keep(copy);
      return;
    }
    const newer = updated !== null && (prev.updated === null || updated > prev.updated);
    const [winner, loser] = newer ? [src, prev.src] : [prev.src, src];
    out.duplicates.push({ ...loser, id: article.pmcid, kept_package: winner.package, kept_file: winner.file });
    if (newer) kept.keep(copy);
  };

  if (input.kind === 'jats') {
    out.bytes = input.bytes;
    const readList = (name: string): FileListEntries => cache.fileList(options.fileHashes?.get(name), () => parseFileList(join(input.dir, name)));
    const paired = pairFileLists(input.packages, input.fileLists);
    const global = indexFileLists(paired.global.map(readList));
    /** The own file list of the package being read (null between packages and for loose files). */
    let own: FileLists | null = null;
    const rowFor = (src: SourceRef, a: ArticleSummary) =>
      (own && ((src.file ? own.byMember.get(src.file) : undefined) ?? own.byPmcid.get(a.pmcid))) ??
      (src.package && src.file ? global.byMember.get(src.file) : undefined) ??
      global.byPmcid.get(a.pmcid);
    /** `whole`: the article, when the cache does not keep it (no cache directory). */
    const use = (src: SourceRef, a: CachedSummary, sha: string, whole: ExtractedArticle | null = null) => {
      if ('error' in a) out.skipped.push({ ...src, reason: a.error });
      else add(src, a, whole, rowFor(src, a), sha);
    };
    /** An article's bytes → its extraction (cached or new) → `use`; returns the bytes' sha256. */
    const article = (src: SourceRef, bytes: Buffer): string => {
      const sha = sha256Text(bytes);
      const a = cache.getSummary(sha);
      if (a) {
        use(src, a, sha);
        return sha;
      }
      let extracted: ExtractedArticle | null = null;
      let json: string;
      try {
        extracted = extractArticle(parseArticle(bytes), matcher, bandOptions);
        json = JSON.stringify(extracted);
      } catch (err) {
        json = JSON.stringify({ error: firstLine(err) });
      }
      const summary = extracted && summarize(extracted);
      cache.putArticle(sha, json, summary ? JSON.stringify(summary) : undefined);
      // Through JSON and back: texts are slices of the article's whole text, and V8 keeps a sliced string's
      // parent alive, so an article held until the database is written would keep all of its text (measured:
      // 37 KB per generated article held, 8 KB after). Only what the cache cannot give back is held whole. Of
      // a summary the step keeps only the pmcid (the rest is copied into the summary store or dropped, and its
      // phrases are the lexicon's strings): that string alone is made anew.
      const used: CachedSummary =
        summary === null ? (JSON.parse(json) as CachedSummary) : { ...summary, pmcid: JSON.parse(JSON.stringify(summary.pmcid)) as string };
      use(src, used, sha, summary !== null && !cache.dir ? (JSON.parse(json) as ExtractedArticle) : null);
      return sha;
    };

    progress.start('corpus: extracting', input.files.length + input.packages.length);
    let done = 0;
    for (const file of input.files) {
      try {
        article({ package: null, file }, await readFile(join(input.dir, file)));
      } catch (err) {
        out.skipped.push({ package: null, file, reason: firstLine(err) });
      }
      if (++done % 100 === 0) progress.update(done);
    }
    for (const pkg of input.packages) {
      const path = join(input.dir, pkg);
      const summary = { package: pkg, members: 0, articles: 0, broken: false };
      const record = (r: PackageMemberRecord) => {
        summary.members++;
        if (r.kind === 'other') out.skipped.push({ package: pkg, file: r.member, reason: 'not an XML article (the name does not end in .xml or .nxml)' });
        else if (r.kind === 'broken') {
          summary.members--;
          summary.broken = true;
          out.skipped.push({ package: pkg, file: r.member, reason: r.reason });
        }
      };
      const ownList = paired.own.get(pkg);
      own = ownList === undefined ? null : indexFileLists([readList(ownList)]);
      const packageSha = options.fileHashes?.get(pkg);
      // An unchanged package whose articles are all cached: its member list and its articles' summaries stand in
      // for the archive.
      const known = packageSha ? cache.getPackage(packageSha) : null;
      const summaries = known ? cache.getSummaries(known.map((r) => (r.kind === 'article' ? r.sha256 : ''))) : null;
      const cached = known?.map((r, i) => (r.kind === 'article' ? summaries![i]! : null));
      if (known && cached && known.every((r, i) => r.kind !== 'article' || cached[i] !== null)) {
        known.forEach((r, i) => {
          record(r);
          if (r.kind === 'article') {
            summary.articles++;
            use({ package: pkg, file: r.member }, cached[i]!, r.sha256);
          }
        });
      } else {
        const members: PackageMemberRecord[] = [];
        for await (const e of packageMembers(path)) {
          const r: PackageMemberRecord =
            e.kind === 'article' ? { kind: 'article', member: e.member, sha256: article({ package: pkg, file: e.member }, e.bytes) } : e;
          if (r.kind === 'article') summary.articles++;
          record(r);
          members.push(r);
        }
        if (packageSha) cache.putPackage(packageSha, members);
      }
      // Its rows are done with: what a kept copy needs of them went into `kept`.
      own = null;
      out.packages.push(summary);
      progress.update(++done);
    }
    progress.update(done);
    progress.stop();
    if (read === 0 && out.skipped.length > 0) {
      const first = out.skipped[0]!;
      throw new Error(
        `${input.dir}: none of the ${input.files.length + out.packages.reduce((s, p) => s + Math.max(p.members, p.broken ? 1 : 0), 0)} files could be read as JATS ` +
          `(first: ${first.package ? `${first.package}: ` : ''}${first.file}: ${first.reason})`,
      );
    }

    for (const [id, list] of readDeletionLists(input.deletionLists.map((name) => ({ path: join(input.dir, name), name })))) {
      out.deleted.push({ id, list, found: kept.delete(id) });
    }
    out.deleted.sort((a, b) => compareArticleIds(a.id, b.id));
  } else if (input.kind === 'csv') {
    out.bytes = input.bytes;
    const papers = readCsvCorpus(input.papers, input.sentences);
    progress.start('corpus: extracting', papers.length);
    papers.forEach((p, i) => {
      const whole = extractSentences(p.meta, p.sentences, matcher, bandOptions);
      add({ package: null, file: `papers.csv:${p.paperId}` }, whole, whole, undefined, null);
      if (i % 100 === 99) progress.update(i + 1);
    });
    progress.update(papers.length);
    progress.stop();
  }
  // Held from here on, per article in listing order: only what loading it and its summary need (no sources,
  // dates or per-article objects: memory flat with the corpus).
  const { pmcids, handles, shas, rows, wholes, generated } = kept.drain(compareArticleIds);
  const n = pmcids.length;
  out.count = n;
  out.pmcid = (i) => pmcids[i]!;
  out.generatedIds.push(...generated);
  out.summaries = function* () {
    for (let i = 0; i < n; i++) yield store.get(handles[i]!);
  };
  out.load = (i) => {
    const whole = wholes?.[i];
    if (whole) return whole;
    const sha = shas.get(i);
    const cached = sha === null ? null : cache.loadArticle(sha);
    if (cached === null || 'error' in cached || cached.pmcid !== pmcids[i]) throw new Error(`${pmcids[i]}: its extraction is no longer in the cache`);
    // What the file lists fill in.
    return withFileList(cached, rows.get(i));
  };
  out.loadJson = (i) => {
    const sha = shas.get(i);
    if (wholes?.[i] || rows.has(i) || sha === null) return JSON.stringify(out.load(i));
    const json = cache.loadArticleJson(sha);
    // The same check as `load`'s, on the text: an extraction (not an error) of this article.
    if (json === null || !json.startsWith(`{"pmcid":${JSON.stringify(pmcids[i])},`)) throw new Error(`${pmcids[i]}: its extraction is no longer in the cache`);
    return json;
  };
  out.generatedIds.sort((a, b) => compareArticleIds(a.id, b.id));
  out.seconds = (performance.now() - started) / 1000;
  return out;
}
