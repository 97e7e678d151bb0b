/**
 * Namespace knowledge (data/default_namespaces.json, semantic_vocabularies.json, metadata_standards.json):
 * which namespaces are too generic to count for I2, which belong to registered semantic resources (I2), and
 * which metadata standard a namespace or schema location reveals (R1.3-01M). Matching is by prefix, with
 * http and https and a trailing `#` or `/` treated alike.
 */
import { z } from 'zod';
import defaultNamespacesFile from '../../data/default_namespaces.json' with { type: 'json' };
import vocabulariesFile from '../../data/semantic_vocabularies.json' with { type: 'json' };
import standardsFile from '../../data/metadata_standards.json' with { type: 'json' };

const defaultsSchema = z.object({ namespaces: z.array(z.string().min(1)) });
const vocabulariesSchema = z.object({ vocabularies: z.array(z.object({ prefix: z.string().min(1), name: z.string().min(1) })) });
const standardsSchema = z.object({
  standards: z.array(z.object({ name: z.string().min(1), type: z.enum(['disciplinary', 'generic']), prefixes: z.array(z.string().min(1)).min(1) })),
});

export type StandardType = 'disciplinary' | 'generic';
/** Where F-UJI found a standard: the metadata's own namespaces, the re3data record, or the OAI-PMH formats. */
export type StandardSource = 'ns' | 're3data' | 'oai-pmh';

export interface DetectedStandard {
  name: string;
  type: StandardType;
  /** The namespace, standard URL or schema that revealed it. */
  namespace: string;
  source: StandardSource;
}

/** Comparable form: lower-case, no scheme, no trailing `#` or `/`. */
export function namespaceKey(namespace: string): string {
  return namespace
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/[#/]+$/, '');
}

const DEFAULTS = defaultsSchema.parse(defaultNamespacesFile).namespaces.map(namespaceKey);
const VOCABULARIES = vocabulariesSchema.parse(vocabulariesFile).vocabularies.map((v) => ({ ...v, key: namespaceKey(v.prefix) }));
const STANDARDS = standardsSchema.parse(standardsFile).standards.map((s) => ({ ...s, keys: s.prefixes.map(namespaceKey) }));

/** A namespace excluded from the I2 check (dc, dcterms, schema.org, rdf, owl, skos, dcat, foaf …). */
export function isDefaultNamespace(namespace: string): boolean {
  const key = namespaceKey(namespace);
  return DEFAULTS.some((prefix) => key.startsWith(prefix));
}

/** The registered semantic resource a namespace belongs to, or null. */
export function semanticVocabulary(namespace: string): string | null {
  const key = namespaceKey(namespace);
  return VOCABULARIES.find((v) => key.startsWith(v.key))?.name ?? null;
}

/** The metadata standard a namespace, schema location or standard URL reveals, or null. */
export function metadataStandard(namespace: string, source: StandardSource = 'ns'): DetectedStandard | null {
  const key = namespaceKey(namespace);
  const found = STANDARDS.find((s) => s.keys.some((prefix) => key.startsWith(prefix)));
  return found ? { name: found.name, type: found.type, namespace, source } : null;
}
