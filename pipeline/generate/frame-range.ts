/**
 * Generates the works in [start, end) of a synthetic frame into part files: works, authorships, direct
 * labels, predictions, retractions and legacy scores. Each work draws from its own seeded stream, so the
 * bytes do not depend on how the frame is split into ranges.
 */
import { join } from 'node:path';
import { CATEGORY_ORDER, SCREEN_MODELS } from '../../contracts/frame/vocab.ts';
import { CsvFileWriter, csvCell } from '../lib/csv-writer.ts';
import {
  CATEGORY_BASE,
  DESIGNS,
  DOMAINS,
  FUNDER_GIVEN_NOT_FUND_ROUTE,
  GENRES,
  LANGS,
  MODEL_VERSION,
  NO_AFF_COMBOS,
  RATES,
  RETRACTION_NATURE_FLAGGED,
  RETRACTION_NATURE_RW_ONLY,
  ROUTES_GIVEN_AFF,
  SIZES,
  THRESHOLDS,
  TYPES,
  VENUE_GIVEN_NOT_VENUE_ROUTE,
  YEARS,
} from './model.ts';
import { Rng, Zipf } from './prng.ts';
import { ABOUT_CA_TERMS, CA_FUNDERS, CA_INSTITUTIONS, FIELDS, KEYWORDS, OTHER_FUNDERS, TITLE_HEAD, tailWord, topicName, venueName } from './words.ts';

export interface GenerateOptions {
  seed: number;
  works: number;
}

/** Per-work flags kept for the second pass (screen sampling): bit 0 latent metaresearch, bit 1 has_abstract,
 * bits 2..4 stratum index (contracts/frame/vocab.ts STRATA order), bits 5..8 routes about, aff, fund, venue. */
export const FLAG_META = 1;
export const FLAG_ABSTRACT = 2;
export const FLAG_ABOUT = 32;
export const FLAG_AFF = 64;
export const FLAG_FUND = 128;
export const FLAG_VENUE = 256;

export const RANGE_FILES = ['works', 'authorships', 'direct_labels', 'predictions', 'retractions', 'legacy_scores'] as const;

/** Streams of the per-work generators; distinct so that adding a draw to one does not shift another. */
export const STREAM = { work: 1, screen: 6, author: 7, recent: 8, topicField: 9, sample: 5 } as const;

/** A stable 32-bit hash of an integer (no Math.random, no state). */
export function hash32(x: number): number {
  let h = Math.imul(x ^ 0x5bd1e995, 0x27d4eb2d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x165667b1);
  return (h ^ (h >>> 13)) >>> 0;
}

export const workIdOf = (i: number): string => `W${2_000_000_000 + i * 13 + (hash32(i) % 13)}`;
export const authorIdOf = (k: number): string => `A${5_000_000_000 + k * 7 + (hash32(k + 77) % 7)}`;

/** Sizes derived from the frame size, so small samples still exercise every table. */
export function plan(works: number) {
  const authorPool = Math.max(5_000, Math.round(works * 1.3));
  return {
    authorPool,
    caAuthors: Math.round(authorPool * 0.35),
    labelRate: Math.min(0.05, Math.max(0.003, 600 / works)),
    retractRate: Math.max(1_584 / 4_299_418, 30 / works),
    rwOnlyRate: Math.max(143 / 4_299_418, 8 / works),
    hyperRate: Math.max(0.0003, 5 / works),
  };
}

/** Strings for every score in thousandths, so formatting a score is a table lookup. */
const PERMILLE: string[] = Array.from({ length: 1001 }, (_, k) => String(k / 1000));
const permille = (x: number): number => Math.max(0, Math.min(1000, Math.round(x * 1000)));

/** Shared lookup tables, built once per thread. */
export class Tables {
  readonly head = new Zipf(TITLE_HEAD.length, 1.0);
  readonly tail = new Zipf(SIZES.tailWords, 1.0);
  readonly venue = new Zipf(SIZES.venues, 1.05);
  readonly caVenue = new Zipf(Math.ceil(SIZES.venues / SIZES.canadianVenueEvery), 1.0);
  readonly topic = new Zipf(SIZES.topics, 0.9);
  readonly institution = new Zipf(CA_INSTITUTIONS.length, 1.0);
  readonly keyword = new Zipf(KEYWORDS.length, 0.8);
  readonly design = new Zipf(DESIGNS.length, 0.8);
  readonly fieldOfTopic: Uint8Array;
  readonly caAuthor: Zipf;
  readonly otherAuthor: Zipf;
  constructor(
    readonly options: GenerateOptions,
    readonly p: ReturnType<typeof plan>,
  ) {
    const fieldZipf = new Zipf(FIELDS.length, 0.7);
    this.fieldOfTopic = new Uint8Array(SIZES.topics);
    for (let t = 0; t < SIZES.topics; t++) this.fieldOfTopic[t] = fieldZipf.draw(new Rng(options.seed, STREAM.topicField, t));
    this.caAuthor = new Zipf(p.caAuthors, 0.5);
    this.otherAuthor = new Zipf(p.authorPool - p.caAuthors, 0.5);
  }
}

export interface Bibliographic {
  title: string;
  year: number;
  lang: string;
  type: string;
  venue: string;
  topic: string;
  field: string;
  cited_by: number;
  is_retracted: boolean;
  has_abstract: boolean;
  aff: boolean;
  fund: boolean;
  venueRoute: boolean;
  about: boolean;
  ca_institutions: string;
  funders: string;
  keywords: string;
  doi: string;
}

function title(rng: Rng, t: Tables, about: boolean): string {
  const n = rng.range(6, 15);
  const words: string[] = [];
  for (let k = 0; k < n; k++) words.push(rng.chance(0.6) ? TITLE_HEAD[t.head.draw(rng)]! : tailWord(t.tail.draw(rng)));
  if (about && rng.chance(0.7)) words.splice(rng.int(words.length + 1), 0, 'in', rng.pick(ABOUT_CA_TERMS));
  if (rng.chance(0.05)) words.splice(rng.range(2, words.length), 0, ':');
  if (rng.chance(0.01)) {
    const k = rng.int(words.length);
    words[k] = `"${words[k]}"`;
  }
  let s = words.join(' ').replaceAll(' :', ':');
  s = s.charAt(0).toUpperCase() + s.slice(1);
  // A few titles start with a spreadsheet formula character: exports must defuse them.
  if (rng.chance(0.0003)) s = `${rng.pick(['=', '+', '-', '@'])}${s}`;
  return s;
}

function distinctPicks(n: number, draw: () => number): number[] {
  const out: number[] = [];
  for (let tries = 0; out.length < n && tries < n * 4; tries++) {
    const v = draw();
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

/** The bibliographic record of one work, shared by the frame and the recent layer. */
export function bibliographic(rng: Rng, t: Tables, retractRate: number, fixedYear?: number): Bibliographic {
  const aff = rng.chance(RATES.aff);
  let fund: boolean;
  let venueRoute: boolean;
  let about: boolean;
  if (aff) {
    fund = rng.chance(ROUTES_GIVEN_AFF.fund);
    venueRoute = rng.chance(ROUTES_GIVEN_AFF.venue);
    about = rng.chance(ROUTES_GIVEN_AFF.about);
  } else {
    [fund, venueRoute, about] = NO_AFF_COMBOS.draw(rng);
  }
  const year = fixedYear ?? YEARS.draw(rng);
  const lang = LANGS.draw(rng);
  const type = TYPES.draw(rng);
  let venue = '';
  if (venueRoute) venue = venueName(t.caVenue.draw(rng) * SIZES.canadianVenueEvery);
  else if (rng.chance(VENUE_GIVEN_NOT_VENUE_ROUTE)) {
    let k = t.venue.draw(rng);
    if (k % SIZES.canadianVenueEvery === 0) k += 1;
    venue = venueName(k);
  }
  let topic = '';
  let field = '';
  if (!rng.chance(0.004)) {
    const k = t.topic.draw(rng);
    topic = topicName(k);
    field = FIELDS[t.fieldOfTopic[k]!]!;
  }
  const age = 2026 - year;
  const cited = Math.floor(Math.exp(0.3 + 0.6 * Math.log(1 + age) + 1.3 * rng.normal())) - 1;
  const ca_institutions = aff
    ? distinctPicks(rng.range(1, 3), () => t.institution.draw(rng))
        .map((k) => CA_INSTITUTIONS[k])
        .join('; ')
    : '';
  let funders = '';
  if (fund) {
    const names = distinctPicks(rng.range(1, 2), () => rng.int(CA_FUNDERS.length)).map((k) => CA_FUNDERS[k]!);
    if (rng.chance(0.3)) names.push(rng.pick(OTHER_FUNDERS));
    funders = names.join('; ');
  } else if (rng.chance(FUNDER_GIVEN_NOT_FUND_ROUTE)) {
    funders = distinctPicks(rng.range(1, 2), () => rng.int(OTHER_FUNDERS.length))
      .map((k) => OTHER_FUNDERS[k])
      .join('; ');
  }
  const kw = distinctPicks(rng.int(6), () => t.keyword.draw(rng)).map((k) => KEYWORDS[k]!);
  if (about && rng.chance(0.5) && !kw.includes('Canada')) kw.push('Canada');
  const doi = rng.chance(0.88) ? `10.${1000 + rng.int(9000)}/${(rng.next() >>> 4).toString(36)}.${year}` : '';
  return {
    title: title(rng, t, about),
    year,
    lang,
    type,
    venue,
    topic,
    field,
    cited_by: Math.max(0, Math.min(250_000, cited)),
    is_retracted: rng.chance(retractRate),
    has_abstract: rng.chance(RATES.withAbstract),
    aff,
    fund,
    venueRoute,
    about,
    ca_institutions,
    funders,
    keywords: kw.join('; '),
    doi,
  };
}

/** The CSV cells of a bibliographic record in the column order of contracts/frame/snapshot.ts. */
export function bibliographicCells(b: Bibliographic): string {
  return [
    b.doi,
    csvCell(b.title),
    String(b.year),
    b.lang,
    b.type,
    csvCell(b.venue),
    csvCell(b.topic),
    csvCell(b.field),
    String(b.cited_by),
    String(b.is_retracted),
    String(b.has_abstract),
    String(b.aff),
    String(b.fund),
    String(b.venueRoute),
    String(b.about),
    csvCell(b.ca_institutions),
    csvCell(b.funders),
    csvCell(b.keywords),
  ].join(',');
}

/** Stratum index (STRATA order) by the drawing precedence french > about_only > venue_new > fund_new > aff_core,
 * then the repair strata aff_about and residual. */
export function stratumOf(b: Bibliographic): number {
  if (b.lang === 'fr') return 0;
  if (b.about && !b.aff && !b.fund && !b.venueRoute) return 1;
  if (b.venueRoute && !b.aff) return 2;
  if (b.fund && !b.aff) return 3;
  if (b.aff && b.lang === 'en' && !b.about) return 4;
  if (b.aff && b.about) return 5;
  return 6;
}

const scoreOf = (rng: Rng, latent: boolean, side: 'codex' | 'gemma'): number =>
  permille(latent ? (side === 'codex' ? 0.7 + 0.2 * rng.normal() : 0.65 + 0.22 * rng.normal()) : rng.exp(side === 'codex' ? 0.06 : 0.09));

/** Scores over a categorical head: the true value scores high, the rest low. */
function categoricalScores(rng: Rng, n: number, truth: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < n; k++) out.push(permille(k === truth ? 0.35 + 0.6 * rng.float() : rng.exp(0.12)));
  return out;
}
const argmax = (xs: number[]): number => xs.reduce((best, x, k) => (x > xs[best]! ? k : best), 0);

function predictionLine(rng: Rng, id: string, latent: boolean[], b: Bibliographic): { line: string; candidate: number; consensus: number } {
  const codex: number[] = [];
  const gemma: number[] = [];
  const candidate: string[] = [];
  const consensus: string[] = [];
  let candMask = 0;
  let consMask = 0;
  let disagreement = 0;
  let margin = 1;
  CATEGORY_ORDER.forEach((head, k) => {
    const c = scoreOf(rng, latent[k]!, 'codex');
    const g = scoreOf(rng, latent[k]!, 'gemma');
    codex.push(c);
    gemma.push(g);
    disagreement += Math.abs(c - g);
    const th = THRESHOLDS[head];
    const cPos = th.codex !== null && c >= th.codex * 1000;
    const gPos = g >= th.gemma * 1000;
    if (th.codex !== null) margin = Math.min(margin, Math.abs(c / 1000 - th.codex), Math.abs(g / 1000 - th.gemma));
    if (cPos || gPos) {
      candidate.push(head);
      candMask |= 1 << k;
    }
    if (cPos && gPos) {
      consensus.push(head);
      consMask |= 1 << k;
    }
  });
  const binary = (head: 'about_ca_system' | 'about_ca_topic', truth: boolean): string => {
    const c = scoreOf(rng, truth, 'codex');
    const g = scoreOf(rng, truth, 'gemma');
    const th = THRESHOLDS[head];
    const cPos = c >= (th.codex ?? 2) * 1000;
    const gPos = g >= th.gemma * 1000;
    return `${cPos || gPos},${cPos && gPos},${PERMILLE[c]},${PERMILLE[g]}`;
  };
  const sys = binary('about_ca_system', (b.about && rng.chance(0.2)) || (b.aff && rng.chance(0.05)));
  const topic = binary('about_ca_topic', b.about);
  const cat = (values: readonly string[], truth: number, withConsensus: boolean): string => {
    const sc = categoricalScores(rng, values.length, truth);
    const sg = categoricalScores(rng, values.length, rng.chance(0.8) ? truth : rng.int(values.length));
    const pc = argmax(sc);
    const pg = argmax(sg);
    const mean = sc.map((v, k) => v + sg[k]!);
    const cand = values[argmax(mean)]!;
    const cons = withConsensus && pc === pg ? values[pc]! : '';
    return `${sc.map((v) => PERMILLE[v]).join(';')},${sg.map((v) => PERMILLE[v]).join(';')},${values[pc]},${values[pg]},${cand},${cons}`;
  };
  const domain = cat(DOMAINS, latent[0] ? 1 + rng.int(DOMAINS.length - 1) : 0, true);
  const design = cat(DESIGNS, rng.int(DESIGNS.length), false);
  const genre = cat(GENRES, rng.int(GENRES.length), false);
  const line = [
    id,
    MODEL_VERSION,
    candidate.join(';'),
    consensus.join(';'),
    codex.map((v) => PERMILLE[v]).join(';'),
    gemma.map((v) => PERMILLE[v]).join(';'),
    sys,
    topic,
    domain,
    design,
    genre,
    PERMILLE[Math.round(disagreement / CATEGORY_ORDER.length)],
    PERMILLE[permille(1 - Math.min(1, margin * 2))],
    'machine_predicted_unvalidated',
  ].join(',');
  return { line, candidate: candMask, consensus: consMask };
}

function labelLines(rng: Rng, id: string, latent: boolean[], b: Bibliographic, design: number): string[] {
  const lines: string[] = [];
  for (const model of SCREEN_MODELS) {
    if (!rng.chance(0.7) && !(lines.length === 0 && model === 'model_c')) continue;
    const cats = CATEGORY_ORDER.filter((_, k) => (latent[k] ? rng.chance(0.85) : rng.chance(0.01)));
    const d = rng.chance(0.8) ? design : rng.int(DESIGNS.length);
    lines.push(
      [
        id,
        model,
        cats.join(';'),
        rng.chance(0.95) ? DOMAINS[latent[0] ? 1 + rng.int(DOMAINS.length - 1) : 0] : '',
        DESIGNS[d],
        rng.chance(0.9) ? rng.pick(GENRES) : '',
        String(b.about && rng.chance(0.3)),
        String(b.about && rng.chance(0.8)),
        rng.pick(['high', 'high', 'medium', 'low']),
      ].join(','),
    );
  }
  return lines;
}

export interface RangeResult {
  flags: Uint16Array;
  authorUsed: Uint8Array;
  counts: { candidate: number[]; consensus: number[] };
  /** Rows written per table. */
  rows: Record<(typeof RANGE_FILES)[number], number>;
}

/** Writes the part files of works [start, end) into `dir` (file names `<table>.part`). */
export function generateRange(options: GenerateOptions, start: number, end: number, dir: string, onProgress?: (done: number) => void): RangeResult {
  const p = plan(options.works);
  const t = new Tables(options, p);
  const out = Object.fromEntries(RANGE_FILES.map((f) => [f, new CsvFileWriter(join(dir, `${f}.part`), null)])) as Record<
    (typeof RANGE_FILES)[number],
    CsvFileWriter
  >;
  const flags = new Uint16Array(end - start);
  const authorUsed = new Uint8Array(p.authorPool);
  const counts = {
    candidate: new Array(CATEGORY_ORDER.length).fill(0),
    consensus: new Array(CATEGORY_ORDER.length).fill(0),
  };
  const authorsOfWork: number[] = [];

  for (let i = start; i < end; i++) {
    const rng = new Rng(options.seed, STREAM.work, i);
    const id = workIdOf(i);
    const b = bibliographic(rng, t, p.retractRate);
    out.works.line(`${id},${bibliographicCells(b)}`);

    // Latent truth behind predictions, labels and the screen.
    const latent = CATEGORY_BASE.map((rate, k) => (k === 8 ? (!b.has_abstract && rng.chance(0.35)) || rng.chance(rate) : rng.chance(rate)));
    const design = t.design.draw(rng);
    flags[i - start] =
      (latent[0] ? FLAG_META : 0) |
      (b.has_abstract ? FLAG_ABSTRACT : 0) |
      (stratumOf(b) << 2) |
      (b.about ? FLAG_ABOUT : 0) |
      (b.aff ? FLAG_AFF : 0) |
      (b.fund ? FLAG_FUND : 0) |
      (b.venueRoute ? FLAG_VENUE : 0);

    // Authorships: Canadian-affiliated works have at least one Canadian authorship; others have none.
    const hyper = rng.chance(p.hyperRate);
    const n = hyper ? rng.range(50, 600) : Math.min(40, 1 + Math.floor(rng.exp(2.5)));
    const forced = b.aff ? rng.int(n) : -1;
    authorsOfWork.length = 0;
    for (let pos = 0; pos < n; pos++) {
      const canadian = b.aff && (pos === forced || rng.chance(0.55));
      let k = 0;
      for (let tries = 0; tries < 6; tries++) {
        k = canadian ? t.caAuthor.draw(rng) : p.caAuthors + t.otherAuthor.draw(rng);
        if (!authorsOfWork.includes(k)) break;
      }
      if (authorsOfWork.includes(k)) continue;
      authorsOfWork.push(k);
      authorUsed[k] = 1;
      const isCa = canadian && (pos === forced || rng.chance(0.95));
      out.authorships.line(`${id},${authorIdOf(k)},${authorsOfWork.length},${isCa}`);
    }

    const pred = predictionLine(rng, id, latent, b);
    out.predictions.line(pred.line);
    for (let k = 0; k < CATEGORY_ORDER.length; k++) {
      if (pred.candidate & (1 << k)) counts.candidate[k]++;
      if (pred.consensus & (1 << k)) counts.consensus[k]++;
    }

    if (rng.chance(p.labelRate)) for (const line of labelLines(rng, id, latent, b, design)) out.direct_labels.line(line);

    if (b.is_retracted ? rng.chance(1_052 / 1_584) : rng.chance(p.rwOnlyRate)) {
      const nature = (b.is_retracted ? RETRACTION_NATURE_FLAGGED : RETRACTION_NATURE_RW_ONLY).draw(rng);
      const reason = rng.pick([
        '+Investigation by Journal/Publisher',
        '+Concerns/Issues About Data',
        '+Error in Analyses',
        '+Duplication of Article;+Investigation by Company/Institution',
        '',
      ]);
      const date = `${Math.min(2026, b.year + rng.int(4))}-${String(1 + rng.int(12)).padStart(2, '0')}-${String(1 + rng.int(28)).padStart(2, '0')}`;
      out.retractions.line(`${id},${csvCell(nature)},${csvCell(reason)},${date},${b.is_retracted}`);
    }

    const a = rng.int(10_001);
    const c = rng.int(10_001);
    out.legacy_scores.line(`${id},${a / 10_000},${c / 10_000},${Math.abs(a - c) / 10_000},score_only:v0-immature-baseline`);
    if (onProgress && (i - start) % 50_000 === 49_999) onProgress(i - start + 1);
  }
  const rows = {} as RangeResult['rows'];
  for (const f of RANGE_FILES) {
    out[f].close();
    rows[f] = out[f].rows;
  }
  onProgress?.(end - start);
  return { flags, authorUsed, counts, rows };
}
