/** Every frame route's real responses against its zod schema and against the OpenAPI document. */
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_RESPONSES } from '../../contracts/frame/responses.ts';
import { appFor } from '../helpers/app.ts';
import { fixtureBuild, fixtureSnapshot, tempDir } from '../helpers/fixture-build.ts';
import { readTable } from '../helpers/oracle.ts';

const tmp = tempDir('contract');
let h: Awaited<ReturnType<typeof appFor>>;
let urls: Record<keyof typeof FRAME_RESPONSES, string[]>;

beforeAll(async () => {
  const snapshot = await fixtureSnapshot(tmp.path);
  await fixtureBuild(snapshot, join(tmp.path, 'out'), true);
  h = await appFor(join(tmp.path, 'out'));
  const works = readTable(snapshot, 'works.csv');
  const screened = readTable(snapshot, 'screened.csv');
  const author = readTable(snapshot, 'authorships.csv').find((a) => a.is_ca === 'true')!.author_id;
  urls = {
    '/api/v1/stats/summary': ['/frame/api/v1/stats/summary'],
    '/api/v1/stats/labels': ['/frame/api/v1/stats/labels'],
    '/api/v1/stats/by-route': ['/frame/api/v1/stats/by-route'],
    '/api/v1/stats/by-year': ['/frame/api/v1/stats/by-year'],
    '/api/v1/stats/by-field': ['/frame/api/v1/stats/by-field'],
    '/api/v1/findings': ['/frame/api/v1/findings'],
    '/api/v1/predictions': ['/frame/api/v1/predictions'],
    // Works with and without a screen record, labels and retraction.
    '/api/v1/works/{id}': [...works.slice(0, 40), ...screened.slice(0, 10).map((s) => ({ id: s.work_id }))].map((w) => `/frame/api/v1/works/${w.id}`),
    '/api/v1/screened': ['/frame/api/v1/screened', '/frame/api/v1/screened?contested_only=1&per_page=100'],
    '/api/v1/network': ['/frame/api/v1/network', `/frame/api/v1/network?author_id=${author}`],
    '/api/v1/cohort': ['/frame/api/v1/cohort', '/frame/api/v1/cohort?route=no_aff&per_page=100&sort=year_asc', '/frame/api/v1/cohort?q=the&sort=relevance', '/frame/api/v1/cohort?lang=xx'],
    '/api/v1/cohort/facets': ['type', 'lang', 'field', 'topic', 'venue', 'year', 'route'].map((f) => `/frame/api/v1/cohort/facets?facet=${f}&route_aff=1`),
    '/api/v1/works': ['/frame/api/v1/works', '/frame/api/v1/works?q=the&per_page=100', `/frame/api/v1/works?author_id=${author}`],
    '/api/v1/facets/venue': ['/frame/api/v1/facets/venue?q=jo', '/frame/api/v1/facets/venue?q=zzzzzz'],
    '/api/v1/facets/topic': ['/frame/api/v1/facets/topic?q=ca'],
    '/api/v1/facets/author': ['/frame/api/v1/facets/author?q=ma', '/frame/api/v1/facets/author?q=a%20b'],
    '/api/v1/permalink/{hash}': [(await h.app.inject({ method: 'POST', url: '/frame/api/v1/permalink?route=aff&lang=fr' })).headers.location as string],
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
