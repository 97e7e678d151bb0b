/**
 * Bad input: one test per class of damage to a snapshot. Each copies a small generated snapshot, breaks one
 * thing, fixes the manifest's sizes and checksums (unless the test is about them) so the damage reaches the
 * check meant to catch it, and asserts that the pipeline rejects the snapshot with a report that names the
 * file, the line (the header is line 1), the column, and a reason naming the column and what it allows.
 * Line numbers are computed from the edited file, not copied from the pipeline's output.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../pipeline/build.ts';
import { sha256File } from '../../pipeline/lib/hash.ts';
import { silentProgress } from '../../pipeline/lib/progress.ts';
import { InvalidSnapshotError } from '../../pipeline/steps/frame/validate.ts';
import { freshTempDir, type SnapshotEditor, useBaseSnapshot, type Where } from '../helpers/snapshot.ts';

const base = useBaseSnapshot();

const W = 'works.csv';
const CATEGORY_LIST =
  'metaresearch, metaepi_narrow, metaepi_broad, bibliometrics, sts, scholarly_communication, open_science, research_integrity, insufficient_payload';

const run = (snapshot: string, out = join(freshTempDir('bad-input-out'), 'out')) =>
  runPipeline({ snapshot, out, workFiles: false, threads: 0, keep: 2, progress: silentProgress });

/** Runs the pipeline on `snapshot` and returns the InvalidSnapshotError it must reject with. */
async function rejection(snapshot: string, out?: string): Promise<InvalidSnapshotError> {
  const err = await run(snapshot, out).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'the pipeline accepted a bad snapshot').toBeInstanceOf(InvalidSnapshotError);
  return err as InvalidSnapshotError;
}

const lineOf = (where: Where, message: string) => (where.line > 0 ? `${where.file}:${where.line}:${where.column} — ${message}` : `${where.file} — ${message}`);

/** Asserts that the error holds exactly one problem, at `where`, with `message`, and reports it as one line. */
function expectOnly(err: InvalidSnapshotError, where: Where, message: string): void {
  expect(err.problems).toEqual([{ ...where, message }]);
  expect(err.total).toBe(1);
  expect(err.report()).toBe(lineOf(where, message));
}

/** Same for problems without a line (manifest, file-level and document problems). */
function expectOnlyFile(err: InvalidSnapshotError, file: string, message: string | RegExp): void {
  expect(err.problems).toHaveLength(1);
  expect(err.total).toBe(1);
  const p = err.problems[0]!;
  expect({ file: p.file, line: p.line, column: p.column }).toEqual({ file, line: 0, column: 0 });
  if (typeof message === 'string') {
    expect(p.message).toBe(message);
    expect(err.report()).toBe(`${file} — ${message}`);
  } else {
    expect(p.message).toMatch(message);
    expect(err.report()).toBe(`${file} — ${p.message}`);
  }
}

describe('the manifest and the files it lists', () => {
  it('rejects a snapshot without manifest.json', async () => {
    const { dir } = await base.mutate((s) => s.remove('manifest.json'));
    expectOnlyFile(await rejection(dir), 'manifest.json', 'file is missing');
  });

  it('rejects a manifest that is not JSON', async () => {
    const { dir } = await base.mutate((s) => s.writeText('manifest.json', '{"name": "bad-input",\n'));
    expectOnlyFile(await rejection(dir), 'manifest.json', /^not valid JSON: /);
  });

  it('rejects a manifest without an entry for one of the tables', async () => {
    const { dir } = await base.mutate((s) =>
      s.editManifest((m) => {
        delete (m.tables as Partial<typeof m.tables>).retractions;
      }),
    );
    expectOnlyFile(await rejection(dir), 'manifest.json', /^tables\.retractions: .*expected object/);
  });

  it('rejects a snapshot with a CSV file missing', async () => {
    const { dir } = await base.mutate((s) => s.remove('authors.csv'));
    expectOnlyFile(await rejection(dir), 'authors.csv', 'file listed in manifest.json is missing');
  });

  it('rejects a file whose checksum differs from the manifest (same size, one digit changed)', async () => {
    const { dir, result: at } = await base.mutate(
      (s) => {
        const line = s.findLine(W, (r) => /^[1-8]$/.test(r.cited_by ?? ''), 100);
        return s.setCell(W, line, 'cited_by', String(Number(s.cell(W, line, 'cited_by')) + 1));
      },
      { fixManifest: false },
    );
    expect(statSync(join(dir, W)).size).toBe(statSync(join(base.dir, W)).size);
    const listed = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).tables.works.sha256;
    const actual = await sha256File(join(dir, at.file));
    expect(actual).not.toBe(listed);
    expectOnlyFile(await rejection(dir), W, `sha256 is ${actual}; manifest.json says ${listed}`);
  });

  it('rejects a file whose size differs from the manifest', async () => {
    const { dir } = await base.mutate((s) => s.appendLine(W, s.line(W, 2)), { fixManifest: false });
    const listed = statSync(join(base.dir, W)).size;
    const actual = statSync(join(dir, W)).size;
    expectOnlyFile(await rejection(dir), W, `size is ${actual} bytes; manifest.json says ${listed}`);
  });

  it('rejects a table whose row count differs from the manifest', async () => {
    const { dir, result: rows } = await base.mutate((s) => {
      s.editManifest((m) => {
        m.tables.authors.rows += 1;
      });
      return s.lineCount('authors.csv') - 1;
    });
    expectOnlyFile(await rejection(dir), 'authors.csv', `has ${rows} rows; manifest.json says ${rows + 1}`);
  });

  it('rejects findings.json when it does not match its schema', async () => {
    const { dir, result: slug } = await base.mutate((s) => {
      let first = '';
      s.editJson('findings.json', (f) => {
        first = Object.keys(f)[0]!;
        delete (f[first] as Record<string, unknown>).headline;
      });
      return first;
    });
    expect(slug).not.toBe('');
    expectOnlyFile(await rejection(dir), 'findings.json', new RegExp(`^${slug}\\.headline: .*expected string`));
  });
});

describe('CSV shape', () => {
  it('rejects a renamed header column', async () => {
    const { dir } = await base.mutate((s) => s.renameColumn(W, 'cited_by', 'citations'));
    const err = await rejection(dir);
    const expected = readFileSync(join(base.dir, W), 'utf8').split('\n')[0]!;
    const got = expected.replace(',cited_by,', ',citations,');
    // The validator stops reading the file at a wrong header, and says nothing about its row count.
    expect(err.problems[0]).toEqual({
      file: W,
      line: 1,
      column: 0,
      message: `header must be exactly "${expected}", got "${got}"`,
    });
    expect(err.report().split('\n')[0]).toBe(`works.csv:1:0 — header must be exactly "${expected}", got "${got}"`);
    expect(err.problems.every((p) => p.file === W)).toBe(true);
    expect(err.total).toBe(1);
  });

  it('rejects a line with a cell missing', async () => {
    const { dir, result: at } = await base.mutate((s) => s.dropCells(W, 50));
    expectOnly(await rejection(dir), at, 'expected 19 cells, found 18');
  });
});

describe('cells', () => {
  it('rejects a boolean written yes', async () => {
    const { dir, result: at } = await base.mutate((s) => s.setCell(W, 1234, 'is_retracted', 'yes'));
    expect(at).toEqual({ file: W, line: 1234, column: 11 });
    expectOnly(await rejection(dir), at, 'is_retracted: must be true or false, got "yes"');
  });

  it('rejects a negative citation count', async () => {
    const { dir, result: at } = await base.mutate((s) => s.setCell(W, 1234, 'cited_by', '-3'));
    expectOnly(await rejection(dir), at, 'cited_by: must be a whole number from 0 through 10000000, got -3');
  });

  it('rejects a fractional year', async () => {
    const { dir, result: at } = await base.mutate((s) => s.setCell(W, 777, 'year', '2.5'));
    expect(at.column).toBe(4);
    expectOnly(await rejection(dir), at, 'year: must be a whole number from 1000 through 9999, got "2.5"');
  });

  it('rejects an unknown labelling model', async () => {
    const { dir, result: at } = await base.mutate((s) => s.setCell('direct_labels.csv', 20, 'model', 'model_d'));
    expectOnly(await rejection(dir), at, 'model: must be one of model_a, model_b, model_c, got "model_d"');
  });

  it('rejects an unknown screening tier', async () => {
    const { dir, result: at } = await base.mutate((s) => s.setCell('screened.csv', 20, 'model_b_tier', 'T5'));
    expect(at.column).toBe(12);
    expectOnly(await rejection(dir), at, 'model_b_tier: must be one of T1, T2, T3, OUT, got "T5"');
  });

  it('rejects a work id that is not W + digits', async () => {
    const { dir, result: at } = await base.mutate((s) => s.setCell(W, 7, 'id', 'X12'));
    expectOnly(await rejection(dir), at, 'id: must be W followed by digits, got "X12"');
  });

  it('rejects a category list out of order', async () => {
    const { dir, result: at } = await base.mutate((s) =>
      s.setCells('predictions.csv', 30, {
        candidate_categories: 'open_science;metaresearch',
        consensus_categories: '',
      }),
    );
    expect(at.column).toBe(3);
    expectOnly(await rejection(dir), at, `candidate_categories: must list values once each, in the order ${CATEGORY_LIST}`);
  });

  it('rejects a category list with an unknown value', async () => {
    const { dir, result: at } = await base.mutate((s) => s.setCell('direct_labels.csv', 30, 'categories', 'metaresearch;astrology'));
    expectOnly(await rejection(dir), at, `categories: lists values of ${CATEGORY_LIST}; "astrology" is not one`);
  });

  it('rejects a score list of the wrong length', async () => {
    const { dir, result: at } = await base.mutate((s) => s.setCell('predictions.csv', 30, 'category_scores_codex', '0.1;0.2;0.3'));
    expectOnly(await rejection(dir), at, "category_scores_codex: must hold 9 scores joined by ';', found 3");
  });
});

describe('rules within a row', () => {
  it('rejects a work admitted by no route', async () => {
    const { dir, result: at } = await base.mutate((s) =>
      s.setCells(W, 99, {
        route_ca_aff: 'false',
        route_ca_fund: 'false',
        route_ca_venue: 'false',
        route_about_ca: 'false',
      }),
    );
    expect(at.column).toBe(13);
    expectOnly(await rejection(dir), at, 'route_ca_aff: a work must be admitted by at least one route; all four are false');
  });

  it('rejects a screened row whose n_in disagrees with its tiers', async () => {
    const { dir, result } = await base.mutate((s) => {
      const line = 40;
      const tiers = ['model_a_tier', 'model_b_tier', 'model_c_tier'].map((c) => s.cell('screened.csv', line, c));
      const nIn = tiers.filter((t) => t === 'T1' || t === 'T2').length;
      expect(Number(s.cell('screened.csv', line, 'n_in'))).toBe(nIn);
      const wrong = (nIn + 1) % 4;
      return { at: s.setCell('screened.csv', line, 'n_in', String(wrong)), nIn, wrong };
    });
    expectOnly(await rejection(dir), result.at, `n_in: must equal the number of models with tier T1 or T2 (${result.nIn}), got ${result.wrong}`);
  });

  it('rejects consensus categories that are not candidates', async () => {
    const { dir, result } = await base.mutate((s) => {
      const at = s.setCells('predictions.csv', 30, {
        candidate_categories: 'metaresearch',
        consensus_categories: 'sts',
      });
      return { ...at, column: s.columnOf('predictions.csv', 'consensus_categories') };
    });
    expect(result.column).toBe(4);
    expectOnly(await rejection(dir), result, 'consensus_categories: consensus sts is not in candidate_categories (consensus must be a subset)');
  });
});

/** Sets is_ca on the first authorship of a work without route aff that has several authorships. */
function markCanadianAuthorship(s: SnapshotEditor): Where {
  const file = 'authorships.csv';
  const aff = new Set(
    s
      .rows(W)
      .filter((r) => r.route_ca_aff === 'true')
      .map((r) => r.id),
  );
  const rows = s.rows(file);
  const line = s.findLine(file, (r, n) => !aff.has(r.work_id) && rows[n - 1]?.work_id === r.work_id && rows[n - 3]?.work_id !== r.work_id);
  expect(s.cell(file, line, 'is_ca')).toBe('false');
  return s.setCell(file, line, 'is_ca', 'true');
}

describe('rules across rows and tables (checked in DuckDB)', () => {
  it('rejects a duplicate work id, at its second occurrence', async () => {
    const { dir, result } = await base.mutate((s) => ({
      at: s.appendLine(W, s.line(W, 5)),
      id: s.cell(W, 5, 'id'),
    }));
    expect(result.at.line).toBe(3_002);
    expectOnly(await rejection(dir), { ...result.at, column: 1 }, `duplicate id ${result.id}: each must appear once`);
  });

  it('rejects an authorship naming an unknown author', async () => {
    const { dir, result: at } = await base.mutate((s) => s.setCell('authorships.csv', 77, 'author_id', 'A9999999999'));
    expect(at.column).toBe(2);
    expectOnly(await rejection(dir), at, 'author_id A9999999999 does not name a row of authors.csv');
  });

  it('rejects a work without a prediction row, at the line of the work', async () => {
    const { dir, result } = await base.mutate((s) => {
      const id = s.cell('predictions.csv', 500, 'work_id');
      s.deleteLine('predictions.csv', 500);
      return { id, line: s.findLine(W, (r) => r.id === id) };
    });
    expectOnly(
      await rejection(dir),
      { file: W, line: result.line, column: 1 },
      `work ${result.id} has no row in predictions.csv; every work needs exactly one`,
    );
  });

  it('rejects a retraction whose openalex_flagged disagrees with works.is_retracted', async () => {
    const { dir, result } = await base.mutate((s) => {
      const file = 'retractions.csv';
      const line = 3;
      const id = s.cell(file, line, 'work_id');
      const flagged = s.cell(file, line, 'openalex_flagged');
      expect(
        s.row(
          W,
          s.findLine(W, (r) => r.id === id),
        ).is_retracted,
      ).toBe(flagged);
      return { at: s.setCell(file, line, 'openalex_flagged', flagged === 'true' ? 'false' : 'true'), id };
    });
    const err = await rejection(dir);
    const message = `openalex_flagged of ${result.id} disagrees with is_retracted in works.csv`;
    expect(err.total).toBe(1);
    expect(err.problems).toEqual([{ file: 'retractions.csv', line: result.at.line, column: expect.any(Number), message }]);
  });

  it('points a retraction flag disagreement at the openalex_flagged column', async () => {
    const { dir, result: at } = await base.mutate((s) => {
      const flagged = s.cell('retractions.csv', 3, 'openalex_flagged');
      return s.setCell('retractions.csv', 3, 'openalex_flagged', flagged === 'true' ? 'false' : 'true');
    });
    expect(at.column).toBe(5);
    const err = await rejection(dir);
    expect(err.problems.map((p) => [p.line, p.column])).toEqual([[at.line, at.column]]);
  });

  it('rejects a Canadian-affiliated authorship of a work without route_ca_aff', async () => {
    const { dir, result } = await base.mutate((s) => {
      const at = markCanadianAuthorship(s);
      return { at, id: s.cell(at.file, at.line, 'work_id') };
    });
    const err = await rejection(dir);
    const message = `work ${result.id} has a Canadian-affiliated authorship (is_ca true) but route_ca_aff is false in works.csv`;
    expect(err.problems).toContainEqual({
      file: 'authorships.csv',
      line: result.at.line,
      column: 4,
      message,
    });
    expect(err.problems.every((p) => p.message === message)).toBe(true);
  });

  it('reports only the authorship line whose is_ca is true', async () => {
    const { dir, result: at } = await base.mutate(markCanadianAuthorship);
    const err = await rejection(dir);
    expect(err.total).toBe(1);
    expect(err.problems.map((p) => [p.file, p.line])).toEqual([[at.file, at.line]]);
  });

  it('rejects a screened row whose weight disagrees with its stratum', async () => {
    const { dir, result } = await base.mutate((s) => {
      const file = 'screened.csv';
      const line = 40;
      const stratum = s.cell(file, line, 'stratum');
      const rows: number[] = [];
      for (let n = 2; n <= s.lineCount(file); n++) if (s.cell(file, n, 'stratum') === stratum) rows.push(n);
      return {
        at: s.setCell(file, line, 'weight', String(Number(s.cell(file, line, 'weight')) * 2)),
        stratum,
        rows,
      };
    });
    const err = await rejection(dir);
    // Only the edited row is wrong: the others of its stratum still agree with stratum_n / rows sampled.
    expect(err.total).toBe(1);
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0]).toMatchObject({ file: 'screened.csv', line: result.at.line, column: 4 });
    expect(err.problems[0]!.message).toContain('weight must be stratum_n / rows sampled in the stratum');
    expect(result.rows).toContain(err.problems[0]!.line);
  });
});

describe('the pinned Canadian lists (canadian_funders.csv, canadian_sources.csv)', () => {
  const FUNDERS = 'canadian_funders.csv';
  const SOURCES = 'canadian_sources.csv';

  it('rejects a manifest without the funder list: both lists are required', async () => {
    const { dir } = await base.mutate((s) =>
      s.editManifest((m) => {
        delete (m.tables as Partial<typeof m.tables>).canadian_funders;
      }),
    );
    expectOnlyFile(await rejection(dir), 'manifest.json', /^tables\.canadian_funders: .*expected object/);
  });

  it('rejects a snapshot without canadian_sources.csv', async () => {
    const { dir } = await base.mutate((s) => s.remove(SOURCES));
    expectOnlyFile(await rejection(dir), SOURCES, 'file listed in manifest.json is missing');
  });

  it('rejects a funder id that is not an upper-case F + digits', async () => {
    const { dir, result } = await base.mutate((s) => {
      const id = s.cell(FUNDERS, 12, 'id');
      expect(id).toMatch(/^F[1-9][0-9]+$/);
      return { at: s.setCell(FUNDERS, 12, 'id', id.toLowerCase()), id };
    });
    expect(result.at.column).toBe(1);
    expectOnly(await rejection(dir), result.at, `id: must be F followed by digits, got "${result.id.toLowerCase()}"`);
  });

  it('rejects a source id with another letter', async () => {
    const { dir, result } = await base.mutate((s) => {
      const id = `W${s.cell(SOURCES, 30, 'id').slice(1)}`;
      return { at: s.setCell(SOURCES, 30, 'id', id), id };
    });
    expectOnly(await rejection(dir), result.at, `id: must be S followed by digits, got "${result.id}"`);
  });

  it('rejects a source without a name', async () => {
    const { dir, result: at } = await base.mutate((s) => s.setCell(SOURCES, 7, 'name', ''));
    expect(at.column).toBe(2);
    expectOnly(await rejection(dir), at, 'name: must not be empty');
  });

  it('rejects a duplicate source id, at its second occurrence', async () => {
    const { dir, result } = await base.mutate((s) => {
      const id = s.cell(SOURCES, 5, 'id');
      return { at: s.setCell(SOURCES, 40, 'id', id), id };
    });
    expectOnly(await rejection(dir), result.at, `duplicate id ${result.id}: each must appear once`);
  });

  it('rejects a duplicate funder id, at its second occurrence', async () => {
    const { dir, result } = await base.mutate((s) => {
      const id = s.cell(FUNDERS, 2, 'id');
      return { at: s.appendLine(FUNDERS, s.line(FUNDERS, 2)), id };
    });
    expectOnly(await rejection(dir), { ...result.at, column: 1 }, `duplicate id ${result.id}: each must appear once`);
  });
});

describe('the report', () => {
  it('shows the first 50 problems and how many more there are', async () => {
    const { dir, result: lines } = await base.mutate((s) => {
      const out: Where[] = [];
      for (let n = 100; n < 160; n++) out.push(s.setCell(W, n, 'is_retracted', 'yes'));
      return out;
    });
    const err = await rejection(dir);
    expect(err.total).toBe(60);
    expect(err.problems).toHaveLength(50);
    const report = err.report().split('\n');
    expect(report).toHaveLength(51);
    expect(report.slice(0, 50)).toEqual(lines.slice(0, 50).map((at) => lineOf(at, 'is_retracted: must be true or false, got "yes"')));
    expect(report[50]).toBe('… and 10 more');
  });

  it('counts every cross-table problem beyond the first 50', async () => {
    const { dir } = await base.mutate((s) => {
      for (let n = 100; n < 160; n++) s.setCell('authorships.csv', n, 'author_id', `A99999${n}`);
    });
    const err = await rejection(dir);
    expect(err.problems).toHaveLength(50);
    expect(err.total).toBe(60);
    expect(err.report().split('\n').at(-1)).toBe('… and 10 more');
  });
});

describe('a failed run', () => {
  it('leaves the current build, its files and the builds directory as they were', async () => {
    const out = join(freshTempDir('bad-input-keep'), 'out');
    await run(base.dir, out);
    const current = join(out, 'current');
    const link = readlinkSync(current);
    const manifestSha = await sha256File(join(current, 'manifest.json'));
    const dbSha = await sha256File(join(current, 'frame', 'frame.duckdb'));
    const builds = readdirSync(join(out, 'builds')).sort();
    expect(builds).toHaveLength(1);

    // One failure in the database phase (after the temporary build directory exists), one in validation.
    const duplicate = await base.mutate((s) => s.appendLine(W, s.line(W, 5)));
    const badCell = await base.mutate((s) => s.setCell(W, 10, 'is_retracted', 'yes'));
    for (const bad of [duplicate.dir, badCell.dir]) {
      await rejection(bad, out);
      expect(readlinkSync(current)).toBe(link);
      expect(await sha256File(join(current, 'manifest.json'))).toBe(manifestSha);
      expect(await sha256File(join(current, 'frame', 'frame.duckdb'))).toBe(dbSha);
      expect(readdirSync(join(out, 'builds')).sort()).toEqual(builds);
      expect(readdirSync(join(out, 'builds')).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
      expect(existsSync(join(out, 'builds', link.split('/').pop()!, 'manifest.json'))).toBe(true);
    }
  });
});

describe('encoding and line ends', () => {
  it('rejects a line that is not valid UTF-8, at its line', async () => {
    const { dir, result: line } = await base.mutate((s) => {
      const text = readFileSync(s.path(W), 'utf8').split('\n');
      const target = 17;
      const bytes = Buffer.concat([
        Buffer.from(`${text.slice(0, target - 1).join('\n')}\n`),
        Buffer.from(text[target - 1]!.replace(',', ',\u0000').split('\u0000')[0]!),
        Buffer.from([0xc3, 0x28]),
        Buffer.from(`${text[target - 1]!.slice(text[target - 1]!.indexOf(',') + 1)}\n${text.slice(target).join('\n')}`),
      ]);
      s.writeBytes(W, bytes);
      return target;
    });
    const err = await rejection(dir);
    expect(err.problems[0]).toMatchObject({ file: W, line, column: 0 });
    expect(err.problems[0]!.message).toContain('not valid UTF-8');
  });

  it('rejects a file without LF line ends instead of reading it as one endless line', async () => {
    const { dir } = await base.mutate((s) => s.writeText('predictions.csv', readFileSync(s.path('predictions.csv'), 'utf8').replaceAll('\n', '\r')));
    const err = await rejection(dir);
    expect(err.problems.some((p) => p.file === 'predictions.csv' && /line is longer than \d+ characters: are the line ends LF\?/.test(p.message))).toBe(true);
  });
});
