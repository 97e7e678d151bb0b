/**
 * Every test of metrics_v0.7_software, passing and failing, over hand-made evidence, with the expectation taken
 * from F-UJI's evaluator of that test (fuji_server/evaluators at 3215372; docs/fair-engine.md "Software metrics"):
 * - tests F-UJI evaluates with a data test's code pass and fail as that data test does;
 * - FRSM-13 and FRSM-15 follow the requirements and licence-file evaluators over the repository's files;
 * - tests F-UJI declares "not implemented" have no passing case: they fail even on evidence rich enough to pass
 *   any reasonable reading, and the reason says so.
 * Also: the sorting of repository paths into F-UJI's file kinds (software_file.yaml), by hand from its patterns.
 */
import { describe, expect, it } from 'vitest';
import { codeHostSchema, type CodeFile, type Evidence } from '../../../../contracts/fair/evidence.ts';
import { deriveFacts } from '../../../../api-dynamic/src/services/fair/engine/metrics/facts.ts';
import { EVALUATORS, evaluatorFor } from '../../../../api-dynamic/src/services/fair/engine/metrics/index.ts';
import { keywordsIn, softwareFileKind } from '../../../../api-dynamic/src/services/fair/engine/vocab/software-files.ts';
import { METRIC_FILES } from '../../../../api-dynamic/src/services/fair/metrics/load.ts';
import { bareEvidence, dataLink, doiEvidence } from './evidence-fixture.ts';

type Case = { name: string; make: () => Evidence };

const file = (kind: CodeFile['kind'], path: string, keywords: string[] = [], read = true): CodeFile => ({
  kind,
  path,
  name: path.split('/').at(-1)!,
  read,
  keywords,
});

/** Bare evidence plus a harvested GitHub repository with these files (and licence fields). */
const repo =
  (files: CodeFile[] | null, patch: Partial<Evidence['codeHost'] & object> = {}, base: () => Evidence = bareEvidence) =>
  (): Evidence => {
    const e = base();
    e.codeHost = codeHostSchema.parse({
      repository: 'https://github.com/example-org/tool',
      fullName: 'example-org/tool',
      description: 'A tool',
      licenseSpdx: null,
      licenseName: null,
      topics: [],
      language: 'Python',
      files,
      ...patch,
    });
    return e;
  };
const withMeta =
  (patch: Partial<Evidence['metadata']>, base: () => Evidence = bareEvidence) =>
  () => {
    const e = base();
    Object.assign(e.metadata, patch);
    return e;
  };

const bare: Case = { name: 'nothing found, no repository', make: bareEvidence };
const unwalked: Case = { name: 'a repository whose files were not walked', make: repo(null) };

/** Evidence that has everything a software repository could show: used to prove "not implemented" tests never pass. */
const rich: Case = {
  name: 'a DOI with full metadata, related resources, data links and a repository with every kind of file',
  make: repo(
    [
      file('README', 'README.md', ['build', 'install', 'run', 'deploy']),
      file('dependencies', 'requirements.txt', [], false),
      file('github_actions', '.github/workflows/ci.yml', ['build', 'deploy']),
      file('license_file', 'LICENSE'),
      file('maven_pom', 'pom.xml', ['build']),
    ],
    { licenseName: 'MIT License', licensePath: 'LICENSE', licenseSpdx: 'MIT' },
    withMeta(
      {
        creator: ['Doe, Jane'],
        contributor: ['Roe, Richard'],
        title: 'A tool',
        summary: 'Does things',
        keywords: ['software'],
        publication_date: '2024',
        publisher: ['Zenodo'],
        object_identifier: ['https://doi.org/10.1234/tool'],
        object_type: ['SoftwareSourceCode'],
        version: '1.2.3',
        license: ['MIT'],
        related_resources: [{ related_resource: 'https://doi.org/10.1234/paper', relation_type: 'IsDescribedBy' }],
      },
      doiEvidence,
    ),
  ),
};

const NOT_IMPLEMENTED = [
  'FRSM-01-F1-1',
  'FRSM-01-F1-2',
  'FRSM-01-F1-3',
  'FRSM-02-F1.1-1',
  'FRSM-02-F1.1-2',
  'FRSM-02-F1.1-3',
  'FRSM-03-F1.2-1',
  'FRSM-03-F1.2-2',
  'FRSM-03-F1.2-3',
  'FRSM-04-F2-1',
  'FRSM-04-F2-3',
  'FRSM-05-R1-1',
  'FRSM-05-R1-2',
  'FRSM-05-R1-3',
  'FRSM-06-F2-2',
  'FRSM-06-F2-3',
  'FRSM-07-F3-2',
  'FRSM-08-F4-2',
  'FRSM-08-F4-3',
  'FRSM-09-A1-2',
  'FRSM-10-I1-1',
  'FRSM-10-I1-2',
  'FRSM-10-I1-3',
  'FRSM-11-I1-1',
  'FRSM-11-I1-2',
  'FRSM-11-I1-3',
  'FRSM-14-R1-1',
  'FRSM-14-R1-2',
  'FRSM-14-R1-3',
  'FRSM-15-R1.1-2',
  'FRSM-17-R1.2-1',
  'FRSM-17-R1.2-2',
  'FRSM-17-R1.2-3',
];

const fullCitation = {
  creator: ['Doe, Jane'],
  title: 'A tool',
  object_identifier: ['https://doi.org/10.1/x'],
  publication_date: '2024',
  publisher: ['Zenodo'],
  object_type: ['SoftwareSourceCode'],
};

const CASES: Record<string, { pass: Case[]; fail: Case[] }> = {
  // F-UJI: testCoreDescriptiveMetadataAvailable, the FsF-F2-01M-3 code (citation elements plus summary and keywords)
  'FRSM-04-F2-2': {
    pass: [{ name: 'citation elements, summary and keywords', make: withMeta({ ...fullCitation, summary: 'Does things', keywords: ['software'] }) }],
    fail: [bare, { name: 'no keywords', make: withMeta({ ...fullCitation, summary: 'Does things' }) }],
  },
  // testProvenanceMetadataAvailable (FsF-R1.2-01M-1): any PROV-mappable element
  'FRSM-06-F2-1': { pass: [{ name: 'a creator', make: withMeta({ creator: ['Doe, Jane'] }) }], fail: [bare] },
  // testDataUrlOrPIDAvailable (FsF-F3-01M-2): a content link with a URL
  'FRSM-07-F3-1': {
    pass: [
      {
        name: 'a content link',
        make: withMeta({ object_content_identifier: [{ url: 'https://repo.example/tool.zip', type: null, size: null, source: 'schemaorg' }] }),
      },
    ],
    fail: [bare],
  },
  // testPreservationGuaranteed: pid_scheme in ['doi']
  'FRSM-08-F4-1': {
    pass: [{ name: 'a DOI', make: doiEvidence }],
    fail: [
      { name: 'a URL', make: bareEvidence },
      {
        name: 'a Handle',
        make: () => {
          const e = bareEvidence();
          e.identifier = {
            input: '11234/5',
            normalized: 'https://hdl.handle.net/11234/5',
            scheme: 'handle',
            schemes: ['handle'],
            persistent: true,
            url: 'https://hdl.handle.net/11234/5',
          };
          return e;
        },
      },
    ],
  },
  // testStandardProtocolDataUsed (FsF-A1-03D-1): a data link over a standard protocol
  'FRSM-09-A1-1': {
    pass: [{ name: 'an https data link', make: () => Object.assign(bareEvidence(), { dataLinks: [dataLink({})] }) }],
    fail: [
      bare,
      {
        name: 'a data link over an unknown scheme',
        make: () => Object.assign(bareEvidence(), { dataLinks: [dataLink({ url: 'gopher-x://repo.example/data', scheme: 'gopher-x' })] }),
      },
    ],
  },
  // testRelatedResourcesMachineReadable (FsF-I3-01M-2): a related resource given as URL or PID
  'FRSM-12-I2-1': {
    pass: [
      { name: 'a related DOI', make: withMeta({ related_resources: [{ related_resource: 'https://doi.org/10.1/paper', relation_type: 'IsDescribedBy' }] }) },
    ],
    fail: [
      bare,
      {
        name: 'a related resource in text only',
        make: withMeta({ related_resources: [{ related_resource: 'the paper by Doe', relation_type: 'IsDescribedBy' }] }),
      },
    ],
  },
  // testInstructions: any of build/install/run in README or docs_directory files
  'FRSM-13-R1-1': {
    pass: [
      { name: '"install" in the README', make: repo([file('README', 'README.md', ['install'])]) },
      { name: '"build" in the name of a docs file', make: repo([file('docs_directory', 'docs/build.txt', ['build'], false)]) },
      // F-UJI lets a later location overwrite an earlier one's hit (a deliberate difference: docs/fair-engine.md)
      {
        name: 'a README hit and a docs directory without keywords',
        make: repo([file('README', 'README.md', ['run']), file('docs_directory', 'docs/flow.vsdx', [], false)]),
      },
    ],
    fail: [
      bare,
      unwalked,
      { name: 'a README without the keywords', make: repo([file('README', 'README.md', [])]) },
      {
        name: 'the keywords only in a workflow',
        make: repo([file('README', 'README.md', []), file('github_actions', '.github/workflows/ci.yml', ['build', 'run'])]),
      },
      { name: 'no README at all', make: repo([file('license_file', 'LICENSE')]) },
    ],
  },
  // testDependencies: requirements.txt, and build AND deploy in Jenkinsfile / GitHub Actions
  'FRSM-13-R1-2': {
    pass: [
      {
        name: 'requirements.txt and a workflow with build and deploy',
        make: repo([file('dependencies', 'requirements.txt', [], false), file('github_actions', '.github/workflows/ci.yml', ['build', 'deploy'])]),
      },
      {
        name: 'build in a Jenkinsfile, deploy in a workflow',
        make: repo([
          file('dependencies', 'requirements.txt', [], false),
          file('Jenkinsfile', 'Jenkinsfile', ['build']),
          file('github_actions', '.github/workflows/release.yml', ['deploy']),
        ]),
      },
    ],
    fail: [
      bare,
      unwalked,
      { name: 'no requirements.txt', make: repo([file('github_actions', '.github/workflows/ci.yml', ['build', 'deploy'])]) },
      { name: 'no deploy', make: repo([file('dependencies', 'requirements.txt', [], false), file('github_actions', '.github/workflows/ci.yml', ['build'])]) },
      {
        name: 'build and deploy only in the README',
        make: repo([file('dependencies', 'requirements.txt', [], false), file('README', 'README.md', ['build', 'deploy'])]),
      },
    ],
  },
  // testLicenseFileAvailable: any license_file
  'FRSM-15-R1.1-1': {
    pass: [
      { name: 'LICENSE', make: repo([file('license_file', 'LICENSE')]) },
      { name: 'a COPYING file in a subdirectory', make: repo([file('license_file', 'lib/COPYING')]) },
    ],
    fail: [bare, unwalked, { name: 'only a README', make: repo([file('README', 'README.md')]) }],
  },
  // testLicenseIsValidAndSPDXRegistered (licence-file evaluator): GitHub's licence, read from one of the licence files, named as an SPDX licence
  'FRSM-15-R1.1-3': {
    pass: [
      { name: 'MIT License read from LICENSE', make: repo([file('license_file', 'LICENSE')], { licenseName: 'MIT License', licensePath: 'LICENSE' }) },
      {
        name: 'Apache License 2.0 read from LICENSE.txt',
        make: repo([file('license_file', 'LICENSE.txt')], { licenseName: 'Apache License 2.0', licensePath: 'LICENSE.txt' }),
      },
    ],
    fail: [
      bare,
      { name: 'no licence detected by GitHub', make: repo([file('license_file', 'LICENSE')]) },
      {
        name: 'GitHub read a file that is not among the licence files',
        make: repo([file('license_file', 'LICENSE')], { licenseName: 'MIT License', licensePath: 'README.md' }),
      },
      { name: 'GitHub calls it "Other"', make: repo([file('license_file', 'LICENSE')], { licenseName: 'Other', licensePath: 'LICENSE' }) },
    ],
  },
  // testLicenseMetadataElementAvailable (FsF-R1.1-01M-1), GitHub's licence name when the metadata has none
  'FRSM-16-R1.1-1': {
    pass: [
      { name: 'a licence in the metadata', make: withMeta({ license: ['https://example.org/our-terms'] }) },
      { name: 'no metadata licence, GitHub names one', make: repo([], { licenseName: 'MIT License' }) },
    ],
    fail: [bare, { name: 'a repository without a licence', make: repo([]) }],
  },
  // testLicenseIsValidAndSPDXRegistered (FsF-R1.1-01M-2): one licence is on the SPDX list
  'FRSM-16-R1.1-2': {
    pass: [
      { name: 'SPDX id in the metadata', make: withMeta({ license: ['MIT'] }) },
      { name: 'no metadata licence, GitHub names an SPDX licence', make: repo([], { licenseName: 'GNU General Public License v3.0' }) },
    ],
    fail: [bare, { name: 'a licence not on the SPDX list', make: withMeta({ license: ['Our own terms of use'] }) }],
  },
};
for (const id of NOT_IMPLEMENTED) CASES[id] = { pass: [], fail: [bare, rich] };

const SOFTWARE = METRIC_FILES.get('metrics_v0.7_software')!;
const run = (id: string, evidence: Evidence) => evaluatorFor(SOFTWARE.version, id)!(deriveFacts(evidence));

describe('metrics_v0.7_software: every test has cases', () => {
  it('covers every FRSM test, and only those are software evaluators', () => {
    const ids = SOFTWARE.metrics.flatMap((m) => m.tests.map((t) => t.id));
    expect(ids).toHaveLength(45);
    expect(ids.filter((id) => !CASES[id])).toEqual([]);
    expect(Object.keys(CASES).filter((id) => !ids.includes(id))).toEqual([]);
    expect(Object.keys(EVALUATORS).filter((key) => key.startsWith('FRSM-') && !ids.includes(key))).toEqual([]);
  });

  it('the metric file matches F-UJI metrics_v0.7_software.yaml: 17 metrics, 45 points, cumulative', () => {
    expect(SOFTWARE.metrics.map((m) => [m.id, m.total, m.tests.length])).toEqual([
      ['FRSM-01-F1', 3, 3],
      ['FRSM-02-F1.1', 3, 3],
      ['FRSM-03-F1.2', 3, 3],
      ['FRSM-04-F2', 3, 3],
      ['FRSM-05-R1', 3, 3],
      ['FRSM-06-F2', 3, 3],
      ['FRSM-07-F3', 2, 2],
      ['FRSM-08-F4', 3, 3],
      ['FRSM-09-A1', 2, 2],
      ['FRSM-10-I1', 3, 3],
      ['FRSM-11-I1', 3, 3],
      ['FRSM-12-I2', 1, 1],
      ['FRSM-13-R1', 2, 2],
      ['FRSM-14-R1', 3, 3],
      ['FRSM-15-R1.1', 3, 3],
      ['FRSM-16-R1.1', 2, 2],
      ['FRSM-17-R1.2', 3, 3],
    ]);
    // maturities that are not the test's position: FRSM-12-I2-1 is maturity 2, FRSM-16-R1.1-2 maturity 3
    expect(SOFTWARE.metrics.find((m) => m.id === 'FRSM-12-I2')!.tests[0]!.maturity).toBe(2);
    expect(SOFTWARE.metrics.find((m) => m.id === 'FRSM-16-R1.1')!.tests.map((t) => t.maturity)).toEqual([1, 3]);
    expect(SOFTWARE.totalScore).toBe(45);
  });
});

for (const [id, cases] of Object.entries(CASES)) {
  describe(id, () => {
    for (const c of cases.pass) {
      it(`passes: ${c.name}`, () => {
        const outcome = run(id, c.make());
        expect(outcome.passed, outcome.reason).toBe(true);
        expect(outcome.reason.length).toBeGreaterThan(10);
      });
    }
    for (const c of cases.fail) {
      it(`fails: ${c.name}`, () => {
        const outcome = run(id, c.make());
        expect(outcome.passed, outcome.reason).toBe(false);
        expect(outcome.reason.length).toBeGreaterThan(10);
        if (NOT_IMPLEMENTED.includes(id)) expect(outcome.reason).toMatch(/^not evaluated: F-UJI does not implement/);
      });
    }
  });
}

describe('repository paths sorted into F-UJI file kinds (software_file.yaml, first matching kind wins)', () => {
  // Derived by hand from the patterns: each full-matched, kinds tried in the file's order.
  const TABLE: [string, string | null][] = [
    ['README.md', 'README'],
    ['README', 'README'],
    ['README.txt', 'README'],
    ['README.rst', null], // only .txt and .md
    ['docs/README.md', 'README'], // README comes before docs_directory
    ['a/b/README.md', 'README'],
    ['docs/make.bat', 'docs_directory'],
    ['docs/Makefile', null], // a docs entry must be name.ext
    ['docs/license_header.txt', 'docs_directory'], // docs_directory comes before license_file
    ['docs/source/conf.py', null], // "source" has no dot
    ['LICENSE', 'license_file'],
    ['LICENCE.md', 'license_file'],
    ['pkg/license.py', 'license_file'],
    ['COPYING', 'license_file'],
    ['licenses.yaml', null],
    ['requirements.txt', 'dependencies'],
    ['src/requirements.txt', null], // the dependency pattern has no directory part
    ['.github/workflows/ci.yml', 'github_actions'],
    ['.github/workflows/publish-docker.yml', null], // \w does not match "-"
    ['Jenkinsfile', 'Jenkinsfile'],
    ['ci/Jenkinsfile', 'Jenkinsfile'],
    ['pom.xml', 'maven_pom'],
    ['module/pom.xml', null],
    ['setup.py', null],
  ];
  it.each(TABLE)('%s → %s', (path, kind) => {
    expect(softwareFileKind(path)?.kind ?? null).toBe(kind);
  });

  it('content is read for the kinds F-UJI parses in full, not for name-only kinds', () => {
    expect(['README.md', 'LICENSE', 'Jenkinsfile', '.github/workflows/ci.yml', 'pom.xml'].map((p) => softwareFileKind(p)!.readContent)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['requirements.txt', 'docs/make.bat'].map((p) => softwareFileKind(p)!.readContent)).toEqual([false, false]);
  });

  it('keywords are lower-cased substrings of name, path or content', () => {
    expect(keywordsIn(['README.md', 'README.md', 'To RUN the server: pip install .'])).toEqual(['install', 'run']);
    expect(keywordsIn(['ci.yml', '.github/workflows/ci.yml', 'jobs:\n  Build:\n  deployment:'])).toEqual(['build', 'deploy']);
    expect(keywordsIn(['notes.txt', 'docs/notes.txt', 'runtime only'])).toEqual(['run']);
    expect(keywordsIn(['a.md', 'a.md', 'nothing here'])).toEqual([]);
  });
});
