/**
 * The FAIR4RS software metric tests (metrics_v0.7_software), taking F-UJI's decisions (fuji_server/evaluators at
 * commit 3215372; table in docs/fair-engine.md "Software metrics"):
 *
 * - F-UJI evaluates some FRSM tests with the code of a data test it shares an evaluator with (FRSM-04-F2-2 is
 *   FsF-F2-01M-3, FRSM-06-F2-1 is FsF-R1.2-01M-1, FRSM-07-F3-1 is FsF-F3-01M-2, FRSM-09-A1-1 is FsF-A1-03D-1,
 *   FRSM-12-I2-1 is FsF-I3-01M-2, FRSM-16-R1.1-1/2 are FsF-R1.1-01M-1/2): those reuse our evaluator of that test.
 * - FRSM-08-F4-1 passes for a DOI (F-UJI testPreservationGuaranteed: the PID scheme is registry-bound).
 * - FRSM-13 and FRSM-15 read the repository's files (harvest/code-files.ts), as F-UJI's requirements and licence-
 *   file evaluators read its GitHub harvest.
 * - Every other test is one F-UJI declares "not implemented" and always fails; it fails here too, saying so, so
 *   that a score means the same as F-UJI's.
 */
import type { CodeFile, CodeHostEvidence } from '../../../../../../contracts/fair/evidence.ts';
import { detectLicence } from '../vocab/licences.ts';
import { DEPENDENCIES_REQUIREMENT, INSTRUCTIONS_REQUIREMENT } from '../vocab/software-files.ts';
import { ACCESSIBLE } from './accessible.ts';
import type { Facts } from './facts.ts';
import { FINDABLE } from './findable.ts';
import { INTEROPERABLE } from './interoperable.ts';
import { REUSABLE } from './reusable.ts';
import { fail, listed, pass, type TestEvaluator } from './types.ts';

/** A test F-UJI has no implementation of (its evaluator logs "… is not implemented" and returns False). */
const notImplemented =
  (what: string): TestEvaluator =>
  () =>
    fail(`not evaluated: F-UJI does not implement the check for ${what} yet, so this test cannot pass (kept so scores compare with F-UJI's)`);

/** The evaluator of a data test F-UJI runs for this software test too. */
function sameAs(group: Readonly<Record<string, TestEvaluator>>, testId: string): TestEvaluator {
  const evaluator = group[testId];
  if (!evaluator) throw new Error(`no evaluator for ${testId}`);
  return evaluator;
}

const NO_REPOSITORY = 'no GitHub repository was harvested (the identifier or its metadata must name one), so its files could not be checked';

/** The walked files of the repository, or null when there is no repository or it was not walked. */
function repositoryFiles(facts: Facts): { host: CodeHostEvidence; files: CodeFile[] } | null {
  const host = facts.evidence.codeHost;
  return host?.files ? { host, files: host.files } : null;
}

const paths = (files: readonly CodeFile[]) => listed(files.map((f) => f.path));

/** FRSM-13-R1-1 (F-UJI testInstructions): any of build / install / run in a README or a docs-directory file. */
const instructions: TestEvaluator = (facts) => {
  const repo = repositoryFiles(facts);
  if (!repo) return fail(NO_REPOSITORY);
  const { locations, keywords } = INSTRUCTIONS_REQUIREMENT;
  const places = repo.files.filter((f) => locations.includes(f.kind));
  const hits = keywords.flatMap((k) => {
    const where = places.filter((f) => f.keywords.includes(k));
    return where.length ? [`"${k}" in ${paths(where)}`] : [];
  });
  if (hits.length) return pass(`instructions found: ${hits.join('; ')}`);
  return fail(
    places.length
      ? `none of ${keywords.join(', ')} appears in ${paths(places)}`
      : `the repository has no README or docs directory file to hold build, installation or run instructions`,
  );
};

/** FRSM-13-R1-2 (F-UJI testDependencies): a requirements.txt, and both build and deploy in a Jenkinsfile or GitHub Actions workflow. */
const dependencies: TestEvaluator = (facts) => {
  const repo = repositoryFiles(facts);
  if (!repo) return fail(NO_REPOSITORY);
  const { dependencyKind, dependencyFiles, automationLocations, automationKeywords } = DEPENDENCIES_REQUIREMENT;
  const declared = repo.files.filter((f) => f.kind === dependencyKind && (dependencyFiles as readonly string[]).includes(f.name));
  const automation = repo.files.filter((f) => automationLocations.includes(f.kind));
  const missing = automationKeywords.filter((k) => !automation.some((f) => f.keywords.includes(k)));
  if (declared.length && !missing.length)
    return pass(`dependencies in ${paths(declared)}; automation (${automationKeywords.join(', ')}) in ${paths(automation)}`);
  const why: string[] = [];
  if (!declared.length) why.push(`no ${dependencyFiles.join(' or ')} at the repository root`);
  if (!automation.length) why.push('no Jenkinsfile or GitHub Actions workflow');
  else if (missing.length) why.push(`the automation files (${paths(automation)}) do not mention ${missing.join(', ')}`);
  return fail(why.join('; '));
};

/** FRSM-15-R1.1-1 (F-UJI testLicenseFileAvailable): a file named LICENSE / LICENCE / COPYING (any case, any directory). */
const licenceFile: TestEvaluator = (facts) => {
  const repo = repositoryFiles(facts);
  if (!repo) return fail(NO_REPOSITORY);
  const found = repo.files.filter((f) => f.kind === 'license_file');
  return found.length ? pass(`licence file ${paths(found)}`) : fail('the repository has no LICENSE, LICENCE or COPYING file');
};

/**
 * FRSM-15-R1.1-3 (F-UJI testLicenseIsValidAndSPDXRegistered of the licence-file evaluator): the licence GitHub
 * detected counts only when the file it read is one of the licence files found, and its name must be an SPDX
 * licence (matched by name as for metadata licences).
 */
const licenceFileSpdx: TestEvaluator = (facts) => {
  const repo = repositoryFiles(facts);
  if (!repo) return fail(NO_REPOSITORY);
  const { licenseName, licensePath } = repo.host;
  if (!licenseName || !licensePath) return fail('GitHub did not recognise a licence in the repository');
  if (!repo.files.some((f) => f.kind === 'license_file' && f.path === licensePath))
    return fail(`GitHub's licence (${licenseName}) comes from ${licensePath}, which is not one of the repository's licence files`);
  const match = detectLicence(licenseName);
  return match.spdxId
    ? pass(`${licensePath} holds ${licenseName} (SPDX ${match.spdxId})`)
    : fail(`the licence in ${licensePath}, "${licenseName}", is not on the SPDX list`);
};

/** F-UJI's licence evaluator reads the metadata's licences and, for FRSM only when there are none, GitHub's licence name. */
function withCodeHostLicence(facts: Facts): Facts {
  const name = facts.evidence.codeHost?.licenseName;
  return facts.licences.length || !name ? facts : { ...facts, licences: [detectLicence(name)] };
}
const licencePresent = sameAs(REUSABLE, 'FsF-R1.1-01M-1');
const licenceSpdx = sameAs(REUSABLE, 'FsF-R1.1-01M-2');

/** FRSM-08-F4-1 (F-UJI testPreservationGuaranteed): the identifier's PID scheme is registry-bound (a DOI). */
const registryBound: TestEvaluator = ({ evidence: { identifier } }) =>
  identifier.scheme === 'doi'
    ? pass('a DOI: its metadata record is kept by the DOI registry')
    : fail(`the identifier is ${identifier.scheme === 'url' ? 'a URL' : `a ${identifier.scheme}`}, not a DOI, whose registry keeps the metadata record`);

export const SOFTWARE: Readonly<Record<string, TestEvaluator>> = {
  'FRSM-01-F1-1': notImplemented('a unique, resolvable identifier'),
  'FRSM-01-F1-2': notImplemented('a globally unique and persistent identifier scheme'),
  'FRSM-01-F1-3': notImplemented('an identifier scheme commonly used in the domain'),
  'FRSM-02-F1.1-1': notImplemented('distinct identifiers of components'),
  'FRSM-02-F1.1-2': notImplemented('component relations in identifier metadata'),
  'FRSM-02-F1.1-3': notImplemented('module-level (GL3) identifiers'),
  'FRSM-03-F1.2-1': notImplemented('distinct identifiers of versions'),
  'FRSM-03-F1.2-2': notImplemented('version relations in identifier metadata'),
  'FRSM-03-F1.2-3': notImplemented('the version number in identifier metadata'),
  'FRSM-04-F2-1': notImplemented('title and description in a README'),
  'FRSM-04-F2-2': sameAs(FINDABLE, 'FsF-F2-01M-3'),
  'FRSM-04-F2-3': notImplemented('CodeMeta or POM metadata'),
  'FRSM-05-R1-1': notImplemented('contact or support metadata'),
  'FRSM-05-R1-2': notImplemented('development status and documentation links'),
  'FRSM-05-R1-3': notImplemented('CodeMeta or POM development metadata'),
  'FRSM-06-F2-1': sameAs(REUSABLE, 'FsF-R1.2-01M-1'),
  'FRSM-06-F2-2': notImplemented('citation metadata with contributor roles'),
  'FRSM-06-F2-3': notImplemented('proportional credit'),
  'FRSM-07-F3-1': sameAs(FINDABLE, 'FsF-F3-01M-2'),
  'FRSM-07-F3-2': notImplemented('whether the identifier resolves to the same software'),
  'FRSM-08-F4-1': registryBound,
  'FRSM-08-F4-2': notImplemented('availability through public search engines'),
  'FRSM-08-F4-3': notImplemented('cross-referenced infrastructures'),
  'FRSM-09-A1-1': sameAs(ACCESSIBLE, 'FsF-A1-03D-1'),
  'FRSM-09-A1-2': notImplemented('authentication and authorisation support'),
  'FRSM-10-I1-1': notImplemented('documented data formats'),
  'FRSM-10-I1-2': notImplemented('open data formats'),
  'FRSM-10-I1-3': notImplemented('a schema reference'),
  'FRSM-11-I1-1': notImplemented('documented APIs'),
  'FRSM-11-I1-2': notImplemented('open APIs'),
  'FRSM-11-I1-3': notImplemented('a machine-readable interface definition'),
  'FRSM-12-I2-1': sameAs(INTEROPERABLE, 'FsF-I3-01M-2'),
  'FRSM-13-R1-1': instructions,
  'FRSM-13-R1-2': dependencies,
  'FRSM-14-R1-1': notImplemented('tests and test data'),
  'FRSM-14-R1-2': notImplemented('automated unit and system tests'),
  'FRSM-14-R1-3': notImplemented('reported test coverage'),
  'FRSM-15-R1.1-1': licenceFile,
  'FRSM-15-R1.1-2': notImplemented('licences of bundled components'),
  'FRSM-15-R1.1-3': licenceFileSpdx,
  'FRSM-16-R1.1-1': (facts) => licencePresent(withCodeHostLicence(facts)),
  'FRSM-16-R1.1-2': (facts) => licenceSpdx(withCodeHostLicence(facts)),
  'FRSM-17-R1.2-1': notImplemented('a commit history'),
  'FRSM-17-R1.2-2': notImplemented('commits linked to issues'),
  'FRSM-17-R1.2-3': notImplemented('other provenance tools'),
};
