/**
 * Classifies catalogue works with the frame's own rules: the snapshot builder's DuckDB SQL
 * (contracts/frame/rules-sql.ts) without its harvest window, over each page the sync fetches (written as JSON
 * Lines to a temporary file). The rules' results come from the SQL (routes, each author's Canadian affiliation,
 * the evidence); the record's plain fields are projected here. test/api-dynamic/recent-classify.test.ts holds
 * every item to the JavaScript rules (test/helpers/frame-rules-js.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { lit } from '../../../../../contracts/common/sql.ts';
import { ABOUT_CANADA_LEXICON } from '../../../../../contracts/frame/about-canada.ts';
import type { RecentWork } from '../../../../../contracts/frame/recent.ts';
import { type RouteRules, workTitle, workYear } from '../../../../../contracts/frame/route-rules.ts';
import { jsonSource, registerRules, rulesSql } from '../../../../../contracts/frame/rules-sql.ts';
import { ROUTES } from '../../../../../contracts/frame/vocab.ts';
import { bareDoi, bareNumber, type CatalogueWork, shortId } from './catalogue.ts';

export { routeRules, type RouteRules } from '../../../../../contracts/frame/route-rules.ts';

export type ClassifiedWork = Omit<RecentWork, 'provenance'>;

/**
 * The lexicon entries found in a folded text (terms joined by single spaces), left to right, each match
 * taking whole terms and the longest entry where several start: with every space doubled and the text padded
 * by one, an entry is ` terms ` and consecutive matches do not overlap.
 */
const TERM_HITS = (() => {
  const entries = ABOUT_CANADA_LEXICON.map((e) => e.entry).sort((a, b) => b.split(' ').length - a.split(' ').length);
  const pattern = ` (${entries.map((e) => e.replaceAll(' ', '  ')).join('|')}) `;
  const tiers = `MAP {${ABOUT_CANADA_LEXICON.map((e) => `${lit(e.entry)}: ${lit(e.tier)}`).join(', ')}}`;
  return `CREATE OR REPLACE MACRO term_hits(f) AS coalesce(list_transform(regexp_extract_all(' ' || replace(trim(f, ' '), ' ', '  ') || ' ', ${lit(pattern)}, 1), t -> replace(t, '  ', ' ')), []::VARCHAR[]);
CREATE OR REPLACE MACRO term_tier(t) AS map_extract_value(${tiers}, t);`;
})();

/** The rows of the works a route admits: routes, per-author Canadian affiliation, evidence (the SQL's side of an item). */
const select = (funderIds: readonly string[]) => `
SELECT line::INTEGER AS line, aff, fund, venue, about, has_abstract, coalesce(ca, []::BOOLEAN[]) AS is_ca, kw AS keywords, coalesce(ca_names(authorships), []::VARCHAR[]) AS ca_institutions,
  coalesce(funder_names(funders, awards, grants), []::VARCHAR[]) AS funders,
  coalesce(list_filter(js_distinct(funder_ids(funders, awards, grants)), f -> list_contains([${funderIds.map(lit).join(', ')}]::VARCHAR[], f)), []::VARCHAR[]) AS ca_funder_ids,
  list_transform(list_filter(hits, (t, i) -> list_position(hits, t) = i), t -> struct_pack(term := t, tier := term_tier(t))) AS about_terms
FROM (SELECT *, CASE WHEN admitted THEN flatten([term_hits(fold_terms(t0)), CASE WHEN has_abstract THEN term_hits(abstract_words(abstract_inverted_index)) ELSE []::VARCHAR[] END,
    flatten(list_transform(kw, k -> term_hits(fold_terms(k))))]) END AS hits
  FROM (SELECT row_number() OVER () AS line, *, coalesce(kws, []::VARCHAR[]) AS kw FROM w))
WHERE admitted`;

/** A row of that query. */
type Routed = Omit<ClassifiedWork['route_flags'], 'invisible_to_affiliation'> &
  ClassifiedWork['route_evidence'] &
  Pick<ClassifiedWork, 'has_abstract' | 'keywords' | 'ca_institutions' | 'funders'> & { line: number; is_ca: boolean[] };

export type Classifier = Awaited<ReturnType<typeof openClassifier>>;

/** A classifier for one sync: one in-memory DuckDB with the rules registered, and a temporary folder for the pages. */
export async function openClassifier(rules: RouteRules) {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  await registerRules({ connection });
  await connection.run(TERM_HITS);
  const dir = mkdtempSync(join(tmpdir(), 'recent-classify-'));
  const page = join(dir, 'page.jsonl');
  // Prepared once (DuckDB binds the file, which must exist), run once a page.
  writeFileSync(page, '');
  const query = await connection.prepare(
    rulesSql(
      jsonSource(page),
      { funderIds: [...rules.funderIds], sourceIds: [...rules.sourceIds], excludeXpac: false, window: null },
      false,
      select([...rules.funderIds]),
    ),
  );
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  const run = async (works: readonly CatalogueWork[]): Promise<(ClassifiedWork | null)[]> => {
    if (works.length === 0) return [];
    writeFileSync(page, `${works.map((w) => JSON.stringify(w)).join('\n')}\n`);
    const rows = (await query.runAndReadAll()).getRowObjectsJS() as unknown as Routed[];
    const out: (ClassifiedWork | null)[] = works.map(() => null);
    for (const r of rows) out[r.line - 1] = item(works[r.line - 1]!, r);
    return out;
  };
  return {
    /** Each work's item, or null when no route matches; one page at a time (calls queue). */
    classify(works: readonly CatalogueWork[]) {
      if (closed) return Promise.reject(new Error('the classifier is closed'));
      const next = queue.then(() => run(works));
      queue = next.catch(() => undefined);
      return next;
    },
    /** After the pages queued so far; a later call is refused. */
    async close() {
      closed = true;
      await queue;
      connection.closeSync();
      instance.closeSync();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The item: the SQL's routes and evidence, and the record's own fields. */
function item(w: CatalogueWork, r: Routed): ClassifiedWork {
  // Schema drift: records before the 2023 rewrite name their venue in host_venue.
  const source = w.primary_location?.source ?? (w.host_venue?.id ? w.host_venue : null);
  const flags = { aff: r.aff, fund: r.fund, venue: r.venue, about: r.about };
  return {
    id: shortId(w.id)!,
    doi: bareDoi(w.doi),
    title: workTitle(w),
    year: workYear(w) ?? Number(w.publication_date.slice(0, 4)),
    lang: w.language ? w.language.toLowerCase() : null,
    type: w.type ?? 'other',
    venue: source?.display_name ?? null,
    venue_id: shortId(source?.id),
    topic: w.primary_topic?.display_name ?? null,
    field: w.primary_topic?.field?.display_name ?? null,
    cited_by: w.cited_by_count ?? 0,
    is_retracted: w.is_retracted ?? false,
    has_abstract: r.has_abstract,
    routes: ROUTES.filter((k) => flags[k]),
    route_flags: { ...flags, invisible_to_affiliation: !r.aff },
    route_evidence: { ca_institutions: r.ca_institutions, ca_funder_ids: r.ca_funder_ids, about_terms: r.about_terms },
    ca_institutions: r.ca_institutions,
    funders: r.funders,
    keywords: r.keywords,
    authors: (w.authorships ?? []).map((a, i) => ({
      id: shortId(a.author?.id),
      name: a.author?.display_name ?? '',
      orcid: a.author?.orcid ?? null,
      position: i + 1,
      is_ca: r.is_ca[i]!,
      institutions: (a.institutions ?? []).map((inst) => ({
        id: shortId(inst.id),
        name: inst.display_name ?? '',
        ror: inst.ror ?? null,
        country_code: inst.country_code ? inst.country_code.toUpperCase() : null,
      })),
    })),
    publication_date: w.publication_date,
    pmid: bareNumber(w.ids?.pmid),
    pmcid: bareNumber(w.ids?.pmcid, 'PMC'),
  };
}
