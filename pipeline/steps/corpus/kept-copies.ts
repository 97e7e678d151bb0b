/**
 * The copy of each article id that extraction keeps (extract-corpus.ts), as columns indexed by a slot instead
 * of an object per article (peak RSS flat with input size). Per article an object with its source as
 * another object and its two hashes as hex strings would hold ~0.4 KB, all of it live until extraction ends and
 * marked by every full garbage collection on the way; here a slot is a few array elements and 64 bytes of
 * hashes (hash-list.ts). A later copy of an id takes over its slot (the slot keeps its place, as a `Map` entry
 * kept its place when its value was replaced).
 *
 * Of a copy's file-list row only what is needed once its package's list is let go (file-lists.ts) is kept: the
 * `LastUpdated` date, as a number, to choose between copies; the row itself only where it filled something in
 * (`filled`), for `load` to fill in again (a row kept per article would cost ~350 B of the peak).
 */
import type { ExtractedArticle } from '../../corpus/extract.ts';
import type { FileListRow } from './file-lists.ts';
import type { SourceRef } from './extract-corpus.ts';
import { HashList } from './hash-list.ts';

/** One copy as extraction hands it over. */
export interface Copy {
  pmcid: string;
  generated: boolean;
  /** Its handle in the summary store. */
  summary: number;
  /** The whole article, when the cache does not keep it. */
  whole: ExtractedArticle | null;
  /** sha256 of its bytes (hex), null for an input without bytes (the CSV corpus). */
  sha: string | null;
  /** Its file-list row: its date is kept, the row itself only when `filled`. */
  row: FileListRow | undefined;
  /** Whether the file-list row filled anything in. */
  filled: boolean;
  src: SourceRef;
}

const GENERATED = 1;

/** `LastUpdated` in PMC's form, `YYYY-MM-DD HH:MM:SS`: as the number of its digits it orders as its text does. */
const PMC_DATE_FORM = '0000-00-00 00:00:00';

/**
 * The number of a date's 14 digits when it is in PMC's form, else ODD_DATE: by character codes, not a regular
 * expression and a join (this runs for every article of a rebuild).
 */
export function pmcDateNumber(text: string): number {
  if (text.length !== PMC_DATE_FORM.length) return ODD_DATE;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (PMC_DATE_FORM.charCodeAt(i) === 48) {
      if (c < 48 || c > 57) return ODD_DATE;
      n = n * 10 + (c - 48);
    } else if (c !== PMC_DATE_FORM.charCodeAt(i)) return ODD_DATE;
  }
  return n;
}
/** A copy without a date. */
const NO_DATE = -1;
/** A date not in PMC's form, kept as text (`oddDates`). */
const ODD_DATE = -2;

/** A date in PMC's form back from its number (exactly: 14 digits, within a double's exact integers). */
function dateText(n: number): string {
  const d = String(n).padStart(14, '0');
  return `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)} ${d.slice(8, 10)}:${d.slice(10, 12)}:${d.slice(12, 14)}`;
}

export class KeptCopies {
  private readonly slotOf = new Map<string, number>();
  private pmcid: string[] = [];
  private summary: number[] = [];
  private flags: number[] = [];
  /** Per slot: the date as a number (`pmcDateNumber`), NO_DATE or ODD_DATE. */
  private updated: number[] = [];
  private readonly oddDates = new Map<number, string>();
  /** By slot: the rows that filled something in. */
  private readonly rows = new Map<number, FileListRow>();
  private srcPackage: (string | null)[] = [];
  private srcFile: (string | null)[] = [];
  private sha = new HashList();
  private readonly wholes = new Map<number, ExtractedArticle>();

  /** The kept copy's source and file-list date (`LastUpdated`), or null when the id has no copy yet. */
  current(pmcid: string): { src: SourceRef; updated: string | null } | null {
    const slot = this.slotOf.get(pmcid);
    if (slot === undefined) return null;
    const n = this.updated[slot]!;
    const updated = n === NO_DATE ? null : n === ODD_DATE ? this.oddDates.get(slot)! : dateText(n);
    return { src: { package: this.srcPackage[slot]!, file: this.srcFile[slot]! }, updated };
  }

  private setDate(slot: number, text: string | null): void {
    const n = text === null ? NO_DATE : pmcDateNumber(text);
    this.updated[slot] = n;
    if (n === ODD_DATE) this.oddDates.set(slot, text!);
    else if (this.oddDates.size > 0) this.oddDates.delete(slot);
  }

  /** Keeps `c` as its id's copy, in place of the one kept before if any. */
  keep(c: Copy): void {
    let slot = this.slotOf.get(c.pmcid);
    const flags = c.generated ? GENERATED : 0;
    if (slot === undefined) {
      slot = this.pmcid.length;
      this.slotOf.set(c.pmcid, slot);
      this.pmcid.push(c.pmcid);
      this.summary.push(c.summary);
      this.flags.push(flags);
      this.srcPackage.push(c.src.package);
      this.srcFile.push(c.src.file);
      this.sha.push(c.sha);
    } else {
      this.pmcid[slot] = c.pmcid;
      this.summary[slot] = c.summary;
      this.flags[slot] = flags;
      this.srcPackage[slot] = c.src.package;
      this.srcFile[slot] = c.src.file;
      this.sha.set(slot, c.sha);
    }
    this.setDate(slot, c.row?.updated ?? null);
    if (c.filled && c.row) this.rows.set(slot, c.row);
    else this.rows.delete(slot);
    if (c.whole) this.wholes.set(slot, c.whole);
    else this.wholes.delete(slot);
  }

  /** Drops the id's copy; whether there was one. */
  delete(pmcid: string): boolean {
    return this.slotOf.delete(pmcid);
  }

  /**
   * The kept copies in the order `compare` gives their ids (ties in the order the ids first came), as what the
   * step holds from here on; the columns are released.
   */
  drain(compare: (a: string, b: string) => number): {
    pmcids: string[];
    handles: Int32Array;
    shas: HashList;
    /** By position in the order: the file-list rows that filled something in. */
    rows: Map<number, FileListRow>;
    /** By position: the whole articles, when any was kept whole; else null. */
    wholes: (ExtractedArticle | null)[] | null;
    generated: (SourceRef & { id: string })[];
  } {
    const order = [...this.slotOf.values()].sort((a, b) => compare(this.pmcid[a]!, this.pmcid[b]!));
    const rows = new Map<number, FileListRow>();
    const shas = new HashList();
    const generated: (SourceRef & { id: string })[] = [];
    order.forEach((s, i) => {
      const row = this.rows.get(s);
      if (row) rows.set(i, row);
      shas.pushFrom(this.sha, s);
      if (this.flags[s]! & GENERATED) generated.push({ package: this.srcPackage[s]!, file: this.srcFile[s]!, id: this.pmcid[s]! });
    });
    const out = {
      pmcids: order.map((s) => this.pmcid[s]!),
      handles: Int32Array.from(order, (s) => this.summary[s]!),
      shas,
      rows,
      wholes: order.some((s) => this.wholes.has(s)) ? order.map((s) => this.wholes.get(s) ?? null) : null,
      generated,
    };
    this.slotOf.clear();
    this.wholes.clear();
    this.pmcid = [];
    this.summary = [];
    this.flags = [];
    this.updated = [];
    this.oddDates.clear();
    this.rows.clear();
    this.srcPackage = [];
    this.srcFile = [];
    this.sha = new HashList();
    return out;
  }
}
