/**
 * Which catalogue queries a sync runs for a window. Pulling every work the catalogue published in 30 days
 * would be hundreds of thousands of rows for a few percent of matches, so the sync asks for candidates per
 * route and classifies them itself (classify.ts decides, never the catalogue):
 *   - works with an authorship in Canada (`authorships.countries:CA`);
 *   - works in a pinned Canadian source, the ids OR-ed in batches (`primary_location.source.id:S1|S2|…`);
 *   - works funded by a pinned Canadian funder, likewise (`funders.id:F1|F2|…`);
 *   - works whose title or abstract names a Tier A or Tier B place (`title_and_abstract.search:`, terms OR-ed).
 * A work found by several queries is one candidate. Each query is paged with the catalogue's cursor.
 */
import { ABOUT_CANADA_LEXICON } from '../../../../../contracts/frame/about-canada.ts';

/** Ids per OR-ed filter value: the catalogue accepts up to 100; 50 keeps URLs short. */
export const IDS_PER_QUERY = 50;
const TERMS_PER_QUERY = 25;

function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function candidateQueries(
  lists: { funders: readonly { id: string }[]; sources: readonly { id: string }[] },
  windowStart: string,
  windowEnd: string,
): string[] {
  const window = `from_publication_date:${windowStart},to_publication_date:${windowEnd}`;
  const terms = ABOUT_CANADA_LEXICON.filter((e) => e.tier !== 'C').map((e) => (e.entry.includes(' ') ? `"${e.entry}"` : e.entry));
  return [
    `${window},authorships.countries:CA`,
    ...batches(
      lists.sources.map((s) => s.id),
      IDS_PER_QUERY,
    ).map((ids) => `${window},primary_location.source.id:${ids.join('|')}`),
    ...batches(
      lists.funders.map((f) => f.id),
      IDS_PER_QUERY,
    ).map((ids) => `${window},funders.id:${ids.join('|')}`),
    ...batches(terms, TERMS_PER_QUERY).map((t) => `${window},title_and_abstract.search:${t.join(' OR ')}`),
  ];
}
