/**
 * The one way the harvest asks GitHub's REST API: the API version and Accept GitHub documents, the optional
 * token, and the rate-limit rule (a used-up quota is this server's problem: 503, resolution.ts).
 */
import type { FetchResponse } from '../../fetcher.ts';
import type { Upstreams } from '../options.ts';
import { fetchLogged, type HarvestContext } from './http.ts';
import { codeHostRateLimit } from './resolution.ts';

const API_HEADERS = { 'X-GitHub-Api-Version': '2022-11-28' } as const;
const API_ACCEPT = 'application/vnd.github+json';

/**
 * GET one GitHub API URL (logged, once per assessment). Null when it failed (the log holds why; dependencyOutage
 * turns that into a 503).
 * @throws UpstreamUnavailableError when GitHub answers that this server's rate limit is used up.
 */
export async function githubGet(ctx: HarvestContext, purpose: string, url: string): Promise<FetchResponse | null> {
  const headers: Record<string, string> = { ...API_HEADERS };
  if (ctx.options.githubToken) headers.Authorization = `Bearer ${ctx.options.githubToken}`;
  const response = await fetchLogged(ctx, purpose, { url, accept: API_ACCEPT, headers });
  const limited = response ? codeHostRateLimit(response, ctx.options.upstreams) : null;
  if (limited) throw limited;
  return response;
}

/** `https://api.github.com/repos/{owner}/{repo}` under the configured API base. */
export function repoApiBase(upstreams: Upstreams, repository: { owner: string; repo: string }): string {
  return `${upstreams.github}/repos/${encodeURIComponent(repository.owner)}/${encodeURIComponent(repository.repo)}`;
}
