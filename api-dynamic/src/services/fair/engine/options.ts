/**
 * Options of one assessment: the request's three switches plus the engine's limits and every upstream base
 * URL (so tests point them at a loopback mock, DECISIONS.md §6). Loose in, typed out: `parseAssessOptions`
 * fills the defaults.
 */
import { z } from 'zod';

const baseUrl = z
  .string()
  .url()
  .transform((url) => url.replace(/\/+$/, ''));

/** Where the engine reaches registries and resolvers; each is a base URL without a trailing slash. */
export const upstreamsSchema = z.object({
  /** DOI resolver; every DOI (input, cite-as, data link) is fetched through it. */
  doi: baseUrl.default('https://doi.org'),
  /** Handle resolver. */
  handle: baseUrl.default('https://hdl.handle.net'),
  /** ARK resolver (Name-to-Thing). */
  ark: baseUrl.default('https://n2t.net'),
  /** URN:NBN resolver. */
  nbn: baseUrl.default('https://nbn-resolving.org'),
  /** identifiers.org resolver for compact identifiers. */
  identifiersOrg: baseUrl.default('https://identifiers.org'),
  /** DataCite REST API (`/dois/<doi>`). */
  datacite: baseUrl.default('https://api.datacite.org'),
  /** re3data (`/api/beta/repositories?query=<DOI>`; the record's self link is followed as given). */
  re3data: baseUrl.default('https://re3data.org'),
  /** GitHub REST API (`/repos/<owner>/<repo>`). */
  github: baseUrl.default('https://api.github.com'),
  /** GitHub's web address: `<githubWeb>/<owner>/<repo>` names a repository (https://github.com is always recognised too). */
  githubWeb: baseUrl.default('https://github.com'),
});
export type Upstreams = z.infer<typeof upstreamsSchema>;

export const assessOptionsSchema = z.object({
  /** Ask the DOI registry: DataCite content negotiation through the DOI resolver and the DataCite REST API. */
  useRegistry: z.boolean().default(true),
  /** Harvest repository metadata and licence from the code host (GitHub) when the record names a repository. */
  useCodeHost: z.boolean().default(false),
  /** `metrics_v0.8` (default), `metrics_v0.5` or `metrics_v0.7_software`; `0.8` and `metrics_v0.8.yaml` are accepted too. */
  metricVersion: z.string().default('metrics_v0.8'),
  /** Whole-assessment deadline in ms (DECISIONS.md §6: 60 s); every fetch gets it as an AbortSignal. */
  deadlineMs: z.number().int().positive().default(60_000),
  /** Data links probed at most per claimed MIME type (F-UJI: 5). */
  dataLinksPerType: z.number().int().min(0).default(5),
  /** Data links probed at most in all. */
  maxDataLinks: z.number().int().min(0).default(10),
  /** Metadata documents fetched at most from describedby and typed links. */
  maxLinkedDocuments: z.number().int().min(0).default(10),
  /** Bytes read at most from any metadata document or landing page (DECISIONS.md §6: 5 MB). */
  maxBodyBytes: z
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
  /** Token for the code host's API (sent as `Authorization: Bearer`); anonymous calls when absent. */
  githubToken: z.string().min(1).optional(),
  upstreams: upstreamsSchema.prefault({}),
});
export type AssessOptionsInput = z.input<typeof assessOptionsSchema>;
export type AssessOptions = z.output<typeof assessOptionsSchema>;

/** Fill defaults and check types; throws a ZodError on a wrong type (a programming error, not user input). */
export function parseAssessOptions(input: AssessOptionsInput = {}): AssessOptions {
  return assessOptionsSchema.parse(input);
}
