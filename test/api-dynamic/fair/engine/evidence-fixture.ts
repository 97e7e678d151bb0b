/** Hand-made evidence for metric unit tests: a plain-URL object about which nothing was found. */
import { emptyMetadata, evidenceSchema, type DataLink, type Evidence, type MetadataSource } from '../../../../contracts/fair/evidence.ts';

/** A fresh evidence object: https URL input, resolved without redirect, no sources, no links. */
export function bareEvidence(): Evidence {
  return evidenceSchema.parse({
    identifier: {
      input: 'https://repo.example/item/1',
      normalized: 'https://repo.example/item/1',
      scheme: 'url',
      schemes: ['url'],
      persistent: false,
      url: 'https://repo.example/item/1',
    },
    resolution: {
      requestedUrl: 'https://repo.example/item/1',
      landingUrl: 'https://repo.example/item/1',
      status: 200,
      redirects: [],
      pidRedirected: false,
      contentType: 'text/html',
      javascriptPage: false,
    },
    sources: [],
    metadata: emptyMetadata(),
    namespaces: [],
    typedLinks: [],
    dataLinks: [],
    pidChecks: [],
    codeHost: null,
    fetches: [],
    warnings: [],
  });
}

/** Evidence for a DOI that its resolver redirected. */
export function doiEvidence(): Evidence {
  const evidence = bareEvidence();
  evidence.identifier = {
    input: '10.1234/abc',
    normalized: 'https://doi.org/10.1234/abc',
    scheme: 'doi',
    schemes: ['doi', 'handle'],
    persistent: true,
    url: 'https://doi.org/10.1234/abc',
  };
  evidence.resolution = {
    ...evidence.resolution,
    requestedUrl: 'https://doi.org/10.1234/abc',
    redirects: ['https://doi.org/10.1234/abc'],
    pidRedirected: true,
  };
  return evidence;
}

export function source(partial: Partial<MetadataSource>): MetadataSource {
  return {
    method: 'json_in_html',
    standard: 'schemaorg',
    format: 'json-ld',
    url: 'https://repo.example/item/1',
    contentType: 'text/html',
    namespaces: [],
    fields: ['title'],
    ...partial,
  };
}

export function dataLink(partial: Partial<DataLink>): DataLink {
  return {
    url: 'https://repo.example/files/data.csv',
    claimedType: null,
    claimedSize: null,
    scheme: 'https',
    persistent: false,
    probed: true,
    status: 200,
    headerType: null,
    headerLength: null,
    error: null,
    ...partial,
  };
}
