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

const norm = (value: string) => value.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/\/+$/, '');

/** Namespaces whose URIs make an access value machine-readable (plus schema.org isAccessibleForFree). */
const MACHINE_READABLE = [
  ...VOCABULARIES.map((v) => norm(v.namespace)),
  ...VOCABULARIES.flatMap((v) => v.terms.map((t) => (t.uri ? norm(t.uri).replace(/[^/#]*$/, '') : ''))).filter(Boolean),
  'schema.org/isaccessibleforfree',
  'vocabularies.coar-repositories.org/access_rights',
];

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

/** Is the value a URI inside one of the access-right vocabularies (A1-01M-2 of v0.5)? */
export function isMachineReadableAccess(value: string): boolean {
  const text = norm(value);
  return MACHINE_READABLE.some((prefix) => text.startsWith(prefix));
}
