/**
 * The raw-text prescreen (pipeline/openalex/prescreen.ts) never rejects a line the frame rules admit, and a
 * line it rejects carries the id and updated_date the full parse reads: over every real reference record
 * (written compact, and ASCII-escaped with spaces as the snapshot writes them) and over hand-written lines
 * at each edge of its text handling (escapes before a term, \u escapes, surrogate pairs, decomposed
 * accents, compatibility forms, phrases split over abstract keys, lower-case country codes, id tails).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { prescreen } from '../../../pipeline/openalex/prescreen.ts';
import { type LineResult, readLine, readOptions } from '../../../pipeline/openalex/record.ts';

const REF = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'reference', 'openalex');
const present = existsSync(join(REF, 'works-api'));
if (!present) console.log(`skipping the prescreen's real-record comparison: ${REF} is absent`);

const LISTS = { funders: [{ id: 'F1001' }, { id: 'F4320306076' }], sources: [{ id: 'S2001' }], route_version: 'test' };
const full = readOptions(LISTS, false, false);
const screen = prescreen(full.rules);

/** JSON as Python's json.dumps writes it by default (the snapshot's lines): ", " / ": " and \u escapes for non-ASCII. */
const asciiJson = (value: unknown) =>
  JSON.stringify(value, null, 1)
    .replace(/\n */g, ' ')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Checks one line both ways; returns the full parse's result. */
function agree(line: string): LineResult {
  const truth = readLine(line, full);
  const skip = screen.reject(line);
  if (skip !== null) {
    expect(truth.kind, `rejected a line the rules admit: ${line.slice(0, 200)}`).not.toBe('in');
    expect(truth.kind, `rejected a bad line: ${line.slice(0, 200)}`).toBe('out');
    if (truth.kind === 'out') expect(skip).toEqual({ id: truth.id, updated: truth.updated });
  }
  return truth;
}

const OA = 'https://openalex.org/';
const base = (extra: Record<string, unknown>) => ({
  id: `${OA}W77`,
  title: 'Soil chemistry of alpine meadows',
  publication_year: 2015,
  type: 'article',
  updated_date: '2026-02-03T00:00:00',
  authorships: [{ author: { id: `${OA}A1`, display_name: 'A. Author' }, institutions: [{ id: `${OA}I2`, display_name: 'Universität Wien', country_code: 'AT' }], countries: ['AT'] }],
  ...extra,
});

describe('the raw-text prescreen', () => {
  it.skipIf(!present)('agrees with the full parse on every real record, compact and ASCII-escaped', () => {
    const records: Record<string, unknown>[] = [];
    for (const f of readdirSync(join(REF, 'works-api')).sort()) {
      const doc = JSON.parse(readFileSync(join(REF, 'works-api', f), 'utf8'));
      records.push(...(Array.isArray(doc) ? doc : (doc.results ?? [doc])));
    }
    const legacy = gunzipSync(readFileSync(join(REF, 'snapshot-legacy-sample/data/works/updated_date=2023-05-16/part_000.gz'))).toString('utf8');
    const legacyLines = legacy.split('\n').filter((l) => l.trim() !== '');
    let admitted = 0;
    let rejected = 0;
    for (const line of [...records.flatMap((r) => [JSON.stringify(r), asciiJson(r)]), ...legacyLines]) {
      if (agree(line).kind === 'in') admitted++;
      if (screen.reject(line)) rejected++;
    }
    // Both sides are exercised: works the rules admit, and lines the prescreen skips.
    expect(admitted).toBeGreaterThan(20);
    expect(rejected).toBeGreaterThan(20);
  });

  const admittedEdges: [string, string][] = [
    ['a JSON escape right before a term', JSON.stringify(base({ title: 'Notes\nNunavut' }))],
    ['an escaped quote before a term', JSON.stringify(base({ title: 'The "Manitoba" question' }))],
    ['a \\u escape inside a term', JSON.stringify(base({ title: 'Santé au Québec' })).replaceAll('é', '\\u00e9')],
    ['an accent written as is', JSON.stringify(base({ title: 'SANTÉ AU QUÉBEC' }))],
    ['a decomposed accent', JSON.stringify(base({ title: 'Que\u0301bec studies' }))],
    ['a surrogate pair written as two escapes', JSON.stringify(base({ title: '𝐂𝐚𝐧𝐚𝐝𝐚 now' })).replace(/[\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)],
    ['a surrogate pair written as is', JSON.stringify(base({ title: '𝐂𝐚𝐧𝐚𝐝𝐚 now' }))],
    ['a compatibility form', JSON.stringify(base({ title: 'ＣＡＮＡＤＡ and more' }))],
    ['a phrase split over abstract keys', JSON.stringify(base({ abstract_inverted_index: { Nations: [1], in: [2], First: [0] } }))],
    ['a keyword only', JSON.stringify(base({ keywords: [{ display_name: 'Yukon' }] }))],
    ['a lower-case country code', JSON.stringify(base({ authorships: [{ author: { id: `${OA}A1`, display_name: 'A' }, institutions: [], countries: ['ca'] }] }))],
    ['an award funder', JSON.stringify(base({ awards: [{ funder_id: `${OA}F1001` }] }))],
    ['a bare lower-case funder id', JSON.stringify(base({ funders: [{ id: 'f4320306076' }] }))],
    ['an older grant funder', JSON.stringify(base({ grants: [{ funder: `${OA}F1001` }] }))],
    ['an older host venue', JSON.stringify(base({ host_venue: { id: `${OA}S2001`, display_name: 'Revue' } }))],
    ['a term after an escaped backslash', JSON.stringify(base({ title: 'path\\Ottawa' }))],
    ['a term after a decoded backslash', JSON.stringify(base({ title: 'path\\Calgary' })).replace('\\\\', '\\u005c')],
    ['spaces as the snapshot writes them', asciiJson(base({ title: 'Île du Prince-Édouard' }))],
  ];
  it.each(admittedEdges)('never rejects a line the rules admit: %s', (_, line) => {
    expect(readLine(line, full).kind).toBe('in');
    expect(screen.reject(line)).toBeNull();
  });

  it('rejects a line without evidence, with the id and updated_date the full parse reads', () => {
    const line = asciiJson(base({ title: 'Fog over London, Victoria and Windsor', abstract_inverted_index: { First: [0], steps: [1] } }));
    expect(agree(line).kind).toBe('out');
    expect(screen.reject(line)).toEqual({ id: 'W77', updated: '2026-02-03T00:00:00' });
    expect(screen.reject(JSON.stringify(base({ updated_date: null })))).toEqual({ id: 'W77', updated: '' });
  });

  it('leaves to the full parse what it cannot read for certain', () => {
    const two = JSON.stringify(base({ related: { id: `${OA}W78` } }));
    const truncated = JSON.stringify(base({})).slice(0, -3);
    const noId = JSON.stringify({ ...base({}), id: undefined });
    const twoUpdated = JSON.stringify(base({ versions: [{ updated_date: '2020-01-01' }] }));
    for (const line of [two, truncated, noId, twoUpdated]) expect(screen.reject(line), line).toBeNull();
    expect(readLine(truncated, full).kind).toBe('bad');
    expect(readLine(noId, full).kind).toBe('bad');
  });
});
