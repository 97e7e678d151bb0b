/**
 * What the FAIR engine learned about one object before judging it: the parsed identifier, how it resolved,
 * every metadata source it read, the merged metadata, typed links, data links and the log of every fetch.
 * Metrics read only this object (never the network), so a metric test can be unit-tested with a hand-made
 * evidence object, and a user can see in an assessment's `details.evidence` why a metric passed or failed.
 * Field names of the merged metadata follow F-UJI's reference schema (research/fair.md §2.4, §2.16) so the
 * mapping tables there read directly onto this object.
 */
import { z } from 'zod';
import { described } from '../common/describe.ts';

/** How a metadata record was obtained (F-UJI's offering methods, fair.md §2.3–2.4). */
export const HARVEST_METHODS = [
  'json_in_html', // <script type="application/ld+json"> in the landing page
  'meta_tag', // Dublin Core, Highwire citation_* <meta> tags
  'rdfa', // RDFa in the page; OpenGraph og:* counts here, as in F-UJI
  'microdata', // schema.org itemscope/itemprop items, mapped like JSON-LD
  'content_negotiation', // the landing or PID URL asked for a metadata type with Accept
  'typed_link', // a <link rel="alternate|meta|metadata"> document
  'signposting', // a FAIR Signposting describedby link (Link header, <link> or linkset)
  'registry_rest', // the DataCite REST API
  'code_host', // the GitHub REST API
] as const;
export type HarvestMethod = (typeof HARVEST_METHODS)[number];

/** Serialisations the engine parses. `rdf` = any RDF graph; JSON-LD is also RDF but kept apart for F4/I1. */
export const METADATA_FORMATS = ['json-ld', 'html-meta', 'xml', 'json', 'rdf'] as const;

export const identifierEvidenceSchema = z.object(
  described(
    {
      /** The identifier exactly as given (trimmed). */
      input: z.string(),
      /** Canonical form: `https://doi.org/10.1234/abc` for a DOI, the URL itself for a URL. */
      normalized: z.string(),
      /** Preferred scheme: doi, handle, ark, purl, urn, w3id, identifiers.org prefix, uuid, hash or url. */
      scheme: z.string(),
      /** Every scheme the identifier matched, preferred first. */
      schemes: z.array(z.string()),
      /** A PID scheme (fair.md §2.1 VALID_PIDS or any identifiers.org prefix). */
      persistent: z.boolean(),
      /** URL the engine fetches to resolve the identifier; null for schemes without a resolver (uuid, hash). */
      url: z.string().nullable(),
    },
    {
      input: 'The identifier exactly as given (trimmed).',
      normalized: 'Canonical form: https://doi.org/10.1234/abc for a DOI, the URL itself for a URL.',
      scheme: 'Preferred scheme: doi, handle, ark, purl, urn, w3id, an identifiers.org prefix, uuid, hash or url.',
      schemes: 'Every scheme the identifier matched, preferred first.',
      persistent: 'Whether the scheme is a persistent identifier scheme (DOI, Handle, ARK, PURL, URN, w3id, any identifiers.org prefix).',
      url: 'URL the engine fetched to resolve the identifier; null for schemes without a resolver (uuid, hash).',
    },
  ),
);
export type IdentifierEvidence = z.infer<typeof identifierEvidenceSchema>;

export const resolutionSchema = z.object(
  described(
    {
      requestedUrl: z.string(),
      /** The landing page after redirects. */
      landingUrl: z.string(),
      status: z.number().int(),
      /** URLs visited before the landing page. */
      redirects: z.array(z.string()),
      /** The identifier is a PID and its resolver answered with a redirect (F1-02MD-2 "registered"). */
      pidRedirected: z.boolean(),
      contentType: z.string().nullable(),
      /** The page has more script than text (F-UJI's "Landing page seems to be JavaScript generated"). */
      javascriptPage: z.boolean(),
    },
    {
      requestedUrl: 'The URL first requested (the resolver URL of a PID, or the URL given).',
      landingUrl: 'The landing page after redirects.',
      status: 'HTTP status of the landing page.',
      redirects: 'URLs visited before the landing page, in order.',
      pidRedirected: 'True when the identifier is a PID and its resolver answered with a redirect (test FsF-F1-02MD-2, "registered").',
      contentType: 'Content-Type of the landing page; null when it sent none.',
      javascriptPage:
        'True when the page has more script than text (F-UJI: "Landing page seems to be JavaScript generated"): metadata added by scripts is not seen.',
    },
  ),
);
export type Resolution = z.infer<typeof resolutionSchema>;

export const fetchLogEntrySchema = z.object(
  described(
    {
      /** Why the engine asked (landing, negotiate:ld+json, describedby, data-link …). */
      purpose: z.string(),
      method: z.enum(['GET', 'HEAD']),
      url: z.string(),
      accept: z.string().nullable(),
      status: z.number().int().nullable(),
      contentType: z.string().nullable(),
      /** A FetchFailure reason when the fetch itself failed (fetcher.ts), else null. */
      error: z.string().nullable(),
      ms: z.number().nonnegative(),
    },
    {
      purpose: 'Why the engine asked (landing, negotiate:ld+json, describedby, data-link…).',
      method: 'HTTP method used.',
      url: 'URL asked.',
      accept: 'Accept header sent; null when none.',
      status: 'HTTP status answered; null when the fetch failed before an answer.',
      contentType: 'Content-Type answered; null when none.',
      error: 'Why the fetch itself failed (timeout, DNS, refused, too large, blocked address…); null when it got an answer.',
      ms: 'How long the fetch took, in milliseconds.',
    },
  ),
);
export type FetchLogEntry = z.infer<typeof fetchLogEntrySchema>;

export const metadataSourceSchema = z.object(
  described(
    {
      method: z.enum(HARVEST_METHODS),
      /** The standard the record is written in: schemaorg, dublin-core, highwire, opengraph, datacite, iso19139, … */
      standard: z.string().nullable(),
      format: z.enum(METADATA_FORMATS),
      url: z.string(),
      contentType: z.string().nullable(),
      /** Namespaces the record declares (JSON-LD @context, XML xmlns and schemaLocation, DC schema links). */
      namespaces: z.array(z.string()),
      /** Reference-schema fields the record supplied (empty for a record that parsed but mapped nothing). */
      fields: z.array(z.string()),
    },
    {
      method:
        'How the record was obtained: json_in_html, meta_tag, rdfa, microdata, content_negotiation, typed_link, signposting, registry_rest (DataCite) or code_host (GitHub).',
      standard: 'The standard the record is written in (schemaorg, dublin-core, highwire, opengraph, datacite, iso19139…); null when unknown.',
      format: 'Serialisation parsed: json-ld, html-meta, xml, json or rdf.',
      url: 'Where the record was read.',
      contentType: 'Content-Type of the record; null when none.',
      namespaces: 'Namespaces the record declares (JSON-LD @context, XML xmlns and schemaLocation, DC schema links).',
      fields: 'Reference-schema fields the record supplied (empty for a record that parsed but mapped nothing).',
    },
  ),
);
export type MetadataSource = z.infer<typeof metadataSourceSchema>;

export const relatedResourceSchema = z.object(
  described(
    {
      related_resource: z.string(),
      /** Relation type as the source gave it (DataCite relationType, DC element, schema.org property). */
      relation_type: z.string(),
    },
    {
      related_resource: 'The related resource (an identifier or URL).',
      relation_type: 'Relation type as the source gave it (DataCite relationType, DC element, schema.org property).',
    },
  ),
);
export type RelatedResource = z.infer<typeof relatedResourceSchema>;

export const contentLinkSchema = z.object(
  described(
    {
      url: z.string(),
      /** MIME type claimed by the metadata. */
      type: z.string().nullable(),
      /** Size claimed by the metadata, as given (bytes or a text such as "41 datasets"). */
      size: z.string().nullable(),
      /** Where the link came from: schemaorg, datacite, signposting:item … */
      source: z.string(),
    },
    {
      url: 'Link to the data (a file or a download).',
      type: 'MIME type the metadata claims; null when it claims none.',
      size: 'Size the metadata claims, as given (bytes or a text such as "41 datasets"); null when none.',
      source: 'Where the link came from: schemaorg, datacite, signposting:item…',
    },
  ),
);
export type ContentLink = z.infer<typeof contentLinkSchema>;

/** The merged metadata record (F-UJI's reference schema; lists are unioned, the first scalar wins). */
export const metadataSchema = z.object(
  described(
    {
      object_identifier: z.array(z.string()),
      title: z.string().nullable(),
      creator: z.array(z.string()),
      contributor: z.array(z.string()),
      publisher: z.array(z.string()),
      right_holder: z.array(z.string()),
      publication_date: z.string().nullable(),
      created_date: z.string().nullable(),
      modified_date: z.string().nullable(),
      accepted_date: z.string().nullable(),
      submitted_date: z.string().nullable(),
      object_type: z.array(z.string()),
      summary: z.string().nullable(),
      keywords: z.array(z.string()),
      license: z.array(z.string()),
      access_level: z.array(z.string()),
      /** schema.org isAccessibleForFree. */
      access_free: z.boolean().nullable(),
      related_resources: z.array(relatedResourceSchema),
      object_content_identifier: z.array(contentLinkSchema),
      measured_variable: z.array(z.string()),
      object_size: z.string().nullable(),
      object_format: z.array(z.string()),
      language: z.string().nullable(),
      version: z.string().nullable(),
      provenance: z.array(z.string()),
      /** The repository the record names as its code (schema.org codeRepository, GitHub). */
      code_repository: z.array(z.string()),
    },
    {
      object_identifier: 'Identifiers of the object the metadata states.',
      title: 'Title; null when no source gave one.',
      creator: 'Creators (authors), by name.',
      contributor: 'Contributors, by name.',
      publisher: 'Publishers.',
      right_holder: 'Rights holders.',
      publication_date: 'Publication date as stated; null when none.',
      created_date: 'Creation date as stated; null when none.',
      modified_date: 'Last modification date as stated; null when none.',
      accepted_date: 'Acceptance date as stated; null when none.',
      submitted_date: 'Submission date as stated; null when none.',
      object_type: 'Resource types (e.g. Dataset).',
      summary: 'Description or abstract; null when none.',
      keywords: 'Keywords and subjects.',
      license: 'Licences (URLs or names).',
      access_level: 'Access rights as stated (e.g. public, embargoed, restricted).',
      access_free: 'schema.org isAccessibleForFree; null when not stated.',
      related_resources: 'Related resources with their relation type.',
      object_content_identifier: 'Links to the data content, with the type and size the metadata claims.',
      measured_variable: 'Variables measured, as stated.',
      object_size: 'Size of the object as stated; null when none.',
      object_format: 'File formats (MIME types) as stated.',
      language: 'Language as stated; null when none.',
      version: 'Version as stated; null when none.',
      provenance: 'Provenance statements (e.g. wasGeneratedBy, isBasedOn).',
      code_repository: 'The repository the record names as its code (schema.org codeRepository, GitHub).',
    },
  ),
);
export type Metadata = z.infer<typeof metadataSchema>;
export type MetadataKey = keyof Metadata;

export const typedLinkSchema = z.object(
  described(
    {
      url: z.string(),
      /** One relation (a space-separated rel is split into several links). Lower-cased. */
      rel: z.string(),
      type: z.string().nullable(),
      profile: z.string().nullable(),
      anchor: z.string().nullable(),
      source: z.enum(['header', 'html', 'linkset']),
    },
    {
      url: 'Link target.',
      rel: 'One relation (a space-separated rel is split into several links), lower-cased: describedby, cite-as, item, license…',
      type: 'Media type the link states; null when none.',
      profile: 'Profile the link states; null when none.',
      anchor: 'Anchor (the resource the link is about) when not the page itself; null otherwise.',
      source: 'Where the link was found: the Link header, an HTML <link>, or a linkset.',
    },
  ),
);
export type TypedLink = z.infer<typeof typedLinkSchema>;

export const dataLinkSchema = z.object(
  described(
    {
      url: z.string(),
      claimedType: z.string().nullable(),
      claimedSize: z.string().nullable(),
      /** URL scheme (http, https, ftp …). */
      scheme: z.string(),
      /** The link itself is a PID (e.g. a DOI). */
      persistent: z.boolean(),
      /** The link was probed (HEAD, or a 1-byte ranged GET when HEAD is refused); false past the cap. */
      probed: z.boolean(),
      status: z.number().int().nullable(),
      headerType: z.string().nullable(),
      headerLength: z.number().int().nullable(),
      error: z.string().nullable(),
    },
    {
      url: 'Link to the data.',
      claimedType: 'MIME type the metadata claims; null when none.',
      claimedSize: 'Size the metadata claims, as given; null when none.',
      scheme: 'URL scheme (http, https, ftp…).',
      persistent: 'Whether the link itself is a PID (e.g. a DOI).',
      probed: 'Whether the link was probed (HEAD, or a 1-byte ranged GET when HEAD is refused); false past the cap of links probed.',
      status: 'HTTP status of the probe; null when not probed or it failed.',
      headerType: 'Content-Type the probe got; null when none.',
      headerLength: 'Content-Length the probe got, in bytes; null when none.',
      error: 'Why the probe failed; null when it did not.',
    },
  ),
);
export type DataLink = z.infer<typeof dataLinkSchema>;

/** A PID found in metadata (cite-as, identifier) checked against its resolver (F1-02MD-2 for URL inputs). */
export const pidCheckSchema = z.object(
  described(
    {
      pid: z.string(),
      scheme: z.string(),
      resolvedUrl: z.string().nullable(),
      /** The resolver redirected, and into the landing page's site. */
      verified: z.boolean(),
    },
    {
      pid: 'The PID found in the metadata (cite-as, identifier).',
      scheme: 'Its scheme (doi, handle…).',
      resolvedUrl: 'Where its resolver led; null when it did not resolve.',
      verified: "True when the resolver redirected, and into the landing page's site.",
    },
  ),
);
export type PidCheck = z.infer<typeof pidCheckSchema>;

/** Kinds of repository file the software metrics read (F-UJI software_file.yaml, in its order). */
export const SOFTWARE_FILE_KINDS = ['Jenkinsfile', 'README', 'dependencies', 'docs_directory', 'github_actions', 'license_file', 'maven_pom'] as const;
export type SoftwareFileKind = (typeof SOFTWARE_FILE_KINDS)[number];

/** One repository file of a kind the software metrics read (the content itself is not kept, only what it holds). */
export const codeFileSchema = z.object(
  described(
    {
      kind: z.enum(SOFTWARE_FILE_KINDS),
      path: z.string(),
      name: z.string(),
      /** The content was read (kinds F-UJI parses in full, when the code host returned it). */
      read: z.boolean(),
      /** The FRSM-13 keywords (build, install, run, deploy) found, lower-cased, in the path, the name or the content. */
      keywords: z.array(z.string()),
    },
    {
      kind: 'Kind of file: Jenkinsfile, README, dependencies, docs_directory, github_actions, license_file or maven_pom.',
      path: 'Path in the repository.',
      name: 'File (or directory) name.',
      read: 'Whether its content was read (kinds F-UJI parses in full, when the code host returned it).',
      keywords: 'The FRSM-13 keywords (build, install, run, deploy) found, lower-cased, in the path, the name or the content.',
    },
  ),
);
export type CodeFile = z.infer<typeof codeFileSchema>;

export const codeHostSchema = z.object(
  described(
    {
      repository: z.string(),
      fullName: z.string().nullable(),
      description: z.string().nullable(),
      licenseSpdx: z.string().nullable(),
      licenseName: z.string().nullable(),
      /** Path of the file GitHub's licence detection read (`/license` → `path`), e.g. `LICENSE`. */
      licensePath: z.string().nullable().default(null),
      topics: z.array(z.string()),
      language: z.string().nullable(),
      /** Files of the kinds the software metrics read, from a walk of the repository tree; null when not walked (data metrics). */
      files: z.array(codeFileSchema).nullable().default(null),
      /** The walk stopped at its limit of directories; files deeper in the tree are missing. */
      filesTruncated: z.boolean().default(false),
    },
    {
      repository: 'The repository URL.',
      fullName: 'owner/name as the code host has it; null when it did not answer.',
      description: 'Repository description; null when none.',
      licenseSpdx: 'SPDX id of the licence the code host detected; null when none.',
      licenseName: 'Name of that licence; null when none.',
      licensePath: 'Path of the file the licence detection read (e.g. LICENSE); null when none.',
      topics: 'Repository topics.',
      language: 'Main programming language; null when unknown.',
      files: 'Files of the kinds the software metrics read, from a walk of the repository tree; null when not walked (data metrics).',
      filesTruncated: 'True when the walk stopped at its limit of directories: files deeper in the tree are missing.',
    },
  ),
);
export type CodeHostEvidence = z.infer<typeof codeHostSchema>;

/**
 * The repository's re3data record, found through the DataCite client id (F-UJI RepositoryHelper), and the
 * OAI-PMH ListMetadataFormats probe of the endpoint it names. F-UJI uses the APIs and standards only when the
 * record's repository URL is on the landing page's site (`domainVerified`).
 */
export const repositoryEvidenceSchema = z.object(
  described(
    {
      dataciteClient: z.string(),
      re3dataDoi: z.string(),
      re3dataId: z.string().nullable(),
      name: z.string().nullable(),
      url: z.string().nullable(),
      domainVerified: z.boolean(),
      /** APIs of the types F-UJI reads (OAI-PMH, SOAP, SPARQL, SWORD, OpenDAP). */
      apis: z.array(
        z.object(described({ type: z.string(), url: z.string() }, { type: 'API type (OAI-PMH, SOAP, SPARQL, SWORD, OpenDAP).', url: 'Endpoint URL.' })),
      ),
      /** metadataStandardURL values of the record. */
      standards: z.array(z.string()),
      /** `<schema>` of every format the OAI-PMH endpoint lists (empty when there is no endpoint or it failed). */
      oaiSchemas: z.array(z.string()),
    },
    {
      dataciteClient: 'The DataCite client id of the DOI.',
      re3dataDoi: "DOI of the repository's re3data record.",
      re3dataId: 're3data id of the repository; null when not found.',
      name: 'Repository name; null when unknown.',
      url: 'Repository URL; null when unknown.',
      domainVerified: "Whether the repository URL is on the landing page's site (only then are its APIs and standards used).",
      apis: 'APIs of the types F-UJI reads (OAI-PMH, SOAP, SPARQL, SWORD, OpenDAP).',
      standards: 'metadataStandardURL values of the record.',
      oaiSchemas: '<schema> of every format the OAI-PMH endpoint lists (empty when there is no endpoint or it failed).',
    },
  ),
);
export type RepositoryEvidence = z.infer<typeof repositoryEvidenceSchema>;

export const evidenceSchema = z.object(
  described(
    {
      identifier: identifierEvidenceSchema,
      resolution: resolutionSchema,
      sources: z.array(metadataSourceSchema),
      metadata: metadataSchema,
      /** Every namespace seen in any source, de-duplicated, in order of discovery. */
      namespaces: z.array(z.string()),
      typedLinks: z.array(typedLinkSchema),
      dataLinks: z.array(dataLinkSchema),
      pidChecks: z.array(pidCheckSchema),
      codeHost: codeHostSchema.nullable(),
      /** Null when there was no DataCite client id, `useRegistry` was off, or re3data has no record for the client. */
      repository: repositoryEvidenceSchema.nullable().default(null),
      fetches: z.array(fetchLogEntrySchema),
      /** Things a user should know (a source that failed to parse, a JavaScript page, the deadline …). */
      warnings: z.array(z.string()),
    },
    {
      identifier: 'The identifier as parsed: scheme, canonical form, whether it is persistent.',
      resolution: 'How the identifier resolved to the landing page.',
      sources: 'Every metadata record read, with how and where.',
      metadata: "The merged metadata (F-UJI's reference schema; lists are unioned, the first scalar wins).",
      namespaces: 'Every namespace seen in any source, de-duplicated, in order of discovery.',
      typedLinks: 'Typed links found (Link header, HTML <link>, linksets: FAIR Signposting).',
      dataLinks: 'Links to the data and what probing them found.',
      pidChecks: 'PIDs found in the metadata, checked against their resolvers.',
      codeHost: 'What the code host (GitHub) says of the repository; null when it was not asked.',
      repository: "The repository's re3data record; null when there was no DataCite client id, use_registry was off, or re3data has none.",
      fetches: 'Every fetch the assessment made, in order.',
      warnings: 'Things a user should know (a source that failed to parse, a JavaScript page, the deadline…).',
    },
  ),
);
export type Evidence = z.infer<typeof evidenceSchema>;

/** An empty merged record, the starting point of every merge (and of hand-made evidence in tests). */
export function emptyMetadata(): Metadata {
  return {
    object_identifier: [],
    title: null,
    creator: [],
    contributor: [],
    publisher: [],
    right_holder: [],
    publication_date: null,
    created_date: null,
    modified_date: null,
    accepted_date: null,
    submitted_date: null,
    object_type: [],
    summary: null,
    keywords: [],
    license: [],
    access_level: [],
    access_free: null,
    related_resources: [],
    object_content_identifier: [],
    measured_variable: [],
    object_size: null,
    object_format: [],
    language: null,
    version: null,
    provenance: [],
    code_repository: [],
  };
}
