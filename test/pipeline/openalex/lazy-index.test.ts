/**
 * readLine leaves the abstract's inverted index unparsed until the harvest window admits the work
 * (pipeline/openalex/record.ts). Its result must be exactly what parsing the whole line gives: the oracle here
 * is the plain path (JSON.parse of the line, then readRecord), on adversarial lines and on randomly corrupted
 * ones, in and out of the window.
 */
import { describe, expect, it } from 'vitest';
import { canadianListsDocument } from '../../../contracts/frame/canadian-lists.ts';
import { type LineResult, readLine, readOptions, readRecord, splitAbstractIndex } from '../../../pipeline/openalex/record.ts';
import { mulberry32 } from '../../helpers/random.ts';

const o = readOptions(canadianListsDocument([], []), false);

/** The oracle: the whole line through JSON.parse, as the builder read every line before. */
function plain(text: string): LineResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { kind: 'bad', reason: `malformed JSON: ${(err as Error).message.slice(0, 120)}` };
  }
  return readRecord(raw, o);
}

const OA = 'https://openalex.org/';
/** A record's JSON text with the index's text spliced in as given (so it can be malformed). */
const line = (year: number, index: string, extra = '') =>
  `{"id":"${OA}W123","title":"Soil chemistry of wetlands","publication_year":${year},"type":"article","updated_date":"2026-01-01T00:00:00",` +
  `"authorships":[{"author":{"id":"${OA}A1","display_name":"Ann Author"},"institutions":[],"countries":["FR"]}]${extra},"abstract_inverted_index":${index},"cited_by_count":3}`;

const GOOD = '{"Wetlands":[0],"of":[1,4],"Canada":[2],"and":[3],"Quebec":[5]}';
const indexes = [
  GOOD,
  '{"Wetlands" : [ 0 ] , "in" :[1],\t"Canada"\n:[2 ,3]}', // JSON whitespace everywhere
  '{}',
  '{ }',
  'null',
  '{"a":[]}',
  '{"caf\\u00e9":[0],"\\"q\\"":[1],"a\\/b":[2],"\\\\":[3],"Canada":[4]}', // escapes JSON allows
  '{"\\ud800":[0]}', // a lone surrogate (JSON.parse accepts it)
  '{"a":[1.0]}', // not an integer: plain path (valid JSON)
  '{"a":[01]}', // leading zero: invalid
  '{"a":[-1]}',
  '{"a":[1],}', // trailing comma
  '{"a":[1,]}',
  '{"a":[NaN]}',
  '{"a":[1]', // unclosed
  '{"a" [1]}',
  '{"a\\x":[1]}', // invalid escape
  '{"a\u0001":[1]}', // raw control character in a key
  '{"a":[1]}\u00a0', // non-JSON whitespace after the index
  '{"a":\u000b[1]}',
  '{"a":[1]}}', // a brace too many
  '{"a":[1]} x',
  '"\\u0000lazy-index"', // the placeholder itself, written in the line
  '{"Canada":[0]}, "abstract_inverted_index":null', // the key twice: the last wins
  'null, "abstract_inverted_index":{"Canada":[0]}',
  '{"a":[0]}, "abstract\\u005finverted_index":{"Canada":[0]}', // the same key, spelled with an escape
  '{"Canada":[0]}, "abstract\\u005finverted_index":null',
];
const extras = [
  '',
  ',"primary_location":{"abstract_inverted_index":{"Canada":[0]}}', // a nested key before the real one
  ',"\\"abstract_inverted_index":{"Canada":[0]}', // a key ending in the name, after an escaped quote
  ',"note":"\\"abstract_inverted_index\\":{\\"Canada\\":[0]}"', // the name inside a string
  ',"note":"a "abstract_inverted_index":{"Canada":[0]} b"', // an unescaped quote: invalid
  ',"note":"\\u0000"',
  ',', // a stray comma elsewhere
];

describe('readLine with the inverted index parsed only for works in the window', () => {
  it('takes the lazy path on an ordinary line and restores the abstract for a work in the window', () => {
    const text = line(2015, GOOD);
    expect(splitAbstractIndex(text)).not.toBeNull();
    const r = readLine(text, o);
    expect(r.kind).toBe('in'); // admitted only through the abstract's "Canada … Quebec"
    expect(r).toEqual(plain(text));
    expect(readLine(line(1999, GOOD), o)).toEqual({ kind: 'out', id: 'W123', updated: '2026-01-01T00:00:00', why: 'window' });
  });

  it('gives what JSON.parse of the whole line gives on adversarial lines', () => {
    let lazy = 0;
    for (const year of [1999, 2015])
      for (const index of indexes)
        for (const extra of extras) {
          const text = line(year, index, extra);
          if (splitAbstractIndex(text) !== null) lazy++;
          expect(readLine(text, o), text).toEqual(plain(text));
          // Python's separators, as in the legacy snapshot's files
          const spaced = text.replaceAll('":', '": ').replaceAll(',"', ', "');
          expect(readLine(spaced, o), spaced).toEqual(plain(spaced));
        }
    expect(lazy).toBeGreaterThan(20);
  });

  it('gives what JSON.parse of the whole line gives on randomly corrupted lines', () => {
    const random = mulberry32(17);
    const pieces = ['"', ',', '}', '{', ']', '[', ':', '\\', ' ', '0', '-', 'x', '\\u0000', '"abstract_inverted_index":{"Canada":[0]}', '\u00a0'];
    const bases = [line(2015, GOOD), line(1999, GOOD), line(2015, indexes[6]!, extras[1]), line(1999, indexes[1]!)];
    let bad = 0;
    for (let k = 0; k < 6000; k++) {
      let text = bases[k % bases.length]!;
      for (let e = 0, edits = 1 + Math.floor(random() * 2); e < edits; e++) {
        const at = Math.floor(random() * text.length);
        const cut = Math.floor(random() * 3);
        text = text.slice(0, at) + (random() < 0.7 ? pieces[Math.floor(random() * pieces.length)] : '') + text.slice(at + cut);
      }
      const expected = plain(text);
      if (expected.kind === 'bad') bad++;
      expect(readLine(text, o), text).toEqual(expected);
    }
    expect(bad).toBeGreaterThan(1000); // the corruptions do reach the bad-line report
  });
});
