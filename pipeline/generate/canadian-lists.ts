/**
 * The two pinned lists of a generated snapshot: Canadian funders (route CA-FUND) and Canadian sources (route
 * CA-VENUE). Pure functions of their index, with no random draws, so adding them shifts no other stream.
 *
 * Funders: the names works actually cite (`CA_FUNDERS`) come first, then generated names up to the size of
 * the real list. Sources: exactly the venues the generator gives route-venue works, `venueName(k * 63)`;
 * no other work's venue is one of them (frame-range.ts steps over multiples of 63).
 */
import { hash32 } from './frame-range.ts';
import { SIZES } from './model.ts';
import { CA_FUNDERS, canadianFunderName, OTHER_FUNDERS, venueName } from './words.ts';

export interface ListEntry {
  id: string;
  name: string;
}

/** Funder k's id: 10 digits, increasing with k, so id order is k order. */
export const funderIdOf = (k: number): string => `F${4_320_300_000 + k * 41 + (hash32(k + 4_321) % 41)}`;

/** The id of the source behind venue number v (v < 85,000 keeps it at 10 digits, increasing with v). */
export const sourceIdOf = (v: number): string => `S${4_200_000_000 + v}`;

/** The Canadian funders, in id order: every name of CA_FUNDERS, then generated ones. */
export function canadianFunders(): ListEntry[] {
  const out: ListEntry[] = [];
  const seen = new Set<string>(OTHER_FUNDERS);
  for (let k = 0; k < SIZES.canadianFunders; k++) {
    const name = k < CA_FUNDERS.length ? CA_FUNDERS[k]! : canadianFunderName(k - CA_FUNDERS.length);
    if (seen.has(name)) throw new Error(`generated funder name ${name} is not unique`);
    seen.add(name);
    out.push({ id: funderIdOf(k), name });
  }
  return out;
}

/** The Canadian sources, in id order: venue k × canadianVenueEvery for every Canadian venue k. */
export function canadianSources(): ListEntry[] {
  const count = Math.ceil(SIZES.venues / SIZES.canadianVenueEvery);
  return Array.from({ length: count }, (_, k) => {
    const v = k * SIZES.canadianVenueEvery;
    return { id: sourceIdOf(v), name: venueName(v) };
  });
}
