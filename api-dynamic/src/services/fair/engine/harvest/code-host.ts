/**
 * Code-host harvesting (`useCodeHost`, fair.md §2.7): when the identifier or the metadata names a GitHub
 * repository, its REST record (`/repos/{owner}/{repo}`) and licence (`/repos/{owner}/{repo}/license`) are read.
 * They add a description, topics, dates and an SPDX licence to the merged record.
 */
import type { CodeHostEvidence, Metadata } from '../../../../../../contracts/fair/evidence.ts';
import { bodyJson, fetchLogged, isOk, type HarvestContext } from './http.ts';
import { clean, cleanList, fieldsOf, type Harvested, type MetadataRecord } from './record.ts';

const GITHUB_REPO = /^https?:\/\/(?:www\.)?github\.com\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?(?:[/?#].*)?$/;

/** `owner/repo` of the first GitHub repository URL among the candidates. */
export function githubRepository(candidates: readonly string[]): { owner: string; repo: string } | null {
  for (const candidate of candidates) {
    const match = GITHUB_REPO.exec(candidate.trim());
    if (match) return { owner: match[1]!, repo: match[2]! };
  }
  return null;
}

/** Repository URLs the object names: the identifier, code repository, identifiers and related resources. */
export function repositoryCandidates(identifier: string, metadata: Metadata): string[] {
  return [identifier, ...metadata.code_repository, ...metadata.object_identifier, ...metadata.related_resources.map((r) => r.related_resource)];
}

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Harvest the repository, or null when there is none or the API does not answer. */
export async function harvestCodeHost(ctx: HarvestContext, candidates: readonly string[]): Promise<{ evidence: CodeHostEvidence; harvested: Harvested } | null> {
  const repository = githubRepository(candidates);
  if (!repository) return null;
  const base = `${ctx.options.upstreams.github}/repos/${repository.owner}/${repository.repo}`;
  const headers: Record<string, string> = { 'X-GitHub-Api-Version': '2022-11-28' };
  if (ctx.options.githubToken) headers.Authorization = `Bearer ${ctx.options.githubToken}`;
  const accept = 'application/vnd.github+json';
  const [repoResponse, licenceResponse] = await Promise.all([
    fetchLogged(ctx, 'code-host:repo', { url: base, accept, headers }),
    fetchLogged(ctx, 'code-host:license', { url: `${base}/license`, accept, headers }),
  ]);
  if (!isOk(repoResponse)) {
    const status = (repoResponse as { status?: number } | null)?.status;
    ctx.warnings.push(`code host: ${base} answered ${status ?? 'nothing'}`);
    return null;
  }
  const repo = bodyJson(ctx, repoResponse, 'GitHub repository');
  if (!isJson(repo)) return null;
  const licenceDoc = isOk(licenceResponse) ? bodyJson(ctx, licenceResponse, 'GitHub licence') : null;
  const licence = isJson(licenceDoc) && isJson(licenceDoc.license) ? licenceDoc.license : isJson(repo.license) ? repo.license : null;
  const spdx = licence && typeof licence.spdx_id === 'string' && licence.spdx_id !== 'NOASSERTION' ? licence.spdx_id : null;
  const htmlUrl = clean(repo.html_url) ?? `https://github.com/${repository.owner}/${repository.repo}`;
  const evidence: CodeHostEvidence = {
    repository: htmlUrl,
    fullName: clean(repo.full_name),
    description: clean(repo.description),
    licenseSpdx: spdx,
    licenseName: licence ? clean(licence.name) : null,
    topics: cleanList(Array.isArray(repo.topics) ? repo.topics : []),
    language: clean(repo.language),
  };
  const owner = isJson(repo.owner) ? clean(repo.owner.login) : null;
  const record: MetadataRecord = {
    object_identifier: [htmlUrl],
    title: clean(repo.name),
    summary: evidence.description,
    creator: owner ? [owner] : [],
    keywords: evidence.topics,
    license: spdx ? [spdx] : [],
    created_date: clean(repo.created_at),
    modified_date: clean(repo.pushed_at) ?? clean(repo.updated_at),
    object_type: ['SoftwareSourceCode'],
    code_repository: [htmlUrl],
  };
  return {
    evidence,
    harvested: {
      source: { method: 'code_host', standard: 'github', format: 'json', url: repoResponse.url, contentType: repoResponse.headers['content-type'] ?? null, namespaces: [], fields: fieldsOf(record) },
      record,
    },
  };
}
