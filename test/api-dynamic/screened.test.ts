import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../contracts/common/errors.ts';
import { appFor } from '../helpers/app.ts';
import { sharedFixture } from '../helpers/shared-fixture.ts';
import { type Row, readTable } from '../helpers/oracle.ts';

let h: Awaited<ReturnType<typeof appFor>>;
let screened: Row[] = [];

beforeAll(async () => {
  const { snapshot, out } = await sharedFixture();
  h = await appFor(out);
  screened = readTable(snapshot, 'screened.csv');
});
afterAll(async () => {
  await h?.close();
});

const get = async (qs: string) => h.app.inject(`/frame/api/v1/screened${qs}`);
/** The oracle's order: n_in descending, then work id. */
const ordered = (rows: Row[]) => [...rows].sort((a, b) => Number(b.n_in) - Number(a.n_in) || (a.work_id! < b.work_id! ? -1 : 1));

describe('/frame/api/v1/screened', () => {
  it('pages every row in n_in-then-id order with the default page size 25', async () => {
    const all = ordered(screened);
    const first = (await get('')).json();
    expect(first.meta.total).toBe(screened.length);
    expect(first.meta.per_page).toBe(25);
    expect(first.results.map((r: { id: string }) => r.id)).toEqual(all.slice(0, 25).map((r) => r.work_id));
    const third = (await get('?page=3&per_page=10')).json();
    expect(third.results.map((r: { id: string }) => r.id)).toEqual(all.slice(20, 30).map((r) => r.work_id));
    const row = first.results[0];
    const src = all[0]!;
    expect(row.model_b).toEqual({
      tier: src.model_b_tier,
      genre: src.model_b_genre || null,
      about_ca: src.model_b_about_ca === 'true',
      confidence: src.model_b_confidence,
      reasons: src.model_b_reason || null,
    });
    expect(row.weight).toBe(Number(src.weight));
  });

  it('filters compose: contested_only, n_in, stratum', async () => {
    for (const [qs, pred] of [
      ['?contested_only=1', (r: Row) => Number(r.n_in) >= 1],
      ['?n_in=0', (r: Row) => r.n_in === '0'],
      ['?stratum=french', (r: Row) => r.stratum === 'french'],
      ['?stratum=french&n_in=0', (r: Row) => r.stratum === 'french' && r.n_in === '0'],
    ] as const) {
      const body = (await get(`${qs}&per_page=100`)).json();
      const expected = ordered(screened.filter(pred));
      expect(body.meta.total, qs).toBe(expected.length);
      expect(
        body.results.map((r: { id: string }) => r.id),
        qs,
      ).toEqual(expected.slice(0, 100).map((r) => r.work_id));
    }
  });

  it('summarises the whole sample with design-weighted rates (Σ w·y / Σ w)', async () => {
    const s = (await get('?n_in=3')).json().meta.summary;
    const w = (r: Row) => Number(r.weight);
    const total = screened.reduce((a, r) => a + w(r), 0);
    const anyIn = screened.filter((r) => Number(r.n_in) >= 1);
    expect(s.n_screened).toBe(screened.length);
    expect(s.any_model_said_in).toBe(anyIn.length);
    expect(s.histogram.n_in_3).toBe(screened.filter((r) => r.n_in === '3').length);
    expect(s.weighted.population).toBeCloseTo(total, 2);
    expect(s.weighted.any_model_in_scope.rate).toBeCloseTo(anyIn.reduce((a, r) => a + w(r), 0) / total, 5);
    const unweighted = anyIn.length / screened.length;
    expect(Math.abs(s.weighted.any_model_in_scope.rate - unweighted)).toBeGreaterThan(0);
    expect(s.per_model_in_scope.map((m: { called_in: number }) => m.called_in)).toEqual(
      ['model_a', 'model_b', 'model_c'].map((m) => screened.filter((r) => ['T1', 'T2'].includes(r[`${m}_tier`]!)).length),
    );
  });

  it('gives 95% intervals for the two headline rates (stratified variance, Wilson at the effective sample size)', async () => {
    const s = (await get('')).json().meta.summary;
    // Oracle, from the rows: per stratum its frame size N_h (stratum_n), rows n_h and rows with the outcome.
    const oracle = (yes: (r: Row) => boolean) => {
      const byStratum = new Map<string, { N: number; n: number; k: number }>();
      for (const r of screened) {
        const e = byStratum.get(r.stratum!) ?? { N: Number(r.stratum_n), n: 0, k: 0 };
        e.n += 1;
        if (yes(r)) e.k += 1;
        byStratum.set(r.stratum!, e);
      }
      const parts = [...byStratum.values()];
      const N = parts.reduce((a, e) => a + e.N, 0);
      const p = parts.reduce((a, e) => a + (e.N / N) * (e.k / e.n), 0);
      const V = parts.reduce((a, e) => (e.n < 2 ? a : a + ((e.N / N) ** 2 * (1 - e.n / e.N) * ((e.k / e.n) * (1 - e.k / e.n))) / (e.n - 1)), 0);
      const n = V > 0 && p > 0 && p < 1 ? (p * (1 - p)) / V : screened.length;
      const z = 1.959964;
      const mid = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
      const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
      return { p, low: Math.max(0, mid - half), high: Math.min(1, mid + half), N };
    };
    for (const [key, yes] of [
      ['any_model_in_scope', (r: Row) => Number(r.n_in) >= 1],
      ['all_three_in_scope', (r: Row) => r.n_in === '3'],
    ] as const) {
      const o = oracle(yes);
      const got = s.weighted[key];
      expect(got.rate, key).toBeCloseTo(o.p, 5);
      expect(got.interval_95.rate_low, key).toBeCloseTo(o.low, 5);
      expect(got.interval_95.rate_high, key).toBeCloseTo(o.high, 5);
      expect(got.interval_95.rate_low).toBeLessThanOrEqual(got.rate);
      expect(got.interval_95.rate_high).toBeGreaterThanOrEqual(got.rate);
      expect(got.interval_95.estimate_low, key).toBeCloseTo(o.low * s.weighted.population, 0);
      expect(got.interval_95.estimate_high, key).toBeCloseTo(o.high * s.weighted.population, 0);
    }
  });

  it('rejects bad parameters with the shared error body', async () => {
    for (const qs of [
      '?n_in=4',
      '?n_in=1.5',
      '?per_page=101',
      '?per_page=0',
      '?page=-1',
      '?stratum=nowhere',
      '?contested_only=false',
      '?contested_only=1&n_in=0',
      '?n_in=1&n_in=2',
    ]) {
      const res = await get(qs);
      expect(res.statusCode, qs).toBe(400);
      expect(errorBodySchema.parse(res.json()).code, qs).toBe('INVALID_PARAMETER');
    }
    const unknown = await get('?sort=year');
    expect(errorBodySchema.parse(unknown.json()).code).toBe('UNKNOWN_PARAMETER');
  });

  it('carries a strong ETag and 304s on it', async () => {
    const res = await get('?stratum=french');
    const again = await h.app.inject({ url: '/frame/api/v1/screened?stratum=french', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect((await get('?stratum=aff_core')).headers.etag).not.toBe(res.headers.etag);
  });
});
