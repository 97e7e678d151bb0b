/**
 * Content negotiation (fair.md §2.3): the landing page, the origin URL and the PID URL are asked for XML,
 * schema.org JSON-LD and RDF with F-UJI's exact Accept strings; a DOI is asked for DataCite JSON (through the
 * DOI resolver when `useRegistry`, from the landing page otherwise) and, with `useRegistry`, looked up in the
 * DataCite REST API. All requests run in parallel; the results keep a fixed order so the merge is stable.
 */
import type { IdentifierEvidence } from '../../../../../../contracts/fair/evidence.ts';
import { extractDoi } from '../identifier.ts';
import { readDocument } from './documents.ts';
import { ACCEPT, fetchLogged, isOk, type HarvestContext } from './http.ts';
import type { Harvested } from './record.ts';

async function ask(ctx: HarvestContext, url: string, accept: string, label: string): Promise<Harvested | null> {
  const response = await fetchLogged(ctx, `negotiate:${label}`, { url, accept });
  return isOk(response) ? readDocument(ctx, response, 'content_negotiation', `${label} from ${url}`) : null;
}

async function dataciteRest(ctx: HarvestContext, doi: string): Promise<Harvested | null> {
  const url = `${ctx.options.upstreams.datacite}/dois/${doi}`;
  const response = await fetchLogged(ctx, 'registry:datacite-rest', { url });
  if (!isOk(response)) return null;
  // The REST API answers application/json (or vnd.api+json); read it as DataCite whatever the label.
  const typed = { ...response, headers: { ...response.headers, 'content-type': 'application/vnd.api+json' } };
  const harvested = await readDocument(ctx, typed, 'registry_rest', `DataCite REST for ${doi}`);
  if (harvested) harvested.source.contentType = response.headers['content-type'] ?? null;
  return harvested;
}

/** Every negotiated source for one object, in a fixed order: landing, origin, PID, DataCite JSON, DataCite REST. */
export async function negotiateAll(ctx: HarvestContext, identifier: IdentifierEvidence & { url: string }, landingUrl: string): Promise<Harvested[]> {
  const doi = identifier.scheme === 'doi' ? extractDoi(identifier.normalized) : null;
  const { useRegistry } = ctx.options;
  const targets = [landingUrl.replace(/#.*$/, '')];
  // Without the registry, a DOI's resolver is used to reach the landing page but never asked for metadata.
  const origin = identifier.url.replace(/#.*$/, '');
  if (!(doi && !useRegistry) && !targets.includes(origin)) targets.push(origin);

  const tasks: Promise<Harvested | null>[] = [];
  for (const [index, url] of targets.entries()) {
    const where = index === 0 ? 'landing' : 'origin';
    // XML first, as F-UJI asks; the DOI resolver is not asked for XML (the registry answers DataCite JSON instead).
    if (index === 0 || !doi) tasks.push(ask(ctx, url, ACCEPT.xml, `xml@${where}`));
    tasks.push(ask(ctx, url, ACCEPT.jsonld, `jsonld@${where}`));
    tasks.push(ask(ctx, url, ACCEPT.rdf, `rdf@${where}`));
  }
  if (doi) {
    tasks.push(ask(ctx, useRegistry ? origin : targets[0]!, ACCEPT.dataciteJson, `datacite@${useRegistry ? 'registry' : 'landing'}`));
    if (useRegistry) tasks.push(dataciteRest(ctx, doi));
  }
  const results = await Promise.all(tasks);
  return results.filter((r): r is Harvested => r !== null);
}
