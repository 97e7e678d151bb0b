/**
 * F-UJI itself as the oracle: every recording of ../shared/reference/fair-fixtures assessed by the engine with
 * metrics_v0.5, metrics_v0.8 and metrics_v0.7_software, compared test by test (pass or fail, score, maturity) with
 * F-UJI's own outcome on the same recorded answers, stored in test/fixtures/fuji-outcomes (SOURCES.md there says
 * how they were produced, and from which F-UJI commit). A difference fails unless DELIBERATE lists it with its
 * reason; a listed difference that no longer differs fails too, so the list stays true.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssessmentResult, SummaryGroup } from '../../../../contracts/fair/assessment.ts';
import { assess } from '../../../../api-dynamic/src/services/fair/engine/assess.ts';
import { fujiRepositoryRoutes, githubRoutes, replayRoutes, startFairMock, type FairMock, type MockRoute } from '../../../helpers/fair-mock-resolver.ts';
import { plainFetcher } from '../../../helpers/fair-plain-fetcher.ts';
import { needShared } from '../../../helpers/needs.ts';

const haveFixtures = needShared('reference/fair-fixtures', 'the F-UJI agreement tests');

const OUTCOMES = path.resolve(import.meta.dirname, '../../../fixtures/fuji-outcomes');

interface FujiTest {
  id: string;
  status: 'pass' | 'fail';
  score: number;
  maturity: number;
}
interface FujiOutcome {
  recording: string;
  metricVersion: string;
  metrics: { id: string; score: number; maturity: number; tests: FujiTest[] }[];
  summary: Record<'score_earned' | 'score_total' | 'maturity', Record<string, number>>;
}

type Recording = 'pangaea_902845' | 'zenodo_8347772' | 'github_fuji';
const VERSIONS = ['metrics_v0.5', 'metrics_v0.8', 'metrics_v0.7_software'] as const;

/**
 * F-UJI bugs at the stored commit that the engine does not copy (fuji_server paths; docs/fair-engine.md):
 * - REFUSED: the software metric file lists `allowed_harvesting_methods`; fair_check.py turns them into
 *   MetadataOfferingMethods members, and metadata_harvester.py's is_harvesting_method_allowed looks an acronym
 *   string up in that list of members, which never matches: F-UJI reads no metadata at all (no embedded, microdata,
 *   typed or Signposting links, no content negotiation) under metrics_v0.7_software.
 * - OVERWRITTEN: fair_evaluator_requirements.py scanForKeywords assigns each location's result over the previous
 *   one, so keywords found in README are forgotten when the docs folder's file names (read without content) come
 *   next; the test asks for the keywords in any location.
 */
const REFUSED = 'F-UJI refuses every harvesting method under the software metrics (allowed-methods lookup bug)';
const OVERWRITTEN = 'F-UJI forgets README hits when a later location has none (scanForKeywords bug)';

/** `<recording> <version> <metric or test id>` → why the engine deliberately differs from F-UJI there. */
const DELIBERATE: Record<string, string> = Object.fromEntries(
  (
    [
      [
        'pangaea_902845',
        [
          'FRSM-04-F2',
          'FRSM-04-F2-2',
          'FRSM-06-F2',
          'FRSM-06-F2-1',
          'FRSM-07-F3',
          'FRSM-07-F3-1',
          'FRSM-09-A1',
          'FRSM-09-A1-1',
          'FRSM-12-I2',
          'FRSM-12-I2-1',
          'FRSM-16-R1.1',
          'FRSM-16-R1.1-1',
          'FRSM-16-R1.1-2',
        ],
        REFUSED,
      ],
      [
        'zenodo_8347772',
        ['FRSM-04-F2', 'FRSM-04-F2-2', 'FRSM-06-F2', 'FRSM-06-F2-1', 'FRSM-12-I2', 'FRSM-12-I2-1', 'FRSM-16-R1.1', 'FRSM-16-R1.1-1', 'FRSM-16-R1.1-2'],
        REFUSED,
      ],
      ['github_fuji', ['FRSM-06-F2', 'FRSM-06-F2-1'], REFUSED],
      ['github_fuji', ['FRSM-13-R1', 'FRSM-13-R1-1'], OVERWRITTEN],
    ] as const
  ).flatMap(([recording, ids, reason]) => ids.map((id) => [`${recording} metrics_v0.7_software ${id}`, reason])),
);

const zip = (url: string): MockRoute => ({ path: url, headers: { 'content-type': 'application/zip' }, body: 'PK\u0003\u0004' });

/** The mock routes and assessment of each recording: the same answers F-UJI was given (SOURCES.md). */
const RECORDINGS: Record<Recording, { routes: (base: string) => MockRoute[]; identifier: (base: string) => string; useCodeHost: boolean }> = {
  pangaea_902845: {
    routes: (base) => [...replayRoutes('pangaea', base), zip('/doi.pangaea.de/10.1594/PANGAEA.902845?format=zip')],
    identifier: () => 'https://doi.org/10.1594/PANGAEA.902845',
    useCodeHost: false,
  },
  zenodo_8347772: {
    routes: (base) => [...replayRoutes('zenodo', base), ...githubRoutes(base), zip('/zenodo.org/record/8347772/files/pangaea-data-publisher/fuji-v2.2.5.zip')],
    identifier: () => 'https://doi.org/10.5281/zenodo.8347772',
    useCodeHost: false,
  },
  github_fuji: {
    routes: (base) => [
      ...fujiRepositoryRoutes(base),
      // the workflow files F-UJI's patterns ask for, listed but not recorded: empty file objects for both
      ...['ci.yml', 'publish-docker.yml', 'reports.yml'].map((name) => ({
        path: `/api.github.com/repos/pangaea-data-publisher/fuji/contents/.github/workflows/${name}?ref=master`,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ type: 'file', name, path: `.github/workflows/${name}`, content: '', encoding: 'base64' }),
      })),
    ],
    identifier: (base) => `${base}/github.com/pangaea-data-publisher/fuji`,
    useCodeHost: true,
  },
};

const outcome = (recording: Recording, version: string): FujiOutcome =>
  JSON.parse(readFileSync(path.join(OUTCOMES, `${recording}.${version}.json`), 'utf8')) as FujiOutcome;

/**
 * Every test and metric where the engine and F-UJI disagree, as `<recording> <version> <id>` → what each said
 * (pass or fail, score/maturity; F-UJI leaves the maturity of a test that has none in its file empty: 0 here).
 */
function differences(recording: Recording, version: string, result: AssessmentResult): Map<string, string> {
  const ours = new Map(result.details.metrics.flatMap((m) => m.tests).map((t) => [t.id, t]));
  const out = new Map<string, string>();
  const fujiMetrics = outcome(recording, version).metrics;
  for (const fuji of fujiMetrics) {
    const mine = result.metrics.find((m) => m.id === fuji.id);
    const theirs = `${fuji.score}/${fuji.maturity}`;
    const got = mine ? `${mine.scoreEarned}/${mine.maturity}` : 'absent';
    if (got !== theirs) out.set(`${recording} ${version} ${fuji.id}`, `F-UJI metric ${theirs}, engine ${got}`);
  }
  for (const fuji of fujiMetrics.flatMap((m) => m.tests)) {
    const mine = ours.get(fuji.id);
    ours.delete(fuji.id);
    const theirs = `${fuji.status} ${fuji.score}/${fuji.maturity ?? 0}`;
    const got = mine ? `${mine.status} ${mine.scoreEarned}/${mine.maturity}` : 'absent';
    if (got !== theirs) out.set(`${recording} ${version} ${fuji.id}`, `F-UJI ${theirs}, engine ${got}${mine ? ` (${mine.reason})` : ''}`);
  }
  for (const id of ours.keys()) out.set(`${recording} ${version} ${id}`, "not in F-UJI's outcome");
  return out;
}

describe.skipIf(!haveFixtures).each(Object.keys(RECORDINGS) as Recording[])('agreement with F-UJI: %s', (recording) => {
  let mock: FairMock;
  const results = new Map<string, AssessmentResult>();
  beforeAll(async () => {
    mock = await startFairMock();
    mock.route(...RECORDINGS[recording].routes(mock.base));
    for (const version of VERSIONS) {
      results.set(
        version,
        await assess(
          RECORDINGS[recording].identifier(mock.base),
          { metricVersion: version, useCodeHost: RECORDINGS[recording].useCodeHost, upstreams: mock.upstreams() },
          { fetcher: plainFetcher({ loopbackOnly: true, timeoutMs: 2000 }) },
        ),
      );
    }
  });
  afterAll(async () => mock?.close());

  it.each(VERSIONS)('%s: every test as F-UJI decided, or a listed deliberate difference', (version) => {
    const found = differences(recording, version, results.get(version)!);
    const ids = new Set(outcome(recording, version).metrics.flatMap((m) => m.tests.map((t) => `${recording} ${version} ${t.id}`)));
    const agreeing = ids.size - [...found.keys()].filter((k) => ids.has(k)).length;
    console.log(
      `F-UJI agreement ${recording} ${version}: ${agreeing}/${ids.size} tests equal, ${[...found.keys()].filter((k) => ids.has(k) && DELIBERATE[k]).length} deliberate differences; engine ${results.get(version)!.summary.scoreEarned}/${results.get(version)!.summary.scoreTotal}, F-UJI ${outcome(recording, version).summary.score_earned.FAIR}`,
    );
    const unexplained = Object.fromEntries([...found].filter(([k]) => !DELIBERATE[k]));
    expect(unexplained).toEqual({});
    // with no deliberate difference, the summary is F-UJI's too: earned, total and maturity of each category and FAIR
    if (![...found.keys()].some((k) => DELIBERATE[k])) {
      const { summary } = outcome(recording, version);
      const { FAIR, categories } = results.get(version)!.details.summary;
      const groups: [string, SummaryGroup][] = [['FAIR', FAIR], ...Object.entries(categories)];
      const ours = Object.fromEntries(groups.map(([k, g]) => [k, [g.scoreEarned, g.scoreTotal, g.maturity]]));
      expect(ours).toEqual(
        Object.fromEntries(['FAIR', 'F', 'A', 'I', 'R'].map((k) => [k, [summary.score_earned[k], summary.score_total[k], summary.maturity[k]]])),
      );
    }
    const stale = Object.keys(DELIBERATE).filter((k) => k.startsWith(`${recording} ${version} `) && !found.has(k));
    expect(stale).toEqual([]);
  });
});
