/**
 * The frame's statistics pages, findings and predictions report over the real app and an Astro build of the
 * fixture: every number in each chart's data table is the API document's, the UpSet combinations sum to the
 * frame as the API says, every cohort link (bars and link lists) opens a cohort whose API total is the number
 * the bar shows, and the pages are plain HTML (no script at all, no inline style, accessible charts).
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SiteServer, pageTimes, STATS_PAGES, startSiteServer } from '../helpers/site-server.ts';

type Node = ReturnType<typeof DomUtils.findAll>[number];
type Doc = ReturnType<typeof parseDocument>;

const PAGES = STATS_PAGES;

let s: SiteServer;
const html = new Map<string, string>();
const dom = new Map<string, Doc>();
beforeAll(async () => {
  s = await startSiteServer();
  for (const path of PAGES) {
    const r = await s.get(path);
    expect(r.status, path).toBe(200);
    html.set(path, r.text);
    dom.set(path, parseDocument(r.text));
  }
}, 120_000);
afterAll(async () => s?.close());

// ---- oracles' formatting: the site's rule (en-CA grouping) written out independently ----
const fmt = (n: number) => n.toLocaleString('en-CA');
const pct = (part: number, whole: number) => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`);
const exact = (n: number) => n.toLocaleString('en-CA', { maximumFractionDigits: 20 });

// ---- reading the pages ----
const text = (n: Node | Node[] | Doc) => DomUtils.textContent(n).replace(/\s+/g, ' ').trim();
const all = (root: Doc | Node, test: (n: Node) => boolean): Node[] => DomUtils.findAll(test, root.type === 'root' ? (root as Doc).children : [root as Node]);
const byTag = (root: Doc | Node, tag: string) => all(root, (n) => n.name === tag);
const page = (path: string) => dom.get(path)!;

/** The <figure> of a chart by its id. */
function figure(path: string, id: string): Node {
  const f = all(page(path), (n) => n.name === 'figure' && n.attribs['aria-labelledby'] === `${id}-caption`);
  expect(f, `${path} figure ${id}`).toHaveLength(1);
  return f[0]!;
}

/** The data table of a chart: header cells and rows of cell texts. */
function dataTable(path: string, id: string): { head: string[]; rows: string[][] } {
  const details = byTag(figure(path, id), 'details').find((d) => text(byTag(d, 'summary')).startsWith('Data table'))!;
  const table = byTag(details, 'table')[0]!;
  const head = byTag(byTag(table, 'thead')[0]!, 'th').map((c) => text(c));
  const rows = byTag(byTag(table, 'tbody')[0]!, 'tr').map((tr) =>
    tr.children.filter((c): c is Node => 'name' in c && (c.name === 'th' || c.name === 'td')).map((c) => text(c)),
  );
  return { head, rows };
}

/** The rows of a captioned (non-chart) table: [row header, ...cells]. */
function captioned(path: string, caption: string): string[][] {
  const t = byTag(page(path), 'table').find((x) => text(byTag(x, 'caption')) === caption);
  expect(t, `${path} table "${caption}"`).toBeDefined();
  return byTag(t!, 'tr').map((tr) => tr.children.filter((c): c is Node => 'name' in c && (c.name === 'th' || c.name === 'td')).map((c) => text(c)));
}

/** Every cohort link of a page: list links (data-works) and SVG bar links (data-value). */
function cohortLinks(path: string): { href: string; works: number }[] {
  return all(
    page(path),
    (n) =>
      n.name === 'a' &&
      n.attribs.href?.startsWith('/frame/cohort') === true &&
      (n.attribs['data-works'] !== undefined || n.attribs['data-value'] !== undefined),
  ).map((a) => ({
    href: a.attribs.href!,
    works: Number(a.attribs['data-works'] ?? a.attribs['data-value']),
  }));
}

const cohortTotal = async (href: string): Promise<number> => {
  const q = href.includes('?') ? href.slice(href.indexOf('?') + 1) : '';
  const r = await s.json<{ meta: { total: number } }>(`/frame/api/v1/cohort?${q}${q ? '&' : ''}per_page=1`);
  return r.meta.total;
};

// ---- the API's documents ----
interface Summary {
  works: number;
  no_aff: number;
  no_abstract: number;
  retracted_openalex: number;
  screened: number;
  retraction_notices: number;
  routes: Record<string, number>;
  screen_consensus: Record<string, number>;
  coverage: Record<string, number>;
}
interface ByYear {
  meta: { works_without_year: number };
  results: { year: number; works: number; no_aff: number; no_abstract: number }[];
}
interface ByRoute {
  meta: { total: number; no_aff: number };
  marginals: { route: string; label: string; works: number }[];
  combinations: { combo: string; n_routes: number; works: number }[];
}
interface ByField {
  fields: { field: string; works: number; no_abstract: number }[];
  languages: { lang: string; works: number; no_abstract: number }[];
  abstract_gap_by_type: { type: string; works: number; no_abstract: number; pct_no_abstract: number }[];
  top_venues: { venue: string; works: number }[];
  top_funders: { funder: string; works: number }[];
  retraction_states: { nature: string; works: number; openalex_flagged: number; openalex_missed: number }[];
}
interface Labels {
  coverage: { labeled_works: number; label_rows: number; frame_works: number; models: string[] };
  by_category: { category: string; any_model: number; all_models: number }[];
  by_design: { design: string; any_model: number; all_models: number }[];
  by_year: { year: number; labeled: number }[];
  by_lang: { lang: string; labeled: number }[];
}
interface Findings {
  meta: { count: number; evidence_status: string };
  findings: Record<string, { headline: string; values: Record<string, unknown>; computed_at_utc: string }>;
}
interface Predictions {
  predictions: {
    n_predictions: number;
    model_version: string;
    limitations: string[];
    frame_category_counts: Record<string, { candidate: number; consensus: number }>;
    thresholds?: Record<string, Record<string, number | null>>;
  };
  model: {
    evaluation?: { cross_validation?: { head: string; fold: number; precision: number; recall: number; f2: number; tp: number; fp: number; fn: number }[] };
  };
}

const api = <T>(path: string) => s.json<T>(`/frame/api/v1/${path}`);

describe('every page', () => {
  for (const path of PAGES) {
    it(`${path} is plain HTML: landmarks, no script at all, no inline style or handler, the statistics navigation`, () => {
      const t = html.get(path)!;
      expect(t).toMatch(/<html lang="en">/);
      expect(t.match(/<main /g)).toHaveLength(1);
      expect(t).toMatch(/<nav [^>]*aria-label="Frame statistics"/);
      expect(t).not.toMatch(/<script/);
      expect(t).not.toMatch(/<style[\s>]/);
      expect(t).not.toMatch(/\sstyle="/);
      expect(t).not.toMatch(/\son[a-z]+="/);
      expect(byTag(page(path), 'h1')).toHaveLength(1);
    });

    it(`${path}: every chart is an SVG image named by its caption and description, with a data table`, () => {
      const figures = all(page(path), (n) => n.name === 'figure' && (n.attribs.class ?? '').split(' ').includes('chart'));
      for (const f of figures) {
        const id = f.attribs['aria-labelledby']!.replace(/-caption$/, '');
        const svg = byTag(f, 'svg');
        expect(svg, id).toHaveLength(1);
        // A chart whose marks are links is a group (links inside an image would be hidden: axe nested-interactive).
        expect(svg[0]!.attribs.role).toBe(byTag(svg[0]!, 'a').length > 0 ? 'group' : 'img');
        expect(svg[0]!.attribs['aria-labelledby']).toBe(`${id}-caption ${id}-desc`);
        expect(text(all(page(path), (n) => n.attribs?.id === `${id}-caption`))).not.toBe('');
        expect(text(all(page(path), (n) => n.attribs?.id === `${id}-desc`))).not.toBe('');
        const table = byTag(f, 'table');
        expect(table, id).toHaveLength(1);
        for (const th of byTag(table[0]!, 'th')) expect(['col', 'row']).toContain(th.attribs.scope);
      }
      // No two elements share an id.
      const ids = all(page(path), (n) => n.attribs?.id !== undefined).map((n) => n.attribs.id);
      expect(new Set(ids).size).toBe(ids.length);
    });
  }
});

describe('/frame/stats', () => {
  it('shows the summary as the API gives it, each number linked to a cohort that has that many works', async () => {
    const sum = await api<Summary>('stats/summary');
    const rows = new Map(
      captioned('/frame/stats', 'The frame in numbers')
        .slice(1)
        .map((r) => [r[0]!, r[1]!]),
    );
    expect(rows.get('Works in the frame')).toBe(fmt(sum.works));
    expect(rows.get('No Canadian affiliation')).toBe(fmt(sum.no_aff));
    expect(rows.get('No abstract')).toBe(fmt(sum.no_abstract));
    expect(rows.get('With an abstract')).toBe(fmt(sum.coverage.has_abstract!));
    expect(rows.get('In French')).toBe(fmt(sum.coverage.french!));
    expect(rows.get('With a venue')).toBe(fmt(sum.coverage.has_venue!));
    expect(rows.get('No funder metadata')).toBe(fmt(sum.coverage.no_funder!));
    expect(rows.get('Flagged retracted by OpenAlex')).toBe(fmt(sum.retracted_openalex));
    expect(rows.get('Retraction Watch notices')).toBe(fmt(sum.retraction_notices));
    expect(rows.get('Screened by three models')).toBe(fmt(sum.screened));
    // The summary's links: the cohort API gives the same totals.
    const table = byTag(page('/frame/stats'), 'table').find((x) => text(byTag(x, 'caption')) === 'The frame in numbers')!;
    let checked = 0;
    for (const tr of byTag(table, 'tr')) {
      const a = byTag(tr, 'a')[0];
      if (!a?.attribs.href!.startsWith('/frame/cohort')) continue;
      expect(fmt(await cohortTotal(a.attribs.href!)), a.attribs.href).toBe(text(byTag(tr, 'td')[0]!));
      checked++;
    }
    expect(checked).toBe(6);
  });

  it('charts works per year with the counts of /stats/by-year, and the shares computed from them', async () => {
    const doc = await api<ByYear>('stats/by-year');
    const t = dataTable('/frame/stats', 'by-year');
    expect(t.head).toEqual(['Year', 'Works', 'No Canadian affiliation', 'No abstract']);
    expect(t.rows).toEqual(doc.results.map((r) => [String(r.year), fmt(r.works), fmt(r.no_aff), fmt(r.no_abstract)]));
    const shares = dataTable('/frame/stats', 'by-year-shares');
    expect(shares.rows).toEqual(doc.results.map((r) => [String(r.year), pct(r.no_aff, r.works), pct(r.no_abstract, r.works)]));
    // Each column links to the cohort of its year, with the year's count on the link.
    const links = all(figure('/frame/stats', 'by-year'), (n) => n.name === 'a' && n.attribs['data-value'] !== undefined);
    expect(links.map((a) => [a.attribs.href, Number(a.attribs['data-value'])])).toEqual(
      doc.results.map((r) => [`/frame/cohort?year_from=${r.year}&year_to=${r.year}`, r.works]),
    );
  });

  it('charts the screening consensus of /stats/summary', async () => {
    const sum = await api<Summary>('stats/summary');
    expect(dataTable('/frame/stats', 'screen-consensus').rows).toEqual([0, 1, 2, 3].map((k) => [`${k} of 3 models`, fmt(sum.screen_consensus[`n_in_${k}`]!)]));
  });
});

describe('/frame/stats/routes', () => {
  it('charts the four marginals of /stats/by-route', async () => {
    const doc = await api<ByRoute>('stats/by-route');
    expect(dataTable('/frame/stats/routes', 'route-marginals').rows).toEqual(
      doc.marginals.map((m) => [m.label, fmt(m.works), m.route, pct(m.works, doc.meta.total)]),
    );
  });

  it('draws every combination in API order, with the dots of its routes, and they sum to the frame as the API says', async () => {
    const doc = await api<ByRoute>('stats/by-route');
    expect(dataTable('/frame/stats/routes', 'route-combinations').rows).toEqual(doc.combinations.map((c) => [c.combo, String(c.n_routes), fmt(c.works)]));
    const total = doc.combinations.reduce((a, c) => a + c.works, 0);
    expect(total).toBe(doc.meta.total);
    const rows = new Map(captioned('/frame/stats/routes', 'Routes in numbers').map((r) => [r[0]!, r[1]!]));
    expect(rows.get('Sum of the combinations')).toBe(fmt(doc.meta.total));
    expect(rows.get('Works in the frame')).toBe(fmt(doc.meta.total));
    expect(rows.get('No Canadian affiliation (came by another route)')).toBe(fmt(doc.meta.no_aff));
    expect(rows.get('Sum of the four route marginals')).toBe(fmt(doc.marginals.reduce((a, m) => a + m.works, 0)));
    // The UpSet columns: one link per combination, to exactly that combination, with its filled dots.
    const svg = byTag(figure('/frame/stats/routes', 'route-combinations'), 'svg')[0]!;
    const columns = all(svg, (n) => n.name === 'a' && ['aff', 'fund', 'venue', 'about'].every((r) => n.attribs.href!.includes(`route_${r}=`)));
    expect(columns).toHaveLength(doc.combinations.length);
    doc.combinations.forEach((c, i) => {
      const routes = c.combo === 'none' ? [] : c.combo.split('+');
      const a = columns[i]!;
      expect(Number(a.attribs['data-value'])).toBe(c.works);
      const q = new URLSearchParams(a.attribs.href!.split('?')[1]);
      for (const r of ['aff', 'fund', 'venue', 'about']) expect(q.get(`route_${r}`)).toBe(routes.includes(r) ? '1' : '0');
      expect(byTag(a, 'circle').map((d) => d.attribs.class)).toEqual(['aff', 'fund', 'venue', 'about'].map((r) => (routes.includes(r) ? 'on' : 'off')));
    });
  });
});

describe('/frame/stats/fields and /frame/stats/languages', () => {
  it('show the tables of /stats/by-field', async () => {
    const doc = await api<ByField>('stats/by-field');
    expect(dataTable('/frame/stats/fields', 'fields').rows).toEqual(
      doc.fields.map((f) => [f.field, fmt(f.works), fmt(f.no_abstract), pct(f.no_abstract, f.works)]),
    );
    expect(dataTable('/frame/stats/fields', 'abstract-gap').rows).toEqual(
      doc.abstract_gap_by_type.map((g) => [g.type, fmt(g.works), fmt(g.no_abstract), `${exact(g.pct_no_abstract)}%`]),
    );
    expect(dataTable('/frame/stats/fields', 'top-venues').rows).toEqual(doc.top_venues.map((v) => [v.venue, fmt(v.works)]));
    expect(dataTable('/frame/stats/fields', 'top-funders').rows).toEqual(doc.top_funders.map((f) => [f.funder, fmt(f.works)]));
    expect(dataTable('/frame/stats/languages', 'languages').rows).toEqual(
      doc.languages.map((l) => [l.lang, fmt(l.works), fmt(l.no_abstract), pct(l.no_abstract, l.works)]),
    );
  });

  it('link no bar to a cohort for values no filter selects (missing field or language), and funders not at all', async () => {
    const doc = await api<ByField>('stats/by-field');
    const hrefs = [...cohortLinks('/frame/stats/fields'), ...cohortLinks('/frame/stats/languages')].map((l) => l.href);
    for (const h of hrefs) expect(h).not.toMatch(/lang=unknown|field=Unclassified/);
    expect(all(figure('/frame/stats/fields', 'top-funders'), (n) => n.name === 'a')).toHaveLength(0);
    // Every other field, type, venue and language has its cohort.
    const linked = (key: string, value: string) => hrefs.some((h) => new URLSearchParams(h.split('?')[1]).get(key) === value);
    for (const f of doc.fields) expect(linked('field', f.field), f.field).toBe(f.field !== 'Unclassified');
    for (const l of doc.languages) expect(linked('lang', l.lang), l.lang).toBe(l.lang !== 'unknown');
    for (const v of doc.top_venues) expect(linked('venue', v.venue), v.venue).toBe(true);
    for (const g of doc.abstract_gap_by_type) expect(linked('type', g.type), g.type).toBe(true);
  });
});

describe('/frame/stats/labels', () => {
  it('shows the counts of /stats/labels and the predicted counts of /predictions', async () => {
    const doc = await api<Labels>('stats/labels');
    const pred = await api<Predictions>('predictions');
    const cov = new Map(captioned('/frame/stats/labels', 'Direct label coverage').map((r) => [r[0]!, r[1]!]));
    expect(cov.get('Works with a direct label row')).toBe(fmt(doc.coverage.labeled_works));
    expect(cov.get('Label rows (one per work and model)')).toBe(fmt(doc.coverage.label_rows));
    expect(cov.get('Works in the frame')).toBe(fmt(doc.coverage.frame_works));
    expect(cov.get('Labelling models')).toBe(doc.coverage.models.join(', '));
    expect(dataTable('/frame/stats/labels', 'label-categories').rows).toEqual(doc.by_category.map((c) => [c.category, fmt(c.any_model), fmt(c.all_models)]));
    expect(dataTable('/frame/stats/labels', 'label-designs').rows).toEqual(doc.by_design.map((c) => [c.design, fmt(c.any_model), fmt(c.all_models)]));
    expect(dataTable('/frame/stats/labels', 'label-years').rows).toEqual(doc.by_year.map((y) => [String(y.year), fmt(y.labeled)]));
    expect(dataTable('/frame/stats/labels', 'label-languages').rows).toEqual(doc.by_lang.map((l) => [l.lang, fmt(l.labeled)]));
    expect(dataTable('/frame/stats/labels', 'predicted-categories').rows).toEqual(
      Object.entries(pred.predictions.frame_category_counts).map(([c, n]) => [c, fmt(n.candidate), fmt(n.consensus), pct(n.consensus, n.candidate)]),
    );
  });
});

describe('/frame/stats/retractions', () => {
  it('shows the retraction states of /stats/by-field and the flag count of /stats/summary', async () => {
    const doc = await api<ByField>('stats/by-field');
    const sum = await api<Summary>('stats/summary');
    expect(dataTable('/frame/stats/retractions', 'retraction-states').rows).toEqual(
      doc.retraction_states.map((r) => [r.nature, fmt(r.openalex_flagged), fmt(r.openalex_missed), fmt(r.works)]),
    );
    const rows = new Map(captioned('/frame/stats/retractions', 'Retractions in numbers').map((r) => [r[0]!, r[1]!]));
    expect(rows.get('Retraction Watch records joined to the frame')).toBe(fmt(sum.retraction_notices));
    expect(rows.get('Works OpenAlex flags as retracted')).toBe(fmt(sum.retracted_openalex));
    expect(doc.retraction_states.reduce((a, r) => a + r.works, 0)).toBe(sum.retraction_notices);
  });
});

describe('cohort links', () => {
  it('every cohort link of every statistics page opens a cohort whose API total is the number its bar shows', async () => {
    const seen = new Map<string, number>();
    for (const path of PAGES)
      for (const l of cohortLinks(path)) {
        if (seen.has(l.href)) expect(seen.get(l.href), l.href).toBe(l.works);
        seen.set(l.href, l.works);
      }
    expect(seen.size).toBeGreaterThan(100);
    const wrong: string[] = [];
    for (const [href, works] of seen) {
      const total = await cohortTotal(href);
      if (total !== works) wrong.push(`${href}: page ${works}, API ${total}`);
    }
    expect(wrong).toEqual([]);
  });

  it('the SVG bars and the link lists offer the same cohorts', () => {
    for (const path of PAGES) {
      const svgHrefs = new Set(
        all(page(path), (n) => n.name === 'a' && byTag(n, 'rect').length > 0 && n.attribs.href!.startsWith('/frame/cohort')).map((a) => a.attribs.href),
      );
      const listHrefs = new Set(all(page(path), (n) => n.name === 'a' && n.attribs['data-works'] !== undefined).map((a) => a.attribs.href));
      expect([...svgHrefs].sort(), path).toEqual([...listHrefs].sort());
    }
  });
});

describe('/frame/findings', () => {
  it('shows every finding of /findings with its headline and every value, exactly', async () => {
    const doc = await api<Findings>('findings');
    const sections = all(page('/frame/findings'), (n) => n.name === 'section' && n.attribs['data-finding'] !== undefined);
    expect(sections.map((x) => x.attribs['data-finding'])).toEqual(Object.keys(doc.findings));
    expect(sections).toHaveLength(doc.meta.count);
    for (const section of sections) {
      const f = doc.findings[section.attribs['data-finding']!]!;
      const body = text(section);
      expect(body).toContain(f.headline.replace(/\s+/g, ' ').trim());
      expect(body).toContain(f.computed_at_utc);
      const leaves: string[] = [];
      const walk = (v: unknown): void => {
        if (v === null) leaves.push('null');
        else if (typeof v === 'number') leaves.push(exact(v));
        else if (typeof v === 'string') leaves.push(v.replace(/\s+/g, ' ').trim());
        else if (typeof v === 'boolean') leaves.push(String(v));
        else if (Array.isArray(v)) v.forEach(walk);
        else if (typeof v === 'object') Object.values(v as object).forEach(walk);
      };
      walk(f.values);
      for (const leaf of leaves) expect(body, section.attribs['data-finding']).toContain(leaf);
    }
    expect(text(page('/frame/findings'))).toContain(doc.meta.evidence_status.replaceAll('_', ' '));
  });

  it('lists the findings in a contents navigation that links each one', async () => {
    const doc = await api<Findings>('findings');
    const nav = all(page('/frame/findings'), (n) => n.name === 'nav' && n.attribs['aria-label'] === 'Findings')[0]!;
    expect(byTag(nav, 'a').map((a) => a.attribs.href)).toEqual(Object.keys(doc.findings).map((k) => `#finding-${k}`));
  });
});

describe('/frame/predictions', () => {
  it('shows the report of /predictions: counts per head, limitations, thresholds, cross-validation', async () => {
    const doc = await api<Predictions>('predictions');
    const body = text(page('/frame/predictions'));
    const facts = new Map(captioned('/frame/predictions', 'The predictions').map((r) => [r[0]!, r[1]!]));
    expect(facts.get('Predictions')).toBe(fmt(doc.predictions.n_predictions));
    expect(facts.get('Model version')).toBe(doc.predictions.model_version);
    for (const l of doc.predictions.limitations) expect(body).toContain(l);
    expect(dataTable('/frame/predictions', 'prediction-counts').rows).toEqual(
      Object.entries(doc.predictions.frame_category_counts).map(([c, n]) => [c, fmt(n.candidate), fmt(n.consensus), pct(n.consensus, n.candidate)]),
    );
    const thresholds = doc.predictions.thresholds;
    expect(thresholds).toBeDefined();
    const table = byTag(page('/frame/predictions'), 'table').find((t) => t.attribs['aria-label'] === 'Thresholds per head and teacher')!;
    const rows = byTag(table, 'tr')
      .slice(1)
      .map((tr) => tr.children.filter((c): c is Node => 'name' in c && (c.name === 'th' || c.name === 'td')).map((c) => text(c)));
    expect(rows).toEqual(
      Object.entries(thresholds!).map(([head, t]) => [head.replaceAll('_', ' '), ...Object.values(t).map((v) => (v === null ? 'null' : exact(v)))]),
    );
    const cv = doc.model.evaluation?.cross_validation ?? [];
    expect(cv.length).toBeGreaterThan(0);
    expect(dataTable('/frame/predictions', 'cross-validation').rows).toEqual(
      cv.map((f) => [`${f.head}, fold ${f.fold}`, exact(f.precision), exact(f.recall), exact(f.f2), fmt(f.tp), fmt(f.fp), fmt(f.fn)]),
    );
  });
});

describe('speed', () => {
  it('the prerendered pages answer 20 requests in a row each on the fixture build (median logged; npm run bench:site measures the 100 ms target)', async () => {
    const medians: Record<string, number> = {};
    for (const path of PAGES) {
      medians[path] = Math.round((await pageTimes(s, path, () => path)).median * 10) / 10;
    }
    console.log('median ms', medians);
  });
});
