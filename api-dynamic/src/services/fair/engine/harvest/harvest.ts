/**
 * The harvest: from an identifier to the evidence object, in F-UJI's order (fair.md §2.2–2.8):
 *   1. recognise the identifier and fetch its landing page (redirects followed; a failure is the identifier's,
 *      ResolutionFailedError, or ours, UpstreamUnavailableError: resolution.ts);
 *   2. read the page: embedded JSON-LD, meta tags, `<link rel>` and the `Link` header;
 *   3. in parallel: content negotiation (landing, origin/PID, DataCite) and linksets → describedby documents;
 *   4. merge the records; add Signposting cite-as / license / type; harvest the code host (`useCodeHost`, and always
 *      for the software metrics, which also walk the repository's files);
 *   5. in parallel: probe the data links, check PIDs found in metadata (for URL inputs), and read the repository's
 *      re3data record and OAI-PMH formats (DataCite DOIs, `useRegistry`).
 * Every fetch goes through the injected Fetcher with the assessment's deadline signal.
 */
import type { ContentLink, Evidence, PidCheck, TypedLink } from '../../../../../../contracts/fair/evidence.ts';
import type { FetchError, Fetcher } from '../../fetcher.ts';
import { metricFile } from '../../metrics/load.ts';
import { fetchableUrl, parseIdentifier, tryParseIdentifier } from '../identifier.ts';
import type { AssessOptions } from '../options.ts';
import { harvestCodeHost, repositoryCandidates } from './code-host.ts';
import { fallbackContentLinks, probeDataLinks } from './data-links.ts';
import { readDocument } from './documents.ts';
import { embeddedSources } from './embedded.ts';
import { ACCEPT, bodyText, fetchLogged, mediaType, siteKey, type HarvestContext } from './http.ts';
import { looksJavascriptGenerated, parseLandingPage } from './landing-page.ts';
import { parseLinkHeader } from './link-header.ts';
import { expandLinksets, linkedDocuments } from './linked.ts';
import { negotiateAll } from './negotiate.ts';
import { dependencyOutage, landingFetchFailure, landingStatusFailure, nameServiceDown } from './resolution.ts';
import { harvestRepository } from './repository.ts';
import { cleanList, mergeRecords, type Harvested, type MetadataRecord } from './record.ts';

/** At most this many PIDs found in metadata are checked against their resolver. */
const MAX_PID_CHECKS = 2;

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** What Signposting links say about the object itself: cite-as PIDs, licences and types. */
function signpostingRecord(links: readonly TypedLink[]): MetadataRecord {
  const of = (rel: string) => links.filter((l) => l.rel === rel).map((l) => l.url);
  return {
    object_identifier: cleanList(of('cite-as')),
    license: cleanList(of('license')),
    object_type: cleanList(of('type').filter((url) => !/schema\.org\/AboutPage$/i.test(url))),
  };
}

async function checkPids(ctx: HarvestContext, candidates: readonly string[], landingUrl: string): Promise<PidCheck[]> {
  const pids = cleanList(candidates)
    .map((value) => tryParseIdentifier(value, ctx.options.upstreams))
    .filter((p) => p !== null && p.persistent && p.url !== null)
    .slice(0, MAX_PID_CHECKS);
  return Promise.all(
    pids.map(async (pid) => {
      const response = await fetchLogged(ctx, 'pid-check', { url: fetchableUrl(pid!.url!, ctx.options.upstreams), accept: ACCEPT.html });
      const resolved = response && response.status < 400 ? response.url : null;
      const verified = resolved !== null && response!.redirects.length > 0 && siteKey(resolved) === siteKey(landingUrl);
      return { pid: pid!.normalized, scheme: pid!.scheme, resolvedUrl: resolved, verified };
    }),
  );
}

/**
 * Harvest everything the metrics need about one identifier.
 * @throws ResolutionFailedError when the identifier is not one, or its landing page cannot be fetched.
 * @throws UpstreamUnavailableError when its resolver, DataCite or the code host cannot be reached (resolution.ts).
 */
export async function harvest(identifier: string, options: AssessOptions, fetcher: Fetcher, signal: AbortSignal): Promise<Evidence> {
  const parsed = parseIdentifier(identifier, options.upstreams);
  const ctx: HarvestContext = { fetcher, options, signal, log: [], warnings: [], memo: new Map() };

  // 1. resolution (whose fault a failure is: resolution.ts)
  let failure: FetchError | null = null;
  const landing = await fetchLogged(ctx, 'landing', { url: parsed.url, accept: ACCEPT.html }, (e) => (failure = e));
  if (!landing) {
    const lookupFailed = (failure as FetchError | null)?.reason === 'dns';
    throw landingFetchFailure(identifier, parsed, options.upstreams, failure, lookupFailed && (await nameServiceDown(fetcher, options.upstreams, signal)));
  }
  const refused = landingStatusFailure(identifier, parsed, options.upstreams, landing);
  if (refused) throw refused;
  if (landing.status === 410) ctx.warnings.push('the landing page answered 410 Gone (a tombstone page?)');
  const landingUrl = landing.url;
  const contentType = landing.headers['content-type'] ?? null;

  // 2. the landing page itself
  const headerLinks = landing.headers.link ? parseLinkHeader(landing.headers.link, landingUrl) : [];
  let embedded: Harvested[] = [];
  let htmlLinks: TypedLink[] = [];
  let javascriptPage = false;
  if (HTML_TYPES.has(mediaType(contentType))) {
    const page = await parseLandingPage(bodyText(landing), landingUrl, mediaType(contentType));
    embedded = await embeddedSources(ctx, page, landingUrl, contentType);
    htmlLinks = page.links;
    javascriptPage = looksJavascriptGenerated(page);
    if (javascriptPage) ctx.warnings.push('the landing page seems to be generated by JavaScript; nothing is rendered, so embedded metadata may be missing');
  } else if (landing.status < 300) {
    const direct = await readDocument(ctx, landing, 'content_negotiation', `landing ${landingUrl}`);
    if (direct) embedded = [direct];
  }

  // 3. negotiation, linksets and linked documents, in parallel
  const pageLinks = [...headerLinks, ...htmlLinks];
  const about = [landingUrl, parsed.url, parsed.normalized];
  const [negotiated, linked] = await Promise.all([
    negotiateAll(ctx, parsed, landingUrl),
    expandLinksets(ctx, pageLinks, about).then(async (extra) => {
      const links = [...pageLinks, ...extra];
      return { links, documents: await linkedDocuments(ctx, links, landingUrl) };
    }),
  ]);
  const typedLinks = linked.links;

  // 4. merge
  const harvested: Harvested[] = [...embedded, ...negotiated, ...linked.documents];
  const records = [...harvested.map((h) => h.record), signpostingRecord(typedLinks)];
  let metadata = mergeRecords(records);
  let codeHost: Evidence['codeHost'] = null;
  // The software metrics are evaluated from the code host's files, so they harvest it whatever useCodeHost says.
  const software = metricFile(options.metricVersion).target === 'software';
  if (options.useCodeHost || software) {
    const found = await harvestCodeHost(ctx, repositoryCandidates(parsed.input, metadata), { walkFiles: software });
    if (found) {
      codeHost = found.evidence;
      harvested.push(found.harvested);
      // F-UJI reads its GitHub harvest only in the software evaluators: the data metrics never see it
      if (software) metadata = mergeRecords([...records, found.harvested.record]);
    }
  }
  // A registry or code host that did not answer would fail metrics for a reason that is not the object's.
  const outage = dependencyOutage(ctx.log, options.upstreams);
  if (outage) throw outage;
  const fallback: ContentLink[] = fallbackContentLinks(metadata, typedLinks);
  metadata.object_content_identifier.push(...fallback);
  // F-UJI: one data file without a size takes the object's size
  const [only] = metadata.object_content_identifier;
  if (metadata.object_content_identifier.length === 1 && only && !only.size && metadata.object_size) only.size = metadata.object_size;

  // 5. data links, PIDs found in metadata, and the repository's re3data record (through the DataCite client id)
  const client = harvested.find((h) => h.dataciteClient)?.dataciteClient ?? null;
  const [dataLinks, pidChecks, repository] = await Promise.all([
    probeDataLinks(ctx, metadata.object_content_identifier),
    parsed.persistent ? Promise.resolve<PidCheck[]>([]) : checkPids(ctx, metadata.object_identifier, landingUrl),
    harvestRepository(ctx, client, landingUrl),
  ]);
  if (signal.aborted) ctx.warnings.push(`the assessment deadline (${options.deadlineMs} ms) passed; later fetches were abandoned`);

  return {
    identifier: parsed,
    resolution: {
      requestedUrl: parsed.url,
      landingUrl,
      status: landing.status,
      redirects: landing.redirects,
      pidRedirected: parsed.persistent && landing.redirects.length > 0,
      contentType,
      javascriptPage,
    },
    sources: harvested.map((h) => h.source),
    metadata,
    namespaces: cleanList(harvested.flatMap((h) => h.source.namespaces)),
    typedLinks,
    dataLinks,
    pidChecks,
    codeHost,
    repository,
    fetches: ctx.log,
    warnings: ctx.warnings,
  };
}
