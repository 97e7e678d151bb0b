/** The recent layer's pure rules: the about-Canada lexicon, abstract restoring, candidate queries, the parser. */
import { describe, expect, it } from 'vitest';
import { aboutCanada } from '../helpers/frame-rules-js.ts';
import { parseRecentQuery, windowStart } from '../../contracts/frame/recent.ts';
import { ApiError } from '../../contracts/common/errors.ts';
import { restoreAbstract, shortId, bareDoi } from '../../api-dynamic/src/services/frame/recent/catalogue.ts';
import { candidateQueries } from '../../api-dynamic/src/services/frame/recent/candidate-queries.ts';

describe('about-Canada lexicon', () => {
  const cases: [string[], boolean, string[]][] = [
    [['Nurses in Montréal'], true, ['montreal']],
    [['MONTREAL nurses'], true, ['montreal']],
    [["Montreal's nurses"], true, ['montreal']],
    [['Waiting times in London hospitals'], false, ['london']],
    [['Waiting times in London, Ontario'], true, ['london ontario']],
    [['London hospitals', 'a study from Canada'], true, ['london', 'canada']],
    [['The Canadaville settlement'], false, []],
    [['Health in Île-du-Prince-Édouard'], true, ['ile du prince edouard']],
    [['Outcomes in Nova Scotia and New Brunswick'], true, ['nova scotia', 'new brunswick']],
    [['Métis youth'], true, ['metis']],
    [['First Nations communities'], true, ['first nations']],
    [['Queen’s University students'], false, ['queen s university']],
    [[''], false, []],
  ];
  it.each(cases)('%j → about %s, terms %j', (texts, about, terms) => {
    const m = aboutCanada(texts);
    expect(m.about).toBe(about);
    expect(m.terms.map((t) => t.term)).toEqual(terms);
  });

  it('never lets a term span two texts', () => {
    expect(aboutCanada(['Nova', 'Scotia']).about).toBe(false);
  });
});

describe('restoreAbstract', () => {
  it('places each token at every listed position, in order, holes dropped', () => {
    expect(restoreAbstract({ world: [1], Hello: [0], again: [5], hello: [4] })).toBe('Hello world hello again');
    expect(restoreAbstract({ the: [0, 2], cat: [1], mat: [3] })).toBe('the cat the mat');
  });
  it('gives null for nothing, and for an absurd index', () => {
    expect(restoreAbstract(null)).toBeNull();
    expect(restoreAbstract({})).toBeNull();
    expect(restoreAbstract({ ' ': [0] })).toBeNull();
    expect(restoreAbstract({ x: Array.from({ length: 20_001 }, (_, i) => i) })).toBeNull();
  });
});

describe('catalogue ids', () => {
  it('shortens ids and DOIs', () => {
    expect(shortId('https://openalex.org/W4200000001')).toBe('W4200000001');
    expect(shortId('https://openalex.org/f4320334593')).toBe('F4320334593');
    expect(shortId(null)).toBeNull();
    expect(bareDoi('https://doi.org/10.5555/ABC')).toBe('10.5555/ABC');
  });
});

describe('candidateQueries', () => {
  it('asks per route, 50 ids per query, within the window', () => {
    const funders = Array.from({ length: 120 }, (_, i) => ({ id: `F${1000 + i}` }));
    const sources = Array.from({ length: 50 }, (_, i) => ({ id: `S${1000 + i}` }));
    const q = candidateQueries({ funders, sources }, '2026-10-23', '2026-11-21');
    expect(q.every((f) => f.startsWith('from_publication_date:2026-10-23,to_publication_date:2026-11-21,'))).toBe(true);
    expect(q.filter((f) => f.includes('authorships.countries:CA'))).toHaveLength(1);
    expect(q.filter((f) => f.includes('primary_location.source.id:'))).toHaveLength(1);
    const funderQueries = q.filter((f) => f.includes('funders.id:'));
    expect(funderQueries).toHaveLength(3);
    expect(funderQueries.flatMap((f) => f.split('funders.id:')[1]!.split('|'))).toEqual(funders.map((f) => f.id));
    expect(q.some((f) => f.includes('title_and_abstract.search:') && f.includes('"nova scotia"'))).toBe(true);
    // Tier C places are never searched alone ("london ontario" is Tier B, plain "london" is Tier C).
    expect(q.some((f) => /(:| OR )london( OR |$)/.test(f))).toBe(false);
    expect(q.some((f) => f.includes('"london ontario"'))).toBe(true);
  });
});

describe('parseRecentQuery', () => {
  it('has defaults and the frame value rules', () => {
    expect(parseRecentQuery('/recent')).toEqual({ days: 30, filters: {}, page: 1, per_page: 25 });
    expect(parseRecentQuery('/recent?days=15&route=no_aff&has_abstract=false&q=Nova+Scotia&lang=FR&page=2&per_page=100&_t=1')).toEqual({
      days: 15,
      filters: { route: 'no_aff', has_abstract: false, q: 'nova scotia', lang: 'fr' },
      page: 2,
      per_page: 100,
    });
  });
  it.each(['days=14', 'days=31', 'route=ca_aff', 'has_abstract=yes', 'per_page=0', 'bogus=1', 'page=101&per_page=100'])('rejects %s', (q) => {
    expect(() => parseRecentQuery(`/recent?${q}`)).toThrow(ApiError);
  });
  it('computes the window start', () => {
    expect(windowStart('2026-11-21', 30)).toBe('2026-10-23');
    expect(windowStart('2026-03-01', 15)).toBe('2026-02-15');
  });
});
