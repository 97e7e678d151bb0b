/**
 * The cohort vocabulary's parser: every spelling of one cohort gets one canonical filter object and one hash,
 * different cohorts get different hashes, and every malformed or contradictory query is a 400 that names
 * the parameter at fault.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../contracts/common/errors.ts';
import { filtersToQuery, HASH_PATTERN, parseCohortQuery, queryHash, type Surface } from '../../contracts/frame/cohort-query.ts';
import { CATEGORIES } from '../../contracts/frame/vocab.ts';

const url = (qs: string, path = '/frame/api/v1/cohort') => `${path}${qs === '' ? '' : `?${qs}`}`;
const filtersOf = (qs: string) => parseCohortQuery(url(qs), 'cohort').filters;
const hashOf = (qs: string, snapshot = 'snap') => queryHash(filtersOf(qs), snapshot);

/** The ApiError a query raises on a surface, or a failure when it parses. */
function rejection(qs: string, surface: Surface = 'cohort'): ApiError {
  try {
    parseCohortQuery(url(qs), surface);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error(`expected ${qs} to be rejected on ${surface}`);
}

describe('canonical filters and the query hash', () => {
  const same: [string, string[]][] = [
    ['route=aff', ['route_aff=1', 'route_aff=true']],
    ['route=no_aff', ['route_aff=0', 'route_aff=false']],
    ['route=about', ['route_about=1']],
    ['no_abstract=1', ['abstract=none', 'no_abstract=true', 'no_abstract=1&abstract=none']],
    ['', ['cited_min=0', 'lang=', 'lang=%20', 'q=&author=&type=', 'sort=year_desc', 'page=3&per_page=10', 'sort=cited&per_page=100']],
    ['q=Machine%20learning', ['q=learning+machine', 'q=%20machine%20%20LEARNING%20', 'q=machine-learning', 'q=learning%20machine%20learning']],
    ['author=jean%20tremblay', ['author=Tremblay,+Jean']],
    ['category=sts', ['category=sts&label_source=direct', 'category=sts&agreement=any', 'label_source=direct&agreement=any&category=sts']],
    [
      'category=sts&label_source=predicted',
      ['category=sts&label_source=predicted&prediction_mode=candidate', 'prediction_mode=candidate&label_source=predicted&category=sts'],
    ],
    ['design=observational&agreement=all', ['agreement=all&design=observational&label_source=direct']],
    // Label options only qualify category and design; alone they describe the whole frame.
    ['', ['label_source=predicted', 'agreement=all', 'label_source=predicted&prediction_mode=consensus', 'label_source=direct&agreement=any']],
    ['lang=en&year_from=2010&type=article', ['type=article&lang=EN&year_from=2010', 'year_from=2010&type=%20article%20&lang=en']],
    ['year_from=2010&year_to=2010', ['year_to=2010&year_from=2010']],
    ['cited_min=5&sort=cited', ['cited_min=5&sort=year_asc&page=2', 'cited_min=5&per_page=7']],
  ];
  for (const [canonical, spellings] of same) {
    it(`one hash for ${canonical || '(no filters)'}`, () => {
      const h = hashOf(canonical);
      for (const s of spellings) {
        expect(filtersOf(s), s).toEqual(filtersOf(canonical));
        expect(hashOf(s), s).toBe(h);
      }
    });
  }

  it('is 16 lower-case hex characters', () => {
    for (const qs of ['', 'q=machine', 'route=aff&category=sts&label_source=predicted&prediction_mode=consensus']) {
      expect(hashOf(qs)).toMatch(/^[0-9a-f]{16}$/);
      expect(hashOf(qs)).toMatch(HASH_PATTERN);
    }
  });

  it('tells different cohorts apart', () => {
    const pairs: [string, string][] = [
      ['route_aff=1', 'route_aff=0'],
      ['route_aff=1', ''],
      ['route_aff=1', 'route_fund=1'],
      ['category=sts', 'category=sts&label_source=predicted'],
      ['category=sts', 'category=sts&agreement=all'],
      ['category=sts&label_source=predicted', 'category=sts&label_source=predicted&prediction_mode=consensus'],
      ['design=observational', 'design=observational&label_source=predicted'],
      ['q=machine', 'q=machine+learning'],
      ['q=smith', 'author=smith'],
      ['year_from=2000', 'year_to=2000'],
      ['cited_min=1', ''],
      ['abstract=has', 'abstract=none'],
      ['retracted=1', 'retracted=0'],
      ['labeled=1', 'labeled=0'],
      ['n_in=0', ''],
      ['lang=en', 'lang=fr'],
      ['topic=Medicine', 'field=Medicine'],
    ];
    for (const [a, b] of pairs) expect(hashOf(a), `${a} vs ${b}`).not.toBe(hashOf(b));
    // The snapshot is part of the cohort: the same filters counted on another snapshot are another cohort.
    expect(hashOf('q=machine', 'sample')).not.toBe(hashOf('q=machine', 'sample-2'));
    expect(hashOf('', 'a')).not.toBe(hashOf('', 'b'));
  });

  it('folds to the documented canonical values', () => {
    expect(filtersOf('route=no_aff&no_abstract=1&q=Machine%20learning&cited_min=0&lang=FR')).toEqual({
      route_aff: false,
      abstract: 'none',
      q: 'learning machine',
      lang: 'fr',
    });
    expect(filtersOf('category=sts&label_source=predicted&prediction_mode=consensus')).toEqual({
      category: 'sts',
      label_source: 'predicted',
      prediction_mode: 'consensus',
    });
  });

  it('filtersToQuery parses back to the same filters', () => {
    for (const qs of [
      '',
      'q=Machine%20learning&author=Tremblay&author_id=A5000000006',
      'year_from=1999&year_to=2020&cited_min=12&lang=fr&type=book-chapter',
      'field=Social%20Sciences&topic=Coastal%20Education%20in%20Canada&venue=Canadian%20Journal%20of%20Health',
      'route=no_aff&route_fund=1&route_venue=0&route_about=true&retracted=0&no_abstract=1&n_in=2',
      'category=open_science&design=qualitative&agreement=all&labeled=1',
      'category=sts&label_source=predicted&prediction_mode=consensus&abstract=has',
      'venue=A%20%26%20B%3D%2BC&field=x%2By',
    ]) {
      const f = filtersOf(qs);
      expect(filtersOf(filtersToQuery(f)), qs).toEqual(f);
    }
  });
});

describe('rejected queries', () => {
  const cases: [qs: string, parameter: string, surface?: Surface][] = [
    ['year_from=2020&year_to=2019', 'year_from'],
    ['lang=en&lang=fr', 'lang'],
    ['page=1.5', 'page'],
    ['page=0', 'page'],
    ['per_page=101', 'per_page'],
    ['n_in=4', 'n_in'],
    ['category=foo', 'category'],
    ['sort=relevance', 'sort'],
    ['route=aff&route_aff=0', 'route'],
    ['no_abstract=1&abstract=has', 'no_abstract'],
    ['prediction_mode=consensus', 'prediction_mode'],
    ['category=sts&prediction_mode=consensus', 'prediction_mode'],
    ['category=sts&label_source=direct&prediction_mode=consensus', 'prediction_mode'],
    ['agreement=all&label_source=predicted', 'agreement'],
    ['category=sts&agreement=all&label_source=predicted', 'agreement'],
    [`q=${'a'.repeat(201)}`, 'q'],
    ['q=!!!', 'q'],
    ['lang=EN1', 'lang'],
    ['author_id=X1', 'author_id'],
    ['page=401&per_page=25', 'page'],
    ['cursor=abc&page=1', 'page'],
  ];
  for (const [qs, parameter, surface] of cases) {
    it(`${qs.length > 40 ? `${qs.slice(0, 40)}…` : qs} → 400 naming ${parameter}`, () => {
      const err = rejection(qs, surface);
      expect(err.status).toBe(400);
      expect(err.code).toBe('INVALID_PARAMETER');
      expect(err.details?.[0]?.parameter).toBe(parameter);
    });
  }

  it('lists the allowed categories', () => {
    const err = rejection('category=foo');
    for (const c of CATEGORIES) expect(err.message).toContain(c);
  });

  it('rejects unknown parameters, including cohort-only ones on /works', () => {
    for (const [qs, parameter, surface] of [
      ['foo=1', 'foo', 'cohort'],
      ['q=x&qq=y', 'qq', 'cohort'],
      ['topic=Medicine', 'topic', 'works'],
      ['category=sts', 'category', 'works'],
      ['facet=type', 'facet', 'cohort'],
    ] as const) {
      const err = rejection(qs, surface);
      expect(err.status, qs).toBe(400);
      expect(err.code, qs).toBe('UNKNOWN_PARAMETER');
      expect(err.details?.[0]?.parameter, qs).toBe(parameter);
    }
  });

  it('accepts the limits themselves', () => {
    expect(parseCohortQuery(url(`q=${'a'.repeat(200)}&page=400&per_page=25&n_in=3`), 'cohort').page).toBe(400);
    expect(parseCohortQuery(url('page=100&per_page=100'), 'cohort').per_page).toBe(100);
    expect(parseCohortQuery(url('cursor=abc&per_page=37'), 'cohort').cursor).toBe('abc');
  });
});

describe('empty values are absent, but names and repeats are still checked', () => {
  const status = (url: string) => {
    try {
      parseCohortQuery(url, 'cohort');
      return 200;
    } catch (err) {
      return (err as { status: number; code: string }).code;
    }
  };
  it('an empty value is the same as leaving the parameter out', () => {
    expect(parseCohortQuery('/c?lang=&route_aff=1&q=%20', 'cohort').filters).toEqual({ route_aff: true });
  });
  it('an unknown name with an empty value is still unknown, and a repeat with an empty value is still a repeat', () => {
    expect(status('/c?bogus=')).toBe('UNKNOWN_PARAMETER');
    expect(status('/c?lang=&lang=en')).toBe('INVALID_PARAMETER');
    expect(() => parseCohortQuery('/w?topic=', 'works')).toThrow(/Unknown parameter "topic"/);
  });
});
