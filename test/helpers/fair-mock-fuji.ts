/**
 * A small stand-in for an F-UJI server (research/fair.md §3) on 127.0.0.1, for the FAIR_BACKEND=fuji tests:
 * `POST /fuji/api/v1/evaluate` behind basic auth (F-UJI's shipped test user marvel / wonderwoman) answering a
 * hand-written `FAIRResults` in F-UJI's documented shape, and `GET /fuji/api/v1/metrics/0.8` (no auth), which
 * our health probe asks. Like F-UJI, a request that is not `Content-Type: application/json` gets a 400 with an
 * empty body, and bad credentials a 401 with `WWW-Authenticate`.
 *
 * The document is a PANGAEA-like v0.8 result (24 of 26 points) written out by hand, summary included, in F-UJI's
 * keys and with two of its quirks: FsF-F1-02MD earns 1 of 1 yet reports `fail` (fair.md §1.3), and one metric
 * is `indeterminate`. Identifiers starting `fuji:` choose other answers:
 *
 * | identifier | answer |
 * | --- | --- |
 * | `fuji:bad` | 400 problem JSON (connexion's validation error) |
 * | `fuji:crash` | 500 (F-UJI issues #133, #261) |
 * | `fuji:unresolvable` | 200, `resolved_url: "not defined"`, F1-02MD and A1-02MD earn nothing |
 * | `fuji:garbage` | 200 with a JSON body that is not a FAIRResults |
 * | `fuji:slow` | the normal answer after 1.5 s |
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FUJI_USER = 'marvel';
export const FUJI_PASSWORD = 'wonderwoman';

export interface FujiMockRequest {
  method: string;
  path: string;
  authorization: string | null;
  contentType: string | null;
  body: unknown;
}

export interface FujiMock {
  /** `http://127.0.0.1:<port>` (FUJI_URL). */
  base: string;
  requests: FujiMockRequest[];
  close(): Promise<void>;
}

type Row = [number, string, string, number, number, number, string, Array<[string, string, number, number, number, string]>, unknown?];

/** number, id, name, earned, total, maturity, test_status, tests [id, name, earned, total, maturity, status], output */
const ROWS: Row[] = [
  [
    1,
    'FsF-F1-01MD',
    'Data is assigned a globally unique identifier.',
    1,
    1,
    3,
    'pass',
    [
      ['FsF-F1-01MD-1', 'Identifier is resolvable and follows a defined unique identifier syntax (IRI, URL)', 1, 1, 3, 'pass'],
      ['FsF-F1-01MD-2', 'Identifier is not resolvable but follows an UUID or HASH type syntax', 0, 0, 0, 'fail'],
    ],
    {
      guid: 'https://doi.org/10.1594/PANGAEA.902845',
      guid_scheme: 'doi',
      unique_identifiers: [{ guid: 'https://doi.org/10.1594/PANGAEA.902845', guid_scheme: 'doi', target: 'metadata' }],
    },
  ],
  [
    2,
    'FsF-F1-02MD',
    'Data is assigned a persistent identifier.',
    1,
    1,
    3,
    'fail',
    [
      ['FsF-F1-02MD-1', 'Identifier follows a defined persistent identifier syntax', 0.5, 0.5, 1, 'pass'],
      ['FsF-F1-02MD-2', 'Persistent identifier is resolvable', 0.5, 0.5, 3, 'pass'],
    ],
    {
      persistent_identifiers: [
        {
          pid: 'https://doi.org/10.1594/PANGAEA.902845',
          pid_scheme: 'doi',
          resolvable_status: true,
          resolved_url: 'https://doi.pangaea.de/10.1594/PANGAEA.902845',
          target: 'metadata',
        },
      ],
    },
  ],
  [
    5,
    'FsF-F2-01M',
    'Metadata includes descriptive core elements (creator, title, data identifier, publisher, publication date, summary and keywords) to support data findability.',
    2,
    2,
    3,
    'pass',
    [
      ['FsF-F2-01M-2', 'Core data citation metadata is available', 1, 1, 2, 'pass'],
      ['FsF-F2-01M-3', 'Core descriptive metadata is available', 1, 1, 3, 'pass'],
    ],
    {
      core_metadata_status: 'all metadata',
      core_metadata_found: { title: 'Seawater carbonate chemistry', publisher: 'PANGAEA' },
      core_metadata_source: [['schema.org JSON-LD (embedded)', 'json_in_html']],
    },
  ],
  [
    6,
    'FsF-F3-01M',
    'Metadata includes the identifier of the data it describes.',
    1,
    1,
    3,
    'pass',
    [['FsF-F3-01M-2', 'Metadata contains a PID or URL which indicates the location of the downloadable data content', 1, 1, 3, 'pass']],
    { object_content_identifier_included: [{ content_identifier_included: { url: 'https://doi.pangaea.de/10.1594/PANGAEA.902845?format=zip' } }] },
  ],
  [
    7,
    'FsF-F4-01M',
    'Metadata is offered in such a way that it can be retrieved programmatically.',
    2,
    2,
    3,
    'pass',
    [['FsF-F4-01M-1', 'Metadata is given in a way major search engines can ingest it for their catalogues', 2, 2, 3, 'pass']],
    { search_mechanisms: [{ mechanism: 'structured data', mechanism_info: ['json_in_html'] }] },
  ],
  [
    8,
    'FsF-A1-01M',
    'Metadata contains access level and access conditions of the data.',
    1,
    1,
    3,
    'pass',
    [['FsF-A1-01M-1', 'Information about access restrictions or rights can be identified in metadata', 1, 1, 3, 'pass']],
    { access_level: 'public', access_details: { access_condition: 'unrestricted' } },
  ],
  [
    9,
    'FsF-A1-02MD',
    'Metadata and data are retrievable by their identifier.',
    2,
    2,
    3,
    'pass',
    [
      ['FsF-A1-02MD-1', 'Metadata is retrievable', 1, 1, 3, 'pass'],
      ['FsF-A1-02MD-2', 'Data is retrievable', 1, 1, 3, 'pass'],
    ],
    { retrievable_objects: [{ method: 'HTTP GET', format: 'text/html', resolved_url: 'https://doi.pangaea.de/10.1594/PANGAEA.902845', target: 'metadata' }] },
  ],
  [
    11,
    'FsF-A1.1-01MD',
    'Standard communication protocol of metadata and data.',
    2,
    2,
    3,
    'pass',
    [
      ['FsF-A1.1-01MD-1', 'Standard protocol for access to metadata', 1, 1, 3, 'pass'],
      ['FsF-A1.1-01MD-2', 'Standard protocol for access to data', 1, 1, 3, 'pass'],
    ],
    { standard_protocol: [{ protocol_type: 'https', found_in: 'landing page', target: 'metadata' }] },
  ],
  [
    12,
    'FsF-A1.2-01MD',
    'Authentication support of protocol for metadata and data.',
    2,
    2,
    3,
    'pass',
    [
      ['FsF-A1.2-01MD-1', 'Metadata protocol supports authentication', 1, 1, 3, 'pass'],
      ['FsF-A1.2-01MD-2', 'Data protocol supports authentication', 1, 1, 3, 'pass'],
    ],
    { standard_protocol: [{ protocol_type: 'https', auth_method: 'BASIC, TLS', found_in: 'landing page', target: 'data' }] },
  ],
  [
    13,
    'FsF-I1-01M',
    'Metadata is represented using a formal knowledge representation language.',
    2,
    2,
    3,
    'pass',
    [
      ['FsF-I1-01M-1', 'Parsable, structured metadata (JSON-LD, RDFa) is embedded in the landing page XHTML/HTML code', 2, 2, 2, 'pass'],
      ['FsF-I1-01M-2', 'Parsable, graph data (RDF, JSON-LD) is accessible through content negotiation, typed links or sparql endpoint', 2, 2, 3, 'pass'],
    ],
    [{ serialization_format: 'JSON-LD', source: 'structured_data', is_metadata_found: true }],
  ],
  [
    14,
    'FsF-I2-01M',
    'Metadata uses semantic resources.',
    2,
    2,
    3,
    'pass',
    [['FsF-I2-01M-2', 'Namespaces of known semantic resources can be identified in metadata', 2, 2, 3, 'pass']],
    [{ namespace: 'http://www.isotc211.org/2005/gmd', is_namespace_active: true }],
  ],
  [
    15,
    'FsF-I3-01M',
    'Metadata includes links between the data and its related entities.',
    2,
    2,
    3,
    'pass',
    [
      ['FsF-I3-01M-1', 'Related resources are explicitly mentioned in metadata', 2, 2, 2, 'pass'],
      ['FsF-I3-01M-2', 'Related resources are indicated by machine readable links or identifiers', 2, 2, 3, 'pass'],
    ],
    [{ related_resource: 'https://doi.org/10.5194/bg-16-1-2019', relation_type: 'IsSupplementTo' }],
  ],
  [
    16,
    'FsF-R1-01M',
    'Metadata specifies the content of the data.',
    1,
    2,
    1,
    'pass',
    [
      ['FsF-R1-01M-1', 'Minimal information about available data content is given in metadata', 1, 1, 1, 'pass'],
      ['FsF-R1-01M-2', 'Verifiable data descriptors (file info, measured variables or observation types) are specified in metadata', 0, 1, 0, 'fail'],
    ],
    { object_type: 'Dataset', data_content_descriptor: [] },
  ],
  [
    17,
    'FsF-R1.1-01M',
    'Metadata includes license information under which data can be reused.',
    1,
    1,
    3,
    'pass',
    [['FsF-R1.1-01M-1', 'Licence information is given in an appropriate metadata element', 1, 1, 3, 'pass']],
    [{ license: 'https://creativecommons.org/licenses/by/4.0/', details_url: 'https://spdx.org/licenses/CC-BY-4.0.html', OSI_approved: false }],
  ],
  [
    18,
    'FsF-R1.2-01M',
    'Metadata includes provenance information about data creation or generation.',
    1,
    1,
    2,
    'pass',
    [
      ['FsF-R1.2-01M-1', 'Metadata contains elements which hold provenance information and can be mapped to PROV', 1, 1, 2, 'pass'],
      ['FsF-R1.2-01M-2', 'Metadata contains provenance information using formal provenance ontologies (PROV-O)', 0, 1, 0, 'fail'],
    ],
    {
      provenance_metadata_included: { is_available: true, provenance_metadata: [{ prov_o_mapping: 'prov:wasAttributedTo', metadata_element: 'creator' }] },
      structured_provenance_available: { is_available: false, provenance_metadata: [] },
    },
  ],
  [
    19,
    'FsF-R1.3-01M',
    'Metadata follows a standard recommended by the target research community of the data.',
    1,
    1,
    3,
    'pass',
    [
      [
        'FsF-R1.3-01M-1',
        'Community specific metadata standard is detected using namespaces or schemas found in provided metadata or metadata services outputs',
        1,
        1,
        3,
        'pass',
      ],
      [
        'FsF-R1.3-01M-3',
        'Multidisciplinary but community endorsed metadata standard is listed in the re3data record or detected by namespace',
        0,
        1,
        0,
        'fail',
      ],
    ],
    [
      {
        metadata_standard: 'ISO 19115',
        url: 'https://www.iso.org/standard/53798.html',
        subject_areas: ['Earth Science'],
        type: 'disciplinary',
        source: 'namespace',
      },
    ],
  ],
  [
    20,
    'FsF-R1.3-02D',
    'Data is available in a file format recommended by the target research community.',
    0,
    1,
    0,
    'indeterminate',
    [
      [
        'FsF-R1.3-02D-1',
        'The format of a data file given in the metadata is listed in the long term file formats, open file formats or scientific file formats controlled list',
        0,
        1,
        0,
        'fail',
      ],
    ],
    [],
  ],
];

/** F-UJI's summary for ROWS, worked out by hand (fair.md §1.4): sums, 2-decimal percents, half-even maturities. */
export const FUJI_SUMMARY = {
  score_earned: {
    A: 7,
    A1: 3,
    'A1.1': 2,
    'A1.2': 2,
    F: 7,
    F1: 2,
    F2: 2,
    F3: 1,
    F4: 2,
    FAIR: 24.0,
    I: 6,
    I1: 2,
    I2: 2,
    I3: 2,
    R: 4,
    R1: 1,
    'R1.1': 1,
    'R1.2': 1,
    'R1.3': 1,
  },
  score_total: {
    A: 7,
    A1: 3,
    'A1.1': 2,
    'A1.2': 2,
    F: 7,
    F1: 2,
    F2: 2,
    F3: 1,
    F4: 2,
    FAIR: 26.0,
    I: 6,
    I1: 2,
    I2: 2,
    I3: 2,
    R: 6,
    R1: 2,
    'R1.1': 1,
    'R1.2': 1,
    'R1.3': 2,
  },
  score_percent: {
    A: 100.0,
    A1: 100.0,
    'A1.1': 100.0,
    'A1.2': 100.0,
    F: 100.0,
    F1: 100.0,
    F2: 100.0,
    F3: 100.0,
    F4: 100.0,
    FAIR: 92.31,
    I: 100.0,
    I1: 100.0,
    I2: 100.0,
    I3: 100.0,
    R: 66.67,
    R1: 50.0,
    'R1.1': 100.0,
    'R1.2': 100.0,
    'R1.3': 50.0,
  },
  // R: mean(1, 3, 2, 3, 0) = 1.8 → 2; R1.3: mean(3, 0) = 1.5 → 2 (half-even); FAIR: (3 + 3 + 3 + 2) / 4 = 2.75
  maturity: {
    A: 3,
    A1: 3,
    'A1.1': 3,
    'A1.2': 3,
    F: 3,
    F1: 3,
    F2: 3,
    F3: 3,
    F4: 3,
    FAIR: 2.75,
    I: 3,
    I1: 3,
    I2: 3,
    I3: 3,
    R: 2,
    R1: 1,
    'R1.1': 3,
    'R1.2': 2,
    'R1.3': 2,
  },
  status_total: {
    A: 4,
    A1: 2,
    'A1.1': 1,
    'A1.2': 1,
    F: 5,
    F1: 2,
    F2: 1,
    F3: 1,
    F4: 1,
    FAIR: 17,
    I: 3,
    I1: 1,
    I2: 1,
    I3: 1,
    R: 5,
    R1: 1,
    'R1.1': 1,
    'R1.2': 1,
    'R1.3': 2,
  },
  status_passed: {
    A: 4,
    A1: 2,
    'A1.1': 1,
    'A1.2': 1,
    F: 4,
    F1: 1,
    F2: 1,
    F3: 1,
    F4: 1,
    FAIR: 15,
    I: 3,
    I1: 1,
    I2: 1,
    I3: 1,
    R: 4,
    R1: 1,
    'R1.1': 1,
    'R1.2': 1,
    'R1.3': 1,
  },
};

/** The FAIRResults F-UJI would send for `body` (its request echoed back). */
export function fairResults(body: Record<string, unknown>, unresolvable = false): Record<string, unknown> {
  const identifier = String(body.object_identifier);
  const results = ROWS.map(([id, metric, name, earned, total, maturity, status, tests, output]) => {
    const lost = unresolvable && (metric === 'FsF-F1-02MD' || metric === 'FsF-A1-02MD');
    return {
      id,
      metric_identifier: metric,
      metric_name: name,
      metric_tests: Object.fromEntries(
        tests.map(([testId, testName, e, t, m, s]) => [
          testId,
          {
            metric_test_name: testName,
            metric_test_requirements: [],
            metric_test_score: { earned: lost ? 0 : e, total: t },
            metric_test_maturity: lost ? 0 : m,
            metric_test_status: lost ? 'fail' : s,
          },
        ]),
      ),
      test_status: lost ? 'fail' : status,
      score: { earned: lost ? 0 : earned, total },
      maturity: lost ? 0 : maturity,
      output: output ?? {},
      test_debug: ['INFO: Debugging disabled'],
    };
  });
  return {
    test_id: createHash('sha1').update(identifier).digest('hex'),
    request: { ...body, ...(unresolvable ? {} : { normalized_object_identifier: 'https://doi.org/10.1594/PANGAEA.902845' }) },
    resolved_url: unresolvable ? 'not defined' : 'https://doi.pangaea.de/10.1594/PANGAEA.902845',
    start_timestamp: '2026-11-21T10:00:00Z',
    end_timestamp: '2026-11-21T10:00:42Z',
    metric_specification: 'https://doi.org/10.5281/zenodo.12690792',
    metric_version: '0.8',
    software_version: '3.5.1',
    total_metrics: results.length,
    summary: FUJI_SUMMARY,
    results,
    harvested_metadata: [],
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

export async function startFujiMock(): Promise<FujiMock> {
  const requests: FujiMockRequest[] = [];
  const expected = `Basic ${Buffer.from(`${FUJI_USER}:${FUJI_PASSWORD}`).toString('base64')}`;
  const server = createServer(async (req, res) => {
    const text = await readBody(req);
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    const path = req.url ?? '/';
    requests.push({
      method: req.method ?? 'GET',
      path,
      authorization: req.headers.authorization ?? null,
      contentType: req.headers['content-type'] ?? null,
      body,
    });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.method === 'GET' && path === '/fuji/api/v1/metrics/0.8') return json(200, { total: 17, metrics: [] });
    if (req.method !== 'POST' || path !== '/fuji/api/v1/evaluate')
      return json(404, { type: 'about:blank', title: 'Not Found', detail: 'The requested URL was not found on the server.', status: 404 });
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="Login Required"', 'content-type': 'application/json' });
      return res.end(JSON.stringify({ type: 'about:blank', title: 'Unauthorized', detail: 'No authorization token provided', status: 401 }));
    }
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      res.writeHead(400);
      return res.end();
    }
    const request = body as Record<string, unknown>;
    switch (request.object_identifier) {
      case 'fuji:bad':
        return json(400, { type: 'about:blank', title: 'Bad Request', detail: "'object_identifier' is not valid", status: 400 });
      case 'fuji:crash':
        res.writeHead(500, { 'content-type': 'text/plain' });
        return res.end('Internal Server Error');
      case 'fuji:unresolvable':
        return json(200, fairResults(request, true));
      case 'fuji:garbage':
        return json(200, { hello: 'world' });
      case 'fuji:slow':
        setTimeout(() => json(200, fairResults(request)), 1500);
        return;
      default:
        return json(200, fairResults(request));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
