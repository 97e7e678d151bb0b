/**
 * Step 3a: the frozen frame-wide JSON documents: `/frame/api/v1/stats/{summary,labels,by-route,by-year,by-field}`,
 * `/findings` and `/predictions`. Each is computed once from the frame database and served as a file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SnapshotManifest } from '../../../contracts/frame/snapshot.ts';
import type { SnapshotRef } from '../../../contracts/frame/snapshot-ref.ts';
import { CATEGORY_ORDER, CATEGORIES, DESIGNS, RETRACTION_STATES, ROUTE_COLUMN, ROUTE_LABEL, ROUTES } from '../../../contracts/frame/vocab.ts';
import type { Duck } from '../../lib/duckdb.ts';

type Doc = Record<string, unknown>;

async function summary(duck: Duck, snapshot: SnapshotRef): Promise<Doc> {
  const [w] = await duck.all<Record<string, number>>(`SELECT count(*)::INTEGER AS works,
      count(*) FILTER (WHERE NOT route_ca_aff)::INTEGER AS no_aff,
      count(*) FILTER (WHERE NOT has_abstract)::INTEGER AS no_abstract,
      count(*) FILTER (WHERE is_retracted)::INTEGER AS retracted_openalex,
      ${ROUTES.map((r) => `count(*) FILTER (WHERE ${ROUTE_COLUMN[r]})::INTEGER AS route_${r}`).join(', ')},
      count(*) FILTER (WHERE venue IS NOT NULL)::INTEGER AS has_venue,
      count(*) FILTER (WHERE has_abstract)::INTEGER AS has_abstract,
      count(*) FILTER (WHERE lang = 'fr')::INTEGER AS french,
      count(*) FILTER (WHERE funders IS NULL)::INTEGER AS no_funder
    FROM works`);
  const [s] = await duck.all<Record<string, number>>(`SELECT count(*)::INTEGER AS screened,
      ${[0, 1, 2, 3].map((k) => `count(*) FILTER (WHERE n_in = ${k})::INTEGER AS n_in_${k}`).join(', ')} FROM screened`);
  const [r] = await duck.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM retractions');
  return {
    meta: { snapshot },
    works: w!.works,
    no_aff: w!.no_aff,
    no_abstract: w!.no_abstract,
    retracted_openalex: w!.retracted_openalex,
    screened: s!.screened,
    retraction_notices: r!.n,
    routes: Object.fromEntries(ROUTES.map((k) => [k, w![`route_${k}`]])),
    screen_consensus: Object.fromEntries([0, 1, 2, 3].map((k) => [`n_in_${k}`, s![`n_in_${k}`]])),
    coverage: {
      has_venue: w!.has_venue,
      has_abstract: w!.has_abstract,
      french: w!.french,
      no_funder: w!.no_funder,
    },
  };
}

async function byRoute(duck: Duck, snapshot: SnapshotRef): Promise<Doc> {
  const [m] = await duck.all<Record<string, number>>(
    `SELECT count(*)::INTEGER AS total, count(*) FILTER (WHERE NOT route_ca_aff)::INTEGER AS no_aff,
     ${ROUTES.map((r) => `count(*) FILTER (WHERE ${ROUTE_COLUMN[r]})::INTEGER AS ${r}`).join(', ')} FROM works`,
  );
  const comboSql = `concat_ws('+', ${ROUTES.map((r) => `CASE WHEN ${ROUTE_COLUMN[r]} THEN '${r}' END`).join(', ')})`;
  const combos = await duck.all<{ combo: string; works: number }>(
    `SELECT ${comboSql} AS combo, count(*)::INTEGER AS works FROM works GROUP BY combo ORDER BY works DESC, combo`,
  );
  return {
    meta: {
      snapshot,
      total: m!.total,
      no_aff: m!.no_aff,
      note: 'Routes are NOT mutually exclusive: a work can be admitted by several, so `marginals` sums to more than `total`. `combinations` counts each work exactly once and sums to `total`.',
    },
    marginals: ROUTES.map((r) => ({ route: r, label: ROUTE_LABEL[r], works: m![r] })),
    combinations: combos.map((c) => ({
      combo: c.combo === '' ? 'none' : c.combo,
      n_routes: c.combo === '' ? 0 : c.combo.split('+').length,
      works: c.works,
    })),
  };
}

async function byYear(duck: Duck, snapshot: SnapshotRef): Promise<Doc> {
  const results = await duck.all(
    `SELECT year::INTEGER AS year, count(*)::INTEGER AS works, count(*) FILTER (WHERE NOT route_ca_aff)::INTEGER AS no_aff,
            count(*) FILTER (WHERE NOT has_abstract)::INTEGER AS no_abstract
     FROM works WHERE year IS NOT NULL GROUP BY year ORDER BY year`,
  );
  const [u] = await duck.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM works WHERE year IS NULL');
  return { meta: { snapshot, points: results.length, works_without_year: u!.n }, results };
}

async function byField(duck: Duck, snapshot: SnapshotRef, total: number): Promise<Doc> {
  // Types small enough to be noise are left out of the abstract-gap table: 1,000 works at full frame size.
  const minTypeWorks = Math.max(1, Math.min(1_000, Math.ceil((total * 1_000) / 4_299_418)));
  const fields = await duck.all(
    `SELECT coalesce(field, 'Unclassified') AS field, count(*)::INTEGER AS works, count(*) FILTER (WHERE NOT has_abstract)::INTEGER AS no_abstract
     FROM works GROUP BY 1 ORDER BY works DESC, field`,
  );
  const languages = await duck.all(
    `SELECT coalesce(lang, 'unknown') AS lang, count(*)::INTEGER AS works, count(*) FILTER (WHERE NOT has_abstract)::INTEGER AS no_abstract
     FROM works GROUP BY 1 ORDER BY works DESC, lang LIMIT 15`,
  );
  const gap = await duck.all<{ type: string; works: number; no_abstract: number }>(
    `SELECT type, count(*)::INTEGER AS works, count(*) FILTER (WHERE NOT has_abstract)::INTEGER AS no_abstract
     FROM works GROUP BY type HAVING count(*) >= ${minTypeWorks} ORDER BY works DESC, type LIMIT 14`,
  );
  const venues = await duck.all('SELECT value AS venue, works FROM facet_venue ORDER BY works DESC, value LIMIT 20');
  const funders = await duck.all(
    `SELECT trim(f) AS funder, count(DISTINCT id)::INTEGER AS works FROM (SELECT id, unnest(string_split(funders, ';')) AS f FROM works WHERE funders IS NOT NULL)
     WHERE trim(f) <> '' GROUP BY 1 ORDER BY works DESC, funder LIMIT 20`,
  );
  const states = await duck.all<{
    nature: string;
    works: number;
    openalex_flagged: number;
    openalex_missed: number;
  }>(
    `SELECT coalesce(nature, 'Unspecified') AS nature, count(*)::INTEGER AS works, count(*) FILTER (WHERE openalex_flagged)::INTEGER AS openalex_flagged,
            count(*) FILTER (WHERE NOT openalex_flagged)::INTEGER AS openalex_missed FROM retractions GROUP BY 1`,
  );
  const order = [...RETRACTION_STATES, 'Unspecified'];
  const retraction_states = order
    .map(
      (nature) =>
        states.find((s) => s.nature === nature) ?? {
          nature,
          works: 0,
          openalex_flagged: 0,
          openalex_missed: 0,
        },
    )
    .filter((s) => s.nature !== 'Unspecified' || s.works > 0);
  return {
    meta: {
      snapshot,
      note: `Languages: top 15. Abstract gap: types with at least ${minTypeWorks} works, top 14. Venues and funders: top 20. Retraction states: the four Retraction Watch states (plus Unspecified when a record has none).`,
    },
    fields,
    languages,
    abstract_gap_by_type: gap.map((g) => ({
      ...g,
      pct_no_abstract: Math.round((1000 * g.no_abstract) / g.works) / 10,
    })),
    top_venues: venues,
    top_funders: funders,
    retraction_states,
  };
}

async function labels(duck: Duck, snapshot: SnapshotRef, frameWorks: number): Promise<Doc> {
  const [c] = await duck.all<{ labeled_works: number; label_rows: number }>(
    'SELECT count(DISTINCT work_id)::INTEGER AS labeled_works, count(*)::INTEGER AS label_rows FROM direct_labels',
  );
  const models = (await duck.all<{ model: string }>('SELECT DISTINCT model FROM direct_labels ORDER BY model')).map((m) => m.model);
  // any_model: at least one labelling model applied the value; all_models: every model that labelled the work did.
  const perValue = async (expr: string, values: readonly string[], key: string) => {
    const rows = await duck.all<{ v: string; any_model: number; all_models: number }>(
      `WITH per AS (SELECT work_id, count(*) AS n, ${values.map((v, k) => `count(*) FILTER (WHERE ${expr.replace('$', `'${v}'`)}) AS c${k}`).join(', ')}
                    FROM direct_labels GROUP BY work_id)
       ${values.map((v, k) => `SELECT '${v}' AS v, count(*) FILTER (WHERE c${k} > 0)::INTEGER AS any_model, count(*) FILTER (WHERE c${k} = n)::INTEGER AS all_models FROM per`).join(' UNION ALL ')}`,
    );
    return rows
      .map((r) => ({ [key]: r.v, any_model: r.any_model, all_models: r.all_models }))
      .sort((a, b) => b.any_model - a.any_model || (String(a[key]) < String(b[key]) ? -1 : String(a[key]) > String(b[key]) ? 1 : 0));
  };
  return {
    meta: {
      snapshot,
      status: 'direct model label, unvalidated',
      note: 'Counts are over the machine-labelled subset only. A work without a label row is unknown, never a negative.',
    },
    coverage: { labeled_works: c!.labeled_works, label_rows: c!.label_rows, frame_works: frameWorks, models },
    by_category: await perValue("list_contains(string_split(coalesce(categories, ''), ';'), $)", CATEGORIES, 'category'),
    by_design: await perValue('study_design = $', DESIGNS, 'design'),
    by_year: await duck.all(
      `SELECT w.year::INTEGER AS year, count(DISTINCT l.work_id)::INTEGER AS labeled FROM direct_labels l JOIN works w ON w.id = l.work_id
       WHERE w.year IS NOT NULL GROUP BY 1 ORDER BY 1`,
    ),
    by_lang: await duck.all(
      `SELECT coalesce(w.lang, 'unknown') AS lang, count(DISTINCT l.work_id)::INTEGER AS labeled FROM direct_labels l JOIN works w ON w.id = l.work_id
       GROUP BY 1 ORDER BY labeled DESC, lang`,
    ),
  };
}

function findings(dir: string, manifest: SnapshotManifest, snapshot: SnapshotRef): Doc {
  const file = manifest.documents.findings.file;
  const f = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
  return {
    meta: {
      snapshot,
      count: Object.keys(f).length,
      source: `snapshots/${manifest.name}/${file}`,
      // A builder's snapshot (provenance) has counts it computed over the frame, not the pilot's machine findings.
      evidence_status: manifest.provenance ? 'computed_from_frame' : 'historical_unvalidated_machine_pilot',
      human_validation: manifest.provenance ? 'not_applicable' : 'pending',
      note: 'The findings file of the snapshot, served verbatim under `findings`.',
    },
    findings: f,
  };
}

async function predictions(duck: Duck, dir: string, manifest: SnapshotManifest, snapshot: SnapshotRef): Promise<Doc> {
  const file = manifest.documents.predictions_report.file;
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    predictions: Record<string, unknown>;
    model: Record<string, unknown>;
  };
  const [counts] = await duck.all<Record<string, number>>(
    `SELECT ${CATEGORY_ORDER.map((c, k) => `count(*) FILTER (WHERE pred_candidate_mask & ${1 << k} <> 0)::INTEGER AS "cand_${c}", count(*) FILTER (WHERE pred_consensus_mask & ${1 << k} <> 0)::INTEGER AS "cons_${c}"`).join(', ')} FROM works`,
  );
  return {
    meta: {
      snapshot,
      sources: {
        predictions: `snapshots/${manifest.name}/${file}`,
        sha256: manifest.documents.predictions_report.sha256,
        predictions_csv_sha256: manifest.tables.predictions.sha256,
      },
      evidence_level: 'machine_not_human_accuracy',
      note: 'Prediction scores measure fidelity to machine teachers, not human accuracy. frame_category_counts are counted from the loaded frame.',
    },
    predictions: {
      ...report.predictions,
      frame_category_counts: Object.fromEntries(CATEGORY_ORDER.map((c) => [c, { candidate: counts![`cand_${c}`], consensus: counts![`cons_${c}`] }])),
    },
    model: report.model,
  };
}

/** The frozen documents keyed by their path below the build directory (URL path + `.json`). */
export async function frameDocuments(duck: Duck, dir: string, manifest: SnapshotManifest, snapshot: SnapshotRef): Promise<Map<string, Doc>> {
  const s = await summary(duck, snapshot);
  const docs = new Map<string, Doc>();
  docs.set('frame/api/v1/stats/summary.json', s);
  docs.set('frame/api/v1/stats/by-route.json', await byRoute(duck, snapshot));
  docs.set('frame/api/v1/stats/by-year.json', await byYear(duck, snapshot));
  docs.set('frame/api/v1/stats/by-field.json', await byField(duck, snapshot, s.works as number));
  docs.set('frame/api/v1/stats/labels.json', await labels(duck, snapshot, s.works as number));
  docs.set('frame/api/v1/findings.json', findings(dir, manifest, snapshot));
  docs.set('frame/api/v1/predictions.json', await predictions(duck, dir, manifest, snapshot));
  return docs;
}
