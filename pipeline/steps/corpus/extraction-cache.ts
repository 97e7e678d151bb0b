/**
 * The per-article extraction cache (docs/corpus-extraction.md, "Incremental rebuilds"), kept between builds in
 * `<build-output>/cache/corpus/`:
 *
 *   articles/<k[0..2]>/<k>.json   one article's extraction, k = sha256(content hash, extractor, lexicon, bands)
 *   packages/<sha256>.json        a package's member list (member, content hash or what was wrong), so an
 *                                 unchanged package is not decompressed again
 *
 * The extractor version is a hash of the extraction code itself (pipeline/corpus/*.ts and the contracts it
 * fills), so any change of the code invalidates the cache without anyone remembering to bump a number; the
 * lexicon counts by the sha256 of its file, not by its declared version. Entries are written to a temporary
 * name and renamed, so a run that dies leaves whole entries or none; an entry that cannot be read is a miss.
 * After a successful build the entries it did not use are removed (`prune`); a failed run prunes nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExtractedArticle } from '../../corpus/extract.ts';
import { sha256Text } from '../../lib/hash.ts';

/** The cache's place inside the build output directory (beside `builds/` and `current`, never inside a build). */
export const CORPUS_CACHE_DIR = 'cache/corpus';

/** Bump when the layout of the cache directory or of an entry changes. */
const CACHE_FORMAT = '1';

const ROOT = join(import.meta.dirname, '../../..');
/** The files whose code decides what an article's extraction is. */
const EXTRACTOR_SOURCES = ['pipeline/corpus', 'contracts/corpus/documents.ts', 'contracts/corpus/article-id.ts', 'contracts/corpus/vocab.ts'];

let extractorHash: string | null = null;
/** A hash of the extraction code (see the file comment). */
export function extractorVersion(): string {
  if (extractorHash) return extractorHash;
  const h = createHash('sha256').update(`cache-format ${CACHE_FORMAT}\n`);
  const files: string[] = [];
  for (const rel of EXTRACTOR_SOURCES) {
    const abs = join(ROOT, rel);
    if (rel.endsWith('.ts')) files.push(rel);
    else for (const f of readdirSync(abs).filter((n) => n.endsWith('.ts')).sort()) files.push(`${rel}/${f}`);
  }
  for (const rel of files) h.update(`${rel}\n`).update(readFileSync(join(ROOT, rel))).update('\n');
  extractorHash = h.digest('hex');
  return extractorHash;
}

/** One member of a package as the last full read of it found it. */
export type PackageMemberRecord =
  | { kind: 'article'; member: string; sha256: string }
  | { kind: 'other'; member: string }
  | { kind: 'broken'; member: string | null; reason: string };

/** What the cache keeps per article: its extraction, or why its bytes are not an article. */
export type CachedExtraction = ExtractedArticle | { error: string };

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
  private readonly usedArticles = new Set<string>();
  private readonly usedPackages = new Set<string>();
  private readonly madeDirs = new Set<string>();

  /** `dir` null: nothing is kept (every article is extracted, nothing written). */
  constructor(
    readonly dir: string | null,
    lexiconSha256: string,
    bandOptions: unknown = {},
  ) {
    this.salt = `${extractorVersion()}\n${lexiconSha256}\n${JSON.stringify(bandOptions)}`;
  }

  /** The key of an article's extraction given the sha256 of its bytes. */
  key(contentSha256: string): string {
    return sha256Text(`${contentSha256}\n${this.salt}`);
  }

  private articlePath(key: string): string {
    return join(this.dir!, 'articles', key.slice(0, 3), `${key}.json`);
  }

  private packagePath(sha: string): string {
    return join(this.dir!, 'packages', `${sha}.json`);
  }

  getArticle(contentSha256: string): CachedExtraction | null {
    if (!this.dir) return null;
    const key = this.key(contentSha256);
    const article = readJson<CachedExtraction>(this.articlePath(key));
    if (article) {
      this.usedArticles.add(key);
      this.stats.hits++;
    }
    return article;
  }

  putArticle(contentSha256: string, article: CachedExtraction): void {
    this.stats.misses++;
    if (!this.dir) return;
    const key = this.key(contentSha256);
    this.usedArticles.add(key);
    this.write(this.articlePath(key), JSON.stringify(article));
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
    this.write(this.packagePath(sha256), JSON.stringify(members));
  }

  /** Removes the entries this run did not use; call only after the build succeeded. */
  prune(): void {
    if (!this.dir) return;
    const articles = join(this.dir, 'articles');
    if (existsSync(articles))
      for (const shard of readdirSync(articles)) {
        const names = readdirSync(join(articles, shard));
        let left = names.length;
        for (const name of names)
          if (!this.usedArticles.has(name.replace(/\.json$/, ''))) {
            rmSync(join(articles, shard, name), { force: true });
            this.stats.pruned++;
            left--;
          }
        if (left === 0) rmSync(join(articles, shard), { recursive: true, force: true });
      }
    const packages = join(this.dir, 'packages');
    if (existsSync(packages))
      for (const name of readdirSync(packages))
        if (!this.usedPackages.has(name.replace(/\.json$/, ''))) {
          rmSync(join(packages, name), { force: true });
          this.stats.pruned++;
        }
  }

  private write(path: string, text: string): void {
    const dir = join(path, '..');
    if (!this.madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.madeDirs.add(dir);
    }
    const tmp = `${path}.tmp-${process.pid}`;
    writeFileSync(tmp, text);
    renameSync(tmp, path);
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
