/** The screening sample: a filtered page of screened works and the (cached) whole-sample summary. */
import { lit } from '../../../../contracts/common/sql.ts';
import { type ScreenedQuery, type ScreenRow, screenSummary } from '../../../../contracts/frame/screened.ts';
import { SCREEN_MODELS } from '../../../../contracts/frame/vocab.ts';
import type { Build } from '../build-store.ts';
import { rows } from './query.ts';

const summaries = new WeakMap<Build, ReturnType<typeof screenSummary>>();

export async function sampleSummary(build: Build) {
  let s = summaries.get(build);
  if (!s) {
    const all = await rows<Record<string, unknown>>(
      build,
      `SELECT stratum, stratum_n::INTEGER AS stratum_n, weight, n_in::INTEGER AS n_in, ${SCREEN_MODELS.map((m) => `${m}_tier`).join(', ')} FROM screened ORDER BY work_id`,
    );
    s = screenSummary(
      all.map((r): ScreenRow => ({
        stratum: r.stratum as string,
        stratum_n: r.stratum_n as number,
        weight: r.weight as number,
        n_in: r.n_in as number,
        tiers: SCREEN_MODELS.map((m) => r[`${m}_tier`] as string),
      })),
    );
    summaries.set(build, s);
  }
  return s;
}

export async function screenedPage(build: Build, q: ScreenedQuery) {
  const where: string[] = [];
  if (q.contested_only) where.push('s.n_in >= 1');
  if (q.n_in !== undefined) where.push(`s.n_in = ${q.n_in}`);
  if (q.stratum) where.push(`s.stratum = ${lit(q.stratum)}`);
  const cond = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const [{ n } = { n: 0 }] = await rows<{ n: number }>(build, `SELECT count(*)::INTEGER AS n FROM screened s ${cond}`);
  // The page is cut from the screened table first; only its works are then looked up, by a literal id list,
  // in screened_works (the served database keeps the bibliographic columns of the screened works only).
  const screenRows = await rows<Record<string, unknown>>(
    build,
    `SELECT * FROM screened s ${cond} ORDER BY s.n_in DESC, s.work_id LIMIT ${q.per_page} OFFSET ${(q.page - 1) * q.per_page}`,
  );
  const ids = screenRows.map((r) => lit(r.work_id as string));
  const works =
    ids.length === 0
      ? []
      : await rows<Record<string, unknown>>(
          build,
          `SELECT id, title, year::INTEGER AS year, lang, type, venue, topic, field FROM screened_works WHERE id IN (${ids.join(', ')})`,
        );
  const workOf = new Map(works.map((w) => [w.id as string, w]));
  const page = screenRows.map((r) => ({ ...r, ...workOf.get(r.work_id as string) }));
  const results = page.map((r) => ({
    id: r.work_id,
    title: r.title,
    year: r.year ?? null,
    lang: r.lang ?? null,
    type: r.type,
    venue: r.venue ?? null,
    topic: r.topic ?? null,
    field: r.field ?? null,
    stratum: r.stratum,
    stratum_n: Number(r.stratum_n),
    weight: r.weight,
    n_in: Number(r.n_in),
    ...Object.fromEntries(
      SCREEN_MODELS.map((m) => [
        m,
        {
          tier: r[`${m}_tier`],
          genre: r[`${m}_genre`] ?? null,
          about_ca: r[`${m}_about_ca`],
          confidence: r[`${m}_confidence`],
          reasons: r[`${m}_reason`] ?? null,
        },
      ]),
    ),
  }));
  return { total: n, results };
}
