/**
 * Code-host harvesting (`useCodeHost`, fair.md §2.7; always for the software metrics): when the identifier or the
 * metadata names a GitHub repository, its REST record (`/repos/{owner}/{repo}`) and licence
 * (`/repos/{owner}/{repo}/license`) are read. They add a description, topics, dates and an SPDX licence to the
 * merged record. For the software metrics the repository tree is walked as well (code-files.ts).
 *
 * The code host is a service we depend on: a rate limit (403/429), a 5xx, a timeout or a failed connection is a
 * 503 of ours (resolution.ts), never a low score.
 */
import type { CodeHostEvidence, Metadata } from '../../../../../../contracts/fair/evidence.ts';
import { harvestCodeFiles } from './code-files.ts';
import { githubGet, repoApiBase } from './github-api.ts';
import { bodyJson, isOk, type HarvestContext } from './http.ts';
import { clean, cleanList, fieldsOf, type Harvested, isJson, type MetadataRecord } from './record.ts';

const REPO_PATH = /^\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?(?:[/?#].*)?$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `owner/repo` of the first GitHub repository URL among the candidates: under https://github.com (www. and http
 * too) or under the configured web address (`upstreams.githubWeb`, e.g. a GitHub Enterprise host or a test mock).
 */
export function githubRepository(candidates: readonly string[], githubWeb = 'https://github.com'): { owner: string; repo: string } | null {
  const bases = [/^https?:\/\/(?:www\.)?github\.com(?=\/)/i, new RegExp(`^${escapeRegExp(githubWeb.replace(/\/+$/, ''))}(?=/)`, 'i')];
  for (const candidate of candidates) {
    const text = candidate.trim();
    for (const base of bases) {
      const prefix = base.exec(text)?.[0];
      const match = prefix === undefined ? null : REPO_PATH.exec(text.slice(prefix.length));
      if (match) return { owner: match[1]!, repo: match[2]! };
    }
  }
  return null;
}

/** Repository URLs the object names: the identifier, code repository, identifiers and related resources. */
export function repositoryCandidates(identifier: string, metadata: Metadata): string[] {
  return [identifier, ...metadata.code_repository, ...metadata.object_identifier, ...metadata.related_resources.map((r) => r.related_resource)];
}

/**
 * Harvest the repository, or null when there is none or the API does not know it. `walkFiles` also walks the tree
 * for the software metrics.
 */
export async function harvestCodeHost(
  ctx: HarvestContext,
  candidates: readonly string[],
  { walkFiles = false }: { walkFiles?: boolean } = {},
): Promise<{ evidence: CodeHostEvidence; harvested: Harvested } | null> {
  const repository = githubRepository(candidates, ctx.options.upstreams.githubWeb);
  if (!repository) return null;
  const base = repoApiBase(ctx.options.upstreams, repository);
  const [repoResponse, licenceResponse, files] = await Promise.all([
    githubGet(ctx, 'code-host:repo', base),
    githubGet(ctx, 'code-host:license', `${base}/license`),
    walkFiles ? harvestCodeFiles(ctx, base) : Promise.resolve(null),
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
    licensePath: isJson(licenceDoc) ? clean(licenceDoc.path) : null,
    topics: cleanList(Array.isArray(repo.topics) ? repo.topics : []),
    language: clean(repo.language),
    files: files?.files ?? null,
    filesTruncated: files?.truncated ?? false,
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
      source: {
        method: 'code_host',
        standard: 'github',
        format: 'json',
        url: repoResponse.url,
        contentType: repoResponse.headers['content-type'] ?? null,
        namespaces: [],
        fields: fieldsOf(record),
      },
      record,
    },
  };
}
