/**
 * The site on a build without labels, predictions or a screening sample, as a real OpenAlex build is: the
 * builder on the real reference records (../shared/reference/openalex/, no label tables) → pipeline → site.
 * The pages that show labels, predictions and the screening sample say there are none, instead of empty
 * charts, cohort links that select nothing, and sentences about models and a pilot that are not there.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentProgress } from '../../pipeline/lib/progress.ts';
import { buildFromOpenAlex } from '../../pipeline/openalex/build.ts';
import { tempDir } from '../helpers/fixture-build.ts';
import { type SiteServer, startSiteServer } from '../helpers/site-server.ts';
import { needShared, sharedPath } from '../helpers/needs.ts';

const REF = sharedPath('reference/openalex');
const present = needShared('reference/openalex/works-api', 'the label-less site build');

describe.skipIf(!present)('the site on a label-less build from OpenAlex records', () => {
  const tmp = tempDir('oa-site');
  let s: SiteServer;
  /** A page's HTML with whitespace runs as single spaces (sentences break lines in the templates). */
  const page = async (path: string) => (await s.get(path)).text.replace(/\s+/g, ' ');

  beforeAll(async () => {
    const flat = join(tmp.path, 'flat');
    mkdirSync(flat);
    for (const f of readdirSync(join(REF, 'works-api')).sort()) {
      const doc = JSON.parse(readFileSync(join(REF, 'works-api', f), 'utf8'));
      const list: unknown[] = Array.isArray(doc) ? doc : (doc.results ?? [doc]);
      writeFileSync(join(flat, f.replace(/\.json$/, '.jsonl.gz')), gzipSync(`${list.map((w) => JSON.stringify(w)).join('\n')}\n`));
    }
    const snapshot = join(tmp.path, 'snapshot');
    await buildFromOpenAlex({
      works: flat,
      out: snapshot,
      name: 'oa-site',
      allowIncomplete: false,
      excludeXpac: false,
      labels: {},
      maxBadFraction: 0.001,
      threads: 1,
      buildDate: '2026-11-24',
      memoryLimit: '256MB',
      progress: silentProgress,
    });
    s = await startSiteServer({ snapshot });
  }, 600_000);
  afterAll(async () => {
    await s?.close();
    tmp.remove();
  });

  it('every frame page answers 200 on it', async () => {
    for (const path of [
      '/frame',
      '/frame/cohort',
      '/frame/stats',
      '/frame/stats/labels',
      '/frame/findings',
      '/frame/predictions',
      '/frame/screening',
      '/frame/network',
    ])
      expect((await s.get(path)).status, path).toBe(200);
  });

  it('labels and predictions: a notice, no charts and no cohort links of empty categories', async () => {
    const text = await page('/frame/stats/labels');
    expect(text).toContain('data-empty="labels"');
    expect(text).toContain('data-empty="predictions"');
    expect(text).not.toContain('id="label-categories"');
    expect(text).not.toContain('id="predicted-categories"');
    expect(text).not.toContain('Every work of the frame has a prediction');
    // No link to the cohort of labelled works, which holds none.
    expect(text).not.toContain('Open cohort: works with a direct label row');
  });

  it('predictions report: a notice instead of the candidate and consensus chart', async () => {
    const text = await page('/frame/predictions');
    expect(text).toContain('data-empty="predictions"');
    expect(text).not.toContain('id="prediction-counts"');
  });

  it('screening: says there is no sample, no empty chart, tables or filter form', async () => {
    const text = await page('/frame/screening');
    expect(text).toContain('data-empty="screened"');
    expect(text).not.toContain('screened by three models');
    expect(text).not.toContain('Show works');
    expect(text).not.toContain('sample-heading');
  });

  it('findings: no claim of a machine-labelled pilot', async () => {
    const text = await page('/frame/findings');
    expect(text).toContain('This snapshot has no machine labels');
    expect(text).not.toContain('Most rest on machine labels');
    expect(text).not.toContain('pilot');
    // The API says what the findings are too: counts over the frame, not a validation-pending pilot.
    const meta = JSON.parse((await s.get('/frame/api/v1/findings')).text).meta as { evidence_status: string; human_validation: string };
    expect(meta).toMatchObject({ evidence_status: 'computed_from_frame', human_validation: 'not_applicable' });
  });
});
