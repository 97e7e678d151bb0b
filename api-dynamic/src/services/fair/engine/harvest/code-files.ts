/**
 * The repository walk the software metrics need (F-UJI GithubHarvester.retrieve_all): list the root with the
 * contents API (`/repos/{owner}/{repo}/contents/`), descend into every directory, sort each file path into a kind
 * (vocab/software-files.ts), and read the content of the kinds F-UJI parses in full (README, Jenkinsfile, GitHub
 * Actions workflows, licence files, pom.xml). Only what the metrics use is kept: the path, the name, and which
 * FRSM-13 keywords the file holds.
 *
 * F-UJI walks one directory at a time; here each level of the tree is listed in parallel (at most CONCURRENCY
 * requests at once), which asks for the same URLs. The walk stops after MAX_DIRECTORIES listings and
 * MAX_FILES_READ contents, so a huge monorepo cannot exhaust the code host's quota or the deadline.
 */
import type { CodeFile } from '../../../../../../contracts/fair/evidence.ts';
import type { FetchResponse } from '../../fetcher.ts';
import { keywordsIn, softwareFileKind } from '../vocab/software-files.ts';
import { githubGet } from './github-api.ts';
import { bodyJson, bodyText, type HarvestContext } from './http.ts';
import { isJson } from './record.ts';

/** Directory listings asked at most (the root included). */
export const MAX_DIRECTORIES = 200;
/** File contents read at most. */
export const MAX_FILES_READ = 50;
/** Requests to the code host in flight at once during the walk. */
const CONCURRENCY = 8;

interface Entry {
  name: string;
  path: string;
  type: string;
  /** The `ref` of the entry's API URL (GitHub lists `…/contents/README.md?ref=master`). */
  ref: string | null;
}

/** `a/b c` → `a/b%20c`: each segment encoded, the slashes kept. */
const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

function entriesOf(ctx: HarvestContext, response: FetchResponse | null, where: string): Entry[] {
  // No answer at all is in the fetch log (dependencyOutage makes it a 503); a 404 of a listed directory is the
  // repository changing under us, not an outage.
  if (response === null) return [];
  if (response.status < 200 || response.status >= 300) {
    ctx.warnings.push(`code host: listing ${where || 'the repository root'} answered ${response.status}`);
    return [];
  }
  const listing = bodyJson(ctx, response, `GitHub listing of ${where || '/'}`);
  if (!Array.isArray(listing)) return [];
  return listing.filter(isJson).flatMap((item): Entry[] => {
    if (typeof item.name !== 'string' || typeof item.path !== 'string' || typeof item.type !== 'string') return [];
    let ref: string | null = null;
    try {
      ref = typeof item.url === 'string' ? new URL(item.url).searchParams.get('ref') : null;
    } catch {
      ref = null;
    }
    return [{ name: item.name, path: item.path, type: item.type, ref }];
  });
}

/** Run `work` over `items` with at most `limit` in flight; results in input order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The decoded text of a contents-API file object, or null (no base64 content: too large, a symlink …). */
function fileText(ctx: HarvestContext, response: FetchResponse | null, path: string): string | null {
  if (response === null) return null;
  if (response.status < 200 || response.status >= 300) {
    ctx.warnings.push(`code host: reading ${path} answered ${response.status}`);
    return null;
  }
  const doc = bodyJson(ctx, response, `GitHub file ${path}`);
  if (!isJson(doc) || typeof doc.content !== 'string' || doc.encoding !== 'base64') return null;
  return bodyText({ ...response, headers: {}, body: Buffer.from(doc.content, 'base64') });
}

/**
 * Walk the repository whose API base is `apiBase` (`…/repos/{owner}/{repo}`).
 * @throws UpstreamUnavailableError when the code host's rate limit is used up (githubGet).
 */
export async function harvestCodeFiles(ctx: HarvestContext, apiBase: string): Promise<{ files: CodeFile[]; truncated: boolean }> {
  const found: { entry: Entry; kind: CodeFile['kind']; readContent: boolean }[] = [];
  let level = [''];
  let listed = 0;
  let truncated = false;
  while (level.length > 0) {
    if (listed + level.length > MAX_DIRECTORIES) {
      level = level.slice(0, MAX_DIRECTORIES - listed);
      truncated = true;
    }
    listed += level.length;
    const listings = await mapLimited(level, CONCURRENCY, async (dir) =>
      entriesOf(ctx, await githubGet(ctx, 'code-host:contents', `${apiBase}/contents/${encodePath(dir)}`), dir),
    );
    const next: string[] = [];
    for (const entry of listings.flat()) {
      if (entry.type === 'dir') next.push(entry.path);
      else {
        const kind = softwareFileKind(entry.path);
        if (kind) found.push({ entry, kind: kind.kind, readContent: kind.readContent });
      }
    }
    if (truncated || ctx.signal.aborted) break;
    level = next;
  }
  if (truncated) ctx.warnings.push(`code host: the repository has more than ${MAX_DIRECTORIES} directories; only the first ${MAX_DIRECTORIES} were listed`);

  const toRead = found.filter((f) => f.readContent).slice(0, MAX_FILES_READ);
  if (found.filter((f) => f.readContent).length > MAX_FILES_READ) ctx.warnings.push(`code host: only the first ${MAX_FILES_READ} files of interest were read`);
  const texts = new Map<string, string | null>();
  await mapLimited(toRead, CONCURRENCY, async ({ entry }) => {
    const url = `${apiBase}/contents/${encodePath(entry.path)}${entry.ref ? `?ref=${encodeURIComponent(entry.ref)}` : ''}`;
    texts.set(entry.path, fileText(ctx, await githubGet(ctx, 'code-host:file', url), entry.path));
  });
  const files = found.map(({ entry, kind }): CodeFile => {
    const text = texts.get(entry.path) ?? null;
    return {
      kind,
      path: entry.path,
      name: entry.name,
      read: text !== null,
      keywords: keywordsIn(text === null ? [entry.name, entry.path] : [entry.name, entry.path, text]),
    };
  });
  return { files, truncated };
}
