import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../contracts/common/errors.ts';
import { MAX_CA_AUTHORS } from '../../contracts/frame/network.ts';
import { appFor } from '../helpers/app.ts';
import { fixtureBuild, fixtureSnapshot, tempDir } from '../helpers/fixture-build.ts';
import { readTable } from '../helpers/oracle.ts';

const tmp = tempDir('network');
let h: Awaited<ReturnType<typeof appFor>>;
/** The oracle: edges computed in plain TypeScript from authorships.csv. */
const edges = new Map<string, { shared: number; weight: number }>();
const degree = new Map<string, Map<string, number>>();
let excluded = 0;

beforeAll(async () => {
  const snapshot = await fixtureSnapshot(tmp.path, { works: 4_000, seed: 3 });
  await fixtureBuild(snapshot, join(tmp.path, 'out'), false);
  h = await appFor(join(tmp.path, 'out'));
  const byWork = new Map<string, { author: string; ca: boolean }[]>();
  for (const a of readTable(snapshot, 'authorships.csv'))
    byWork.set(a.work_id!, [...(byWork.get(a.work_id!) ?? []), { author: a.author_id!, ca: a.is_ca === 'true' }]);
  for (const list of byWork.values()) {
    const ca = list.filter((x) => x.ca).map((x) => x.author);
    if (ca.length > MAX_CA_AUTHORS) excluded++;
    if (ca.length > MAX_CA_AUTHORS || list.length < 2) continue;
    for (const x of ca)
      for (const y of ca) {
        if (x >= y) continue;
        const key = `${x} ${y}`;
        const e = edges.get(key) ?? { shared: 0, weight: 0 };
        e.shared++;
        e.weight += 1 / (list.length - 1);
        edges.set(key, e);
      }
  }
  for (const [key, e] of edges) {
    const [a, b] = key.split(' ') as [string, string];
    for (const [p, q] of [
      [a, b],
      [b, a],
    ] as const)
      degree.set(p, (degree.get(p) ?? new Map()).set(q, e.weight));
  }
});
afterAll(async () => {
  await h?.close();
  tmp.remove();
});

const edgeOk = (e: { a: string; b: string; shared_works: number; weight: number }) => {
  const o = edges.get(`${e.a} ${e.b}`);
  expect(o, `${e.a}-${e.b}`).toBeDefined();
  expect(e.shared_works).toBe(o!.shared);
  expect(e.weight).toBeCloseTo(o!.weight, 6);
};

describe('/frame/api/v1/network', () => {
  it('states its construction rules and counts', async () => {
    const res = await h.app.inject('/frame/api/v1/network');
    expect(res.statusCode).toBe(200);
    const { meta } = res.json();
    expect(meta.ca_edges).toBe(edges.size);
    expect(meta.density_guard.max_ca_authors).toBe(MAX_CA_AUTHORS);
    expect(meta.density_guard.works_excluded).toBe(excluded);
    expect(meta.weight).toMatch(/1\/\(n_authors - 1\)/);
  });

  it('overview: the strongest edges, each equal to the oracle', async () => {
    const { graph } = (await h.app.inject('/frame/api/v1/network')).json();
    expect(graph.edges.length).toBe(Math.min(350, edges.size));
    for (const e of graph.edges) edgeOk(e);
    const shown = new Set(graph.edges.map((e: { a: string; b: string }) => `${e.a} ${e.b}`));
    const weakestShown = Math.min(...graph.edges.map((e: { weight: number }) => e.weight));
    const strongestLeftOut = Math.max(0, ...[...edges].filter(([k]) => !shown.has(k)).map(([, e]) => e.weight));
    expect(strongestLeftOut).toBeLessThanOrEqual(weakestShown + 1e-9);
    const ids = new Set(graph.edges.flatMap((e: { a: string; b: string }) => [e.a, e.b]));
    expect(new Set(graph.nodes.map((n: { id: string }) => n.id))).toEqual(ids);
  });

  it('ego view: the strongest spokes and the edges among the neighbours', async () => {
    const hub = [...degree].sort((x, y) => y[1].size - x[1].size)[0]![0];
    const res = await h.app.inject(`/frame/api/v1/network?author_id=${hub}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.center).toBe(hub);
    expect(body.graph.nodes[0].id).toBe(hub);
    const neighbours = body.graph.nodes.slice(1).map((n: { id: string }) => n.id);
    expect(neighbours.length).toBe(Math.min(30, degree.get(hub)!.size));
    for (const e of body.graph.edges) edgeOk(e);
    const among = [...edges.keys()].filter((k) => {
      const [a, b] = k.split(' ');
      return neighbours.includes(a) && neighbours.includes(b);
    });
    expect(body.graph.edges.length).toBe(neighbours.length + among.length);
  });

  it('unknown author is a 404 that is not cached; a malformed id is a 400', async () => {
    const missing = await h.app.inject('/frame/api/v1/network?author_id=A1');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(errorBodySchema.parse(missing.json()).code).toBe('NOT_FOUND');
    const bad = await h.app.inject('/frame/api/v1/network?author_id=Smith');
    expect(errorBodySchema.parse(bad.json()).code).toBe('INVALID_PARAMETER');
  });
});
