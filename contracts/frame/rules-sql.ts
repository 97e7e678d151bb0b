/**
 * The frame rules as one DuckDB SQL pass over a partition file of the works snapshot: the window and type
 * checks, the four routes (aff, fund, venue, about), the cells and the authorships that pass the
 * snapshot's cell parsers. One row per record, in file order:
 *   line      the record's ordinal among the file's non-blank lines (orders versions inside one file)
 *   id        the bare work id (`W…`), null for a bad record
 *   updated   its updated_date ('' when absent)
 *   why       'in', 'bad', 'xpac', 'window', 'not-publication' or 'no-route'
 *   work      the works.csv cells of an admitted record (a struct named as the columns), else null
 *   auths     its authorships (author_id, position, is_ca, name, orcid), else null
 *   notes     the cells it had to adjust (doi-unusable, lang-unusable, type-unusable, title-clipped,
 *             authorship-without-author once per authorship left out)
 * The about-Canada lexicon's patterns are generated from contracts/frame/about-canada.ts; a text with a
 * character above ASCII is folded by contracts/frame/title-terms.ts itself (`ori_fold`, registered here),
 * so compatibility characters (`ＣＡＮＡＤＡ`, `ﬁrst`) fold exactly as everywhere else.
 * test/pipeline/openalex/rules-sql.test.ts compares every record's decision and cells with the JavaScript
 * rules (test/helpers/frame-rules-js.ts).
 * The snapshot builder (pipeline/openalex) and the recent layer's sync (api-dynamic, with no window and its own
 * last SELECT) both run it, so it sits in contracts: neither imports the other.
 */
import { ABOUT_CANADA_LEXICON } from './about-canada.ts';
import { FRAME_YEARS } from './route-rules.ts';
import { textTerms } from './title-terms.ts';
import { TABLES } from './snapshot.ts';
import { type DuckHolder, registerTextFunction } from '../common/duckdb.ts';
import { lit } from '../common/sql.ts';

/** The record's fields as the rules read them. Top-level scalars stay JSON, so a value of the wrong type is seen. */
export const RECORD_COLUMNS: Record<string, string> = {
  id: 'VARCHAR',
  updated_date: 'JSON',
  is_xpac: 'JSON',
  title: 'JSON',
  display_name: 'JSON',
  publication_year: 'JSON',
  publication_date: 'JSON',
  doi: 'JSON',
  language: 'JSON',
  type: 'JSON',
  cited_by_count: 'JSON',
  is_retracted: 'JSON',
  primary_location: 'STRUCT(source STRUCT(id VARCHAR, display_name VARCHAR))',
  host_venue: 'STRUCT(id VARCHAR, display_name VARCHAR)',
  primary_topic: 'STRUCT(display_name VARCHAR, field STRUCT(display_name VARCHAR))',
  abstract_inverted_index: 'MAP(VARCHAR, BIGINT[])',
  authorships:
    'STRUCT(author STRUCT(id VARCHAR, display_name VARCHAR, orcid VARCHAR), institutions STRUCT(display_name VARCHAR, country_code VARCHAR)[], countries VARCHAR[])[]',
  funders: 'STRUCT(id VARCHAR, display_name VARCHAR)[]',
  awards: 'STRUCT(funder_id VARCHAR, funder_display_name VARCHAR)[]',
  grants: 'STRUCT(funder VARCHAR, funder_display_name VARCHAR)[]',
  keywords: 'STRUCT(display_name VARCHAR)[]',
};

/** JavaScript's `\s` (what `trim()` and `/\s+/` take), as an RE2 class body. */
const WS = '\\t\\n\\x0B\\f\\r \\x{00A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';

/** Terms of a folded text are joined by single spaces: an entry is its terms with spaces between, whole. */
const alternation = (entries: string[]) => `(?:^| )(?:${entries.join('|')})(?: |$)`;
const AB = ABOUT_CANADA_LEXICON.filter((e) => e.tier !== 'C').map((e) => e.entry);
const SINGLE = AB.filter((e) => !e.includes(' '));
/**
 * The abstract is matched on its tokens in index order first (no sort): enough for every one-term entry. It
 * is put in word order only when it holds, for some multi-term entry, that entry's key term: its longest term
 * that is not a common word (an entry can only match where all its terms occur). Entries holding a one-term
 * entry are found by the one-term test.
 */
const COMMON = new Set(['new', 'first', 'island', 'university', 'bay', 'of', 'du', 'de', 'nord']);
const KEY_TERMS = [
  ...new Set(
    AB.filter((e) => e.includes(' ') && !e.split(' ').some((t) => SINGLE.includes(t))).map(
      (e) =>
        e
          .split(' ')
          .filter((t) => !COMMON.has(t))
          .sort((a, b) => b.length - a.length)[0]!,
    ),
  ),
];
export const ABOUT_PATTERNS = { all: alternation(AB), single: alternation(SINGLE), key: alternation(KEY_TERMS) };

/**
 * The characters whose compatibility decomposition (NFKD, which title-terms.ts folds with and DuckDB lacks)
 * changes a text's terms as the lexicon sees them: it yields an ASCII letter or digit (`ﬁ`, `Ｃ`, `²`), or
 * it splits a term (a letter that decomposes to a separator). A text holding one is folded by ori_fold;
 * any other text above ASCII by strip_accents, lower case and the same term split, which gives it the same
 * ASCII terms.
 */
const COMPAT = (() => {
  const ranges: [number, number][] = [];
  for (let c = 0x80; c <= 0x2ffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const s = String.fromCodePoint(c);
    const k = s.normalize('NFKD');
    if (k === s.normalize('NFD')) continue;
    const f = k.replace(/\p{M}+/gu, '');
    if (!/[A-Za-z0-9]/.test(f) && !(/^[\p{L}\p{N}]$/u.test(s) && /[^\p{L}\p{N}]/u.test(f))) continue;
    const last = ranges.at(-1);
    if (last && last[1] === c - 1) last[1] = c;
    else ranges.push([c, c]);
  }
  const hex = (c: number) => `\\x{${c.toString(16)}}`;
  return `[${ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('')}]`;
})();

/** A space-delimited word holding a character above ASCII. */
const NON_ASCII_WORD = '[^ ]*[\\x{80}-\\x{10ffff}][^ ]*';

const MACROS = `
CREATE OR REPLACE MACRO js_trim(s) AS regexp_replace(s, '^[${WS}]+|[${WS}]+$', '', 'g');
CREATE OR REPLACE MACRO clip(t, n) AS CASE WHEN length(t) <= n THEN t ELSE rtrim(left(t, n), ' ') END;
CREATE OR REPLACE MACRO squash(s) AS trim(regexp_replace(s, '[${WS}]+', ' ', 'g'), ' ');
CREATE OR REPLACE MACRO clean(s, n) AS CASE WHEN s IS NULL OR s = '' THEN '' ELSE clip(squash(s), n) END;
CREATE OR REPLACE MACRO short_id(s) AS CASE WHEN regexp_matches(js_trim(s), '[A-Za-z][0-9]+$') THEN upper(regexp_extract(js_trim(s), '([A-Za-z])[0-9]+$', 1)) || regexp_extract(js_trim(s), '([0-9]+)$', 1) END;
CREATE OR REPLACE MACRO js_str(j) AS CASE WHEN json_type(j) = 'VARCHAR' THEN j ->> '$' END;
CREATE OR REPLACE MACRO is_int(j) AS json_type(j) IN ('BIGINT', 'UBIGINT') OR (json_type(j) = 'DOUBLE' AND j::DOUBLE = floor(j::DOUBLE));
CREATE OR REPLACE MACRO typed(j, t) AS j IS NULL OR json_type(j) IN ('NULL', t);
CREATE OR REPLACE MACRO has_null(l) AS coalesce(list_count(l) < len(l), false);
CREATE OR REPLACE MACRO any_true(l) AS coalesce(list_bool_or(l), false);
CREATE OR REPLACE MACRO js_distinct(l) AS list_filter(list_filter(list_transform(l, x -> js_trim(x)), x -> x IS NOT NULL AND x <> ''), (x, i) -> list_position(list_filter(list_transform(l, y -> js_trim(y)), y -> y IS NOT NULL AND y <> ''), x) = i);
CREATE OR REPLACE MACRO joined(l, n) AS clean(array_to_string(list_filter(list_transform(l, v -> clean(v, n)), v -> v <> ''), '; '), n);
CREATE OR REPLACE MACRO fold_terms(t) AS CASE WHEN strlen(t) = length(t) THEN regexp_replace(lower(t), '[^a-z0-9]+', ' ', 'g')
  WHEN regexp_matches(t, '${COMPAT}') THEN ori_fold(t)
  ELSE regexp_replace(regexp_replace(lower(strip_accents(t)), '\\p{M}+', '', 'g'), '[^\\p{L}\\p{N}]+', ' ', 'g') END;
CREATE OR REPLACE MACRO fold_mixed(t) AS regexp_replace(lower(t), '[^a-z0-9\\x{80}-\\x{10ffff}]+', ' ', 'g');
CREATE OR REPLACE MACRO about_text(t) AS t IS NOT NULL AND regexp_matches(fold_terms(t), ${lit(ABOUT_PATTERNS.all)});
CREATE OR REPLACE MACRO ca_names(au) AS js_distinct(flatten(list_transform(au, x -> list_transform(list_filter(x.institutions, i -> upper(i.country_code) = 'CA'), i -> coalesce(i.display_name, '')))));
CREATE OR REPLACE MACRO funder_names(fs, aw, gr) AS js_distinct(flatten([list_transform(fs, f -> f.display_name), list_transform(aw, f -> f.funder_display_name), list_transform(gr, f -> f.funder_display_name)]));
CREATE OR REPLACE MACRO funder_ids(fs, aw, gr) AS flatten([list_transform(fs, f -> short_id(f.id)), list_transform(aw, f -> short_id(f.funder_id)), list_transform(gr, f -> short_id(f.funder))]);
-- The abstract's folded terms in word order (positions ascending, a tie in index order).
CREATE OR REPLACE MACRO abstract_words(idx) AS fold_mixed(array_to_string(list_select(list_transform(map_keys(idx), k -> CASE WHEN strlen(k) = length(k) THEN k ELSE fold_terms(k) END),
  list_transform(list_sort(flatten(list_transform(map_values(idx), (v, i) -> list_transform(v, p -> p * 1000000 + i)))), k -> k % 1000000)), ' '));
`;

/** Registers `ori_fold(text)`: the text's folded terms (contracts/frame/title-terms.ts) joined by spaces, and the rules' macros. */
export async function registerRules(duck: DuckHolder): Promise<void> {
  registerTextFunction(duck, 'ori_fold', (text) => textTerms(text).join(' '));
  await duck.connection.run(MACROS);
}

const quoted = (c: string) => `"${c.replaceAll('"', '""')}"`;

/**
 * read_json over a JSON Lines file (gzipped or not), strict: a malformed line fails the read. `large`: lines
 * up to 64 MiB (DuckDB's default, 16 MiB, keeps its buffers and so the resident memory small).
 */
export function jsonSource(path: string, large = false): string {
  const cols = Object.entries(RECORD_COLUMNS).map(([k, t]) => `${lit(k)}: ${lit(t)}`);
  return `read_json(${lit(path)}, format = 'newline_delimited', records = true, columns = {${cols.join(', ')}}, hive_partitioning = false${large ? ', maximum_object_size = 67108864' : ''})`;
}

/**
 * A Parquet file as the same columns: scalars as JSON, the inverted index from JSON text or a map, the nested
 * columns cast by name to the declared types (keys the file lacks are null, others dropped) or, when `viaJson`
 * (the file's types do not cast), through JSON. `present`: the file's columns and their types (DESCRIBE).
 */
export function parquetSource(path: string, present: Map<string, string>, viaJson = false): string {
  const cols = Object.entries(RECORD_COLUMNS).map(([k, t]) => {
    if (!present.has(k)) return `NULL::${t.startsWith('MAP(') ? 'JSON' : t} AS ${quoted(k)}`;
    if (t === 'VARCHAR') return `${quoted(k)}::VARCHAR AS ${quoted(k)}`;
    if (t === 'JSON') return `to_json(${quoted(k)}) AS ${quoted(k)}`;
    // The inverted index stays as the file holds it here: rulesSql converts it for the rows in the window only.
    if (t.startsWith('MAP(')) return `${/^(VARCHAR|JSON)$/.test(present.get(k)!) ? `${quoted(k)}::JSON` : `to_json(${quoted(k)})`} AS ${quoted(k)}`;
    if (viaJson) return `json_transform(to_json(${quoted(k)}), ${lit(JSON.stringify(t))}) AS ${quoted(k)}`;
    return `${quoted(k)}::${t} AS ${quoted(k)}`;
  });
  return `(SELECT ${cols.join(', ')} FROM read_parquet(${lit(path)}, hive_partitioning = false))`;
}

export interface RuleLists {
  funderIds: readonly string[];
  sourceIds: readonly string[];
  excludeXpac: boolean;
  /** Publication years admitted (inclusive), a title required; null: any year, no title needed. Default FRAME_YEARS. */
  window?: { from: number; to: number } | null;
}

const idList = (ids: readonly string[]) => (ids.length === 0 ? `[]::VARCHAR[]` : `[${ids.map(lit).join(', ')}]`);
const WORK_COLUMNS = TABLES.works.columns.map((c) => c.name);

/**
 * The rules query over a source (jsonSource, or parquetSource with `lazyIndex`: its inverted index is JSON,
 * made a map for the records in the window only). Each costly value is computed under a CASE on
 * the rows that need it: outside the window only the window test runs, cells only for admitted records.
 * `select`: the last SELECT, over CTE `w` (default: the rows described above).
 */
export function rulesSql(source: string, o: RuleLists, lazyIndex = false, select?: string): string {
  const window = o.window === undefined ? FRAME_YEARS : o.window;
  const strCols = ['updated_date', 'title', 'display_name', 'publication_date', 'doi', 'language', 'type'];
  return `
WITH h AS (
  SELECT *,
    -- The bare id (W + digits) when the id is a work id; the trimming regex only for an id that needs it.
    CASE WHEN regexp_matches(id, '^(https://openalex\\.org/)?W[1-9][0-9]{0,14}$', 'i') THEN 'W' || regexp_extract(id, '([0-9]+)$', 1)
         WHEN regexp_matches(js_trim(id), '^(https://openalex\\.org/)?W[1-9][0-9]{0,14}$', 'i') THEN 'W' || regexp_extract(js_trim(id), '([0-9]+)$', 1) END AS wid,
    ${o.excludeXpac ? `coalesce(json_type(is_xpac) = 'BOOLEAN' AND is_xpac::BOOLEAN, false)` : 'false'} AS xpac,
    coalesce(js_str(title), js_str(display_name)) AS t0,
    CASE WHEN is_int(publication_year) THEN publication_year::DOUBLE::BIGINT
         WHEN regexp_matches(js_str(publication_date), '^[0-9]{4}') THEN left(js_str(publication_date), 4)::BIGINT END AS yr
  FROM ${source}
), a AS (
  SELECT *, wid IS NOT NULL AS id_ok, wid IS NOT NULL AND NOT xpac AND ${window ? `coalesce(yr BETWEEN ${window.from} AND ${window.to} AND regexp_matches(t0, '[^${WS}]'), false)` : 'true'} AS live FROM h
), a2 AS (
  SELECT * REPLACE (CASE WHEN live THEN ${lazyIndex ? `json_transform(abstract_inverted_index, '"MAP(VARCHAR, BIGINT[])"')` : 'abstract_inverted_index'} END AS abstract_inverted_index) FROM a
), b AS (
  SELECT *, CASE WHEN live THEN NOT (${strCols.map((c) => `typed(${c}, 'VARCHAR')`).join(' AND ')}
      AND (publication_year IS NULL OR json_type(publication_year) = 'NULL' OR is_int(publication_year))
      AND (cited_by_count IS NULL OR json_type(cited_by_count) = 'NULL' OR (is_int(cited_by_count) AND cited_by_count::DOUBLE >= 0))
      AND typed(is_retracted, 'BOOLEAN') AND typed(is_xpac, 'BOOLEAN')
      AND NOT has_null(authorships) AND NOT has_null(funders) AND NOT has_null(awards) AND NOT has_null(grants)
      AND NOT coalesce(list_bool_or(list_transform(keywords, k -> k IS NULL OR k.display_name IS NULL)), false)
      AND NOT coalesce(list_bool_or(list_transform(authorships, x -> has_null(x.institutions) OR has_null(x.countries))), false)
      AND NOT has_null(map_values(abstract_inverted_index)) AND NOT has_null(positions)
      AND coalesce(list_min(positions) >= 0 AND list_max(positions) <= 1000000, true)
    ) END AS schema_bad
  FROM (SELECT *, CASE WHEN live THEN flatten(map_values(abstract_inverted_index)) END AS positions FROM a2)
), c AS (
  SELECT *, live AND NOT schema_bad AND js_str(type) IS DISTINCT FROM 'grant' AS routed FROM b
), d AS (
  SELECT *,
    CASE WHEN routed THEN list_transform(authorships, x -> any_true(list_transform(x.institutions, i -> upper(i.country_code) = 'CA')) OR any_true(list_transform(x.countries, k -> upper(k) = 'CA'))) END AS ca,
    CASE WHEN routed THEN coalesce(list_has_any(funder_ids(funders, awards, grants), ${idList(o.funderIds)}), false) END AS fund,
    CASE WHEN routed THEN coalesce(primary_location.source, CASE WHEN host_venue.id IS NOT NULL AND host_venue.id <> '' THEN host_venue END) END AS src,
    CASE WHEN routed THEN js_distinct(list_transform(keywords, k -> k.display_name)) END AS kws,
    CASE WHEN routed THEN coalesce(len(positions), 0) END AS npos,
    -- The tokens placed at some position (almost always all of them).
    CASE WHEN NOT routed THEN NULL WHEN NOT list_contains(map_values(abstract_inverted_index), []::BIGINT[]) THEN map_keys(abstract_inverted_index)
      ELSE list_transform(list_filter(map_entries(abstract_inverted_index), e -> len(e.value) > 0), e -> e.key) END AS placed
  FROM c
), e AS (
  SELECT *,
    CASE WHEN routed THEN array_to_string(placed, ' ') END AS joined
  FROM d
), e2 AS (
  SELECT *,
    CASE WHEN routed THEN npos BETWEEN 1 AND 20000 AND regexp_matches(joined, '[^${WS}]') END AS has_abstract,
    -- The abstract's terms in index order: its ASCII words folded at once, the few others one by one.
    CASE WHEN NOT routed THEN NULL WHEN strlen(joined) = length(joined) THEN fold_mixed(joined)
      ELSE fold_mixed(regexp_replace(joined, '${NON_ASCII_WORD}', ' ', 'g')) || ' ' || array_to_string(list_transform(regexp_extract_all(joined, '${NON_ASCII_WORD}'), k -> fold_terms(k)), ' ') END AS tokens
  FROM e
), f AS (
  SELECT *,
    CASE WHEN routed THEN any_true(ca) END AS aff,
    CASE WHEN routed THEN coalesce(list_contains(${idList(o.sourceIds)}, short_id(src.id)), false) END AS venue,
    -- A CASE, not AND/OR: DuckDB evaluates each branch only on the rows that reach it.
    CASE WHEN NOT routed THEN NULL WHEN about_text(js_trim(t0)) OR any_true(list_transform(kws, k -> about_text(k))) THEN true
      WHEN NOT has_abstract THEN false WHEN regexp_matches(tokens, ${lit(ABOUT_PATTERNS.single)}) THEN true
      WHEN NOT regexp_matches(tokens, ${lit(ABOUT_PATTERNS.key)}) THEN false
      ELSE regexp_matches(abstract_words(abstract_inverted_index), ${lit(ABOUT_PATTERNS.all)}) END AS about
  FROM e2
), g AS (
  SELECT *, coalesce(routed AND (aff OR fund OR venue OR about), false) AS admitted,
    CASE WHEN routed AND (aff OR fund OR venue OR about) THEN nullif(regexp_replace(regexp_replace(js_trim(js_str(doi)), '^https?://(dx\\.)?doi\\.org/', '', 'i'), '^doi:', '', 'i'), '') END AS doi0,
    CASE WHEN routed AND (aff OR fund OR venue OR about) THEN lower(js_trim(coalesce(lower(js_str(language)), ''))) END AS lang0,
    CASE WHEN routed AND (aff OR fund OR venue OR about) THEN lower(js_trim(coalesce(js_str(type), 'other'))) END AS type0,
    CASE WHEN routed AND (aff OR fund OR venue OR about) THEN list_transform(authorships, (x, i) -> struct_pack(
      "author_id" := short_id(x.author.id), "position" := i::VARCHAR, "is_ca" := (any_true(list_transform(x.institutions, n -> upper(n.country_code) = 'CA')) OR any_true(list_transform(x.countries, n -> upper(n) = 'CA')))::VARCHAR, "name" := clean(x.author.display_name, 300),
      "orcid" := coalesce(upper(nullif(regexp_extract(js_trim(x.author.orcid), '([0-9]{4}-[0-9]{4}-[0-9]{4}-[0-9]{3}[0-9X])/?$', 1, 'i'), '')), ''))) END AS auths0
  FROM f
), w AS (
  SELECT *,
    CASE WHEN admitted THEN clean(doi0, 300) END AS doi1,
    CASE WHEN admitted THEN list_filter(auths0, x -> regexp_matches(coalesce(x.author_id, ''), '^A[1-9][0-9]{0,14}$') AND x.name <> '') END AS auths
  FROM g
)
${
  select ??
  `SELECT row_number() OVER () AS line,
  wid AS id,
  coalesce(js_str(updated_date), '') AS updated,
  CASE WHEN NOT id_ok THEN 'bad' WHEN xpac THEN 'xpac' WHEN NOT live THEN 'window' WHEN schema_bad THEN 'bad'
       WHEN NOT routed THEN 'not-publication' WHEN admitted THEN 'in' ELSE 'no-route' END AS why,
  CASE WHEN admitted THEN struct_pack(
    ${WORK_COLUMNS.map((c) => `${quoted(c)} := ${CELLS[c]}`).join(',\n    ')}) END AS work,
  auths,
  CASE WHEN admitted THEN list_concat(list_filter([
    CASE WHEN doi1 <> '' AND NOT regexp_matches(doi1, '^10\\.[0-9]{4,9}/[^${WS}]+$') THEN 'doi-unusable' END,
    CASE WHEN lang0 <> '' AND NOT regexp_matches(lang0, '^[a-z]{2,3}(-[a-z0-9]{1,8})?$') THEN 'lang-unusable' END,
    CASE WHEN NOT regexp_matches(type0, '^[a-z][a-z-]{0,31}$') THEN 'type-unusable' END,
    CASE WHEN length(clean(js_trim(t0), 2000)) < length(squash(js_trim(t0))) THEN 'title-clipped' END], x -> x IS NOT NULL),
    list_transform(range(coalesce(len(auths0), 0) - coalesce(len(auths), 0)), x -> 'authorship-without-author')) END AS notes
FROM w`
}`;
}

/** Each works.csv cell of an admitted record (rows of CTE `w`). */
const CELLS: Record<string, string> = {
  id: 'wid',
  doi: `CASE WHEN doi1 <> '' AND regexp_matches(doi1, '^10\\.[0-9]{4,9}/[^${WS}]+$') THEN doi1 ELSE '' END`,
  title: 'clean(js_trim(t0), 2000)',
  year: 'yr::VARCHAR',
  lang: `CASE WHEN lang0 = '' OR regexp_matches(lang0, '^[a-z]{2,3}(-[a-z0-9]{1,8})?$') THEN lang0 ELSE '' END`,
  type: `CASE WHEN regexp_matches(type0, '^[a-z][a-z-]{0,31}$') THEN type0 ELSE 'other' END`,
  venue: 'clean(src.display_name, 300)',
  topic: 'clean(primary_topic.display_name, 300)',
  field: 'clean(primary_topic.field.display_name, 300)',
  cited_by: `least(10000000, greatest(0, coalesce(trunc(cited_by_count::DOUBLE), 0)))::BIGINT::VARCHAR`,
  is_retracted: `coalesce(is_retracted::BOOLEAN, false)::VARCHAR`,
  has_abstract: 'has_abstract::VARCHAR',
  route_ca_aff: 'aff::VARCHAR',
  route_ca_fund: 'fund::VARCHAR',
  route_ca_venue: 'venue::VARCHAR',
  route_about_ca: 'about::VARCHAR',
  ca_institutions: 'joined(ca_names(authorships), 20000)',
  funders: 'joined(funder_names(funders, awards, grants), 20000)',
  keywords: 'joined(kws, 20000)',
};
