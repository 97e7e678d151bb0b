/**
 * A cohort's canonical filters in words, for people: "route: no Canadian affiliation; language: French;
 * years 2015–2020". It reads the filters parseCohortQuery() produced (never the raw query), so two spellings
 * of one cohort read the same.
 */
import type { CohortFilters } from '../../../../contracts/frame/cohort-query.ts';
import { ROUTE_LABEL, ROUTES } from '../../../../contracts/frame/vocab.ts';
import { fmt } from '../format.ts';

const LANGUAGES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
const words = (s: string) => s.replaceAll('_', ' ');

/** "French" for `fr`; the code itself when the runtime knows no name for it. */
export function languageName(code: string): string {
  try {
    return LANGUAGES.of(code) ?? code;
  } catch {
    return code;
  }
}

/** Where category and design come from, in words (the label options only qualify those two). */
function evidence(f: CohortFilters): string {
  if (f.label_source === 'predicted') return f.prediction_mode === 'consensus' ? 'predicted, both teachers' : 'predicted, either teacher';
  return f.agreement === 'all' ? 'direct labels, every labelling model' : 'direct labels, any model';
}

/** One phrase per filter, in the canonical order; empty for the whole frame. */
export function filterPhrases(f: CohortFilters): string[] {
  const out: string[] = [];
  if (f.q !== undefined) out.push(`title has the words “${f.q}”`);
  if (f.author !== undefined) out.push(`an author’s name has the words “${f.author}”`);
  if (f.author_id !== undefined) out.push(`author ${f.author_id}`);
  if (f.year_from !== undefined && f.year_to !== undefined) out.push(f.year_from === f.year_to ? `year ${f.year_from}` : `years ${f.year_from}–${f.year_to}`);
  else if (f.year_from !== undefined) out.push(`years ${f.year_from} and later`);
  else if (f.year_to !== undefined) out.push(`years up to ${f.year_to}`);
  if (f.cited_min !== undefined) out.push(`cited at least ${fmt(f.cited_min)} ${f.cited_min === 1 ? 'time' : 'times'}`);
  if (f.lang !== undefined) out.push(`language: ${languageName(f.lang)}`);
  if (f.type !== undefined) out.push(`type: ${f.type}`);
  if (f.field !== undefined) out.push(`field: ${f.field}`);
  if (f.topic !== undefined) out.push(`topic: ${f.topic}`);
  if (f.venue !== undefined) out.push(`venue: ${f.venue}`);
  for (const r of ROUTES) {
    const v = f[`route_${r}`];
    if (v === true) out.push(`route: ${ROUTE_LABEL[r]}`);
    else if (v === false) out.push(`route: no ${ROUTE_LABEL[r]}`);
  }
  if (f.retracted === true) out.push('retracted works only');
  else if (f.retracted === false) out.push('no retracted works');
  if (f.abstract === 'has') out.push('with an abstract');
  else if (f.abstract === 'none') out.push('without an abstract');
  if (f.n_in !== undefined) out.push(`screened, ${f.n_in} of 3 models said metaresearch`);
  if (f.category !== undefined) out.push(`category: ${words(f.category)} (${evidence(f)})`);
  if (f.design !== undefined) out.push(`study design: ${words(f.design)} (${evidence(f)})`);
  if (f.labeled === true) out.push('has direct labels');
  else if (f.labeled === false) out.push('no direct labels');
  return out;
}

/** The phrases joined; "the whole frame" when there is no filter. */
export function filtersInWords(f: CohortFilters): string {
  const p = filterPhrases(f);
  return p.length === 0 ? 'the whole frame' : p.join('; ');
}
