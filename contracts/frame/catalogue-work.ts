/**
 * The catalogue's work record (OpenAlex's work shape, as the API serves it and as each line of the works
 * snapshot holds it): the fields the frame rules read (everything else is ignored), and the pure helpers that
 * turn catalogue values into the frame's (bare ids, bare DOIs, abstracts restored from the inverted index).
 * Shared by the recent layer's sync (api-dynamic) and the snapshot builder (pipeline/openalex), so both read
 * a record the same way.
 */
import { z } from 'zod';

// ---- the catalogue's work (only the fields we use; everything else is ignored) ----

const ref = z.object({ id: z.string().nullish(), display_name: z.string().nullish() }).loose();
const institution = ref.extend({ ror: z.string().nullish(), country_code: z.string().nullish() });

/**
 * An abstract's inverted index: token → positions (whole numbers ≥ 0). Checked by a plain loop rather than a
 * zod record of arrays: an abstract has hundreds of positions, and a sync reads tens of thousands of works,
 * where per-element schema checks cost more than everything else a page needs (docs/benchmarks.md).
 */
function isAbstractIndex(x: unknown): x is Record<string, number[]> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
  const index = x as Record<string, unknown>;
  // Object.keys and a lookup: faster than Object.values on the dictionary-mode objects JSON.parse makes of an index.
  for (const token of Object.keys(index)) {
    const positions = index[token];
    if (!Array.isArray(positions)) return false;
    for (const p of positions) if (!Number.isInteger(p) || p < 0 || p > 1_000_000) return false;
  }
  return true;
}
export const abstractIndexSchema = z.custom<Record<string, number[]>>(isAbstractIndex, 'must map each token to a list of positions (whole numbers from 0)');

export const catalogueWorkSchema = z
  .object({
    id: z.string().regex(/^(https:\/\/openalex\.org\/)?W\d+$/i),
    doi: z.string().nullish(),
    title: z.string().nullish(),
    display_name: z.string().nullish(),
    publication_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    publication_year: z.number().int().nullish(),
    language: z.string().nullish(),
    type: z.string().nullish(),
    primary_location: z.object({ source: ref.nullish() }).loose().nullish(),
    /** Older schema (until 2023): the venue, replaced by primary_location.source. */
    host_venue: ref.nullish(),
    primary_topic: z.object({ display_name: z.string().nullish(), field: ref.nullish() }).loose().nullish(),
    cited_by_count: z.number().int().min(0).nullish(),
    is_retracted: z.boolean().nullish(),
    abstract_inverted_index: abstractIndexSchema.nullish(),
    authorships: z
      .array(
        z
          .object({
            author: ref.extend({ orcid: z.string().nullish() }).nullish(),
            institutions: z.array(institution).nullish(),
            countries: z.array(z.string()).nullish(),
          })
          .loose(),
      )
      .nullish(),
    /** Current schema: funders of the work. */
    funders: z.array(ref).nullish(),
    /** Current schema: awards, each naming its funder. */
    awards: z.array(z.object({ funder_id: z.string().nullish(), funder_display_name: z.string().nullish() }).loose()).nullish(),
    /** Older schema: grants, each naming its funder. */
    grants: z.array(z.object({ funder: z.string().nullish(), funder_display_name: z.string().nullish() }).loose()).nullish(),
    keywords: z.array(z.object({ display_name: z.string() }).loose()).nullish(),
    ids: z.object({ pmid: z.string().nullish(), pmcid: z.string().nullish() }).loose().nullish(),
    updated_date: z.string().nullish(),
  })
  .loose();
export type CatalogueWork = z.infer<typeof catalogueWorkSchema>;

/** `https://openalex.org/W123` → `W123`; ids are kept in their canonical upper-case-letter form. */
export function shortId(id: string | null | undefined): string | null {
  if (!id) return null;
  const m = /([A-Za-z])(\d+)$/.exec(id.trim());
  return m ? `${m[1]!.toUpperCase()}${m[2]}` : null;
}

/** `https://doi.org/10.1/x` → `10.1/x`. */
export function bareDoi(doi: string | null | undefined): string | null {
  if (!doi) return null;
  const s = doi
    .trim()
    .replace(/^https?:\/\/(dx\.)?doi\.org\//i, '')
    .replace(/^doi:/i, '');
  return s === '' ? null : s;
}

export function bareNumber(url: string | null | undefined, prefix = ''): string | null {
  if (!url) return null;
  const m = /(\d+)\/?$/.exec(url.trim());
  return m ? `${prefix}${m[1]}` : null;
}

/** Most positions an abstract may hold: a larger index is garbage, not an abstract. */
const MAX_ABSTRACT_TOKENS = 20_000;

/**
 * Restores an abstract from the catalogue's inverted index: each token is placed at every position listed
 * for it, positions ascending, holes dropped, joined with single spaces. Null when empty or absurd.
 */
export function restoreAbstract(index: Record<string, number[]> | null | undefined): string | null {
  if (!index) return null;
  // Object.keys and a lookup: half the cost of Object.entries on an index of a few hundred tokens.
  const tokens = Object.keys(index);
  const placed = placeTokens(index, tokens);
  const joined = placed === undefined ? sortTokens(index, tokens) : placed;
  if (joined === null) return null;
  // Collapsing whitespace changes nothing when the only whitespace is single spaces between tokens (the common
  // case): the test is a scan, the replacement a copy of a text of some kilobytes.
  const text = IRREGULAR_SPACE.test(joined) ? joined.replace(/\s+/g, ' ').trim() : joined;
  return text === '' ? null : text;
}

/** Whitespace that restoreAbstract's collapsing would change: other than a space, doubled, or at either end. */
const IRREGULAR_SPACE = /[^\S ]| {2}|^ | $/;

/**
 * The tokens in position order, each position an array slot: the common case (positions 0..n-1, each used
 * once) without sorting. Undefined, and sortTokens decides, for anything else: a position used twice (the
 * sort keeps such tokens in index order), a position that is not a whole number ≥ 0, or positions so sparse
 * that slots would waste memory. Null: more than MAX_ABSTRACT_TOKENS positions.
 */
function placeTokens(index: Record<string, number[]>, tokens: string[]): string | null | undefined {
  let count = 0;
  let max = -1;
  for (const token of tokens) {
    const positions = index[token]!;
    count += positions.length;
    for (const p of positions) {
      if (!Number.isInteger(p) || p < 0) return undefined;
      if (p > max) max = p;
    }
  }
  if (count > MAX_ABSTRACT_TOKENS) return null;
  if (max >= 2 * count + 64) return undefined;
  const slots = new Array<string | undefined>(max + 1).fill(undefined);
  for (const token of tokens)
    for (const p of index[token]!) {
      if (slots[p] !== undefined) return undefined;
      slots[p] = token;
    }
  const words: string[] = [];
  for (const t of slots) if (t !== undefined) words.push(t);
  return words.join(' ');
}

/** The tokens in position order by a stable sort of (position, token) pairs: any index. */
function sortTokens(index: Record<string, number[]>, tokens: string[]): string | null {
  const placed: [number, string][] = [];
  for (const token of tokens) {
    for (const p of index[token]!) {
      placed.push([p, token]);
      if (placed.length > MAX_ABSTRACT_TOKENS) return null;
    }
  }
  placed.sort((a, b) => a[0] - b[0]);
  return placed.map(([, t]) => t).join(' ');
}

/**
 * A line of the works snapshot: the same record, but a work may lack a publication date there (the frozen
 * frame filters on the year), so any API work is also a snapshot work.
 */
export const snapshotWorkSchema = catalogueWorkSchema.extend({
  publication_date: z.string().nullish(),
  /** Newest schema: the work belongs to the expansion corpus, which the API leaves out by default. */
  is_xpac: z.boolean().nullish(),
});
export type SnapshotWork = z.infer<typeof snapshotWorkSchema>;
