/**
 * Compares a build's frame summary with the published figures of the real frame
 * (../shared/reference/metacan/frame_summary.json), scaled to the build's size. Used by bench:pipeline;
 * also `npx tsx scripts/marginals.ts <build-output dir> <snapshot dir>`. The distinct venues, topics and
 * citation quantiles are read from the snapshot's works.csv (the served database no longer holds every work).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TABLES } from '../contracts/frame/snapshot.ts';
import { lit, openDuck } from '../pipeline/lib/duckdb.ts';

export const REFERENCE = join(import.meta.dirname, '../../shared/reference/metacan/frame_summary.json');

export async function marginalsTable(out: string, snapshot: string): Promise<string> {
  if (!existsSync(REFERENCE)) return `(skipped: ${REFERENCE} is absent)\n`;
  const ref = JSON.parse(readFileSync(REFERENCE, 'utf8')) as Record<string, number>;
  const s = JSON.parse(readFileSync(join(out, 'current/frame/api/v1/stats/summary.json'), 'utf8'));
  const scale = s.works / ref.works!;
  const rows: [string, number, number][] = [
    ['route aff', s.routes.aff, ref.route_ca_aff!],
    ['route fund', s.routes.fund, ref.route_ca_fund!],
    ['route venue', s.routes.venue, ref.route_ca_venue!],
    ['route about', s.routes.about, ref.route_about_ca!],
    ['no_aff', s.no_aff, ref.invisible_to_affiliation!],
    ['no_abstract', s.no_abstract, ref.works! - ref.with_abstract!],
    ['French', s.coverage.french, ref.french!],
    ['with venue', s.coverage.has_venue, ref.with_venue!],
  ];
  let text = '| marginal | this build | published × size ratio | relative difference |\n|---|---:|---:|---:|\n';
  for (const [name, got, published] of rows) {
    const expected = published * scale;
    text += `| ${name} | ${got} | ${Math.round(expected)} | ${((100 * (got - expected)) / expected).toFixed(2)}% |\n`;
  }
  const duck = await openDuck(':memory:');
  try {
    const works = `read_csv(${lit(join(snapshot, TABLES.works.file))}, header = true, all_varchar = true)`;
    const [d] = await duck.all<{ venues: number; topics: number; p50: number; p99: number; max: number }>(
      `SELECT count(DISTINCT nullif(venue, ''))::INTEGER AS venues, count(DISTINCT nullif(topic, ''))::INTEGER AS topics,
              quantile_disc(cited_by::INTEGER, 0.5)::INTEGER AS p50, quantile_disc(cited_by::INTEGER, 0.99)::INTEGER AS p99,
              max(cited_by::INTEGER)::INTEGER AS max FROM ${works}`,
    );
    text += `\nDistinct venues ${d!.venues}, topics ${d!.topics}; citations median ${d!.p50}, 99th percentile ${d!.p99}, max ${d!.max}.\n`;
  } finally {
    duck.close();
  }
  return text;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [out, snapshot] = process.argv.slice(2);
  if (!out || !snapshot || out === '--help' || out === '-h') {
    process.stdout.write('Usage: npx tsx scripts/marginals.ts <build-output dir> <snapshot dir it was built from>\n');
    process.exit(out === '--help' || out === '-h' ? 0 : 2);
  }
  process.stdout.write(await marginalsTable(out, snapshot));
}
