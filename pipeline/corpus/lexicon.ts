/**
 * The hedging lexicon: the project's own versioned phrase file (`lexicon/hedging-v2.json`; earlier versions are kept beside it), a loader for
 * the Otte et al. (2022) CSV format, and one compiled matcher for both (DECISIONS.md §5).
 *
 * Matching follows research/hedged.md §0 and §7.1, and deliberately not Otte's R script: the sentence is
 * NFKC-normalised and lower-cased (so `ﬁ` reads `fi` and full-width letters read ASCII), phrases must start
 * and end at word boundaries (Otte's missing leading boundary made "all but significant" fire inside
 * "sm*all but significant*"), the longest phrase wins and matches never overlap. Offsets are always reported
 * in UTF-16 code units of the ORIGINAL sentence, so a highlighter can use them on the text it stored.
 *
 * Separators: a run of whitespace or hyphens in the text is one separator, and in a lexicon form a space or
 * a hyphen stands for such a run. A hyphen between two letters is also optional on either side: the form
 * "non-significant" matches "non-significant", "non significant" and "nonsignificant", and Otte's form
 * "a nonsignificant trend" matches the text "a non-significant trend" (hedged.md §2.4, journal.pone.0080518).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------------------
// Normalisation with an offset map back to the original string
// ---------------------------------------------------------------------------------------------------------

/**
 * A sentence folded for matching: `text` is NFKC-normalised and lower-cased; `starts[i]`/`ends[i]` give the
 * original UTF-16 range of the character cluster that produced `text[i]` (both null when the sentence is
 * plain ASCII, where folding never changes a length). Fold a sentence once and hand the result to both
 * {@link LexiconMatcher.match} and `findPValues` so the work is not repeated.
 */
export interface FoldedText {
  readonly original: string;
  readonly text: string;
  readonly starts: Int32Array | null;
  readonly ends: Int32Array | null;
}

const NON_ASCII = /[\u0080-\uffff]/;
const MARK = /^\p{M}$/u;
/** Characters dropped when folding: soft hyphen, zero-width space/joiners, word joiner, BOM. */
const IGNORABLE = new Set([0xad, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff]);

/**
 * NFKC + lower case, one character cluster (a code point and the combining marks after it) at a time, so
 * every folded character knows which original characters it came from. NFKC can lengthen ("ﬁ" → "fi",
 * "¼" → "1⁄4") or shorten (a math-italic 𝑝, two UTF-16 units, → "p"); lower-casing can lengthen too
 * ("İ" → "i̇"). Soft hyphens and zero-width characters are dropped.
 */
export function foldSentence(sentence: string): FoldedText {
  if (!NON_ASCII.test(sentence)) return { original: sentence, text: sentence.toLowerCase(), starts: null, ends: null };
  const n = sentence.length;
  // Plain arrays: NFKC can expand one character to many (U+FDFA gives 18).
  const starts: number[] = [];
  const ends: number[] = [];
  let out = '';
  let i = 0;
  while (i < n) {
    const c = sentence.charCodeAt(i);
    if (c < 0x80) {
      // A run of ASCII at once: each character folds to itself lower-cased. The run's last character stays
      // out when a code unit that may be a combining mark follows it (it is folded with its marks below).
      let r = i + 1;
      while (r < n && sentence.charCodeAt(r) < 0x80) r++;
      if (r < n && sentence.charCodeAt(r) >= 0x300) r--;
      if (r > i) {
        out += sentence.slice(i, r).toLowerCase();
        for (let k = i; k < r; k++) {
          starts.push(k);
          ends.push(k + 1);
        }
        i = r;
        continue;
      }
    }
    let j = i + 1;
    if (c >= 0xd800 && c <= 0xdbff && j < n && (sentence.charCodeAt(j) & 0xfc00) === 0xdc00) j++;
    // Absorb the combining marks that follow, so NFKC can compose them with their base.
    while (j < n && sentence.charCodeAt(j) >= 0x300) {
      const cp = sentence.codePointAt(j)!;
      if (!MARK.test(String.fromCodePoint(cp))) break;
      j += cp > 0xffff ? 2 : 1;
    }
    let chunk: string;
    if (j === i + 1 && c < 0x80) chunk = c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : sentence[i]!;
    else if (j === i + 1 && IGNORABLE.has(c)) chunk = '';
    else chunk = sentence.slice(i, j).normalize('NFKC').toLowerCase();
    for (let k = 0; k < chunk.length; k++) {
      starts.push(i);
      ends.push(j);
    }
    out += chunk;
    i = j;
  }
  return { original: sentence, text: out, starts: Int32Array.from(starts), ends: Int32Array.from(ends) };
}

/** Maps a range `[start, end)` of `folded.text` back to the range of the original sentence it came from. */
export function toOriginalRange(folded: FoldedText, start: number, end: number): { start: number; end: number } {
  if (folded.starts === null || folded.ends === null) return { start, end };
  const s = start < folded.starts.length ? folded.starts[start]! : folded.original.length;
  const e = end > start ? folded.ends[end - 1]! : s;
  return { start: s, end: e };
}

/** Accepts a raw sentence or one already folded by {@link foldSentence}. */
export function asFolded(sentence: string | FoldedText): FoldedText {
  return typeof sentence === 'string' ? foldSentence(sentence) : sentence;
}

/** Letters, digits and combining marks make words; everything else is a boundary. */
const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
function isWordCharAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  if (c < 0x80) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
  if ((c & 0xfc00) === 0xdc00 && i > 0) return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(i - 1)!));
  return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(i)!));
}

/** isWordCharAt for ASCII code units, as a table. */
const ASCII_WORD = new Uint8Array(0x80);
for (let c = 0; c < 0x80; c++) ASCII_WORD[c] = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) ? 1 : 0;

/** Whitespace and hyphen-like dashes (not the em dash, which separates clauses). */
function isSeparator(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x2d || (c >= 0x2010 && c <= 0x2013) || c === 0xa0;
}
function isHyphen(c: number): boolean {
  return c === 0x2d || (c >= 0x2010 && c <= 0x2013);
}

// ---------------------------------------------------------------------------------------------------------
// The pattern grammar of the lexicon file
// ---------------------------------------------------------------------------------------------------------

/** Most forms one pattern may expand to; a typo such as a missing `|` would otherwise explode silently. */
export const MAX_EXPANSIONS = 4096;

/**
 * Expands one lexicon pattern into its concrete forms. Grammar: plain text; `(a|b|c)` chooses one
 * alternative (an alternative may be empty and may contain spaces or further groups); `[x]` makes `x`
 * optional and `[a|b]` is `(a|b|)`. A group attached to a word extends it: `approach(|ed|es|ing)`, `toward(|s)`. Runs of spaces are
 * collapsed and the result trimmed, so `[a ]strong [statistical ]trend` gives four forms.
 */
export function expandPattern(pattern: string): string[] {
  let pos = 0;
  const fail = (why: string): never => {
    throw new Error(`lexicon pattern ${JSON.stringify(pattern)}: ${why} at ${pos}`);
  };
  const product = (a: string[], b: string[]): string[] => {
    if (a.length * b.length > MAX_EXPANSIONS) fail(`more than ${MAX_EXPANSIONS} forms`);
    const out: string[] = [];
    for (const x of a) for (const y of b) out.push(x + y);
    return out;
  };
  // seq := (text | group | optional)*, ending at one of `stop`
  const seq = (stop: string): string[] => {
    let acc = [''];
    while (pos < pattern.length && !stop.includes(pattern[pos]!)) {
      const ch = pattern[pos]!;
      if (ch === '(') {
        pos++;
        const alts: string[] = [];
        for (;;) {
          alts.push(...seq('|)'));
          if (pos >= pattern.length) fail('unclosed "("');
          if (pattern[pos++] === ')') break;
        }
        acc = product(acc, alts);
      } else if (ch === '[') {
        pos++;
        const alts: string[] = [];
        for (;;) {
          alts.push(...seq('|]'));
          if (pos >= pattern.length) fail('unclosed "["');
          if (pattern[pos++] === ']') break;
        }
        acc = product(acc, [...alts, '']);
      } else if (ch === ')' || ch === ']' || ch === '|') {
        fail(`unexpected "${ch}"`);
      } else {
        let j = pos;
        while (j < pattern.length && !'()[]|'.includes(pattern[j]!)) j++;
        const lit = pattern.slice(pos, j);
        acc = acc.map((a) => a + lit);
        pos = j;
      }
    }
    return acc;
  };
  const forms = seq('');
  if (pos !== pattern.length) fail('unexpected character');
  const clean = [...new Set(forms.map((f) => f.replace(/\s+/g, ' ').trim()))];
  if (clean.some((f) => f === '')) fail('a form is empty');
  return clean;
}

// ---------------------------------------------------------------------------------------------------------
// Lexicon types and loaders
// ---------------------------------------------------------------------------------------------------------

/**
 * One lexicon in memory, whatever file it came from: the project's JSON or an Otte-style CSV. `variants`
 * are concrete forms (no grammar left); the matcher applies the hyphen and whitespace rules on top.
 */
export const lexiconSchema = z
  .object({
    /** Recorded with every build (hedged.md §7.1: "Record a lexiconVersion"). */
    version: z.string().min(1),
    /** Where the lexicon came from: a file name, for the build manifest. */
    source: z.string(),
    entries: z
      .array(
        z
          .object({
            /** Canonical phrase: the name counted and listed by /phrases. */
            phrase: z.string().min(1),
            variants: z.array(z.string().min(1)).min(1),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();
export type Lexicon = z.infer<typeof lexiconSchema>;
export type LexiconEntry = Lexicon['entries'][number];

/** An entry of the project's lexicon file: a canonical phrase and, optionally, patterns in the grammar. */
export const lexiconFileEntrySchema = z
  .object({
    /** Canonical phrase, in lower case; it must be one of the forms the patterns expand to. */
    phrase: z.string().min(1),
    /** Patterns in the grammar of {@link expandPattern}; when absent the phrase itself is the only form. */
    patterns: z.array(z.string().min(1)).min(1).optional(),
    /** Why the entry is there or what it is known to catch by mistake. */
    note: z.string().optional(),
  })
  .strict();

/** The project's lexicon file (`pipeline/corpus/lexicon/hedging-v<N>.json`). */
export const lexiconFileSchema = z
  .object({
    /** `hedging-v<N>`; bump N whenever the entries change, so builds from different lexicons differ. */
    version: z.string().regex(/^[a-z][a-z0-9-]*-v[1-9][0-9]*$/),
    description: z.string(),
    sources: z.array(z.string()).min(1),
    /** Decisions about phrases left out, with their reasons. */
    excluded: z.array(z.object({ phrase: z.string(), reason: z.string() }).strict()).default([]),
    entries: z.array(lexiconFileEntrySchema).min(1),
  })
  .strict()
  .superRefine((file, ctx) => {
    const owner = new Map<string, string>();
    file.entries.forEach((e, i) => {
      if (e.phrase !== e.phrase.trim().toLowerCase().normalize('NFKC'))
        ctx.addIssue({ code: 'custom', path: ['entries', i, 'phrase'], message: 'must be trimmed, NFKC, lower case' });
      let forms: string[];
      try {
        forms = (e.patterns ?? [e.phrase]).flatMap(expandPattern);
      } catch (err) {
        ctx.addIssue({ code: 'custom', path: ['entries', i, 'patterns'], message: (err as Error).message });
        return;
      }
      if (!forms.includes(e.phrase)) ctx.addIssue({ code: 'custom', path: ['entries', i, 'phrase'], message: 'is not one of the forms of its patterns' });
      for (const f of forms)
        for (const key of matchKeys(f)) {
          const prev = owner.get(key);
          if (prev !== undefined && prev !== e.phrase)
            ctx.addIssue({ code: 'custom', path: ['entries', i], message: `form "${f}" is also a form of "${prev}"` });
          owner.set(key, e.phrase);
        }
    });
  });
export type LexiconFile = z.infer<typeof lexiconFileSchema>;

/** The lexicon the pipeline uses unless `--lexicon FILE` says otherwise. */
export const DEFAULT_LEXICON_PATH = fileURLToPath(new URL('./lexicon/hedging-v2.json', import.meta.url));

/** Validates a parsed lexicon file and expands its patterns (pure; {@link loadLexicon} does the reading). */
export function parseLexiconFile(json: unknown, source = 'inline'): Lexicon {
  const file = lexiconFileSchema.parse(json);
  return {
    version: file.version,
    source,
    entries: file.entries.map((e) => ({
      phrase: e.phrase,
      variants: [...new Set((e.patterns ?? [e.phrase]).flatMap(expandPattern))],
    })),
  };
}

/** Reads and validates the project's lexicon file; throws a zod error naming the entry that is wrong. */
export function loadLexicon(path: string = DEFAULT_LEXICON_PATH): Lexicon {
  return parseLexiconFile(JSON.parse(readFileSync(path, 'utf8')), path);
}

/**
 * Parses a phrase list in the Otte et al. CSV format (`detect_phrases/phrases_505.csv`: header `"","phrases"`,
 * one phrase per row with a trailing space). Phrases are trimmed, NFKC-normalised (34 of Otte's carry the
 * "ﬁ" ligature) and lower-cased; duplicates (Otte has two) are dropped. The "." in a few phrases is taken
 * literally, not as a regex wildcard as in Otte's script. The version is a content hash, so two builds with
 * the same file report the same lexicon.
 */
export function parseOtteLexicon(csvText: string, source = 'inline'): Lexicon {
  const rows = parse(csvText, { columns: true, skip_empty_lines: true, bom: true, relax_column_count: true }) as Record<string, string>[];
  if (rows.length === 0) throw new Error(`${source}: no phrases`);
  const column = ['phrases', 'phrase'].find((c) => c in rows[0]!) ?? Object.keys(rows[0]!).at(-1)!;
  const seen = new Set<string>();
  const entries: LexiconEntry[] = [];
  for (const row of rows) {
    const phrase = (row[column] ?? '').normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');
    if (phrase === '' || seen.has(phrase)) continue;
    seen.add(phrase);
    entries.push({ phrase, variants: [phrase] });
  }
  if (entries.length === 0) throw new Error(`${source}: no phrases in column "${column}"`);
  const hash = createHash('sha256').update(csvText).digest('hex').slice(0, 12);
  return { version: `otte-csv-${hash}`, source, entries };
}

/** Reads a phrase list in the Otte et al. CSV format (`--lexicon FILE`); see {@link parseOtteLexicon}. */
export function loadOtteLexicon(path: string): Lexicon {
  return parseOtteLexicon(readFileSync(path, 'utf8'), path);
}

// ---------------------------------------------------------------------------------------------------------
// The compiled matcher
// ---------------------------------------------------------------------------------------------------------

/** One phrase occurrence; offsets are UTF-16 units in the original sentence, `end` exclusive. */
export const phraseMatchSchema = z.object({ phrase: z.string(), start: z.number().int().min(0), end: z.number().int().min(0) }).strict();
export type PhraseMatch = z.infer<typeof phraseMatchSchema>;

/** A lexicon compiled once into a character trie; `match` runs in time linear in the sentence. */
export interface LexiconMatcher {
  readonly version: string;
  readonly phrases: readonly string[];
  /** Forms that two entries share (only possible in a loaded CSV); the first entry keeps them. */
  readonly collisions: readonly { form: string; kept: string; dropped: string }[];
  match(sentence: string | FoldedText): PhraseMatch[];
}

interface TrieNode {
  next: Map<number, TrieNode>;
  /** Index into `phrases` when a form ends here, else -1. */
  entry: number;
}
const SEP = 0x20;

/**
 * The trie as flat typed arrays, which is what the walk reads (the Map-based TrieNode tree is only how it is
 * built, and is dropped after): nodes numbered breadth first, node 0 the root, 0 also meaning "no node" (the
 * root is nobody's child). The edges of node i are `codes`/`targets` [first[i], first[i + 1]), in a row, and
 * most nodes have one; the root's, asked at every word start, are a table by code unit. On generated articles
 * the walk takes less time than over Map lookups (docs/decisions.md has the measurement), and the default lexicon's
 * 150,000 nodes take 1.8 MB instead of a Map object each.
 */
interface FlatTrie {
  root: Int32Array;
  first: Int32Array;
  codes: Uint16Array;
  targets: Int32Array;
  /** Per node: index into `phrases` when a form ends here, else -1. */
  entry: Int32Array;
}

/** Numbers the nodes breadth first and lays the tree out as a {@link FlatTrie}. */
function flatten(root: TrieNode): FlatTrie {
  const nodes: TrieNode[] = [root];
  const first: number[] = [];
  const codes: number[] = [];
  const targets: number[] = [];
  for (let i = 0; i < nodes.length; i++) {
    first.push(codes.length);
    for (const [c, child] of nodes[i]!.next) {
      codes.push(c);
      targets.push(nodes.length);
      nodes.push(child);
    }
  }
  first.push(codes.length);
  const table = new Int32Array(0x10000);
  for (let e = first[0]!; e < first[1]!; e++) table[codes[e]!] = targets[e]!;
  return {
    root: table,
    first: Int32Array.from(first),
    codes: Uint16Array.from(codes),
    targets: Int32Array.from(targets),
    entry: Int32Array.from(nodes, (n) => n.entry),
  };
}

/** The child of `node` by code unit `c`, 0 for none. */
function step(trie: FlatTrie, node: number, c: number): number {
  if (node === 0) return trie.root[c]!;
  const end = trie.first[node + 1]!;
  for (let e = trie.first[node]!; e < end; e++) if (trie.codes[e] === c) return trie.targets[e]!;
  return 0;
}

/** The longest form a walk has found: where it ends, and its entry. */
interface Best {
  pos: number;
  entry: number;
}

/** The end of the run of separators that starts at `i`. */
function separatorRunEnd(t: string, i: number): number {
  let j = i;
  while (j < t.length && isSeparator(t.charCodeAt(j))) j++;
  return j;
}

/**
 * Whether the separator run t[i, j) may also be skipped: hyphens only, between two word characters. The one
 * rule for both the stored keys (matchKeys) and the walk over a sentence (walkTrie), which must agree.
 */
function closableRun(t: string, i: number, j: number): boolean {
  for (let k = i; k < j; k++) if (!isHyphen(t.charCodeAt(k))) return false;
  return isWordCharAt(t, i - 1) && isWordCharAt(t, j);
}

/**
 * Walks the trie from `from` at `at` in `t`, keeping in `best` the longest form that ends on a word boundary.
 * A hyphen between two letters in the text may also be skipped, so the walk branches there (rarely more than
 * once or twice per start). A module function rather than a closure made per sentence: this is the hot loop.
 */
function walkTrie(t: string, trie: FlatTrie, from: number, at: number, best: Best): void {
  let node = from;
  let pos = at;
  while (node !== 0 && pos < t.length) {
    const c = t.charCodeAt(pos);
    if (isSeparator(c)) {
      const j = separatorRunEnd(t, pos);
      if (closableRun(t, pos, j)) walkTrie(t, trie, node, j, best);
      node = step(trie, node, SEP);
      pos = j;
    } else {
      node = step(trie, node, c);
      pos++;
    }
    if (node !== 0 && trie.entry[node] !== -1 && !isWordCharAt(t, pos) && pos > best.pos) {
      best.pos = pos;
      best.entry = trie.entry[node]!;
    }
  }
}

/**
 * The keys a form is stored under: folded, separator runs as one space, and each hyphen between two word
 * characters also removed (2^k keys for k such hyphens; lexicon forms have at most a few).
 */
function matchKeys(form: string): string[] {
  const t = foldSentence(form).text.trim();
  let keys = [''];
  let i = 0;
  while (i < t.length) {
    const c = t.charCodeAt(i);
    if (isSeparator(c)) {
      const j = separatorRunEnd(t, i);
      keys = closableRun(t, i, j) ? keys.flatMap((k) => [k + ' ', k]) : keys.map((k) => k + ' ');
      i = j;
    } else {
      keys = keys.map((k) => k + t[i]);
      i++;
    }
  }
  return keys;
}

/**
 * Compiles a lexicon into a matcher. Build it once per run: construction costs a trie insertion per form;
 * each `match` then walks the trie from each word start of the sentence, so its cost does not grow with the
 * size of the lexicon.
 */
export function compileLexicon(lexicon: Lexicon): LexiconMatcher {
  const root: TrieNode = { next: new Map(), entry: -1 };
  const phrases: string[] = [];
  const collisions: { form: string; kept: string; dropped: string }[] = [];
  for (const e of lexiconSchema.parse(lexicon).entries) {
    const idx = phrases.push(e.phrase) - 1;
    for (const v of e.variants)
      for (const key of matchKeys(v)) {
        let node = root;
        for (let i = 0; i < key.length; i++) {
          const c = key.charCodeAt(i);
          let child = node.next.get(c);
          if (child === undefined) node.next.set(c, (child = { next: new Map(), entry: -1 }));
          node = child;
        }
        if (node.entry === -1) node.entry = idx;
        else if (node.entry !== idx) collisions.push({ form: key, kept: phrases[node.entry]!, dropped: e.phrase });
      }
  }

  const trie = flatten(root);

  /** The longest form found by the current walk (one object per matcher: `match` is not re-entered). */
  const best: Best = { pos: -1, entry: -1 };

  const match = (sentence: string | FoldedText): PhraseMatch[] => {
    const f = asFolded(sentence);
    const t = f.text;
    const found: { s: number; e: number; entry: number }[] = [];
    // A word start is a word character after a non-word one; `prevWord` carries isWordCharAt(t, s - 1) over.
    let prevWord = false;
    for (let s = 0; s < t.length; s++) {
      const c = t.charCodeAt(s);
      const word = c < 0x80 ? ASCII_WORD[c] === 1 : isWordCharAt(t, s);
      const first = word && !prevWord ? step(trie, 0, c) : 0;
      prevWord = word;
      if (first === 0) continue;
      // The walk's first step (a word character, so never a separator), then the rest of the walk.
      best.pos = -1;
      best.entry = -1;
      if (trie.entry[first] !== -1 && !isWordCharAt(t, s + 1)) {
        best.pos = s + 1;
        best.entry = trie.entry[first]!;
      }
      walkTrie(t, trie, first, s + 1, best);
      if (best.pos !== -1) found.push({ s, e: best.pos, entry: best.entry });
    }
    if (found.length === 0) return [];
    // Longest first, then leftmost; a candidate overlapping one already taken is dropped.
    found.sort((a, b) => b.e - b.s - (a.e - a.s) || a.s - b.s);
    const taken: typeof found = [];
    for (const m of found) if (taken.every((k) => m.e <= k.s || m.s >= k.e)) taken.push(m);
    taken.sort((a, b) => a.s - b.s);
    return taken.map((m) => ({ phrase: phrases[m.entry]!, ...toOriginalRange(f, m.s, m.e) }));
  };

  return { version: lexicon.version, phrases, collisions, match };
}
