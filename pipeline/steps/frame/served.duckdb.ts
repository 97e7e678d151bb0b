/**
 * The served frame database, `frame/frame.duckdb`: only what the server queries at serve time.
 * The full working database (every snapshot table and the derived ones) is built in the temporary build
 * directory, read by the cohort-index, frozen-JSON and work-record steps, and deleted before publishing;
 * everything else the server answers comes from the cohort index and the frozen documents.
 *
 * What is kept, and which SQL reads it (api-dynamic/src/services/frame/):
 *   screened                 the screening sample, every column           screened.ts, abstracts.ts
 *   screened_works           the bibliographic columns /screened shows,   screened.ts
 *                            for the screened works only (not 4.3M titles)
 *   network_meta             the density guard and the graph's size       network.ts
 *   network_overview_edges   the overview graph's edges, in its order     network.ts
 *   network_authors          the overview graph's nodes                   network.ts
 * The neighbourhood of one researcher comes from the cohort index, not from here.
 */
import { OVERVIEW_EDGES } from '../../../contracts/frame/network.ts';
import { type Duck, lit } from '../../lib/duckdb.ts';

/** The served tables, each built from the full database attached as `working`. */
export const SERVED_TABLES: readonly [name: string, sql: string][] = [
  ['screened', 'SELECT * FROM working.screened ORDER BY work_id'],
  [
    'screened_works',
    `SELECT w.id, w.title, w.year, w.lang, w.type, w.venue, w.topic, w.field
     FROM working.works w SEMI JOIN working.screened s ON s.work_id = w.id ORDER BY w.id`,
  ],
  [
    'network_meta',
    `SELECT m.max_ca_authors, m.works_excluded, m.works_included,
            (SELECT count(*) FROM working.authors WHERE ca_works > 0)::INTEGER AS ca_authors,
            (SELECT count(*) FROM working.ca_neighbours WHERE author < other)::INTEGER AS ca_edges
     FROM working.ca_edge_meta m`,
  ],
  [
    'network_overview_edges',
    `SELECT author AS a, other AS b, shared_works, weight FROM working.ca_neighbours WHERE author < other
     ORDER BY weight DESC, shared_works DESC, a, b LIMIT ${OVERVIEW_EDGES}`,
  ],
  [
    'network_authors',
    `SELECT id, name, ca_works FROM working.authors
     WHERE id IN (SELECT a FROM network_overview_edges UNION SELECT b FROM network_overview_edges) ORDER BY id`,
  ],
];

/**
 * Writes the served tables into `served` (an open, empty database) from the full database at `fullPath`.
 * Table order matters: network_authors reads network_overview_edges.
 */
export async function writeServedDatabase(served: Duck, fullPath: string): Promise<void> {
  await served.run(`ATTACH ${lit(fullPath)} AS working (READ_ONLY)`);
  try {
    for (const [name, sql] of SERVED_TABLES) await served.run(`CREATE TABLE ${name} AS ${sql}`);
  } finally {
    await served.run('DETACH working');
  }
  await served.run('CHECKPOINT');
}
