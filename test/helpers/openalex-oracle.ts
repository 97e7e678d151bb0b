/**
 * An oracle for the OpenAlex snapshot builder, written apart from it: plain TypeScript over the raw JSON
 * records, one rule at a time (research/metacan.md §5), with its own id, text and lexicon handling. It shares
 * only the lexicon's entries (data) with the code under test, not the matching.
 */
import { ABOUT_CANADA_LEXICON } from '../../contracts/frame/about-canada.ts';

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface OracleRecord {
  rec: J;
  file: string;
  line: number;
}

export interface ExpectedWork {
  id: string;
  cells: Record<string, string>;
  routes: { aff: boolean; fund: boolean; venue: boolean; about: boolean };
  authorships: { author_id: string; position: number; is_ca: boolean; name: string }[];
}

const tail = (url: unknown): string => (typeof url === 'string' ? (url.split('/').pop() ?? '') : '');
const squash = (s: unknown): string => (typeof s === 'string' ? s.split(/\s+/).filter(Boolean).join(' ') : '');
const uniq = (xs: string[]): string[] => {
  const out: string[] = [];
  for (const x of xs.map(squash)) if (x !== '' && !out.includes(x)) out.push(x);
  return out;
};

function words(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

function containsPhrase(tokens: string[], phrase: string[]): boolean {
  outer: for (let i = 0; i + phrase.length <= tokens.length; i++) {
    for (let k = 0; k < phrase.length; k++) if (tokens[i + k] !== phrase[k]) continue outer;
    return true;
  }
  return false;
}

function abstractText(index: unknown): string {
  if (!index || typeof index !== 'object') return '';
  const slots: [number, string][] = [];
  for (const [w, ps] of Object.entries(index as Record<string, number[]>)) for (const p of ps) slots.push([p, w]);
  return slots
    .sort((a, b) => a[0] - b[0])
    .map((s) => s[1])
    .join(' ');
}

/** Tier A or Tier B entry in the title, the abstract or a keyword (each text on its own). */
export function aboutCanadaOracle(texts: string[]): boolean {
  const tokenised = texts.map(words);
  return ABOUT_CANADA_LEXICON.filter((e) => e.tier !== 'C').some((e) => tokenised.some((t) => containsPhrase(t, e.entry.split(' '))));
}

/** Latest updated_date wins; then the later file (in file order), then the later line. */
export function latestVersions(records: OracleRecord[], fileOrder: string[]): Map<string, OracleRecord> {
  const win = new Map<string, OracleRecord>();
  const rank = (r: OracleRecord) => [String(r.rec.updated_date ?? ''), fileOrder.indexOf(r.file), r.line] as const;
  for (const r of records) {
    const id = tail(r.rec.id);
    const prev = win.get(id);
    if (!prev) {
      win.set(id, r);
      continue;
    }
    const [a, b] = [rank(r), rank(prev)];
    if (a[0] > b[0] || (a[0] === b[0] && (a[1] > b[1] || (a[1] === b[1] && a[2] > b[2])))) win.set(id, r);
  }
  return win;
}

/** What the frame holds for one record under the pinned lists, or null when the frame leaves it out. */
export function expectedWork(rec: J, lists: { funders: Set<string>; sources: Set<string> }): ExpectedWork | null {
  const title = squash(rec.title ?? rec.display_name);
  const year = typeof rec.publication_year === 'number' ? rec.publication_year : null;
  if (title === '' || year === null || year < 2000 || year > 2025 || rec.type === 'grant') return null;
  const auths: J[] = rec.authorships ?? [];
  const caInst = (i: J) => String(i.country_code ?? '').toUpperCase() === 'CA';
  const authorIsCa = (a: J) => (a.institutions ?? []).some(caInst) || (a.countries ?? []).some((c: string) => c.toUpperCase() === 'CA');
  const aff = auths.some(authorIsCa);
  const funderIds = [
    ...(rec.funders ?? []).map((f: J) => tail(f.id)),
    ...(rec.awards ?? []).map((a: J) => tail(a.funder_id)),
    ...(rec.grants ?? []).map((g: J) => tail(g.funder)),
  ];
  const fund = funderIds.some((id: string) => lists.funders.has(id));
  const source = rec.primary_location?.source ?? (rec.host_venue?.id ? rec.host_venue : null);
  const venue = source ? lists.sources.has(tail(source.id)) : false;
  const keywords = uniq((rec.keywords ?? []).map((k: J) => k.display_name));
  const abstract = abstractText(rec.abstract_inverted_index);
  const about = aboutCanadaOracle([title, abstract, ...keywords]);
  if (!aff && !fund && !venue && !about) return null;
  const id = tail(rec.id);
  const doi = typeof rec.doi === 'string' ? rec.doi.replace('https://doi.org/', '') : '';
  const cells: Record<string, string> = {
    id,
    doi: /^10\.\d{4,9}\/\S+$/.test(doi) ? doi : '',
    title,
    year: String(year),
    lang: typeof rec.language === 'string' ? rec.language.toLowerCase() : '',
    type: rec.type ?? 'other',
    venue: squash(source?.display_name),
    topic: squash(rec.primary_topic?.display_name),
    field: squash(rec.primary_topic?.field?.display_name),
    cited_by: String(rec.cited_by_count ?? 0),
    is_retracted: String(rec.is_retracted === true),
    has_abstract: String(abstract.trim() !== ''),
    route_ca_aff: String(aff),
    route_ca_fund: String(fund),
    route_ca_venue: String(venue),
    route_about_ca: String(about),
    ca_institutions: uniq(auths.flatMap((a) => (a.institutions ?? []).filter(caInst).map((i: J) => i.display_name))).join('; '),
    funders: uniq([
      ...(rec.funders ?? []).map((f: J) => f.display_name),
      ...(rec.awards ?? []).map((a: J) => a.funder_display_name),
      ...(rec.grants ?? []).map((g: J) => g.funder_display_name),
    ]).join('; '),
    keywords: keywords.join('; '),
  };
  const authorships = auths
    .map((a, k) => ({ author_id: tail(a.author?.id), position: k + 1, is_ca: authorIsCa(a), name: squash(a.author?.display_name) }))
    .filter((a) => /^A\d+$/.test(a.author_id) && a.name !== '');
  return { id, cells, routes: { aff, fund, venue, about }, authorships };
}
