/**
 * Catalogue works designed for the recent layer's tests: each is built for one case of the route rules (an
 * institution in Canada, a Canadian country code without an institution, a pinned funder by each of the three
 * upstream spellings, a pinned source, an about-Canada term in the title, abstract or keywords, a polysemous
 * place alone, a near miss, nothing) and carries the routes it was designed to have. That design is the
 * oracle: the tests compare the sync's classification with it, never with the classifier's own output.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CANADIAN_LISTS_FILE, type CanadianLists, canadianListsSchema } from '../../contracts/frame/canadian-lists.ts';
import { routeRules } from '../../api-dynamic/src/services/frame/recent/classify.ts';
import type { SyncOptions } from '../../api-dynamic/src/services/frame/recent/sync.ts';
import { fixtureBuild, fixtureSnapshot } from './fixture-build.ts';
import { startMockCatalogue, type UpstreamWork } from './mock-catalogue.ts';

export interface DesignedWork {
  work: UpstreamWork;
  expected: { aff: boolean; fund: boolean; venue: boolean; about: boolean };
  /** The abstract's text as the inverted index encodes it (null: none). */
  abstract: string | null;
}

const OA = 'https://openalex.org/';

/** An inverted index of a text split on single spaces (the inverse of restoring it). */
export function invert(text: string): Record<string, number[]> {
  const index: Record<string, number[]> = {};
  text.split(' ').forEach((token, i) => {
    (index[token] ??= []).push(i);
  });
  return index;
}

function day(today: string, back: number): string {
  return new Date(Date.parse(`${today}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10);
}

type Case = (i: number, lists: CanadianLists) => { patch: Partial<UpstreamWork>; expected: Partial<DesignedWork['expected']>; abstract?: string | null };

const usInstitution = { id: `${OA}I1001`, display_name: 'Stanford University', ror: 'https://ror.org/00f54p054', country_code: 'US' };
const caInstitution = { id: `${OA}I2001`, display_name: 'University of Toronto', ror: 'https://ror.org/03dbr7087', country_code: 'CA' };

/** The cases, in turn. Titles avoid every about-Canada term unless the case is about one. */
const CASES: Case[] = [
  () => ({ patch: { authorships: [author(1, [caInstitution], ['CA'])] }, expected: { aff: true } }),
  () => ({ patch: { authorships: [author(2, [], ['CA']), author(3, [usInstitution], ['US'])] }, expected: { aff: true } }),
  (i, l) => ({
    patch: { funders: [{ id: `${OA}${l.funders[i % l.funders.length]!.id}`, display_name: l.funders[i % l.funders.length]!.name }] },
    expected: { fund: true },
  }),
  (i, l) => ({
    patch: { awards: [{ funder_id: `${OA}${l.funders[(i * 7) % l.funders.length]!.id}`, funder_display_name: 'A council' }] },
    expected: { fund: true },
  }),
  (i, l) => ({
    patch: { grants: [{ funder: `${OA}${l.funders[(i * 3) % l.funders.length]!.id}`, funder_display_name: 'A legacy grant' }] },
    expected: { fund: true },
  }),
  (i, l) => ({
    patch: { primary_location: { source: { id: `${OA}${l.sources[i % l.sources.length]!.id}`, display_name: l.sources[i % l.sources.length]!.name } } },
    expected: { venue: true },
  }),
  () => ({ patch: { title: 'Rural clinic staffing in Nova Scotia: a survey' }, expected: { about: true } }),
  () => ({ patch: {}, expected: { about: true }, abstract: 'We interviewed nurses working in Montréal emergency wards during winter.' }),
  // Keywords are classified but not searched upstream: this work is a candidate through the loose title search
  // ("Canadaville" contains "canada"), is not about Canada by its title (no such term), and is by its keyword.
  () => ({
    patch: { title: 'Water supply of Canadaville', keywords: [{ id: 'https://openalex.org/keywords/canada', display_name: 'Canada', score: 0.4 }] },
    expected: { about: true },
  }),
  () => ({ patch: { title: 'Waiting times in London hospitals' }, expected: {} }),
  () => ({ patch: { title: 'The Canadaville settlement and its water supply', authorships: [author(4, [usInstitution], ['US'])] }, expected: {} }),
  (i, l) => ({
    patch: {
      authorships: [author(5, [caInstitution], ['CA'])],
      primary_location: { source: { id: `${OA}${l.sources[(i * 5) % l.sources.length]!.id}`, display_name: l.sources[(i * 5) % l.sources.length]!.name } },
      title: 'Métis youth and sport participation',
    },
    expected: { aff: true, venue: true, about: true },
  }),
  () => ({ patch: { authorships: [author(6, [caInstitution], [])], abstract_inverted_index: {} }, expected: { aff: true }, abstract: null }),
  () => ({
    patch: {
      funders: [{ id: `${OA}F999999001`, display_name: 'National Science Foundation' }],
      primary_location: { source: { id: `${OA}S999999001`, display_name: 'Journal of Elsewhere' } },
    },
    expected: {},
  }),
];

function author(k: number, institutions: NonNullable<UpstreamWork['authorships']>[number]['institutions'], countries: string[]) {
  return {
    author: { id: `${OA}A${5_100_000_000 + k}`, display_name: `Author ${k}`, orcid: k % 2 ? `https://orcid.org/0000-0002-0000-000${k % 10}` : null },
    institutions,
    countries,
  };
}

/**
 * `count` works published between today and 34 days ago (so some fall outside every window), ids ascending,
 * cycling through the cases.
 */
export function designedWorks(o: { today: string; lists: CanadianLists; count: number }): DesignedWork[] {
  const out: DesignedWork[] = [];
  for (let i = 0; i < o.count; i++) {
    const c = CASES[i % CASES.length]!(i, o.lists);
    const date = day(o.today, (i * 7) % 35);
    const abstract = c.abstract === undefined ? (i % 3 === 0 ? null : `Abstract number ${i} reports methods and results plainly.`) : c.abstract;
    const work: UpstreamWork = {
      id: `${OA}W${4_200_000_000 + i}`,
      doi: i % 4 === 0 ? null : `https://doi.org/10.5555/recent.${i}`,
      title: `Study ${i} of measurement practice`,
      display_name: `Study ${i} of measurement practice`,
      publication_date: date,
      publication_year: Number(date.slice(0, 4)),
      language: i % 9 === 0 ? 'fr' : 'en',
      type: i % 11 === 0 ? 'preprint' : 'article',
      primary_location: { source: { id: `${OA}S888000${i % 5}`, display_name: `Generic Journal ${i % 5}` } },
      primary_topic: { display_name: `Topic ${i % 4}`, field: { display_name: i % 2 ? 'Medicine' : 'Social Sciences' } },
      cited_by_count: (i * 13) % 9,
      is_retracted: i === 17,
      abstract_inverted_index: abstract === null ? null : invert(abstract),
      authorships: [author(100 + i, [usInstitution], ['US'])],
      funders: [],
      keywords: [],
      ids:
        i % 5 === 0 ? { pmid: `https://pubmed.ncbi.nlm.nih.gov/${39_000_000 + i}`, pmcid: `https://www.ncbi.nlm.nih.gov/pmc/articles/${11_500_000 + i}` } : {},
      updated_date: `${o.today}T01:02:03.000000`,
      ...c.patch,
    };
    if (c.patch.title) work.display_name = c.patch.title;
    const hasAbstractIndex = work.abstract_inverted_index && Object.keys(work.abstract_inverted_index).length > 0;
    out.push({
      work,
      expected: { aff: false, fund: false, venue: false, about: false, ...c.expected },
      abstract: hasAbstractIndex ? abstract : null,
    });
  }
  return out;
}

/** The id the layer stores for a designed work (`W…`). */
export const designedId = (d: DesignedWork): string => d.work.id.replace(OA, '');

/**
 * The oracle of a window: ids (sorted) of the designed works published within `days` days up to `today` that
 * were designed with at least one route, optionally narrowed by `keep`.
 */
export function expectedLayerIds(designed: readonly DesignedWork[], today: string, days: number, keep: (d: DesignedWork) => boolean = () => true): string[] {
  const start = day(today, days - 1);
  return designed
    .filter((d) => d.work.publication_date >= start && d.work.publication_date <= today)
    .filter((d) => d.expected.aff || d.expected.fund || d.expected.venue || d.expected.about)
    .filter(keep)
    .map(designedId)
    .sort();
}

/** A fixture build (800 works), its pinned lists, 140 designed works of today's windows and a mock serving them. */
export async function recentFixture(root: string, today: string) {
  const snapshot = await fixtureSnapshot(root, { works: 800 });
  const out = join(root, 'out');
  const r = await fixtureBuild(snapshot, out, false);
  const lists = canadianListsSchema.parse(JSON.parse(readFileSync(join(r.buildDir, CANADIAN_LISTS_FILE), 'utf8')));
  const designed = designedWorks({ today, lists, count: 140 });
  const mock = await startMockCatalogue(designed.map((d) => d.work));
  return { out, lists, designed, mock };
}

/**
 * Sync options for tests: the fixture's lists and mock, quick retries, small pages (so queries page), silent logs.
 * The timeout is long, so that a loaded machine never turns a slow answer into a retry the test counts; the tests
 * of hangs set their own.
 */
export function testSyncOptions(
  f: { lists: CanadianLists; mock: { url: string } },
  store: SyncOptions['store'],
  extra: Partial<SyncOptions> = {},
): SyncOptions {
  return {
    store,
    catalogue: { baseUrl: f.mock.url, timeoutMs: 30_000, retries: 3, retryBaseMs: 5, maxDelayMs: 50 },
    rules: routeRules(f.lists),
    lists: f.lists,
    snapshotId: 'fixture',
    days: 30,
    concurrency: 2,
    perPage: 7,
    log: { info: () => {}, warn: () => {} },
    ...extra,
  };
}
