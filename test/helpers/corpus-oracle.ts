/**
 * The corpus oracle: what the generator's ground truth (ground-truth.json, written beside the synthetic
 * articles) says the corpus API must answer, computed in plain TypeScript without any pipeline or server
 * code. Repeated sentences count once per article (DECISIONS.md §5 de-duplication).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface TruthHedge {
  sentence: string;
  section: string;
  phrase: string;
  outcome: 'verified' | 'rejected' | 'unverified';
  band: string | null;
  atThreshold: boolean;
  pValue: { text: string; operator: string; value: number | null; kind: 'value' | 'ns' } | null;
}
interface TruthFile {
  file: string;
  pmcid: string | null;
  doi: string;
  year: number;
  title: string;
  hedges: TruthHedge[];
}

export interface TruthExcerpt extends TruthHedge {
  article: string;
}

export interface CorpusTruth {
  files: TruthFile[];
  /** One per (article, sentence): the first record of a repeated sentence. */
  excerpts: TruthExcerpt[];
}

/** The id the spec gives an article: its PMCID, else "nopmc-" + the first 12 hex digits of sha256("doi:" + doi). */
export function expectedArticleId(f: Pick<TruthFile, 'pmcid' | 'doi'>): string {
  return f.pmcid ?? `nopmc-${createHash('sha256').update(`doi:${f.doi.toLowerCase()}`).digest('hex').slice(0, 12)}`;
}

export function readCorpusTruth(corpusDir: string): CorpusTruth {
  const gt = JSON.parse(readFileSync(join(corpusDir, 'ground-truth.json'), 'utf8')) as { files: TruthFile[] };
  const excerpts: TruthExcerpt[] = [];
  for (const f of gt.files) {
    const seen = new Set<string>();
    for (const h of f.hedges) {
      if (seen.has(h.sentence)) continue;
      seen.add(h.sentence);
      excerpts.push({ ...h, article: expectedArticleId(f) });
    }
  }
  return { files: gt.files, excerpts };
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const v = [...values].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
}

/** The stats figures the truth fixes. */
export function expectedStats(t: CorpusTruth) {
  const verified = t.excerpts.filter((e) => e.outcome === 'verified');
  const exact = verified.filter((e) => e.pValue?.kind === 'value' && (e.pValue.operator === '=' || e.pValue.operator === 'none'));
  const byBand: Record<string, number> = {};
  for (const e of t.excerpts) if (e.band !== null) byBand[e.band] = (byBand[e.band] ?? 0) + 1;
  return {
    articles_scanned: t.files.length,
    articles_without_pmcid: t.files.filter((f) => f.pmcid === null).length,
    articles_with_verified: new Set(verified.map((e) => e.article)).size,
    excerpts: verified.length,
    verifiedExcerptsByBand: byBand,
    median_p: median(exact.map((e) => e.pValue!.value!)),
    median_p_values: exact.length,
  };
}

/** Words as FTS5's unicode61 tokenizer sees them: letters and digits, case and diacritics folded. */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** True when every query word is a word of the text and every quoted phrase a run of its words. */
export function textMatches(text: string, terms: { words: string[] }[]): boolean {
  const w = words(text);
  return terms.every((t) => w.some((_, i) => t.words.every((x, k) => w[i + k] === x)));
}

/** The year of each article id, from the truth's files. */
function yearOfArticle(t: CorpusTruth): Map<string, number> {
  return new Map(t.files.map((f) => [expectedArticleId(f), f.year]));
}

/** `/stats` `by_year` as the truth fixes it: per year, articles, articles with a verified hedge, verified sentences and verified sentences per band. */
export function expectedByYear(t: CorpusTruth) {
  const yearOf = yearOfArticle(t);
  const rows = new Map<number, { articles_scanned: number; with: Set<string>; excerpts: number; bands: Record<string, number> }>();
  const row = (y: number) => {
    let r = rows.get(y);
    if (!r) rows.set(y, (r = { articles_scanned: 0, with: new Set(), excerpts: 0, bands: {} }));
    return r;
  };
  for (const f of t.files) row(f.year).articles_scanned++;
  for (const e of t.excerpts) {
    if (e.outcome !== 'verified') continue;
    const r = row(yearOf.get(e.article)!);
    r.with.add(e.article);
    r.excerpts++;
    if (e.band !== null) r.bands[e.band] = (r.bands[e.band] ?? 0) + 1;
  }
  return [...rows]
    .sort(([a], [b]) => a - b)
    .map(([year, r]) => ({
      year,
      articles_scanned: r.articles_scanned,
      articles_with_verified: r.with.size,
      share_with_verified: r.with.size / r.articles_scanned,
      excerpts: r.excerpts,
      verifiedBands: r.bands,
    }));
}
