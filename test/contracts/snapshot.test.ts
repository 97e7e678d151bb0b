import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { canadianListsDocument, canadianListsSchema, canadianRouteVersion } from '../../contracts/frame/canadian-lists.ts';
import { findingsSchema, predictionsReportSchema } from '../../contracts/frame/documents.ts';
import { rowAcceptor, rowSchema, TABLE_NAMES, TABLES } from '../../contracts/frame/snapshot.ts';
import { bool, int, scores, setOf } from '../../contracts/frame/snapshot-cells.ts';
import { titleTerms } from '../../contracts/frame/title-terms.ts';
import { needShared, sharedPath } from '../helpers/needs.ts';

const SAMPLE = join(import.meta.dirname, '../../snapshots/sample');
const REFERENCE = sharedPath('reference/metacan/webapp-v1.1.0');
const haveReference = needShared('reference/metacan/webapp-v1.1.0', 'the tests of the real pilot documents');

describe('cell parsers', () => {
  it('read booleans, integers, score lists and ordered sets', () => {
    expect(bool.parse('true')).toBe(true);
    expect(bool.safeParse('1').success).toBe(false);
    expect(int(0, 10).parse('7')).toBe(7);
    for (const bad of ['07', '1.5', '-1', '11', '', ' 3', '1e1']) expect(int(0, 10).safeParse(bad).success, bad).toBe(false);
    expect(scores(3).parse('0;0.5;1')).toBe('0;0.5;1');
    for (const bad of ['0;0.5', '0;0.5;1.2', '0;.5;1', '0;0.5;-0']) expect(scores(3).safeParse(bad).success, bad).toBe(false);
    const s = setOf(['a', 'b', 'c'] as const);
    expect(s.parse('a;c')).toEqual(['a', 'c']);
    expect(s.parse('')).toEqual([]);
    expect(s.safeParse('c;a').success).toBe(false);
    expect(s.safeParse('a;a').success).toBe(false);
    expect(s.safeParse('d').success).toBe(false);
  });

  it('explain a rejected cell by what was expected and what was found', () => {
    const r = bool.safeParse('yes');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('must be true or false, got "yes"');
  });
});

describe('row schemas', () => {
  it('apply row rules: a work needs a route; screened n_in must match the tiers', () => {
    const works = rowSchema(TABLES.works);
    const row = Object.fromEntries(TABLES.works.columns.map((c) => [c.name, '']));
    Object.assign(row, {
      id: 'W1',
      title: 'T',
      type: 'article',
      cited_by: '0',
      is_retracted: 'false',
      has_abstract: 'true',
    });
    for (const r of ['route_ca_aff', 'route_ca_fund', 'route_ca_venue', 'route_about_ca']) row[r] = 'false';
    const res = works.safeParse(row);
    expect(res.success).toBe(false);
    expect(res.error?.issues[0]?.path).toEqual(['route_ca_aff']);
    row.route_about_ca = 'true';
    expect(works.safeParse(row).success).toBe(true);
  });
});

describe('the quick row acceptor of validation', () => {
  // rowAcceptor runs the cells' own checks and the row rules without zod; validation trusts its yes and asks
  // rowSchema about every other row. It must never say yes where rowSchema says no (nor no to good rows).
  it('accepts exactly the rows rowSchema accepts: every row of the sample, and each with one cell spoiled', () => {
    const spoilers = ['', 'x', '-1', '0', '1', ' 1', '1.5', 'true', 'false', 'W0', 'W12', 'A3', '2020-02-30', '2020-02-28', '0;0.5', 'article', '\u00e9'];
    let rows = 0;
    let rejected = 0;
    for (const name of TABLE_NAMES) {
      const spec = TABLES[name];
      const accept = rowAcceptor(spec);
      expect(accept, name).not.toBeNull();
      const schema = rowSchema(spec);
      const names = spec.columns.map((c) => c.name);
      const records = (parseCsv(readFileSync(join(SAMPLE, spec.file), 'utf8'), { from_line: 2 }) as string[][]).filter((_, k) => k % 7 === 0).slice(0, 50);
      const same = (cells: string[], why: string) => {
        const verdict = schema.safeParse(Object.fromEntries(names.map((n, i) => [n, cells[i]]))).success;
        expect(accept!(cells), `${name} ${why}`).toBe(verdict);
        rows++;
        if (!verdict) rejected++;
      };
      for (const [k, cells] of records.entries()) {
        same(cells, `row ${k}`);
        for (let c = 0; c < cells.length; c++) {
          const spoiled = [...cells];
          spoiled[c] = spoilers[(k + c) % spoilers.length]!;
          same(spoiled, `row ${k} with ${names[c]} = ${JSON.stringify(spoiled[c])}`);
          // A value of another column of the same row (right kind of text, maybe the wrong rule).
          spoiled[c] = cells[(c + 1 + k) % cells.length]!;
          same(spoiled, `row ${k} with ${names[c]} = ${JSON.stringify(spoiled[c])}`);
        }
      }
    }
    // Both answers were given many times.
    expect(rejected).toBeGreaterThan(1000);
    expect(rows - rejected).toBeGreaterThan(1000);
  });
});

describe('the pinned Canadian lists', () => {
  it('accept funder ids F + digits and source ids S + digits with a name, and explain a bad id', () => {
    const funders = rowSchema(TABLES.canadian_funders);
    const sources = rowSchema(TABLES.canadian_sources);
    expect(funders.parse({ id: 'F4320334593', name: 'NSERC' })).toEqual({ id: 'F4320334593', name: 'NSERC' });
    expect(sources.parse({ id: 'S123456', name: 'Canadian Journal of X' }).id).toBe('S123456');
    for (const bad of ['f4320334593', 'F', 'F0123', 'S123', 'F12a', ' F1']) expect(funders.safeParse({ id: bad, name: 'N' }).success, bad).toBe(false);
    for (const bad of ['s1', 'F1', 'S-1', 'S01']) expect(sources.safeParse({ id: bad, name: 'N' }).success, bad).toBe(false);
    const r = sources.safeParse({ id: 'W12', name: 'N' });
    expect(r.error?.issues[0]?.message).toBe('must be S followed by digits, got "W12"');
    expect(funders.safeParse({ id: 'F1', name: '' }).error?.issues[0]?.message).toBe('must not be empty');
    expect(TABLES.canadian_funders.key).toEqual(['id']);
    expect(TABLES.canadian_sources.key).toEqual(['id']);
  });

  it('frame/canadian-lists.json: lists sorted by id, stamped with the version of their contents', () => {
    const doc = canadianListsDocument(
      [
        { id: 'F20', name: 'B' },
        { id: 'F100', name: 'A' },
      ],
      [{ id: 'S5', name: 'Venue' }],
    );
    // Code-unit order, as DuckDB's ORDER BY id.
    expect(doc.funders.map((f) => f.id)).toEqual(['F100', 'F20']);
    expect(doc.route_version).toMatch(/^[0-9a-f]{12}$/);
    expect(doc.route_version).toBe(canadianRouteVersion(doc));
    expect(canadianListsSchema.parse(doc)).toEqual(doc);
    const renamed = canadianListsDocument(doc.funders, [{ id: 'S5', name: 'Venue 2' }]);
    expect(renamed.route_version).not.toBe(doc.route_version);
    expect(canadianListsSchema.safeParse({ ...doc, route_version: renamed.route_version }).success).toBe(false);
    expect(canadianListsSchema.safeParse({ ...doc, funders: [...doc.funders].reverse() }).success).toBe(false);
    expect(canadianListsSchema.safeParse({ ...doc, sources: [...doc.sources, ...doc.sources] }).success).toBe(false);
    expect(() => canadianListsDocument([{ id: 'S1', name: 'x' }], [])).toThrow();
  });
});

describe('title terms', () => {
  it('lower-cases and splits on anything that is not a letter or digit', () => {
    expect(titleTerms('COVID-19 in Québec: a "Study" of Montréal, Québec')).toEqual(['covid', '19', 'in', 'quebec', 'a', 'study', 'of', 'montreal']);
  });

  it('folds case, accents, compatibility forms and final sigma the same way for titles and queries', () => {
    expect(titleTerms('İstanbul ﬁsh ΟΔΟΣ Cafe\u0301 CAFÉ')).toEqual(['istanbul', 'fish', 'οδοσ', 'cafe']);
    expect(titleTerms('οδοσ')).toEqual(titleTerms('ΟΔΟΣ'));
  });
});

describe.skipIf(!haveReference)('the real pilot documents pass the document schemas', () => {
  it('findings.json (32 findings)', () => {
    const f = findingsSchema.parse(JSON.parse(readFileSync(join(REFERENCE, 'findings.json'), 'utf8')));
    expect(Object.keys(f)).toHaveLength(32);
    expect(f.three_model_screen?.headline).toMatch(/5,600 works/);
  });
  it('predictions report assembled from frame_predictions.json and distillation_model.json', () => {
    const report = {
      predictions: JSON.parse(readFileSync(join(REFERENCE, 'frame_predictions.json'), 'utf8')),
      model: JSON.parse(readFileSync(join(REFERENCE, 'distillation_model.json'), 'utf8')),
    };
    const r = predictionsReportSchema.parse(report);
    expect(r.predictions.n_predictions).toBe(4_299_418);
  });
});
