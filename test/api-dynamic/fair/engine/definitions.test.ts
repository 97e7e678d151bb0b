/** The metric definition files: shape, counts and totals (fair.md §1.2, §1.5), evaluators, version names. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { UnknownMetricVersionError } from '../../../../api-dynamic/src/services/fair/engine/errors.ts';
import { evaluatorFor } from '../../../../api-dynamic/src/services/fair/engine/metrics/index.ts';
import { canonicalMetricVersion, METRIC_FILES, METRIC_VERSIONS, metricFile } from '../../../../api-dynamic/src/services/fair/metrics/load.ts';
import { needShared, sharedPath } from '../../../helpers/needs.ts';

const totalsBy = (version: string) => {
  const totals: Record<string, number> = {};
  for (const metric of metricFile(version).metrics) totals[metric.principle[0]!] = (totals[metric.principle[0]!] ?? 0) + metric.total;
  return totals;
};

describe('metric files', () => {
  it('v0.8: 17 metrics, 26 points, F 7 / A 7 / I 6 / R 6, FsF-F1-01MD … FsF-R1.3-02D', () => {
    const file = metricFile('metrics_v0.8');
    expect(file.metrics).toHaveLength(17);
    expect(file.metrics.reduce((s, m) => s + m.total, 0)).toBe(26);
    expect(totalsBy('metrics_v0.8')).toEqual({ F: 7, A: 7, I: 6, R: 6 });
    expect(file.metrics[0]!.id).toBe('FsF-F1-01MD');
    expect(file.metrics.at(-1)!.id).toBe('FsF-R1.3-02D');
    expect(file.specification).toBe('https://doi.org/10.5281/zenodo.15045911');
  });

  it('v0.8 has the tests fair.md lists, with their scores and maturities', () => {
    const tests = metricFile('0.8').metrics.flatMap((m) => m.tests.map((t) => `${t.id} ${t.score}/${t.maturity}`));
    expect(tests).toEqual([
      'FsF-F1-01MD-1 1/3',
      'FsF-F1-01MD-2 0/3',
      'FsF-F1-02MD-1 0.5/1',
      'FsF-F1-02MD-2 0.5/3',
      'FsF-F1-02MD-4 0/3',
      'FsF-F1-02MD-5 0/3',
      'FsF-F2-01M-2 1/2',
      'FsF-F2-01M-3 1/3',
      'FsF-F3-01M-2 1/3',
      'FsF-F4-01M-1 2/3',
      'FsF-A1-01M-1 1/3',
      'FsF-A1-02MD-1 1/3',
      'FsF-A1-02MD-2 1/3',
      'FsF-A1.1-01MD-1 1/3',
      'FsF-A1.1-01MD-2 1/3',
      'FsF-A1.2-01MD-1 1/3',
      'FsF-A1.2-01MD-2 1/3',
      'FsF-I1-01M-1 2/2',
      'FsF-I1-01M-2 2/3',
      'FsF-I2-01M-2 2/3',
      'FsF-I3-01M-1 2/2',
      'FsF-I3-01M-2 2/3',
      'FsF-R1-01M-1 1/1',
      'FsF-R1-01M-2 1/3',
      'FsF-R1-01M-3 0/3',
      'FsF-R1.1-01M-1 1/3',
      'FsF-R1.2-01M-1 1/2',
      'FsF-R1.2-01M-2 1/3',
      'FsF-R1.3-01M-1 1/3',
      'FsF-R1.3-01M-3 1/1',
      'FsF-R1.3-02D-1 1/3',
    ]);
  });

  it('v0.5: 16 metrics, 24 points, F 7 / A 3 / I 4 / R 10', () => {
    const file = metricFile('metrics_v0.5');
    expect(file.metrics).toHaveLength(16);
    expect(file.metrics.reduce((s, m) => s + m.total, 0)).toBe(24);
    expect(totalsBy('metrics_v0.5')).toEqual({ F: 7, A: 3, I: 4, R: 10 });
  });

  // F-UJI's own metric files are the oracle for ids, numbers, totals, scores and maturities.
  const FUJI = sharedPath('reference/fair-fixtures');
  const haveFuji = needShared('reference/fair-fixtures/fuji_metrics_v0.5.yaml', "the comparison with F-UJI's metric files");
  it.skipIf(!haveFuji).each(['0.8', '0.5'])("v%s matches F-UJI's metrics_v%s.yaml test by test", (version) => {
    type FujiMetric = {
      metric_identifier: string;
      metric_number: number;
      total_score: number;
      metric_tests: { metric_test_identifier: string; metric_test_score: number; metric_test_maturity?: number }[];
    };
    const fuji = (parseYaml(readFileSync(`${FUJI}/fuji_metrics_v${version}.yaml`, 'utf8')) as { metrics: FujiMetric[] }).metrics;
    // A test without a maturity in F-UJI's file (v0.5 R1.3-02D-1 and the 0-point R1-01MD sub-tests) is maturity 0
    // here: R1.3-02D-1's sub-tests set the metric's maturity.
    const byNumber = (a: { number: number }, b: { number: number }) => a.number - b.number;
    const theirs = fuji.map((m) => ({
      id: m.metric_identifier,
      number: m.metric_number,
      total: m.total_score,
      tests: m.metric_tests.map((t) => `${t.metric_test_identifier} ${t.metric_test_score}/${t.metric_test_maturity ?? 0}`),
    }));
    const ours = metricFile(version).metrics.map((m) => ({
      id: m.id,
      number: m.number,
      total: m.total,
      tests: m.tests.map((t) => `${t.id} ${t.score}/${t.maturity}`),
    }));
    // F-UJI's v0.5 file lists A1-03D (number 8) before A1-02M (7); results are sorted by number
    expect(ours.sort(byNumber)).toEqual(theirs.sort(byNumber));
  });

  it('every test of every file has an evaluator', () => {
    for (const file of METRIC_FILES.values()) {
      for (const test of file.metrics.flatMap((m) => m.tests)) expect(evaluatorFor(file.version, test.id), test.id).toBeTypeOf('function');
    }
  });
});

describe('metric version names', () => {
  it.each(['metrics_v0.8', '0.8', 'metrics_v0.8.yaml', ' metrics_v0.8 '])('%j selects metrics_v0.8', (name) => {
    expect(canonicalMetricVersion(name)).toBe('metrics_v0.8');
  });

  it('0.5 selects metrics_v0.5; accepted versions: data versions newest first, then the software version', () => {
    expect(canonicalMetricVersion('0.5')).toBe('metrics_v0.5');
    expect(METRIC_VERSIONS).toEqual(['metrics_v0.8', 'metrics_v0.5', 'metrics_v0.7_software']);
  });

  it.each(['metrics_v0.7_software', '0.7_software', 'metrics_v0.7_software.yaml', 'METRICS_V0.7_SOFTWARE', ' 0.7_software.json '])(
    '%j selects metrics_v0.7_software',
    (name) => {
      expect(canonicalMetricVersion(name)).toBe('metrics_v0.7_software');
      expect(metricFile(name).target).toBe('software');
    },
  );

  it.each(['metrics_v0.7', '0.8_software', '0.7_softwares', 'latest', ''])('%j is unknown: a typed error listing the accepted versions', (name) => {
    expect(() => metricFile(name)).toThrow(UnknownMetricVersionError);
    expect(() => metricFile(name)).toThrow('accepted: metrics_v0.8, metrics_v0.5, metrics_v0.7_software');
  });
});
