import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { runPipeline } from '/work/main/pipeline/build.ts';
import { silentProgress } from '/work/main/pipeline/lib/progress.ts';
import { InvalidSnapshotError } from '/work/main/pipeline/steps/frame/validate.ts';
import { generateBaseSnapshot, mutate, removeTempDirs, freshTempDir, type SnapshotEditor } from '../helpers/snapshot.ts';

import { it } from "vitest";
it("explore", async () => {
const base = await generateBaseSnapshot(freshTempDir("x"));
async function show(name: string, edit: (s: SnapshotEditor) => void, opts = {}) {
  let info = '';
  const dir = await mutate(base, (s) => { const r = edit(s); if (r !== undefined) info = String(r); }, opts);
  const t = performance.now();
  try {
    await runPipeline({ snapshot: dir, out: join(freshTempDir('o'), 'out'), workFiles: false, threads: 0, keep: 2, progress: silentProgress });
    console.log(`### ${name}: NO ERROR`);
  } catch (e) {
    console.log(`### ${name} [${info}] (${((performance.now()-t)/1000).toFixed(2)}s) total=${(e as InvalidSnapshotError).total}`);
    console.log(e instanceof InvalidSnapshotError ? e.report() : e);
  }
}
const W = 'works.csv';
await show('missing manifest', (s) => s.remove('manifest.json'));
await show('not json', (s) => s.writeText('manifest.json', '{"name": '));
await show('missing table entry', (s) => s.editManifest((m) => { delete (m.tables as any).retractions; }));
await show('missing csv', (s) => s.remove('authors.csv'));
await show('checksum', (s) => { s.setCell(W, 100, 'cited_by', s.cell(W,100,'cited_by').replace(/\d$/, (d) => String((+d+1)%10))); }, { fixManifest: false });
await show('size', (s) => { s.appendLine(W, s.line(W, 5)); }, { fixManifest: false });
await show('header', (s) => s.renameColumn(W, 'cited_by', 'citations'));
await show('cell count', (s) => s.dropCells(W, 50));
await show('bool yes', (s) => s.setCell(W, 1234, 'is_retracted', 'yes'));
await show('int -3', (s) => s.setCell(W, 1234, 'cited_by', '-3'));
await show('int 2.5', (s) => s.setCell(W, 1234, 'year', '2.5'));
await show('model_d', (s) => s.setCell('direct_labels.csv', 20, 'model', 'model_d'));
await show('T5', (s) => s.setCell('screened.csv', 20, 'model_b_tier', 'T5'));
await show('X12', (s) => s.setCell(W, 7, 'id', 'X12'));
await show('cat order', (s) => s.setCells('predictions.csv', 30, { candidate_categories: 'open_science;metaresearch', consensus_categories: '' }));
await show('cat unknown', (s) => s.setCell('direct_labels.csv', 30, 'categories', 'metaresearch;astrology'));
await show('scores len', (s) => s.setCell('predictions.csv', 30, 'category_scores_codex', '0.1;0.2;0.3'));
await show('no route', (s) => s.setCells(W, 99, { route_ca_aff: 'false', route_ca_fund: 'false', route_ca_venue: 'false', route_about_ca: 'false' }));
await show('n_in', (s) => { const n = +s.cell('screened.csv', 40, 'n_in'); s.setCell('screened.csv', 40, 'n_in', String((n + 1) % 4)); });
await show('consensus subset', (s) => s.setCells('predictions.csv', 30, { candidate_categories: 'metaresearch', consensus_categories: 'sts' }));
await show('dup id', (s) => { const l = s.appendLine(W, s.line(W, 5)); return l; });
await show('unknown author', (s) => s.setCell('authorships.csv', 77, 'author_id', 'A9999999999'));
await show('no prediction', (s) => { const id = s.cell('predictions.csv', 500, 'work_id'); s.deleteLine('predictions.csv', 500); return `${id} at works line ${s.findLine(W, (r) => r.id === id)}`; });
await show('retraction flag', (s) => { s.setCell('retractions.csv', 3, 'openalex_flagged', s.cell('retractions.csv', 3, 'openalex_flagged') === 'true' ? 'false' : 'true'); return s.cell('retractions.csv', 3, 'work_id'); });
await show('findings', (s) => s.editJson('findings.json', (f) => { const k = Object.keys(f)[0]!; delete (f[k] as any).headline; }));
await show('rows', (s) => s.editManifest((m) => { (m.tables as any).authors.rows += 1; }));
await show('60 problems', (s) => { for (let n = 100; n < 160; n++) s.setCell(W, n, 'is_retracted', 'yes'); });
await show('is_ca no aff', (s) => { const l = s.findLine('authorships.csv', (r) => r.is_ca === 'false'); return l; /* not applicable */ });
removeTempDirs();
}, 300000);
