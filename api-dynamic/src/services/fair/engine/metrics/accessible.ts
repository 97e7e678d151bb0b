/**
 * A tests: access information (A1-01M), retrievability (A1-02MD), standard protocols (A1.1) and protocols
 * with authentication (A1.2). Protocol tests look only at URL schemes; nothing is tested live (fair.md §2.14).
 */
import { standardProtocol } from '../vocab/protocols.ts';
import { accessTermById, rightsUri } from '../vocab/access-rights.ts';
import { fail, listed, pass, type TestEvaluator } from './types.ts';

const accessPresent: TestEvaluator = ({ accessValues, evidence }) => {
  if (accessValues.length) return pass(`access information: ${listed(accessValues)}`);
  const onlyFree = evidence.metadata.access_free !== null ? ' (schema.org isAccessibleForFree alone does not count, as in F-UJI)' : '';
  return fail(`no access level or access rights are given in the metadata${onlyFree}`);
};

/** v0.5 A1-01M-3: an access value is exactly a term id of an access-rights vocabulary (F-UJI compares ids only). */
const accessStandardTerm: TestEvaluator = ({ accessValues }) => {
  const terms = accessValues.map(accessTermById).filter((t) => t !== null);
  return terms.length
    ? pass(`standard access term ${listed(terms.map((t) => `${t.term} (${t.vocabulary}: ${t.condition})`))}`)
    : fail('no access value is the id of a COAR, ePrints, EU or OpenAIRE access-right term (labels and URIs are not ids)');
};

/**
 * v0.5 A1-01M-2: an access value is a URI of an access-rights vocabulary naming a term. As in F-UJI, schema.org
 * isAccessibleForFree is added as `https://schema.org/isAccessibleForFree#public` (or `#restricted`) before this
 * check (F-UJI's standard-term test never reports success, so its "else" branch that adds it always runs), so
 * isAccessibleForFree alone passes it.
 */
const accessMachineReadable: TestEvaluator = ({ accessValues, evidence }) => {
  const values = [...accessValues];
  const free = evidence.metadata.access_free;
  if (free !== null) values.push(`https://schema.org/isAccessibleForFree#${free ? 'public' : 'restricted'}`);
  // F-UJI stops at the first value that contains a rights URI, whether or not it names a term.
  const first = values.map(rightsUri).find((m) => m !== null);
  return first?.namesTerm ? pass(`machine-readable access right ${first.uri}`) : fail('no access value is a URI of an access-rights vocabulary naming a term');
};

const metadataRetrieved: TestEvaluator = ({ evidence: { sources } }) =>
  sources.length ? pass(`metadata retrieved from ${listed([...new Set(sources.map((s) => s.url))])}`) : fail('no metadata record could be retrieved');

const dataRetrieved: TestEvaluator = ({ evidence: { dataLinks } }) => {
  const ok = dataLinks.filter((link) => link.status !== null && link.status >= 200 && link.status < 300);
  if (ok.length)
    return pass(
      `data link ${listed(
        ok.map((l) => l.url),
        1,
      )} answered HTTP ${ok[0]!.status}`,
    );
  if (dataLinks.length === 0) return fail('there is no data link to retrieve');
  const tried = dataLinks.filter((l) => l.probed);
  return fail(
    tried.length
      ? `no data link answered 2xx (${listed(
          tried.map((l) => `${l.url}: ${l.status ?? l.error}`),
          2,
        )})`
      : 'no data link could be probed',
  );
};

/** URLs that lead to the metadata: the landing page, the URL asked for, and the identifier's resolver URL. */
function metadataUrls(evidence: Parameters<TestEvaluator>[0]['evidence']): string[] {
  return [evidence.resolution.landingUrl, evidence.resolution.requestedUrl, evidence.identifier.normalized];
}

const metadataProtocol: TestEvaluator = ({ evidence }) => {
  const protocol = metadataUrls(evidence)
    .map(standardProtocol)
    .find((p) => p !== null);
  return protocol ? pass(`metadata is reached over ${protocol.name} (${protocol.scheme})`) : fail('the metadata URL does not use a standard protocol');
};

const dataProtocol: TestEvaluator = ({ evidence: { dataLinks } }) => {
  for (const link of dataLinks) {
    const protocol = standardProtocol(link.url);
    if (protocol) return pass(`data is reached over ${protocol.name} (${protocol.scheme})`);
  }
  return fail(dataLinks.length ? 'no data link uses a standard protocol' : 'there is no data link');
};

const metadataAuth: TestEvaluator = ({ evidence }) => {
  const protocol = metadataUrls(evidence)
    .map(standardProtocol)
    .find((p) => p !== null && p.auth.length > 0);
  return protocol ? pass(`${protocol.scheme} supports authentication (${protocol.auth.join(', ')})`) : fail('the metadata protocol supports no authentication');
};

const dataAuth: TestEvaluator = ({ evidence: { dataLinks } }) => {
  for (const link of dataLinks) {
    const protocol = standardProtocol(link.url);
    if (protocol && protocol.auth.length) return pass(`${protocol.scheme} data links support authentication (${protocol.auth.join(', ')})`);
  }
  return fail(dataLinks.length ? 'no data link uses a protocol with authentication' : 'there is no data link');
};

/** A evaluators by test id. */
export const ACCESSIBLE: Readonly<Record<string, TestEvaluator>> = {
  'FsF-A1-01M-1': accessPresent,
  'FsF-A1-02MD-1': metadataRetrieved,
  'FsF-A1-02MD-2': dataRetrieved,
  'FsF-A1.1-01MD-1': metadataProtocol,
  'FsF-A1.1-01MD-2': dataProtocol,
  'FsF-A1.2-01MD-1': metadataAuth,
  'FsF-A1.2-01MD-2': dataAuth,
  // v0.5
  'FsF-A1-01M-3': accessStandardTerm,
  'FsF-A1-01M-2': accessMachineReadable,
  'FsF-A1-02M-1': metadataProtocol,
  'FsF-A1-03D-1': dataProtocol,
};
