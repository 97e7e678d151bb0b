/**
 * The tiered "about Canada" lexicon of route ABOUT-CA (research/metacan.md §5), versioned with the route
 * rules of the recent layer:
 *   - Tier A: the country, its provinces and territories in English and French, and First Nations, Inuit, Métis;
 *   - Tier B: unambiguous Canadian cities and universities;
 *   - Tier C: polysemous places (London, Victoria, Regina, Waterloo…), which count only together with a Tier A
 *     term in the same work.
 * A work is about Canada when any Tier A or Tier B term occurs in its title, abstract or keywords. A Tier C
 * term can never admit a work on its own (it needs Tier A, which already admits it); it is still reported,
 * as evidence of why a work matched.
 *
 * Matching is by whole terms, folded exactly as the frame's search terms are (title-terms.ts: accents
 * removed, case-folded, split at every non-letter/digit), so "Montréal", "MONTREAL" and "montreal's" match
 * and "Canadaville" or "Albertans" do not unless listed. Multi-word entries match as consecutive terms.
 * The matching itself is SQL generated from this list (contracts/frame/rules-sql.ts, and the recent layer's
 * evidence in api-dynamic/src/services/frame/recent/classify.ts).
 */

/** Bumped whenever an entry changes, so stored recent works say which lexicon classified them. */
export const ABOUT_CANADA_VERSION = 'about-ca-1';

export const ABOUT_CANADA_TIERS = ['A', 'B', 'C'] as const;
export type AboutCanadaTier = (typeof ABOUT_CANADA_TIERS)[number];

const TIER_A = [
  'canada',
  'canadian',
  'canadians',
  'canadien',
  'canadienne',
  'canadiens',
  'canadiennes',
  'ontario',
  'ontarian',
  'ontarians',
  'quebec',
  'quebecer',
  'quebecers',
  'quebecois',
  'quebecoise',
  'british columbia',
  'colombie britannique',
  'alberta',
  'albertan',
  'albertans',
  'saskatchewan',
  'manitoba',
  'manitoban',
  'nova scotia',
  'nouvelle ecosse',
  'new brunswick',
  'nouveau brunswick',
  'prince edward island',
  'ile du prince edouard',
  'newfoundland',
  'terre neuve',
  'labrador',
  'yukon',
  'northwest territories',
  'territoires du nord ouest',
  'nunavut',
  'nunavik',
  'nunatsiavut',
  'first nations',
  'first nation',
  'premieres nations',
  'inuit',
  'metis',
];

const TIER_B = [
  'toronto',
  'montreal',
  'vancouver',
  'ottawa',
  'calgary',
  'edmonton',
  'winnipeg',
  'halifax',
  'saskatoon',
  'gatineau',
  'mississauga',
  'brampton',
  'kelowna',
  'sherbrooke',
  'trois rivieres',
  'iqaluit',
  'yellowknife',
  'whitehorse',
  'fredericton',
  'moncton',
  'charlottetown',
  'thunder bay',
  'sudbury',
  'guelph',
  'nanaimo',
  'saguenay',
  'rimouski',
  'lethbridge',
  'london ontario',
  'mcgill',
  'mcmaster',
  'dalhousie',
  'universite laval',
  'universite de montreal',
  'uqam',
  'simon fraser',
  'wilfrid laurier',
  'lakehead university',
  'memorial university of newfoundland',
  'york university',
  'ryerson university',
  'toronto metropolitan university',
  'sunnybrook',
  'ices ontario',
];

const TIER_C = [
  'london',
  'victoria',
  'regina',
  'waterloo',
  'windsor',
  'kingston',
  'hamilton',
  'richmond',
  'durham',
  'cambridge',
  'peterborough',
  'sydney',
  'perth',
  'laval',
  'concordia',
  'queen s university',
  'st john s',
  'surrey',
  'burlington',
];

/** Every entry with its tier, as folded term sequences. */
export const ABOUT_CANADA_LEXICON: readonly { entry: string; tier: AboutCanadaTier }[] = [
  ...TIER_A.map((entry) => ({ entry, tier: 'A' as const })),
  ...TIER_B.map((entry) => ({ entry, tier: 'B' as const })),
  ...TIER_C.map((entry) => ({ entry, tier: 'C' as const })),
];
