/** Every frame route's real responses against its zod schema and against the OpenAPI document. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_RESPONSES } from '../../contracts/frame/responses.ts';
import { appFor } from '../helpers/app.ts';
import { tempDir } from '../helpers/fixture-build.ts';
import { sharedFixture } from '../helpers/shared-fixture.ts';
import { readTable } from '../helpers/oracle.ts';
import { CANADIAN_LISTS_FILE, canadianListsSchema } from '../../contracts/frame/canadian-lists.ts';
import { utcDay } from '../../contracts/frame/recent.ts';
import { catalogueWorkSchema } from '../../api-dynamic/src/services/frame/recent/catalogue.ts';
import { openClassifier, routeRules } from '../../api-dynamic/src/services/frame/recent/classify.ts';
import { FileLayerStore } from '../../api-dynamic/src/services/frame/recent/file-layer-store.ts';
import { designedWorks } from '../helpers/catalogue-fixtures.ts';
import { freePort } from '../helpers/net.ts';

const tmp = tempDir('contract');
let h: Awaited<ReturnType<typeof appFor>>;
let urls: Record<keyof typeof FRAME_RESPONSES, string[]>;

beforeAll(async () => {
  const { snapshot, out } = await sharedFixture({ workFiles: true });
  // A recent layer of designed catalogue works, classified as a sync would, so /recent has items to check.
  const stateDir = join(tmp.path, 'state');
  const lists = canadianListsSchema.parse(JSON.parse(readFileSync(join(out, 'current', CANADIAN_LISTS_FILE), 'utf8')));
  const rules = routeRules(lists);
  const today = utcDay();
  const at = new Date().toISOString();
  const classifier = await openClassifier(rules);
  const classified = await classifier.classify(designedWorks({ today, lists, count: 30 }).map((d) => catalogueWorkSchema.parse(d.work)));
  await classifier.close();
  const layer = classified.flatMap((c) => {
    if (!c) return [];
    const provenance = {
      route_version: rules.routeVersion,
      catalogue_updated_date: null,
      source_window_start: today,
      source_window_end: today,
      first_seen_at: at,
      last_seen_at: at,
      synced_at: at,
      sync_run: 1,
    };
    return [{ ...c, provenance }];
  });
  await (await FileLayerStore.open(stateDir)).replaceLayer(layer, 'contract');
  // The catalogue is a closed port: a live abstract fails fast, which is one of the shapes to check.
  h = await appFor(out, { STATE_DIR: stateDir, CATALOGUE_URL: `http://127.0.0.1:${await freePort()}` });
  const works = readTable(snapshot, 'works.csv');
  const screened = readTable(snapshot, 'screened.csv');
  const author = readTable(snapshot, 'authorships.csv').find((a) => a.is_ca === 'true')!.author_id;
  const permalink = (await h.app.inject({ method: 'POST', url: '/frame/api/v1/permalink?route=aff&lang=fr' })).headers.location as string;
  urls = {
    '/api/v1/stats/summary': ['/frame/api/v1/stats/summary'],
    '/api/v1/stats/labels': ['/frame/api/v1/stats/labels'],
    '/api/v1/stats/by-route': ['/frame/api/v1/stats/by-route'],
    '/api/v1/stats/by-year': ['/frame/api/v1/stats/by-year'],
    '/api/v1/stats/by-field': ['/frame/api/v1/stats/by-field'],
    '/api/v1/findings': ['/frame/api/v1/findings'],
    '/api/v1/predictions': ['/frame/api/v1/predictions'],
    // Works with and without a screen record, labels and retraction.
    '/api/v1/works/{id}': [
      ...[...works.slice(0, 40), ...screened.slice(0, 10).map((s) => ({ id: s.work_id }))].map((w) => `/frame/api/v1/works/${w.id}`),
      // With the abstract: from the screening record, and unavailable (the catalogue cannot be reached).
      `/frame/api/v1/works/${screened.find((s) => s.abstract !== '')!.work_id}?abstract=1`,
      `/frame/api/v1/works/${works.find((w) => !screened.some((s) => s.work_id === w.id))!.id}?abstract=1`,
    ],
    '/api/v1/screened': ['/frame/api/v1/screened', '/frame/api/v1/screened?contested_only=1&per_page=100'],
    '/api/v1/network': ['/frame/api/v1/network', `/frame/api/v1/network?author_id=${author}`],
    '/api/v1/cohort': [
      '/frame/api/v1/cohort',
      '/frame/api/v1/cohort?route=no_aff&per_page=100&sort=year_asc',
      '/frame/api/v1/cohort?q=the&sort=relevance',
      '/frame/api/v1/cohort?lang=xx',
    ],
    '/api/v1/cohort/facets': ['type', 'lang', 'field', 'topic', 'venue', 'year', 'route'].map((f) => `/frame/api/v1/cohort/facets?facet=${f}&route_aff=1`),
    '/api/v1/works': ['/frame/api/v1/works', '/frame/api/v1/works?q=the&per_page=100', `/frame/api/v1/works?author_id=${author}`],
    '/api/v1/facets/venue': ['/frame/api/v1/facets/venue?q=jo', '/frame/api/v1/facets/venue?q=zzzzzz'],
    '/api/v1/facets/topic': ['/frame/api/v1/facets/topic?q=ca'],
    '/api/v1/facets/author': ['/frame/api/v1/facets/author?q=ma', '/frame/api/v1/facets/author?q=a%20b'],
    '/api/v1/recent': ['/frame/api/v1/recent', '/frame/api/v1/recent?route=fund&days=15', '/frame/api/v1/recent?q=zzzz'],
    '/api/v1/recent/{id}': [`/frame/api/v1/recent/${layer[0]!.id}`],
    '/api/v1/permalink/{hash}': [permalink],
    // Minted on the served snapshot: nothing changed (test/e2e/snapshot-retention.test.ts checks a real change).
    '/api/v1/permalink/{hash}/changes': [`${permalink}/changes`],
    '/api/v1/snapshots': ['/frame/api/v1/snapshots'],
  };
});
afterAll(async () => {
  await h?.close();
  tmp.remove();
});

describe('frame response contracts', () => {
  it('every declared route is in the OpenAPI document, with parameters and a 200 schema', async () => {
    const doc = (await h.app.inject('/frame/api/v1/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(
      [...Object.keys(FRAME_RESPONSES), '/api/v1/cohort/export', '/api/v1/permalink'].map((p) => `/frame${p}`).sort(),
    );
    const screened = doc.paths['/frame/api/v1/screened'].get.parameters.map((p: { name: string }) => p.name);
    expect(screened).toEqual(['contested_only', 'n_in', 'stratum', 'page', 'per_page']);
  });

  it.each(Object.keys(FRAME_RESPONSES))('%s: real responses match the zod schema and the OpenAPI schema', async (path) => {
    const doc = (await h.app.inject('/frame/api/v1/openapi.json')).json();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(doc.paths[`/frame${path}`].get.responses['200'].content['application/json'].schema);
    const schema = FRAME_RESPONSES[path as keyof typeof FRAME_RESPONSES];
    for (const url of urls[path as keyof typeof FRAME_RESPONSES]) {
      const res = await h.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      const body = res.json();
      const parsed = schema.safeParse(body);
      expect(parsed.success, `${url}: ${parsed.error?.message}`).toBe(true);
      expect(validate(body), `${url}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
    }
  });
});
