/**
 * The FAIR page's address → the /assess request body (site/src/lib/fair/assess-query.ts), without a server:
 * the four parameters map onto the body's fields, absent ones are left to the API's defaults, the last of a
 * checkbox's values wins (the hidden "false" before it), and anything else is the shared 400.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../contracts/common/errors.ts';
import { DEFAULT_FORM, looseFormState, readAssessQuery } from '../../site/src/lib/fair/assess-query.ts';
import { duration, maturityWords, metricVersionsOf } from '../../site/src/lib/fair/labels.ts';

const read = (qs: string) => readAssessQuery(`/fair/assess?${qs}`);

describe('readAssessQuery', () => {
  it('sends only the identifier when nothing else is given, so the API applies its defaults', () => {
    expect(read('identifier=10.1594%2FPANGAEA.902845')).toEqual({
      body: { identifier: '10.1594/PANGAEA.902845' },
      state: { ...DEFAULT_FORM, identifier: '10.1594/PANGAEA.902845' },
    });
  });

  it('reads the form as submitted: hidden false then the ticked true', () => {
    const q = read('identifier=x&metric_version=metrics_v0.5&use_registry=false&use_registry=true&use_code_host=false');
    expect(q.body).toEqual({ identifier: 'x', options: { metric_version: 'metrics_v0.5', use_registry: true, use_code_host: false } });
    expect(q.state).toEqual({ identifier: 'x', metric_version: 'metrics_v0.5', use_registry: true, use_code_host: false });
    expect(read('identifier=x&use_registry=false').body.options).toEqual({ use_registry: false });
  });

  it('passes an empty identifier and an unknown metric version on for the API to judge', () => {
    expect(read('identifier=&metric_version=').body).toEqual({ identifier: '' });
    expect(read('identifier=x&metric_version=metrics_v0.7').body).toEqual({ identifier: 'x', options: { metric_version: 'metrics_v0.7' } });
    expect(read('metric_version=0.8').body).toEqual({ options: { metric_version: '0.8' } });
  });

  it('refuses parameters the page does not take, repeats, and flags other than true/false with the shared 400', () => {
    const cases: [string, string, RegExp][] = [
      [
        'identifier=x&test_debug=1',
        'UNKNOWN_PARAMETER',
        /Unknown parameter "test_debug"\. Allowed parameters: identifier, metric_version, use_registry, use_code_host\./,
      ],
      ['identifier=x&identifier=y', 'INVALID_PARAMETER', /"identifier" may be given only once/],
      ['identifier=x&use_code_host=yes', 'INVALID_PARAMETER', /use_code_host.*must be true or false/],
    ];
    for (const [qs, code, message] of cases) {
      let error: unknown;
      try {
        read(qs);
      } catch (e) {
        error = e;
      }
      expect(error, qs).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe(code);
      expect((error as ApiError).status).toBe(400);
      expect((error as ApiError).message).toMatch(message);
    }
    expect(read('identifier=x&_=123').body).toEqual({ identifier: 'x' });
  });

  it('refills a refused form as far as it can be read', () => {
    expect(looseFormState(new URLSearchParams('identifier=abc&use_registry=false&use_code_host=false&use_code_host=true&bogus=1'))).toEqual({
      identifier: 'abc',
      metric_version: DEFAULT_FORM.metric_version,
      use_registry: false,
      use_code_host: true,
    });
  });
});

describe('FAIR words', () => {
  it('names maturity levels and durations', () => {
    expect(maturityWords(3)).toBe('advanced (3)');
    expect(maturityWords(0)).toBe('incomplete (0)');
    expect(maturityWords(2.75)).toBe('2.75 of 3');
    expect(duration(3600)).toBe('1 h');
    expect(duration(125)).toBe('2 min 5 s');
    expect(duration(0)).toBe('0 s');
    expect(duration(0.2)).toBe('0 s');
  });

  it('reads the accepted metric versions from the OpenAPI document, the default first', () => {
    const doc = {
      paths: {
        '/fair/api/v1/assess': {
          post: {
            requestBody: {
              content: {
                'application/json': { schema: { properties: { options: { properties: { metric_version: { examples: ['metrics_v0.5', 'metrics_v0.8'] } } } } } },
              },
            },
          },
        },
      },
    };
    expect(metricVersionsOf(doc, '/fair/api/v1/assess')).toEqual(['metrics_v0.8', 'metrics_v0.5']);
    expect(metricVersionsOf(null, '/fair/api/v1/assess')).toEqual(['metrics_v0.8']);
  });
});
