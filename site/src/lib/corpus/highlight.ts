/**
 * Where to put the highlights of an excerpt: the hedging phrase and its p-value (from the occurrences) and
 * the words `q` matched (the API's `highlights`). Offsets are UTF-16 code units into the text, `end`
 * exclusive (contracts/corpus/documents.ts), which is exactly what JavaScript's `slice` counts, so the text
 * is cut with `slice` and nothing else: a "ü" or "±" before a phrase moves nothing.
 *
 * The phrase and p-value marks are the outer layer; search matches nest inside them, cut at their edges, so
 * the result is always well-formed HTML whatever the ranges do (a match can straddle a phrase's end).
 */

export type OuterKind = 'phrase' | 'p';

/** A stretch of the text: marked or not, with the search matches inside it. */
export interface Piece {
  /** null: plain text between marks. */
  kind: OuterKind | null;
  /** The lexicon's canonical phrase of a phrase mark (the words written may be a variant). */
  phrase?: string;
  parts: { text: string; q: boolean }[];
}

interface Range {
  start: number;
  end: number;
}

interface OccurrenceRanges {
  phrase: string;
  start: number;
  end: number;
  p: Range | null;
}

/** Clamps to the text, drops empty ranges, orders by start. */
function clean<T extends Range>(ranges: readonly T[], length: number): T[] {
  return ranges
    .map((r) => ({ ...r, start: Math.max(0, Math.min(r.start, length)), end: Math.max(0, Math.min(r.end, length)) }))
    .filter((r) => r.end > r.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
}

/** Merges overlapping or touching ranges (two search words next to each other read as one match). */
function merge(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  for (const r of ranges) {
    const last = out.at(-1);
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

/** The pieces of `text` to render, in order; concatenating their parts gives `text` back. */
export function highlightPieces(text: string, occurrences: readonly OccurrenceRanges[], matches: readonly Range[] = []): Piece[] {
  // Several occurrences may share one p-value: mark it once. Phrases come first so that, were a phrase and a
  // p-value ever to overlap, the phrase keeps its words.
  const outer: (Range & { kind: OuterKind; phrase?: string })[] = [];
  for (const o of occurrences) outer.push({ start: o.start, end: o.end, kind: 'phrase', phrase: o.phrase });
  for (const o of occurrences) if (o.p && !outer.some((r) => r.kind === 'p' && r.start === o.p!.start && r.end === o.p!.end)) outer.push({ ...o.p, kind: 'p' });
  const marks: typeof outer = [];
  for (const r of clean(outer, text.length)) {
    const last = marks.at(-1);
    const start = last ? Math.max(r.start, last.end) : r.start;
    if (start < r.end) marks.push({ ...r, start });
  }
  const q = merge(clean(matches, text.length));

  const pieces: Piece[] = [];
  const add = (start: number, end: number, kind: OuterKind | null, phrase?: string) => {
    if (end <= start) return;
    const parts: Piece['parts'] = [];
    let at = start;
    for (const m of q) {
      const s = Math.max(m.start, start);
      const e = Math.min(m.end, end);
      if (e <= s) continue;
      if (s > at) parts.push({ text: text.slice(at, s), q: false });
      parts.push({ text: text.slice(s, e), q: true });
      at = e;
    }
    if (at < end) parts.push({ text: text.slice(at, end), q: false });
    pieces.push({ kind, ...(phrase !== undefined ? { phrase } : {}), parts });
  };
  let at = 0;
  for (const m of marks) {
    add(at, m.start, null);
    add(m.start, m.end, m.kind, m.phrase);
    at = m.end;
  }
  add(at, text.length, null);
  return pieces;
}
