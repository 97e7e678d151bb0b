/**
 * The recent layer's classifier (the frame rules' DuckDB SQL, api-dynamic/src/services/frame/recent/classify.ts)
 * against the JavaScript rules it replaced (helpers/frame-rules-js.ts, the oracle): every item equal (routes,
 * flags, evidence, authors, fields) or both null, on the designed works the recent tests sync, the real
 * reference records, a generated set and hand-written edge records.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canadianListsDocument } from '../../contracts/frame/canadian-lists.ts';
import { type CatalogueWork, catalogueWorkSchema } from '../../contracts/frame/catalogue-work.ts';
import { type Classifier, openClassifier, routeRules } from '../../api-dynamic/src/services/frame/recent/classify.ts';
import { referenceTemplates, SyntheticWorks } from '../../pipeline/openalex/synthetic-works.ts';
import { designedWorks } from '../helpers/catalogue-fixtures.ts';
import { classifyRecent } from '../helpers/frame-rules-js.ts';
import { needShared, sharedPath } from '../helpers/needs.ts';

const REF = sharedPath('reference/openalex');
const present = needShared('reference/openalex/works-api', "the recent classifier's comparison on real and generated records");

const OA = 'https://openalex.org/';
const LISTS = canadianListsDocument(
  [
    { id: 'F1', name: 'Fund One' },
    { id: 'F2', name: 'Fund Two' },
    { id: 'F4320334593', name: 'Natural Sciences and Engineering Research Council' },
  ],
  [
    { id: 'S1', name: 'Revue One' },
    { id: 'S2', name: 'Revue Two' },
  ],
);

const caAuthor = {
  author: { id: `${OA}A1`, display_name: 'Ann Author', orcid: 'https://orcid.org/0000-0002-1825-0097' },
  institutions: [
    { id: `${OA}I1`, display_name: ' Univ A ', ror: 'https://ror.org/01', country_code: 'ca' },
    { id: `${OA}I2`, display_name: 'Univ A', country_code: 'CA' },
    { id: null, display_name: null, country_code: 'CA' },
    { id: `${OA}I3`, display_name: 'Elsewhere', country_code: 'US' },
  ],
  countries: ['CA', 'US'],
};
let n = 0;
const work = (extra: Record<string, unknown>) => ({ id: `${OA}W${++n}`, publication_date: '2026-11-20', title: 'Soil chemistry', ...extra });
/** A text case twice: alone (admitted only by route about) and with a Canadian author (admitted, so its terms show). */
const texts = (extra: Record<string, unknown>) => [work(extra), work({ ...extra, authorships: [caAuthor] })];
const abstract = (text: string) => {
  const index: Record<string, number[]> = {};
  text.split(' ').forEach((t, i) => (index[t] ??= []).push(i));
  return { abstract_inverted_index: index };
};

/** Records on the edges of the rules: tiers, folding, texts and where a term sits, each route's evidence. */
const EDGES = [
  ...texts({ title: 'Waiting times in London hospitals' }),
  ...texts({ title: 'Victoria, then Canada' }),
  ...texts({ title: 'London, Ontario; London; and Waterloo' }),
  ...texts({ title: 'st john s and queen s university and the saint' }),
  ...texts({ title: 'Health care in ＣＡＮＡＤＡ' }),
  ...texts({ title: 'ﬁrst nations health' }),
  ...texts({ title: 'Studies of 𝐂𝐚𝐧𝐚𝐝𝐚' }),
  ...texts({ title: 'canada² and canadaα' }),
  ...texts({ title: 'Montréal’s winters' }),
  ...texts({ title: 'La santé au Que\u0301bec' }),
  ...texts({ title: 'İnuit and Σ canada' }),
  ...texts({ title: 'Nova\u00a0Scotia coast' }),
  ...texts({ title: 'Nurses in Montréal' }),
  ...texts({ title: "Montreal's nurses" }),
  ...texts({ title: 'The Canadaville settlement' }),
  ...texts({ title: 'Health in Île-du-Prince-Édouard' }),
  ...texts({ title: 'Outcomes in Nova Scotia and New Brunswick, and new brunswick again' }),
  ...texts({ title: 'Métis youth, First Nations communities, first nation' }),
  ...texts({ title: 'Queen’s University students' }),
  ...texts({ title: 'nova scotia scotia nova nova scotia' }),
  ...texts({ title: null, display_name: 'Canada research' }),
  ...texts({ title: '', display_name: 'Canada' }),
  ...texts({ title: null }),
  ...texts({ title: '  ' }),
  ...texts({ title: 'Toronto', ...abstract('Canada and Toronto and London'), keywords: [{ display_name: 'Yukon' }, { display_name: 'Windsor' }] }),
  ...texts({ title: 'x', keywords: [{ display_name: 'British' }, { display_name: 'Columbia' }] }),
  ...texts({ title: 'x', keywords: [{ display_name: 'Nova Scotia' }, { display_name: ' Nunavut ' }, { display_name: 'Nunavut' }, { display_name: 'a\tb' }] }),
  ...texts({ title: 'Nova', ...abstract('Scotia is a word') }),
  ...texts({ title: 'x', abstract_inverted_index: { Scotia: [1], Nova: [0] } }),
  ...texts({ title: 'x', abstract_inverted_index: { Nova: [0], Scotia: [1], y: [1] } }),
  ...texts({ title: 'x', abstract_inverted_index: { Canada: [], x: [0] } }),
  ...texts({ title: 'x', abstract_inverted_index: { ' ': [0] } }),
  ...texts({ title: 'x', abstract_inverted_index: {} }),
  ...texts({ title: 'x', abstract_inverted_index: null }),
  ...texts({ title: 'x', abstract_inverted_index: { Toronto: Array.from({ length: 20_001 }, (_, k) => k) } }),
  ...texts({ title: 'x', abstract_inverted_index: { 'British-Columbia': [3], the: [0, 2], in: [1] } }),
  ...texts({ title: 'x', abstract_inverted_index: { Montréal: [0], 'ＣＡＮＡＤＡ,': [1], '2': [3], '1': [2] } }),
  work({ title: 'Canada', type: 'grant' }),
  work({ title: 'Canada', type: null, language: 'FR', doi: ' https://doi.org/10.1/X ', cited_by_count: 3, is_retracted: true }),
  work({
    title: 'Canada',
    publication_year: 2025,
    ids: { pmid: 'https://pubmed.ncbi.nlm.nih.gov/123', pmcid: 'https://www.ncbi.nlm.nih.gov/pmc/articles/PMC456/' },
  }),
  work({ authorships: [caAuthor, { author: null, institutions: null, countries: ['ca'] }, { author: { id: null, display_name: null } }] }),
  work({ authorships: [{ author: { id: `${OA}A2`, display_name: 'B' }, institutions: [], countries: ['US'] }] }),
  work({
    funders: [
      { id: `${OA}F1`, display_name: 'Fund  One' },
      { id: ' https://openalex.org/f2 ', display_name: 'Fund Two' },
      { id: `${OA}F9`, display_name: null },
    ],
    awards: [
      { funder_id: `${OA}F1`, funder_display_name: 'Fund One' },
      { funder_id: null, funder_display_name: 'Nameless' },
    ],
    grants: [{ funder: `${OA}F4320334593`, funder_display_name: 'Old' }],
  }),
  work({ grants: [{ funder: `${OA}F9`, funder_display_name: 'Not pinned' }] }),
  work({ primary_location: { source: { id: `${OA}S1`, display_name: 'Revue' } } }),
  work({ primary_location: { source: null }, host_venue: { id: `${OA}S2`, display_name: 'Old revue' } }),
  work({ primary_location: null, host_venue: { id: '', display_name: 'No id' }, title: 'Canada' }),
  work({
    primary_location: { source: { id: `${OA}S9`, display_name: 'Elsewhere' } },
    primary_topic: { display_name: 'Topic', field: { display_name: 'Field' } },
  }),
];

describe('the recent classifier (SQL) against the JavaScript rules', () => {
  let classifier: Classifier;
  let rules: ReturnType<typeof routeRules>;
  beforeAll(async () => {
    rules = routeRules(LISTS);
    classifier = await openClassifier(rules);
  });
  afterAll(async () => {
    await classifier.close();
  });

  /** Classifies in pages of 200 asked for at once, as concurrent queries do (runs of several pages), and compares each item. */
  async function compare(works: CatalogueWork[], lists = rules) {
    const c = lists === rules ? classifier : await openClassifier(lists);
    const pages = Array.from({ length: Math.ceil(works.length / 200) }, (_, k) => works.slice(k * 200, k * 200 + 200));
    const items = (await Promise.all(pages.map((p) => c.classify(p)))).flat();
    if (c !== classifier) await c.close();
    works.forEach((w, k) => expect(items[k], `${w.id}: ${JSON.stringify(w).slice(0, 200)}`).toEqual(classifyRecent(w, lists)));
    return items;
  }

  it('hand-written edge records: the same items', async () => {
    const items = await compare(EDGES.map((w) => catalogueWorkSchema.parse(w)));
    const terms = items.flatMap((i) => i?.route_evidence.about_terms ?? []);
    // Every kind of evidence is exercised: each tier, multi-word entries, a funder by each spelling.
    for (const tier of ['A', 'B', 'C']) expect(terms.some((t) => t.tier === tier)).toBe(true);
    expect(terms.some((t) => t.term.includes(' '))).toBe(true);
    expect(items.some((i) => i !== null && i.route_flags.about === false && i.route_evidence.about_terms.length > 0)).toBe(true);
    expect(items.find((i) => i?.route_evidence.ca_funder_ids.length === 3)?.route_evidence.ca_funder_ids).toEqual(['F1', 'F2', 'F4320334593']);
    expect(items.filter((i) => i === null).length).toBeGreaterThan(5);
  });

  it('the designed works of the recent tests: the same items', async () => {
    const designed = designedWorks({ today: '2026-11-28', lists: LISTS, count: 140 });
    const items = await compare(designed.map((d) => catalogueWorkSchema.parse(d.work)));
    expect(items.filter((i) => i !== null).length).toBeGreaterThan(80);
  });

  it.skipIf(!present)(
    'real records (API and the 2023 partition) and a generated set: the same items',
    async () => {
      const raw: unknown[] = [];
      for (const f of readdirSync(join(REF, 'works-api')).sort()) {
        const doc = JSON.parse(readFileSync(join(REF, 'works-api', f), 'utf8'));
        raw.push(...(Array.isArray(doc) ? doc : (doc.results ?? [doc])));
      }
      const legacy = gunzipSync(readFileSync(join(REF, 'snapshot-legacy-sample/data/works/updated_date=2023-05-16/part_000.gz'))).toString('utf8');
      raw.push(
        ...legacy
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l)),
      );
      const real = raw.flatMap((r) => {
        const p = catalogueWorkSchema.safeParse(r);
        return p.success ? [p.data] : [];
      });
      expect(real.length).toBeGreaterThan(600);
      // Pinned lists chosen from the records themselves, so that routes fund and venue admit real works.
      const tail = (u: string | null | undefined) => u?.split('/').pop() ?? '';
      const funders = [...new Set(real.flatMap((r) => [...(r.funders ?? []).map((f) => tail(f.id)), ...(r.grants ?? []).map((g) => tail(g.funder))]))];
      const sources = [...new Set(real.map((r) => tail(r.primary_location?.source?.id)))];
      const lists = routeRules({
        funders: funders.filter((id, k) => /^F\d+$/.test(id) && k % 3 === 0).map((id) => ({ id })),
        sources: sources.filter((id, k) => /^S\d+$/.test(id) && k % 7 === 0).map((id) => ({ id })),
        route_version: 'test',
      });
      const items = await compare(real, lists);
      expect(items.filter((i) => i !== null).length).toBeGreaterThan(30);
      expect(items.some((i) => i?.route_flags.fund)).toBe(true);
      expect(items.some((i) => i?.route_flags.venue)).toBe(true);
      const gen = new SyntheticWorks(referenceTemplates(join(REF, 'works-api')), 7);
      const generated = Array.from({ length: 2000 }, (_, k) => catalogueWorkSchema.safeParse(JSON.parse(gen.line(k, '2026-11-01'))))
        .filter((p) => p.success)
        .map((p) => p.data!);
      expect(generated.length).toBeGreaterThan(1000);
      const genItems = await compare(generated, lists);
      expect(genItems.filter((i) => i !== null).length).toBeGreaterThan(20);
    },
    120_000,
  );
});
