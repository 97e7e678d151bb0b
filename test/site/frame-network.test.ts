/**
 * The collaboration network page (/frame/network) over the real app and a real Astro build of the fixture:
 * the overview and a neighbourhood show the API's graph (every node a link in the SVG, every edge a line,
 * the counts and rules of the API), the address is the API's query string (its 400 and 404 with their
 * messages), the author search works without JavaScript, the server's layout is deterministic and inside
 * the drawing, and the page's time is logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutNetwork } from '../../site/src/lib/frame/network-layout.ts';
import { type SiteServer, pageTimes, startSiteServer } from '../helpers/site-server.ts';

let s: SiteServer;
beforeAll(async () => {
  s = await startSiteServer();
});
afterAll(async () => s?.close());

const fmt = (n: number) => n.toLocaleString('en-CA');

interface Graph {
  nodes: { id: string; name: string; ca_works: number }[];
  edges: { a: string; b: string; shared_works: number; weight: number }[];
}
interface Network {
  meta: { ca_authors: number; ca_edges: number; weight: string; density_guard: { rule: string }; snapshot: { id: string } };
  center?: string;
  graph: Graph;
}

const decode = (html: string) =>
  html
    .replace(/&amp;|&#38;/g, '&')
    .replace(/&quot;|&#34;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
const text = (html: string) =>
  decode(html.replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
const svgOf = (html: string) => html.match(/<svg [^>]*class="network-graph"[\s\S]*?<\/svg>/)![0];
/** The ids of the SVG's node links, in document order. */
const nodeIds = (svg: string) =>
  [...svg.matchAll(/<a class="node[^"]*" href="\/frame\/network\?author_id=(A\d+)" data-id="(A\d+)"/g)].map((m) => (expect(m[1]).toBe(m[2]), m[1]!));
const edgePairs = (svg: string) => [...svg.matchAll(/<line class="edge" [^>]*data-a="(A\d+)" data-b="(A\d+)"/g)].map((m) => `${m[1]} ${m[2]}`);
const count = (html: string, what: string) => html.match(new RegExp(`data-count="${what}"[^>]*>([^<]+)<`))![1];

let hub = '';
describe('the overview', () => {
  it("draws the API's graph: one link per researcher, one line per tie, the API's counts", async () => {
    const api = await s.json<Network>('/frame/api/v1/network');
    hub = api.graph.nodes[0]!.id;
    const { status, text: html } = await s.get('/frame/network');
    expect(status).toBe(200);
    const svg = svgOf(html);
    expect(nodeIds(svg)).toEqual(api.graph.nodes.map((n) => n.id));
    expect(edgePairs(svg)).toEqual(api.graph.edges.map((e) => `${e.a} ${e.b}`));
    expect(svg.match(/<circle /g)).toHaveLength(api.graph.nodes.length);
    expect(count(html, 'nodes')).toBe(fmt(api.graph.nodes.length));
    expect(count(html, 'edges')).toBe(fmt(api.graph.edges.length));
    expect(html).toMatch(new RegExp(`data-rule="ca_authors"[^>]*>${fmt(api.meta.ca_authors)}<`));
    expect(html).toMatch(new RegExp(`data-rule="ca_edges"[^>]*>${fmt(api.meta.ca_edges)}<`));
    expect(text(html)).toContain(api.meta.density_guard.rule);
    expect(text(html)).toContain(api.meta.weight);
  });

  it('names every researcher in the SVG (their works and ties) and lists them all in the data table', async () => {
    const api = await s.json<Network>('/frame/api/v1/network');
    const { text: html } = await s.get('/frame/network');
    const degree = new Map<string, number>();
    for (const e of api.graph.edges) for (const id of [e.a, e.b]) degree.set(id, (degree.get(id) ?? 0) + 1);
    const svg = decode(svgOf(html));
    const table = decode(html.slice(html.indexOf('<summary>Data table:')));
    for (const n of api.graph.nodes) {
      const d = degree.get(n.id)!;
      expect(svg).toContain(`<title>${n.name}: ${fmt(n.ca_works)} Canadian-affiliated works, ${fmt(d)} ${d === 1 ? 'tie' : 'ties'} in this graph</title>`);
      expect(table).toContain(`<th scope="row">${n.name} (${n.id})</th><td class="num">${fmt(n.ca_works)}</td><td class="num">${fmt(d)}</td>`);
    }
    const ties = decode(html.slice(html.indexOf('data-table="ties"')));
    const name = new Map(api.graph.nodes.map((n) => [n.id, n.name]));
    for (const e of api.graph.edges.slice(0, 40))
      expect(ties).toContain(
        `<th scope="row">${name.get(e.a)}</th> <td>${name.get(e.b)}</td> <td class="num">${fmt(e.shared_works)}</td> <td class="num">${fmt(e.weight)}</td>`,
      );
  });

  it('is an accessible figure: the SVG is a named, described group whose nodes are links, with a skip link past them', async () => {
    const { text: html } = await s.get('/frame/network');
    expect(html).toMatch(/<figure class="chart" aria-labelledby="network-caption">/);
    expect(svgOf(html)).toMatch(/^<svg [^>]*role="group" aria-labelledby="network-caption" aria-describedby="network-desc"/);
    expect(svgOf(html)).toMatch(/<title>Collaboration network<\/title>/);
    expect(html).toMatch(/<a class="skip-graph" href="#network-after">/);
    expect(html).toContain('id="network-after"');
  });
});

describe('a neighbourhood', () => {
  it("draws the API's neighbourhood, the centre apart, and lists the coauthors in the API's order", async () => {
    const api = await s.json<Network>(`/frame/api/v1/network?author_id=${hub}`);
    const { status, text: html } = await s.get(`/frame/network?author_id=${hub}`);
    expect(status).toBe(200);
    const centre = api.graph.nodes.find((n) => n.id === hub)!;
    expect(html).toContain(`<h1>Collaboration network: ${centre.name}</h1>`);
    const svg = svgOf(html);
    expect(nodeIds(svg)).toEqual(api.graph.nodes.map((n) => n.id));
    expect(edgePairs(svg)).toEqual(api.graph.edges.map((e) => `${e.a} ${e.b}`));
    expect(svg).toContain(`<a class="node center" href="/frame/network?author_id=${hub}" data-id="${hub}">`);
    expect(count(html, 'nodes')).toBe(fmt(api.graph.nodes.length));
    expect(count(html, 'edges')).toBe(fmt(api.graph.edges.length));
    const name = new Map(api.graph.nodes.map((n) => [n.id, n]));
    const spokes = api.graph.edges.filter((e) => e.a === hub || e.b === hub);
    const table = html.match(/<table class="ties" [^>]*data-table="spokes"[\s\S]*?<\/table>/)![0];
    const rows = [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].slice(1).map((m) => text(m[1]!));
    expect(rows).toEqual(
      spokes.map((e) => {
        const other = e.a === hub ? e.b : e.a;
        return `${name.get(other)!.name} ${other} ${fmt(e.shared_works)} ${fmt(e.weight)} ${fmt(name.get(other)!.ca_works)}`;
      }),
    );
    expect(html).toContain(`<a href="/frame/api/v1/network?author_id=${hub}">`);
    expect(html).toContain('<a href="/frame/network">');
  });
});

describe('the address is the API query string', () => {
  for (const [qs, status, parameter] of [
    ['?author_id=x', 400, 'author_id'],
    ['?author_id=', 400, 'author_id'],
    ['?bogus=1', 400, 'bogus'],
    ['?author_id=A1&author_id=A2', 400, 'author_id'],
    ['?author_id=A1', 404, 'author_id'],
  ] as const) {
    it(`${qs} is the API's ${status}, with its message`, async () => {
      const api = await s.get(`/frame/api/v1/network${qs}`);
      expect(api.status).toBe(status);
      const body = JSON.parse(api.text) as { message: string; code: string };
      const page = await s.get(`/frame/network${qs}`);
      expect(page.status).toBe(status);
      expect(page.text).toMatch(/<section class="notice" role="alert"/);
      expect(text(page.text)).toContain(body.message);
      expect(page.text).toContain(`data-error-code="${body.code}"`);
      expect(page.text).toContain(`<code>${parameter}</code>`);
      expect(page.text).not.toContain('class="network-graph"');
    });
  }

  it('parameters starting with _ are ignored, as by the API', async () => {
    const a = await s.get('/frame/network?_anything=1');
    expect(a.status).toBe(200);
    expect(nodeIds(svgOf(a.text))).toEqual(nodeIds(svgOf((await s.get('/frame/network')).text)));
  });
});

describe('author search without JavaScript', () => {
  it('lists the researchers /facets/author finds, each linking to their neighbourhood, beside the overview', async () => {
    const facet = await s.json<{ results: { id: string; name: string; ca_works: number }[] }>('/frame/api/v1/facets/author?q=tremb');
    expect(facet.results.length).toBeGreaterThan(0);
    const { status, text: html } = await s.get('/frame/network?_author=tremb');
    expect(status).toBe(200);
    const hits = html.slice(html.indexOf('id="hits-heading"'));
    const items = [...hits.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((m) => m[1]!);
    expect(items.map((li) => li.match(/<a href="\/frame\/network\?author_id=(A\d+)"/)?.[1])).toEqual(facet.results.map((r) => r.id));
    expect(items.map(text)).toEqual(facet.results.map((r) => `${r.name} ${r.id}, ${fmt(r.ca_works)} Canadian-affiliated works`));
    expect(html).toMatch(/<input id="author-q" name="_author" type="search" value="tremb"/);
    expect(html).toContain('class="network-graph"');
  });

  it('a search of one character is the facet’s 400, with its message in the page’s words (the field, not the API’s q)', async () => {
    const facet = await s.get('/frame/api/v1/facets/author?q=t');
    expect(facet.status).toBe(400);
    const page = await s.get('/frame/network?_author=t');
    expect(page.status).toBe(400);
    const message = (JSON.parse(facet.text) as { message: string }).message;
    expect(message).toContain('"q"');
    expect(text(page.text)).toContain(message.replace('"q"', '"name"').replace(/: q /, ': the name '));
    expect(text(page.text)).not.toContain('"q"');
  });

  it('the search form is a labelled GET form; the page has no inline script or style', async () => {
    const { text: html } = await s.get(`/frame/network?author_id=${hub}`);
    expect(html).toMatch(/<form method="get" action="\/frame\/network" role="search"/);
    expect(html).toMatch(/<label for="author-q"/);
    expect(html.match(/<main /g)).toHaveLength(1);
    expect(html).not.toMatch(/<style[\s>]/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/(ld\+)?json")[^>]*>/);
    expect(html).not.toMatch(/\sstyle="/);
    expect(html).not.toMatch(/\son[a-z]+="/);
  });
});

describe('the layout', () => {
  it('is deterministic, inside the drawing, and pins the centre of a neighbourhood', async () => {
    const overview = await s.json<Network>('/frame/api/v1/network');
    const a = layoutNetwork(overview.graph);
    expect(layoutNetwork(overview.graph)).toEqual(a);
    for (const n of a.nodes) {
      expect(n.x - n.r).toBeGreaterThanOrEqual(0);
      expect(n.y - n.r).toBeGreaterThanOrEqual(0);
      expect(n.x + n.r).toBeLessThanOrEqual(a.width);
      expect(n.y + n.r).toBeLessThanOrEqual(a.height);
    }
    const ego = await s.json<Network>(`/frame/api/v1/network?author_id=${hub}`);
    const e = layoutNetwork(ego.graph, hub);
    const centre = e.nodes.find((n) => n.id === hub)!;
    expect(centre.labelled).toBe(true);
    // The page draws the same positions.
    const { text: html } = await s.get('/frame/network');
    const first = a.nodes[0]!;
    expect(svgOf(html)).toContain(`<circle cx="${first.x}" cy="${first.y}" r="${first.r}"`);
  });
});

describe('speed', () => {
  it('answers 20 requests in a row on the fixture build, overview and neighbourhoods (median logged; npm run bench:site measures the 100 ms target)', async () => {
    const api = await s.json<Network>('/frame/api/v1/network');
    const paths = ['/frame/network', ...api.graph.nodes.slice(0, 9).map((n) => `/frame/network?author_id=${n.id}`)];
    // The first view of each neighbourhood is included (only the overview is warmed up).
    await pageTimes(s, '/frame/network', (i) => paths[i % paths.length]!);
  });
});
