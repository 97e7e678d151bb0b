/**
 * The OpenAPI 3.1 document of the corpus service, generated from the zod schemas the routes parse with and
 * the contract test checks responses against. Operation texts live in OPERATIONS, parameter texts in the
 * query schema's `.meta()`; examples are real answers of the sample build (./openapi-examples.json).
 */
import { z } from 'zod';
import {
  BUILT_HEADERS,
  COMMON_HEADERS,
  errorResponse,
  jsonResponse,
  jsonSchema,
  notModified,
  openApiDocument,
  pathParameter,
  queryParameters,
} from '../common/openapi.ts';
import { examplesOf, type RecordedExamples } from '../common/openapi-examples.ts';
import { noParams } from '../common/query.ts';
import { ARTICLE_ID_PATTERN } from './article-id.ts';
import { excerptParamsSchema } from './excerpts-query.ts';
import { CORPUS_RESPONSES } from './responses.ts';
import recorded from './openapi-examples.json' with { type: 'json' };

type Path = keyof typeof CORPUS_RESPONSES;

const QUERIES: Record<Path, z.ZodObject> = {
  '/api/v1/stats': noParams,
  '/api/v1/phrases': noParams,
  '/api/v1/phrases/{phrase}': noParams,
  '/api/v1/excerpts': excerptParamsSchema,
  '/api/v1/articles/{pmcid}': noParams,
};

const TAGS = [
  { name: 'Corpus', description: 'Totals and the lexicon of hedging phrases.' },
  { name: 'Excerpts', description: 'Hedged sentences, filtered and searched, and the articles they come from.' },
] as const;

/** Every operation of the document: id, tag, summary and description, in one place. */
export const OPERATIONS: Record<Path, { operationId: string; tag: string; summary: string; description: string }> = {
  '/api/v1/stats': {
    operationId: 'getCorpusStats',
    tag: 'Corpus',
    summary: 'Corpus totals',
    description: 'Corpus totals, the band split (occurrences and sentences per band) and the median p-value over exact values of verified occurrences.',
  },
  '/api/v1/phrases': {
    operationId: 'listPhrases',
    tag: 'Corpus',
    summary: 'Verified phrases',
    description:
      'Every verified phrase (at least one verified occurrence) with its counts, most verified first. These are the values phrase= accepts on /excerpts.',
  },
  '/api/v1/phrases/{phrase}': {
    operationId: 'getPhrase',
    tag: 'Corpus',
    summary: 'One phrase by year',
    description:
      'One phrase of the lexicon (case and spacing forgiven): its counts (verified per band, rejected, unverified, articles) over the corpus and per publication year. A lexicon phrase that never occurs has zeros; a phrase not in the lexicon is a 404.',
  },
  '/api/v1/excerpts': {
    operationId: 'listExcerpts',
    tag: 'Excerpts',
    summary: 'Hedged sentences',
    description:
      'Hedged sentences matching every filter given, in the { meta, results } envelope of the other services: meta holds the exact total, page, per_page, pages and the query as read. A sentence is listed when one of its occurrences matches every occurrence filter (phrase, band, status, p_min/p_max); without band and status, verified occurrences only. phrase must be a phrase of the lexicon (see /phrases); sort=relevance needs q; year_from must not be after year_to, nor p_min above p_max.',
  },
  '/api/v1/articles/{pmcid}': {
    operationId: 'getArticle',
    tag: 'Excerpts',
    summary: 'One article',
    description: 'One article and all its hedged sentences. PMC123, pmc123 and 123 name the same article; articles without a PMCID use their nopmc- id.',
  },
};

export function corpusOpenApi(prefix: string, version: string) {
  const examples = examplesOf(recorded as RecordedExamples);
  // Path examples name a phrase and an article of the sample build (the recorded answers').
  const PHRASE = pathParameter(
    'phrase',
    '^.{1,200}$',
    'A canonical phrase of the lexicon (as /phrases lists them; case and spacing are forgiven).',
    examples.pathValue('getPhrase', '/phrases/{phrase}', 'phrase', 'marginally significant'),
  );
  const PMCID = pathParameter(
    'pmcid',
    ARTICLE_ID_PATTERN,
    'A PMCID (PMC123, pmc123 or 123) or an id of the form nopmc-0123456789ab.',
    examples.pathValue('getArticle', '/articles/{pmcid}', 'pmcid', 'PMC2000003'),
  );
  const paths: Record<string, unknown> = {};
  for (const [path, response] of Object.entries(CORPUS_RESPONSES) as [Path, z.ZodType][]) {
    const { tag, ...operation } = OPERATIONS[path];
    const id = operation.operationId;
    paths[`${prefix}${path}`] = {
      get: {
        tags: [tag],
        ...operation,
        parameters: [...(path.includes('{pmcid}') ? [PMCID] : []), ...(path.includes('{phrase}') ? [PHRASE] : []), ...queryParameters(QUERIES[path])],
        responses: {
          '200': jsonResponse('OK', jsonSchema(response), BUILT_HEADERS, examples.ok(id)),
          '304': notModified(BUILT_HEADERS),
          '400': errorResponse(
            'Invalid request: a parameter is unknown, repeated or has a value it does not allow (the body names it and what it allows).',
            COMMON_HEADERS,
            examples.error(id, 400),
          ),
          '404': errorResponse('Not found (no such article or phrase, or a build without a corpus).', COMMON_HEADERS, examples.error(id, 404)),
        },
      },
    };
  }
  return openApiDocument({
    title: 'Hedged-Significance Corpus',
    version,
    description:
      'Read API over a corpus of hedged statements about statistical significance ("a trend toward significance") extracted from open-access articles: totals, the phrase lexicon, the sentences with their p-values and verification status, and the articles. Every parameter is checked: an unknown, repeated or invalid one is a 400 naming it and the values it allows. Prose guide: /docs/api-corpus.',
    tags: TAGS,
    paths,
  });
}
