/**
 * Access-right vocabularies (data/access_rights.json; fair.md §2.13): COAR, ePrints, EU Publications Office
 * and OpenAIRE terms, recognised case-insensitively by URI, id or label, each meaning public, embargoed,
 * restricted, closed or metadataonly.
 */
import { z } from 'zod';
import accessRightsFile from '../../data/access_rights.json' with { type: 'json' };

export const ACCESS_CONDITIONS = ['public', 'embargoed', 'restricted', 'closed', 'metadataonly'] as const;
export type AccessCondition = (typeof ACCESS_CONDITIONS)[number];

const accessRightsSchema = z.object({
  vocabularies: z.array(
    z.object({
      vocabulary: z.string().min(1),
      namespace: z.string().min(1),
      terms: z.array(z.object({ id: z.string().min(1), label: z.string().min(1), condition: z.enum(ACCESS_CONDITIONS), uri: z.string().nullable() })),
    }),
  ),
});
const VOCABULARIES = accessRightsSchema.parse(accessRightsFile).vocabularies;

export interface AccessTerm {
  vocabulary: string;
  term: string;
  condition: AccessCondition;
  /** The value was a URI of the vocabulary (machine-readable), not only a matching word. */
  machineReadable: boolean;
}

const norm = (value: string) =>
  value
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/+$/, '');

/** The standard term an access value names, or null. */
export function accessTerm(value: string): AccessTerm | null {
  const text = norm(value);
  for (const vocabulary of VOCABULARIES) {
    for (const term of vocabulary.terms) {
      const byUri = term.uri !== null && text === norm(term.uri);
      if (byUri || text === term.id.toLowerCase() || text === term.label.toLowerCase()) {
        return { vocabulary: vocabulary.vocabulary, term: term.id, condition: term.condition, machineReadable: byUri };
      }
    }
  }
  return null;
}

/**
 * F-UJI's two stricter v0.5 readings (fair_evaluator_data_access_level.py). A1-01M-3 "standard term": the whole
 * value, lower-cased, is a term's id (`openAccess`, `c_abf2`, `PUBLIC`), not its label or URI. A1-01M-2
 * "machine readable": the value contains a URI of an access-rights namespace (or schema.org isAccessibleForFree)
 * and the text after that namespace contains some term's id or label.
 */
export function accessTermById(value: string): AccessTerm | null {
  const text = value.trim().toLowerCase();
  for (const vocabulary of VOCABULARIES) {
    const term = vocabulary.terms.find((t) => t.id.toLowerCase() === text);
    if (term) return { vocabulary: vocabulary.vocabulary, term: term.id, condition: term.condition, machineReadable: false };
  }
  return null;
}

const RIGHTS_URI =
  /(info:eu-repo\/semantics|schema\.org\/isAccessibleForFree|purl\.org\/coar\/access_right|vocabularies\.coar-repositories\.org\/access_rights|purl\.org\/eprint\/accessRights|europa\.eu\/resource\/authority\/access-right)[/#](\S*)/i;
const TERM_WORDS = VOCABULARIES.flatMap((v) => v.terms.flatMap((t) => [t.id.toLowerCase(), t.label.toLowerCase()]));

/** The rights URI inside a value, and whether the text after its namespace names a term; null when there is no rights URI. */
export function rightsUri(value: string): { uri: string; namesTerm: boolean } | null {
  const match = RIGHTS_URI.exec(value);
  if (!match) return null;
  const rest = match[2]!.toLowerCase();
  return { uri: match[0], namesTerm: TERM_WORDS.some((word) => rest.includes(word)) };
}
