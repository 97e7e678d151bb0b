/**
 * The articles' summaries as the corpus step holds them between extraction and the documents (peak RSS
 * flat with input size): numbers and codes in growable typed arrays, strings interned, instead of one object tree
 * per article. What is kept is what the corpus-wide documents count (documents.ts: `CountedSummary`), about 15
 * bytes per occurrence and 20 per article, against 1.3 KB per article held as objects; an
 * article's summary is rebuilt as objects when it is visited.
 */
import { BANDS, type Band, OCCURRENCE_STATUSES, type OccurrenceStatus } from '../../../contracts/corpus/vocab.ts';
import type { ArticleSummary } from './article-summary.ts';

/** What documents.ts counts of an article: its summary without pmid and licence, and of its status counts only `verified`. */
export type CountedSummary = Pick<ArticleSummary, 'pmcid' | 'id_kind' | 'year' | 'sentences_scanned' | 'excerpts'> & {
  occurrences: Pick<ArticleSummary['occurrences'], 'verified'>;
};

type Occurrence = ArticleSummary['excerpts'][number]['occurrences'][number];

/** An Int32/Float64/Uint8 array that grows by doubling. */
class Grow<T extends Int32Array | Float64Array | Uint8Array> {
  length = 0;
  constructor(public data: T) {}
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new (this.data.constructor as new (n: number) => T)(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
}
const ints = () => new Grow(new Int32Array(1024));
const bytes = () => new Grow(new Uint8Array(1024));

/** `year` null. */
const NO_YEAR = -2147483648;
/** p: null, or exact or not with a value or null (the value in `pValue`, NaN when null). */
const P_NULL = 0;
const P_EXACT = 1;
const P_BOUND = 2;

export class SummaryStore {
  private readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  /** Per article: pmcid (the caller's string, not copied), id kind (string id), year, sentences scanned, verified count, first excerpt. */
  private readonly pmcid: string[] = [];
  private readonly idKind = ints();
  private readonly year = ints();
  private readonly sentences = ints();
  private readonly verified = ints();
  private readonly firstExcerpt = ints();
  /** Per excerpt: its first occurrence. */
  private readonly firstOccurrence = ints();
  /** Per occurrence: phrase (string id), status and band codes, p kind and value. */
  private readonly phrase = ints();
  private readonly status = bytes();
  private readonly band = bytes();
  private readonly pKind = bytes();
  private pValue = new Grow(new Float64Array(1024));

  get size(): number {
    return this.pmcid.length;
  }

  private stringId(s: string): number {
    let id = this.stringIds.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.stringIds.set(s, id);
    }
    return id;
  }

  /** Keeps an article's summary; returns its handle. */
  add(a: CountedSummary): number {
    const handle = this.pmcid.length;
    this.pmcid.push(a.pmcid);
    this.idKind.push(this.stringId(a.id_kind));
    this.year.push(a.year === null ? NO_YEAR : a.year);
    this.sentences.push(a.sentences_scanned);
    this.verified.push(a.occurrences.verified);
    this.firstExcerpt.push(this.firstOccurrence.length);
    for (const e of a.excerpts) {
      this.firstOccurrence.push(this.phrase.length);
      for (const o of e.occurrences) this.addOccurrence(o);
    }
    return handle;
  }

  private addOccurrence(o: Occurrence): void {
    this.phrase.push(this.stringId(o.phrase));
    this.status.push(OCCURRENCE_STATUSES.indexOf(o.status));
    this.band.push(o.band === null ? 255 : BANDS.indexOf(o.band));
    this.pKind.push(o.p === null ? P_NULL : o.p.exact ? P_EXACT : P_BOUND);
    this.pValue.push(o.p === null || o.p.value === null ? Number.NaN : o.p.value);
  }

  /** The summary of `handle`, rebuilt as objects. */
  get(handle: number): CountedSummary {
    const endExcerpt = handle + 1 < this.firstExcerpt.length ? this.firstExcerpt.data[handle + 1]! : this.firstOccurrence.length;
    const excerpts: { occurrences: Occurrence[] }[] = [];
    for (let e = this.firstExcerpt.data[handle]!; e < endExcerpt; e++) {
      const endOcc = e + 1 < this.firstOccurrence.length ? this.firstOccurrence.data[e + 1]! : this.phrase.length;
      const occurrences: Occurrence[] = [];
      for (let o = this.firstOccurrence.data[e]!; o < endOcc; o++) {
        const kind = this.pKind.data[o]!;
        const value = this.pValue.data[o]!;
        const band = this.band.data[o]!;
        occurrences.push({
          phrase: this.strings[this.phrase.data[o]!]!,
          status: OCCURRENCE_STATUSES[this.status.data[o]!] as OccurrenceStatus,
          band: band === 255 ? null : (BANDS[band] as Band),
          p: kind === P_NULL ? null : { exact: kind === P_EXACT, value: Number.isNaN(value) ? null : value },
        });
      }
      excerpts.push({ occurrences });
    }
    const year = this.year.data[handle]!;
    return {
      pmcid: this.pmcid[handle]!,
      id_kind: this.strings[this.idKind.data[handle]!] as CountedSummary['id_kind'],
      year: year === NO_YEAR ? null : year,
      sentences_scanned: this.sentences.data[handle]!,
      occurrences: { verified: this.verified.data[handle]! },
      excerpts,
    };
  }
}
