/**
 * The repository behind a DataCite DOI, as F-UJI finds it (helper/repository_helper.py, metadata_provider_oai.py):
 *   1. the DataCite client id (`cern.zenodo`) → the re3data repository DOI (data/repodois.json, F-UJI's repodois.yaml);
 *   2. `{re3data}/api/beta/repositories?query=<DOI>` → the record's self link → the re3data XML record;
 *   3. when the record's repository URL is on the landing page's site: its metadata standards (metadataStandardURL)
 *      and APIs, and for an OAI-PMH API the `?verb=ListMetadataFormats` probe, whose `<schema>` values name more
 *      standards.
 * Only with `useRegistry` (F-UJI's use_datacite). v0.5 scores these standards in FsF-R1.3-01M; v0.8 logs them only.
 */
import { Parser } from 'htmlparser2';
import { z } from 'zod';
import type { RepositoryEvidence } from '../../../../../../contracts/fair/evidence.ts';
import repodoisFile from '../../data/repodois.json' with { type: 'json' };
import { ACCEPT, bodyText, fetchLogged, isOk, siteKey, type HarvestContext } from './http.ts';
import { clean } from './record.ts';

const CLIENTS: Readonly<Record<string, string>> = z.object({ clients: z.record(z.string(), z.string()) }).parse(repodoisFile).clients;

/** API types F-UJI keeps from a re3data record (RepositoryHelper.RE3DATA_APITYPES). */
const API_TYPES = new Set(['OAI-PMH', 'SOAP', 'SPARQL', 'SWORD', 'OpenDAP']);

interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  text: string;
}

/** Every element (local name, attributes, own text) of a small XML document, in document order. */
function xmlElements(text: string): XmlElement[] {
  const out: XmlElement[] = [];
  const stack: XmlElement[] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const element = { name: name.slice(name.indexOf(':') + 1), attrs, text: '' };
        out.push(element);
        stack.push(element);
      },
      ontext(chunk) {
        const top = stack.at(-1);
        if (top) top.text += chunk;
      },
      onclosetag() {
        stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(text);
  parser.end();
  return out;
}

const texts = (elements: readonly XmlElement[], name: string) =>
  elements
    .filter((e) => e.name === name)
    .map((e) => clean(e.text))
    .filter((t): t is string => t !== null);

/** `10.17616/R3QP53` from `https://doi.org/10.17616/R3QP53`. */
function shortDoi(doi: string): string {
  return doi.replace(/^https?:\/\/(?:dx\.)?doi\.org\//i, '').replace(/^doi:/i, '');
}

/** The re3data record and OAI-PMH formats of the repository behind a DataCite client, or null. */
export async function harvestRepository(ctx: HarvestContext, dataciteClient: string | null, landingUrl: string): Promise<RepositoryEvidence | null> {
  if (!ctx.options.useRegistry || !dataciteClient) return null;
  const re3dataDoi = CLIENTS[dataciteClient.toLowerCase()];
  if (!re3dataDoi) return null;
  const query = await fetchLogged(ctx, 're3data:query', {
    url: `${ctx.options.upstreams.re3data}/api/beta/repositories?query=${shortDoi(re3dataDoi)}`,
    accept: ACCEPT.xml,
  });
  const evidence: RepositoryEvidence = {
    dataciteClient,
    re3dataDoi,
    re3dataId: null,
    name: null,
    url: null,
    domainVerified: false,
    apis: [],
    standards: [],
    oaiSchemas: [],
  };
  if (!isOk(query)) return evidence;
  const self = xmlElements(bodyText(query)).find((e) => e.name === 'link' && e.attrs.href)?.attrs.href;
  if (!self) return evidence;
  const record = await fetchLogged(ctx, 're3data:record', { url: self, accept: ACCEPT.xml });
  if (!isOk(record)) return evidence;
  const elements = xmlElements(bodyText(record));
  evidence.re3dataId = texts(elements, 're3data.orgIdentifier')[0] ?? null;
  evidence.name = texts(elements, 'repositoryName')[0] ?? null;
  evidence.url = texts(elements, 'repositoryURL')[0] ?? null;
  // F-UJI ignores a record whose repository is on another site than the landing page (pangaea-data-publisher/fuji#592).
  evidence.domainVerified = evidence.url !== null && siteKey(evidence.url) !== null && siteKey(evidence.url) === siteKey(landingUrl);
  if (!evidence.domainVerified) {
    ctx.warnings.push(
      `re3data: the record of ${dataciteClient} names ${evidence.url ?? 'no repository URL'}, not this landing page's site; its standards and APIs are not used`,
    );
    return evidence;
  }
  evidence.apis = elements
    .filter((e) => e.name === 'api' && API_TYPES.has(e.attrs.apiType ?? ''))
    .map((e) => ({ type: e.attrs.apiType!, url: clean(e.text) ?? '' }))
    .filter((a) => a.url !== '');
  evidence.standards = texts(elements, 'metadataStandardURL');
  const oai = evidence.apis.find((a) => a.type === 'OAI-PMH');
  if (oai) {
    const formats = await fetchLogged(ctx, 'oai-pmh:ListMetadataFormats', { url: `${oai.url.split('?')[0]}?verb=ListMetadataFormats`, accept: ACCEPT.xml });
    if (isOk(formats)) {
      try {
        const listed = xmlElements(bodyText(formats));
        evidence.oaiSchemas = listed.filter((e) => e.name === 'metadataFormat').length ? texts(listed, 'schema') : [];
      } catch {
        ctx.warnings.push(`OAI-PMH: the ListMetadataFormats answer of ${oai.url} is not XML`);
      }
    }
  }
  return evidence;
}
