/**
 * The frame rules in DuckDB SQL (contracts/frame/rules-sql.ts) against the JavaScript rules they replaced
 * (helpers/frame-rules-js.ts, the oracle): every record's decision (admitted, bad, or why not), and for an
 * admitted one its works.csv cells, authorships and adjusted cells, on the real reference records, a
 * generated set and hand-written edge records; the folding of texts above ASCII on random strings.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aboutCanada } from '../../helpers/frame-rules-js.ts';
import { silentProgress } from '../../../pipeline/lib/progress.ts';
import { buildFromOpenAlex } from '../../../pipeline/openalex/build.ts';
import { TABLES } from '../../../contracts/frame/snapshot.ts';
import { type Duck, lit, openDuck } from '../../../pipeline/lib/duckdb.ts';
import { jsonSource, registerRules, rulesSql } from '../../../contracts/frame/rules-sql.ts';
import { referenceTemplates, SyntheticWorks } from '../../../pipeline/openalex/synthetic-works.ts';
import { tempDir } from '../../helpers/fixture-build.ts';
import { readLine, readOptions } from '../../helpers/frame-rules-js.ts';
import { mulberry32 } from '../../helpers/random.ts';
import { needShared, sharedPath } from '../../helpers/needs.ts';

const REF = sharedPath('reference/openalex');
const present = needShared('reference/openalex/works-api', "the SQL rules' comparison on real and generated records");

const OA = 'https://openalex.org/';
const tail = (u: unknown) => (typeof u === 'string' ? (u.split('/').pop() ?? '') : '');
const base = { publication_year: 2015, type: 'article', language: 'en', updated_date: '2026-01-01' };
let n = 0;
const rec = (extra: Record<string, unknown>) => JSON.stringify({ id: `${OA}W${++n}`, title: 'Soil chemistry', ...base, ...extra });
const caAuthor = {
  author: { id: `${OA}A1`, display_name: 'Ann  Author', orcid: 'https://orcid.org/0000-0002-1825-009x' },
  institutions: [
    { display_name: 'Univ  A', country_code: 'ca' },
    { display_name: 'Univ A', country_code: 'CA' },
  ],
  countries: [],
};

/** Records on the edges of the rules: texts above ASCII, the abstract's order, types, cells the format cannot hold. */
const EDGES = [
  rec({ title: 'Health care in ＣＡＮＡＤＡ' }),
  rec({ title: 'ﬁrst nations health' }),
  rec({ title: 'Studies of 𝐂𝐚𝐧𝐚𝐝𝐚' }),
  rec({ title: 'canada² and canadaα' }),
  rec({ title: 'Montréal’s winters' }),
  rec({ title: 'La santé au Que\u0301bec' }),
  rec({ title: 'Canadá' }),
  rec({ title: 'İnuit' }),
  rec({ title: 'Nova\u00a0Scotia coast' }),
  rec({ title: 'Σ canada' }),
  rec({ title: 'x', abstract_inverted_index: { Nova: [0], Scotia: [1] } }),
  rec({ title: 'x', abstract_inverted_index: { Scotia: [0], Nova: [1] } }),
  rec({ title: 'x', abstract_inverted_index: { Canada: [], x: [0] } }),
  rec({ title: 'x', abstract_inverted_index: { Nova: [0], Scotia: [1], y: [1] } }),
  rec({ title: 'x', abstract_inverted_index: { ' ': [0] } }),
  rec({ title: 'x', abstract_inverted_index: { Toronto: Array.from({ length: 20_001 }, (_, k) => k) } }),
  rec({ title: 'x', abstract_inverted_index: { 'British-Columbia': [3], the: [0, 2], in: [1] } }),
  rec({ title: 'x', abstract_inverted_index: { Canada: [-1] } }),
  rec({ title: 'x', keywords: [{ display_name: 'British' }, { display_name: 'Columbia' }] }),
  rec({ title: 'x', keywords: [{ display_name: ' Nunavut ' }, { display_name: 'Nunavut' }, { display_name: 'a\tb' }] }),
  rec({ title: 'x', keywords: [{ display_name: null }] }),
  rec({ title: '   ', display_name: 'Canada' }),
  rec({ title: null, display_name: 'Canada research' }),
  rec({ title: 123, display_name: 'About Canada' }),
  rec({ title: 123 }),
  rec({ title: 'Canada', publication_year: '2010' }),
  rec({ title: 'Canada', publication_year: '2010', publication_date: '2010-05-01' }),
  rec({ title: 'Canada', publication_year: null, publication_date: '2001-01-01' }),
  rec({ title: 'Canada', publication_year: 2010.0 }),
  rec({ title: 'Canada', publication_year: 1999 }),
  rec({ title: 'Canada', publication_year: 2026 }),
  rec({ title: 'Canada', type: 'grant' }),
  rec({ title: 'Canada', type: '' }),
  rec({ title: 'Canada', type: ' Book-Chapter ' }),
  rec({ title: 'Canada', cited_by_count: '5' }),
  rec({ title: 'Canada', cited_by_count: 5.0 }),
  rec({ title: 'Canada', cited_by_count: 20_000_000 }),
  rec({ title: 'Canada', is_retracted: 'true' }),
  rec({ title: 'Canada', is_retracted: true }),
  rec({ title: 'Canada', doi: 'https://doi.org/not a doi' }),
  rec({ title: 'Canada', doi: ' DOI:10.1234/ABC ' }),
  rec({ title: 'Canada', language: 'english' }),
  rec({ title: 'Canada', language: ' FR ' }),
  rec({ title: `Canada ${'word '.repeat(500)}` }),
  rec({ title: 'Canada', authorships: [null] }),
  rec({ title: 'Canada', authorships: [{ author: { id: null, display_name: 'No id' } }, { author: { id: `${OA}A2`, display_name: ' ' } }, caAuthor] }),
  rec({ title: 'x', authorships: [{ author: { id: `${OA}A3`, display_name: 'B' }, institutions: [], countries: ['ca'] }] }),
  rec({ title: 'x', funders: [{ id: `${OA}F1`, display_name: 'Fund  One' }], awards: [{ funder_id: `${OA}F1`, funder_display_name: 'Fund One' }] }),
  rec({ title: 'x', grants: [{ funder: `${OA}F2`, funder_display_name: 'Old' }] }),
  rec({ title: 'x', primary_location: { source: { id: `${OA}S1`, display_name: 'Revue' } } }),
  rec({ title: 'x', primary_location: { source: null }, host_venue: { id: `${OA}S1`, display_name: 'Old revue' } }),
  rec({ title: 'x', primary_location: null, host_venue: { id: '', display_name: 'No id' } }),
  rec({ title: 'Canada', primary_topic: { display_name: 'Topic', field: { display_name: 'Field' } } }),
  rec({ title: 'Canada', is_xpac: true }),
  JSON.stringify({ id: 'W0123', title: 'Canada', ...base }),
  JSON.stringify({ id: 123, title: 'Canada', ...base }),
  JSON.stringify({ title: 'Canada', ...base }),
  JSON.stringify({ id: `${OA.toUpperCase()}w77`, title: 'Canada', ...base }),
];

const COLUMNS = TABLES.works.columns.map((c) => c.name);

/** Runs the SQL rules over `lines` and compares each record with the oracle; returns the oracle's decisions tallied. */
async function compare(
  duck: Duck,
  path: string,
  lines: string[],
  lists: { funderIds: string[]; sourceIds: string[]; excludeXpac?: boolean },
): Promise<Record<string, number>> {
  writeFileSync(path, `${lines.join('\n')}\n`);
  const o = readOptions(
    { funders: lists.funderIds.map((id) => ({ id })), sources: lists.sourceIds.map((id) => ({ id })), route_version: 'test' },
    lists.excludeXpac ?? false,
  );
  const rows = await duck.all<{
    line: number;
    id: string | null;
    updated: string;
    why: string;
    work: string | null;
    auths: string | null;
    notes: string[] | null;
  }>(
    `SELECT line::INTEGER AS line, id, updated, why, to_json(work)::VARCHAR AS work, to_json(auths)::VARCHAR AS auths, notes
     FROM (${rulesSql(jsonSource(path), { excludeXpac: false, ...lists })}) ORDER BY line`,
  );
  expect(rows).toHaveLength(lines.length);
  const tally: Record<string, number> = {};
  lines.forEach((text, k) => {
    const js = readLine(text, o);
    const sql = rows[k]!;
    const why = js.kind === 'in' ? 'in' : js.kind === 'bad' ? 'bad' : js.why;
    tally[why] = (tally[why] ?? 0) + 1;
    const at = `record ${k + 1}: ${text.slice(0, 160)}`;
    expect(sql.why, at).toBe(why);
    if (js.kind === 'bad') return;
    expect([sql.id, sql.updated], at).toEqual([js.id, js.updated]);
    if (js.kind !== 'in') return;
    const work = JSON.parse(sql.work!) as Record<string, string>;
    expect(
      COLUMNS.map((c) => work[c]),
      at,
    ).toEqual((parse(js.work) as string[][])[0]);
    const auths = ((JSON.parse(sql.auths!) ?? []) as Record<string, string>[]).map((a) => [js.id, a.author_id, a.position, a.is_ca, a.name, a.orcid]);
    expect(auths, at).toEqual(js.authorships.map((a) => (parse(a) as string[][])[0]));
    expect([...(sql.notes ?? [])].sort(), at).toEqual([...js.notes].sort());
  });
  return tally;
}

describe('the frame rules in SQL against the JavaScript rules', () => {
  const tmp = tempDir('oa-rules-sql');
  let duck: Duck;
  beforeAll(async () => {
    duck = await openDuck(':memory:', { threads: '1' });
    await registerRules(duck);
  });
  afterAll(() => {
    duck.close();
    tmp.remove();
  });

  it('hand-written edge records: the same decision, cells, authorships and adjustments', async () => {
    const tally = await compare(duck, join(tmp.path, 'edges.jsonl'), EDGES, { funderIds: ['F1', 'F2'], sourceIds: ['S1'] });
    // Every kind of outcome is exercised.
    for (const why of ['in', 'bad', 'window', 'not-publication', 'no-route']) expect(tally[why], why).toBeGreaterThan(0);
    const xpac = await compare(duck, join(tmp.path, 'xpac.jsonl'), EDGES, { funderIds: [], sourceIds: [], excludeXpac: true });
    expect(xpac.xpac).toBe(1);
  });

  it.skipIf(!present)(
    'real records (API and the 2023 partition) and a generated set: the same everywhere',
    async () => {
      const lines: string[] = [];
      for (const f of readdirSync(join(REF, 'works-api')).sort()) {
        const doc = JSON.parse(readFileSync(join(REF, 'works-api', f), 'utf8'));
        for (const w of Array.isArray(doc) ? doc : (doc.results ?? [doc])) lines.push(JSON.stringify(w));
      }
      const legacy = gunzipSync(readFileSync(join(REF, 'snapshot-legacy-sample/data/works/updated_date=2023-05-16/part_000.gz'))).toString('utf8');
      lines.push(...legacy.split('\n').filter((l) => l.trim() !== ''));
      const parsed = lines.map((l) => JSON.parse(l) as Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any
      // Pinned lists chosen from the records themselves, so that routes fund and venue admit real works.
      const funderIds = [
        ...new Set(
          parsed.flatMap((r) => [
            ...(r.funders ?? []).map((f: { id: string }) => tail(f.id)),
            ...(r.grants ?? []).map((g: { funder: string }) => tail(g.funder)),
          ]),
        ),
      ]
        .filter(Boolean)
        .sort();
      const sourceIds = [...new Set(parsed.map((r) => tail(r.primary_location?.source?.id)).filter(Boolean))].sort();
      const lists = { funderIds: funderIds.filter((_, k) => k % 3 === 0), sourceIds: sourceIds.filter((_, k) => k % 7 === 0) };
      const real = await compare(duck, join(tmp.path, 'real.jsonl'), lines, lists);
      expect(real.in).toBeGreaterThan(30);
      const gen = new SyntheticWorks(referenceTemplates(join(REF, 'works-api')), 5);
      const generated = Array.from({ length: 2000 }, (_, k) => gen.line(k, '2026-01-01'));
      const tally = await compare(duck, join(tmp.path, 'generated.jsonl'), generated, lists);
      expect(tally.in).toBeGreaterThan(20);
    },
    120_000,
  );

  it('folds texts above ASCII as title-terms.ts does: the same about-Canada decision on random strings', async () => {
    const random = mulberry32(11);
    const pieces = [
      'canada',
      'Nova',
      'scotia',
      'first',
      'nations',
      'ＣＡＮＡＤＡ',
      'ﬁrst',
      'é',
      '\u0301',
      'α',
      'ς',
      'Σ',
      '²',
      '’',
      '\u00a0',
      ' ',
      '-',
      'İ',
      '𝐂𝐚𝐧𝐚𝐝𝐚',
      'ͺ',
      'Ⓒ',
      'ǅ',
      '\u3000',
      'ﬀ',
      'toronto',
      'Toronto',
      'ø',
      '\u200b',
      '𝟘',
    ];
    const texts = Array.from({ length: 3000 }, () =>
      Array.from({ length: 1 + Math.floor(random() * 6) }, () => pieces[Math.floor(random() * pieces.length)]).join(random() < 0.5 ? ' ' : ''),
    );
    const rows = await duck.all<{ about: boolean }>(
      `SELECT about_text(t) AS about FROM (SELECT unnest([${texts.map(lit).join(', ')}]) AS t, generate_subscripts([${texts.map(() => '0').join(', ')}], 1) AS k) ORDER BY k`,
    );
    texts.forEach((t, k) => expect(rows[k]!.about, JSON.stringify(t)).toBe(aboutCanada([t]).about));
  });

  it('keeps the later line of two versions with one updated_date, and names the bad lines of a file DuckDB cannot read', async () => {
    const works = join(tmp.path, 'versions');
    mkdirSync(works);
    const v = (id: number, title: string, extra: Record<string, unknown> = {}) => JSON.stringify({ id: `${OA}W${id}`, title, ...base, ...extra });
    // a.jsonl: DuckDB fails on the string authorships and on the repeated key, so JavaScript reads it line by line.
    const a = [
      v(1, 'First version, Canada'),
      '',
      v(1, 'Second version, Canada'),
      v(2, 'Canada', { authorships: 'none' }),
      v(3, 'x').replace('"title"', '"abstract_inverted_index":{"Nunavut":[0],"Nunavut":[1]},"title"'),
    ];
    writeFileSync(join(works, 'a.jsonl'), `${a.join('\n')}\n`);
    writeFileSync(join(works, 'b.jsonl'), `${[v(4, 'First, Canada'), v(4, 'Second, Canada')].join('\n')}\n`);
    const out = join(tmp.path, 'versions-out');
    const { report } = await buildFromOpenAlex({
      works,
      out,
      name: 'versions',
      allowIncomplete: false,
      excludeXpac: false,
      labels: {},
      maxBadFraction: 1,
      threads: 1,
      buildDate: '2026-11-28',
      memoryLimit: '256MB',
      progress: silentProgress,
    });
    const rows = parse(readFileSync(join(out, 'works.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.id, r.title])).toEqual([
      ['W1', 'Second version, Canada'],
      ['W3', 'x'],
      ['W4', 'Second, Canada'],
    ]);
    expect(report.first_bad).toEqual([{ file: 'a.jsonl', line: 4, reason: expect.stringMatching(/^W2: authorships/) }]);
    expect(report.records).toBe(6);
  }, 60_000);
});
