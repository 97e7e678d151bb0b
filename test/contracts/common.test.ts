import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ApiError, ERROR_CODES, errorBody, errorBodySchema } from '../../contracts/common/errors.ts';
import { parseStrictQuery } from '../../contracts/common/query.ts';
import { stableStringify } from '../../contracts/common/stable-json.ts';

describe('error body', () => {
  it('has error, message and code for every code', () => {
    for (const code of ERROR_CODES) {
      const body = errorBody(code, 'something was wrong');
      expect(errorBodySchema.parse(body)).toEqual(body);
      expect(Object.keys(body)).toEqual(['error', 'message', 'code']);
    }
  });
});

describe('stableStringify', () => {
  it('sorts keys at every depth and drops undefined', () => {
    expect(stableStringify({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"y":2,"z":1}]},"b":1}',
    );
  });
});

describe('parseStrictQuery', () => {
  const schema = z.object({
    n: z.coerce.number().int().min(1).max(3).optional(),
    tag: z.array(z.string()).optional(),
  });
  const parse = (qs: string) => parseStrictQuery(schema, `/x?${qs}`, { multi: ['tag'] });
  const codeOf = (qs: string) => {
    try {
      parse(qs);
      return null;
    } catch (err) {
      return (err as ApiError).code;
    }
  };
  it('accepts known parameters and ignores _-prefixed ones', () => {
    expect(parse('n=2&_cachebust=7&tag=a&tag=b')).toEqual({ n: 2, tag: ['a', 'b'] });
  });
  it('rejects unknown, repeated and invalid parameters with the code that says which', () => {
    expect(codeOf('m=1')).toBe('UNKNOWN_PARAMETER');
    expect(codeOf('n=1&n=2')).toBe('INVALID_PARAMETER');
    expect(codeOf('n=9')).toBe('INVALID_PARAMETER');
  });
  it('names the parameter and the allowed list in the message', () => {
    try {
      parse('colour=red');
      expect.unreachable();
    } catch (err) {
      expect((err as ApiError).message).toContain('"colour"');
      expect((err as ApiError).message).toContain('n, tag');
      expect((err as ApiError).status).toBe(400);
    }
  });
});

describe('did you mean (issue 19)', () => {
  it('names the allowed parameter a misspelling is closest to, and nothing for a wild guess', async () => {
    const { didYouMean } = await import('../../contracts/common/errors.ts');
    const allowed = ['q', 'author', 'author_id', 'year_from', 'year_to', 'cited_min', 'lang', 'type', 'per_page'];
    expect(didYouMean('yer_from', allowed)).toBe('year_from');
    expect(didYouMean('year-to', allowed)).toBe('year_to');
    expect(didYouMean('YEAR_FROM', allowed)).toBe('year_from');
    expect(didYouMean('lnag', allowed)).toBe('lang');
    expect(didYouMean('perpage', allowed)).toBe('per_page');
    expect(didYouMean('citedmin', allowed)).toBe('cited_min');
    expect(didYouMean('test_debug', allowed)).toBeNull();
    expect(didYouMean('x', allowed)).toBeNull();
    expect(didYouMean('api_key', ['identifier', 'metric_version', 'use_registry', 'use_code_host'])).toBeNull();
  });

  it('is the message of an unknown parameter, with the full list kept in details', async () => {
    const { parseStrictQuery } = await import('../../contracts/common/query.ts');
    const { z } = await import('zod');
    const schema = z.object({ year_from: z.string().optional(), year_to: z.string().optional() }).strict();
    try {
      parseStrictQuery(schema, '/x?yer_from=2000');
      expect.unreachable();
    } catch (e) {
      const body = (e as { toBody(): { message: string; details: { did_you_mean?: string; allowed?: string[] }[] } }).toBody();
      expect(body.message).toBe('Unknown parameter "yer_from": did you mean "year_from"?');
      expect(body.details[0]).toMatchObject({ did_you_mean: 'year_from', allowed: ['year_from', 'year_to'] });
    }
  });
});
