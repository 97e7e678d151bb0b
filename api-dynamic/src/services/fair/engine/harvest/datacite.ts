/**
 * DataCite JSON → reference-schema record (fair.md §2.6). The same mapping reads DOI content negotiation
 * (`application/vnd.datacite.datacite+json`) and the REST API's `data.attributes`, which share field names.
 */
import type { RelatedResource } from '../../../../../../contracts/fair/evidence.ts';
import { asArray, clean, cleanList, isJson, type Json, type MetadataRecord } from './record.ts';

const nodes = (value: unknown): Json[] => asArray(value).filter(isJson);

/** The DataCite record inside a REST response (`data.attributes`) or the negotiated document itself. */
export function dataciteAttributes(doc: unknown): Json | null {
  if (!isJson(doc)) return null;
  const data = doc.data;
  if (isJson(data) && isJson(data.attributes)) return data.attributes;
  return typeof doc.doi === 'string' || typeof doc.id === 'string' ? doc : null;
}

/** The DataCite client (repository) id, e.g. `cern.zenodo`, when the document names it. */
export function dataciteClient(doc: unknown): string | null {
  if (!isJson(doc)) return null;
  const rel = isJson(doc.data) && isJson(doc.data.relationships) ? doc.data.relationships : null;
  const client = rel && isJson(rel.client) && isJson(rel.client.data) ? rel.client.data.id : (doc.clientId ?? doc.client_id);
  return typeof client === 'string' ? client : null;
}

function dateOf(dates: Json[], type: string): string | null {
  return clean(dates.find((d) => String(d.dateType).toLowerCase() === type.toLowerCase())?.date);
}

/** Map a DataCite JSON document (negotiated or REST) to a record; empty when it is not DataCite JSON. */
export function mapDataCite(doc: unknown): MetadataRecord {
  const a = dataciteAttributes(doc);
  if (!a) return {};
  const doi = clean(a.doi);
  const dates = nodes(a.dates);
  const contributors = nodes(a.contributors);
  const descriptions = nodes(a.descriptions);
  const abstract = descriptions.find((d) => d.descriptionType === 'Abstract') ?? descriptions[0];
  const rights = cleanList(nodes(a.rightsList).map((r) => r.rightsUri ?? r.rights));
  const types = isJson(a.types) ? a.types : {};
  const related: RelatedResource[] = nodes(a.relatedIdentifiers)
    .map((r) => ({ related_resource: clean(r.relatedIdentifier) ?? '', relation_type: clean(r.relationType) ?? 'related' }))
    .filter((r) => r.related_resource !== '');
  const publisher = isJson(a.publisher) ? a.publisher.name : a.publisher;
  return {
    object_identifier: cleanList([clean(a.id), doi ? `https://doi.org/${doi}` : null, ...nodes(a.identifiers).map((i) => i.identifier)]),
    title: clean(nodes(a.titles)[0]?.title),
    creator: cleanList(nodes(a.creators).map((c) => c.name)),
    contributor: cleanList(contributors.filter((c) => c.contributorType !== 'RightsHolder').map((c) => c.name)),
    right_holder: cleanList(contributors.filter((c) => c.contributorType === 'RightsHolder').map((c) => c.name)),
    publisher: cleanList([publisher]),
    publication_date: dateOf(dates, 'Available') ?? clean(a.publicationYear),
    created_date: dateOf(dates, 'Created'),
    modified_date: dateOf(dates, 'Updated'),
    accepted_date: dateOf(dates, 'Accepted'),
    submitted_date: dateOf(dates, 'Submitted'),
    object_type: cleanList([types.resourceTypeGeneral]),
    summary: clean(abstract?.description),
    keywords: cleanList(nodes(a.subjects).map((s) => s.subject)),
    // DataCite's rightsList carries licences and access rights together; A1 separates them (fair.md §2.6, §2.13).
    license: rights,
    access_level: rights,
    related_resources: related,
    object_content_identifier: cleanList(asArray(a.contentUrl)).map((url) => ({
      url,
      type: clean(asArray(a.formats)[0]),
      size: clean(asArray(a.sizes)[0]),
      source: 'datacite:contentUrl',
    })),
    object_size: clean(asArray(a.sizes)[0]),
    object_format: cleanList(asArray(a.formats)),
    language: clean(a.language),
    version: clean(a.version),
  };
}
