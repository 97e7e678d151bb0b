/**
 * Hedged-Significance Corpus routes (mounted at CORPUS_PREFIX, default /corpus). `stats`, `phrases` and
 * `articles/{pmcid}` are the pipeline's frozen documents, sent as stored; `excerpts` is computed per request
 * from the build's corpus database (services/corpus/corpus-data.ts), the same function the site's excerpt
 * browser calls.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../../../contracts/common/errors.ts';
import { noParams, parseStrictQuery } from '../../../../contracts/common/query.ts';
import { canonicalArticleId } from '../../../../contracts/corpus/article-id.ts';
import { canonicalPhrase, parseExcerptQuery } from '../../../../contracts/corpus/excerpts-query.ts';
import { corpusOpenApi } from '../../../../contracts/corpus/openapi.ts';
import { routeTable } from '../../plugins/preflight.ts';
import type { Build, BuildStore } from '../../services/build-store.ts';
import type { CorpusData } from '../../services/corpus/corpus-data.ts';
import { sendBuilt, sendJson } from '../send.ts';

export interface CorpusRouteOptions {
  store: BuildStore;
  prefix: string;
}

/** The build's corpus, or a 404 saying the build has none (a build of an older pipeline). */
function corpusOf(build: Build): CorpusData {
  if (!build.corpus) throw new ApiError('NOT_FOUND', `Snapshot ${build.snapshotId} has no corpus: rebuild with npm run pipeline.`);
  return build.corpus;
}

export default async function corpusRoutes(app: FastifyInstance, opts: CorpusRouteOptions) {
  const { store } = opts;
  const routes = routeTable(app);

  const frozen = (url: string, doc: (params: Record<string, string>, build: Build) => string) =>
    routes.declare({
      method: 'GET',
      url,
      handler: async (request, reply) => {
        parseStrictQuery(noParams, request.url);
        const build = store.current;
        const path = doc(request.params as Record<string, string>, build);
        const found = build.frozen.get(path);
        if (!found) {
          reply.header('X-Snapshot', build.snapshotId);
          throw new ApiError('NOT_FOUND', `No ${path.replace(/^corpus\/api\/v1\//, '')} in the corpus (snapshot ${build.snapshotId}).`);
        }
        return sendJson(request, reply, found.body, found.etag, build.snapshotId);
      },
    });

  frozen('/api/v1/stats', () => 'corpus/api/v1/stats');
  frozen('/api/v1/phrases', () => 'corpus/api/v1/phrases');
  // One phrase's counts per year and band. Case and spacing are forgiven as for `phrase=`; a phrase outside the
  // lexicon is a 404 (there is no such resource), one of the lexicon that never occurs a document of zeros.
  frozen('/api/v1/phrases/:phrase', ({ phrase }, build) => {
    const canonical = canonicalPhrase(phrase!);
    const lexicon = build.corpus?.phrases;
    if (lexicon && !lexicon.includes(canonical))
      throw new ApiError('NOT_FOUND', `"${phrase!.slice(0, 200)}" is not a phrase of the lexicon; /corpus/api/v1/phrases lists the phrases that occur.`);
    return `corpus/api/v1/phrases/${canonical}`;
  });
  frozen('/api/v1/articles/:pmcid', ({ pmcid }) => {
    const id = canonicalArticleId(pmcid!);
    if (id === null)
      throw new ApiError(
        'INVALID_PARAMETER',
        `"${pmcid!.slice(0, 40)}" is not an article id: use a PMCID (PMC123, pmc123 or 123) or an id of the form nopmc-0123456789ab.`,
        [{ parameter: 'pmcid', message: 'must be a PMCID or a nopmc- id' }],
      );
    return `corpus/api/v1/articles/${id}`;
  });

  routes.declare({
    method: 'GET',
    url: '/api/v1/excerpts',
    handler: async (request, reply) =>
      store.use(async (build) => {
        const corpus = corpusOf(build);
        const query = parseExcerptQuery(request.url, corpus.phrases);
        const { meta, results } = corpus.listExcerpts(query);
        const body = JSON.stringify({
          meta: { snapshot: build.snapshotId, lexicon_version: corpus.lexiconVersion, synthetic: build.manifest.snapshot.synthetic, ...meta },
          results,
        });
        return sendBuilt(request, reply, build, body);
      }),
  });

  routes.openApi(corpusOpenApi(opts.prefix, '1'), opts.prefix, '/api/corpus');

  routes.preflight();
}
