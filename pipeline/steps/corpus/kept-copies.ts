/**
 * The copy of each article id that extraction keeps (extract-corpus.ts), as columns indexed by a slot instead
 * of an object per article (issue 21: peak RSS flat with input size). Per article an object with its source as
 * another object and its two hashes as hex strings held ~0.4 KB, all of it live until extraction ended and
 * marked by every full garbage collection on the way; here a slot is a few array elements and 64 bytes of
 * hashes (hash-list.ts). A later copy of an id takes over its slot (the slot keeps its place, as a `Map` entry
 * kept its place when its value was replaced).
 */
import type { ExtractedArticle } from '../../corpus/extract.ts';
import type { FileListRow } from './file-lists.ts';
import type { SourceRef } from './extract-corpus.ts';
import { HashList } from './hash-list.ts';

/** One copy as extraction hands it over. */
export interface Copy {
  pmcid: string;
  generated: boolean;
  excerpts: number;
  /** Its handle in the summary store. */
  summary: number;
  /** The whole article, when the cache does not keep it. */
  whole: ExtractedArticle | null;
  /** sha256 of its bytes (hex), null for an input without bytes (the CSV corpus). */
  sha: string | null;
  row: FileListRow | undefined;
  /** Whether the file-list row filled anything in. */
  filled: boolean;
  src: SourceRef;
  /** What the build writes for it changes with this (hex), null: never carried over. */
  key: string | null;
}

const GENERATED = 1;
const FILLED = 2;

export class KeptCopies {
  private readonly slotOf = new Map<string, number>();
  private pmcid: string[] = [];
  private summary: number[] = [];
  private excerpts: number[] = [];
  private flags: number[] = [];
  private row: (FileListRow | undefined)[] = [];
  private srcPackage: (string | null)[] = [];
  private srcFile: (string | null)[] = [];
  private sha = new HashList();
  private key = new HashList();
  private readonly wholes = new Map<number, ExtractedArticle>();

  /** The kept copy's source and file-list date (`LastUpdated`), or null when the id has no copy yet. */
  current(pmcid: string): { src: SourceRef; updated: string | null } | null {
    const slot = this.slotOf.get(pmcid);
    if (slot === undefined) return null;
    return { src: { package: this.srcPackage[slot]!, file: this.srcFile[slot]! }, updated: this.row[slot]?.updated ?? null };
  }

  /** Keeps `c` as its id's copy, in place of the one kept before if any. */
  keep(c: Copy): void {
    let slot = this.slotOf.get(c.pmcid);
    const flags = (c.generated ? GENERATED : 0) | (c.filled ? FILLED : 0);
    if (slot === undefined) {
      slot = this.pmcid.length;
      this.slotOf.set(c.pmcid, slot);
      this.pmcid.push(c.pmcid);
      this.summary.push(c.summary);
      this.excerpts.push(c.excerpts);
      this.flags.push(flags);
      this.row.push(c.row);
      this.srcPackage.push(c.src.package);
      this.srcFile.push(c.src.file);
      this.sha.push(c.sha);
      this.key.push(c.key);
    } else {
      this.pmcid[slot] = c.pmcid;
      this.summary[slot] = c.summary;
      this.excerpts[slot] = c.excerpts;
      this.flags[slot] = flags;
      this.row[slot] = c.row;
      this.srcPackage[slot] = c.src.package;
      this.srcFile[slot] = c.src.file;
      this.sha.set(slot, c.sha);
      this.key.set(slot, c.key);
    }
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
    excerptCounts: Int32Array;
    handles: Int32Array;
    shas: HashList;
    keys: HashList;
    /** By position in the order: the file-list rows that filled something in. */
    rows: Map<number, FileListRow>;
    /** By position: the whole articles, when any was kept whole; else null. */
    wholes: (ExtractedArticle | null)[] | null;
    generated: (SourceRef & { id: string })[];
  } {
    const order = [...this.slotOf.values()].sort((a, b) => compare(this.pmcid[a]!, this.pmcid[b]!));
    const rows = new Map<number, FileListRow>();
    const shas = new HashList();
    const keys = new HashList();
    const generated: (SourceRef & { id: string })[] = [];
    order.forEach((s, i) => {
      const row = this.row[s];
      if (this.flags[s]! & FILLED && row) rows.set(i, row);
      shas.pushFrom(this.sha, s);
      keys.pushFrom(this.key, s);
      if (this.flags[s]! & GENERATED) generated.push({ package: this.srcPackage[s]!, file: this.srcFile[s]!, id: this.pmcid[s]! });
    });
    const out = {
      pmcids: order.map((s) => this.pmcid[s]!),
      excerptCounts: Int32Array.from(order, (s) => this.excerpts[s]!),
      handles: Int32Array.from(order, (s) => this.summary[s]!),
      shas,
      keys,
      rows,
      wholes: order.some((s) => this.wholes.has(s)) ? order.map((s) => this.wholes.get(s) ?? null) : null,
      generated,
    };
    this.slotOf.clear();
    this.wholes.clear();
    this.pmcid = [];
    this.summary = [];
    this.excerpts = [];
    this.flags = [];
    this.row = [];
    this.srcPackage = [];
    this.srcFile = [];
    this.sha = new HashList();
    this.key = new HashList();
    return out;
  }
}
