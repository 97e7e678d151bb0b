/**
 * Honest data (issue 19): the snapshot manifest's `synthetic` flag reaches the build manifest, `meta` of the
 * frame's and the corpus's responses, and every page. On the default fixture (generated: synthetic) every page
 * carries the banner and no page links an identifier outward (PMC, DOI, ORCID, the catalogue); on a build of
 * the same generator whose manifest says `synthetic: false` there is no banner and the links are there.
 * The oracle is the snapshot manifest each build was made from, and the records' own identifiers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SiteServer, startSiteServer } from '../helpers/site-server.ts';

const OUTBOUND = /^https?:\/\/([a-z0-9.-]*\.)?(ncbi\.nlm\.nih\.gov|doi\.org|orcid\.org|openalex\.org)\//i;
const BANNER = 'Generated sample data, not real works.';

let synthetic: SiteServer;
let real: SiteServer;
beforeAll(async () => {
  [synthetic, real] = await Promise.all([startSiteServer(), startSiteServer({ works: 600, articles: 20, synthetic: false })]);
}, 600_000);
afterAll(async () => {
  await synthetic?.close();
  await real?.close();
});

interface Work {
  id: string;
  doi: string | null;
  authors: { orcid: string | null }[];
  meta: { snapshot: { synthetic: boolean } };
}

/** Page kinds to check, with ids taken from the server's own API: a work with a DOI and an ORCID, an article with a PMCID. */
async function pages(s: SiteServer): Promise<{ paths: string[]; work: Work; pmcid: string }> {
  const cohort = await s.json<{ results: { id: string; doi: string | null }[] }>('/frame/api/v1/cohort?per_page=100');
  let work: Work | null = null;
  for (const r of cohort.results.filter((x) => x.doi)) {
    const w = await s.json<Work>(`/frame/api/v1/works/${r.id}`);
    if (w.authors.some((a) => a.orcid)) {
      work = w;
      break;
    }
  }
  if (!work) throw new Error('no work with a DOI and an ORCID among the first 100');
  // (`items` today; `results` once the excerpts answer is {meta, results}.)
  const excerpts = await s.json<{ items?: { id: string }[]; results?: { id: string }[] }>('/corpus/api/v1/excerpts?per_page=50');
  const pmcid = (excerpts.items ?? excerpts.results ?? []).map((e) => e.id.split('/')[0]!).find((id) => id.startsWith('PMC'))!;
  const paths = [
    '/',
    '/frame',
    '/frame/cohort',
    '/frame/stats',
    '/frame/screening',
    '/frame/network',
    `/frame/works/${work.id}`,
    '/corpus',
    '/corpus/excerpts',
    `/corpus/articles/${pmcid}`,
    '/api',
    '/frame/snapshot',
  ];
  return { paths, work, pmcid };
}

function outboundLinks(html: string): string[] {
  const doc = parseDocument(html);
  return DomUtils.findAll((n) => n.name === 'a' && OUTBOUND.test(n.attribs.href ?? ''), doc.children).map((a) => a.attribs.href!);
}
const bannerOf = (html: string) => DomUtils.findAll((n) => n.attribs.class === 'synthetic-banner', parseDocument(html).children);

describe('the synthetic flag in the build and the APIs', () => {
  it("is the snapshot manifest's, in the build manifest, meta.snapshot of frame responses and meta of corpus responses", async () => {
    for (const [s, flag] of [
      [synthetic, true],
      [real, false],
    ] as const) {
      const manifest = JSON.parse(readFileSync(join(s.buildOutput, 'current', 'manifest.json'), 'utf8')) as { snapshot: { synthetic: boolean } };
      expect(manifest.snapshot.synthetic).toBe(flag);
      expect((await s.json<{ meta: { snapshot: { synthetic: boolean } } }>('/frame/api/v1/cohort?per_page=1')).meta.snapshot.synthetic).toBe(flag);
      expect((await s.json<{ meta: { snapshot: { synthetic: boolean } } }>('/frame/api/v1/stats/summary')).meta.snapshot.synthetic).toBe(flag);
      expect((await s.json<{ meta: { synthetic: boolean } }>('/corpus/api/v1/stats')).meta.synthetic).toBe(flag);
      expect((await s.json<{ meta: { synthetic: boolean } }>('/corpus/api/v1/phrases')).meta.synthetic).toBe(flag);
    }
  });
});

describe('pages of a synthetic build', () => {
  it('carry the banner and link no identifier outward', async () => {
    const { paths, work, pmcid } = await pages(synthetic);
    for (const path of paths) {
      const r = await synthetic.get(path);
      expect(r.status, path).toBe(200);
      expect(bannerOf(r.text), path).toHaveLength(1);
      expect(r.text, path).toContain(BANNER);
      expect(outboundLinks(r.text), path).toEqual([]);
    }
    // The identifiers are still shown, as text.
    const w = await synthetic.get(`/frame/works/${work.id}`);
    expect(w.text).toContain(work.doi!);
    expect(w.text).toContain(work.authors.find((a) => a.orcid)!.orcid!);
    expect((await synthetic.get(`/corpus/articles/${pmcid}`)).text).toContain(pmcid);
  });

  it('the FAIR pages carry no banner: an assessment is of a real identifier, whatever the build', async () => {
    for (const path of ['/fair', '/fair/assess?identifier=']) {
      const r = await synthetic.get(path);
      expect(bannerOf(r.text), path).toEqual([]);
      expect(r.text, path).not.toContain(BANNER);
    }
  });

  it('the error pages carry the banner too', async () => {
    const r = await synthetic.get('/frame/stat', { headers: { accept: 'text/html' } });
    expect(r.status).toBe(404);
    expect(bannerOf(r.text)).toHaveLength(1);
  });
});

describe('pages of a build whose manifest says synthetic: false', () => {
  it('carry no banner and link DOI, ORCID and PubMed Central', async () => {
    const { paths, work, pmcid } = await pages(real);
    for (const path of paths) {
      const r = await real.get(path);
      expect(r.status, path).toBe(200);
      expect(bannerOf(r.text), path).toEqual([]);
      expect(r.text, path).not.toContain(BANNER);
    }
    const links = outboundLinks((await real.get(`/frame/works/${work.id}`)).text);
    expect(links).toContain(`https://doi.org/${work.doi}`);
    expect(links).toContain(`https://orcid.org/${work.authors.find((a) => a.orcid)!.orcid}`);
    expect(outboundLinks((await real.get(`/corpus/articles/${pmcid}`)).text)).toContain(`https://pmc.ncbi.nlm.nih.gov/articles/${pmcid}/`);
    expect(outboundLinks((await real.get('/corpus/excerpts')).text).some((h) => h.startsWith('https://pmc.ncbi.nlm.nih.gov/articles/PMC'))).toBe(true);
  });
});
