/**
 * Licence recognition against the SPDX licence list (the pinned `spdx-license-list` package), as F-UJI does
 * it (fair.md §2.9): Creative Commons URLs are valid directly; other URLs match an SPDX licence URL or an
 * `spdx.org/licenses/<id>` path (or a path ending in an SPDX id, e.g. opensource.org/licenses/MIT); names
 * match an SPDX id exactly or an SPDX name with a Levenshtein ratio above 0.85.
 */
import spdx from 'spdx-license-list';

export interface LicenceMatch {
  /** The value as found in metadata. */
  value: string;
  spdxId: string | null;
  name: string | null;
  /** The SPDX page of the licence. */
  detailsUrl: string | null;
  osiApproved: boolean | null;
}

interface Entry {
  id: string;
  name: string;
  url: string;
  osiApproved: boolean;
}

// Guard the shape: a CJS-interop `default` key (or an entry without a URL) must not become a licence.
const ENTRIES: Entry[] = Object.entries(spdx)
  .filter(([, licence]) => typeof licence?.name === 'string' && typeof licence.url === 'string')
  .map(([id, licence]) => ({ id, name: licence.name, url: licence.url, osiApproved: licence.osiApproved === true }));
const BY_ID = new Map(ENTRIES.map((entry) => [entry.id.toLowerCase(), entry]));

/** Comparable URL: no scheme, no www, no trailing slash or `/legalcode`, lower-case. */
function urlKey(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/[#?].*$/, '')
    .replace(/\/+$/, '')
    .replace(/\/legalcode(\.[a-z-]+)?$/, '')
    .replace(/\/+$/, '');
}
/**
 * Deprecated SPDX ids (GPL-3.0, LGPL-2.1 …) share name and URL with their successors (GPL-3.0-only …); on a tie
 * the longer id, the current one, wins.
 */
const preferred = (a: Entry | null | undefined, b: Entry) => (!a || b.id.length > a.id.length ? b : a);
const BY_URL = new Map<string, Entry>();
for (const entry of ENTRIES) BY_URL.set(urlKey(entry.url), preferred(BY_URL.get(urlKey(entry.url)), entry));

const CC_LICENCE = /creativecommons\.org\/licenses\/(by|by-sa|by-nd|by-nc|by-nc-sa|by-nc-nd)\/(1\.0|2\.0|2\.5|3\.0|4\.0)/i;
const CC_ZERO = /creativecommons\.org\/publicdomain\//i;

/** Similarity in [0, 1] as python-Levenshtein's ratio: (|a|+|b|−distance with substitutions costing 2)/(|a|+|b|). */
export function levenshteinRatio(a: string, b: string): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  // ratio() counts a substitution as 2 edits, so its distance is the insert/delete-only distance.
  return (total - indelDistance(a, b)) / total;
}

/** Two reusable LCS rows (grown on demand): the name match runs ~600 comparisons per licence value, inline. */
let rowA = new Int32Array(128);
let rowB = new Int32Array(128);

function indelDistance(a: string, b: string): number {
  // insert/delete-only distance = |a| + |b| − 2·LCS(a, b); two typed rows, no allocation per comparison (this ran
  // for milliseconds per assessment with fresh arrays per row, a visible share of the event-loop stalls).
  if (rowA.length <= b.length) {
    rowA = new Int32Array(b.length + 1);
    rowB = new Int32Array(b.length + 1);
  }
  let previous = rowA;
  let current = rowB;
  previous.fill(0, 0, b.length + 1);
  current[0] = 0;
  for (let i = 1; i <= a.length; i++) {
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      current[j] = ca === b.charCodeAt(j - 1) ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!);
    }
    [previous, current] = [current, previous];
  }
  return a.length + b.length - 2 * previous[b.length]!;
}

function match(value: string, entry: Entry): LicenceMatch {
  return { value, spdxId: entry.id, name: entry.name, detailsUrl: `https://spdx.org/licenses/${entry.id}.html`, osiApproved: entry.osiApproved };
}

const NO_MATCH = (value: string): LicenceMatch => ({ value, spdxId: null, name: null, detailsUrl: null, osiApproved: null });

/** Character counts in 128 buckets (code unit mod 128): Σ min over buckets bounds the LCS from above. */
function histogram(text: string): Uint16Array {
  const counts = new Uint16Array(128);
  for (let i = 0; i < text.length; i++) counts[text.charCodeAt(i) & 127]!++;
  return counts;
}

function sharedCount(a: Uint16Array, b: Uint16Array): number {
  let shared = 0;
  for (let i = 0; i < 128; i++) shared += Math.min(a[i]!, b[i]!);
  return shared;
}

/** SPDX names lower-cased, with their histograms, computed once. */
const NAMES = ENTRIES.map((entry) => {
  const name = entry.name.toLowerCase();
  return { entry, name, counts: histogram(name) };
});

/** Results by value: the same few licence strings recur in every assessment, and the name match is the costly part. */
const MEMO = new Map<string, LicenceMatch>();
const MEMO_LIMIT = 4096;

/** Recognise one licence value (URL, SPDX id or name). */
export function detectLicence(value: string): LicenceMatch {
  const known = MEMO.get(value);
  if (known) return { ...known };
  const found = detectUncached(value);
  if (MEMO.size >= MEMO_LIMIT) MEMO.clear();
  MEMO.set(value, found);
  return { ...found };
}

function detectUncached(value: string): LicenceMatch {
  const text = value.trim();
  if (/^https?:\/\//i.test(text) || /^[\w.-]+\.[a-z]{2,}\//i.test(text)) {
    const cc = CC_LICENCE.exec(text);
    if (cc) {
      const id = `CC-${cc[1]!.toUpperCase()}-${cc[2]}`;
      const entry = BY_ID.get(id.toLowerCase());
      return entry ? match(value, entry) : { value, spdxId: id, name: id, detailsUrl: null, osiApproved: false };
    }
    if (CC_ZERO.test(text)) return match(value, BY_ID.get('cc0-1.0')!);
    const byUrl = BY_URL.get(urlKey(text));
    if (byUrl) return match(value, byUrl);
    const lastSegment = urlKey(text)
      .split('/')
      .at(-1)!
      .replace(/\.(html?|php|txt|json)$/, '');
    const byPath = BY_ID.get(lastSegment);
    if (byPath && /licen[cs]e/i.test(text)) return match(value, byPath);
    return NO_MATCH(value);
  }
  const byId = BY_ID.get(text.toLowerCase());
  if (byId) return match(value, byId);
  const lower = text.toLowerCase();
  const counts = histogram(lower);
  let best: Entry | null = null;
  let bestRatio = 0.85;
  for (const { entry, name, counts: nameCounts } of NAMES) {
    // Cheap bounds first, both exact (they only skip names that cannot reach bestRatio): the ratio cannot exceed
    // 2·min/(sum) (length) nor 2·shared characters/(sum) (the LCS uses each character at most as often as both have it).
    const sum = name.length + lower.length;
    if ((2 * Math.min(name.length, lower.length)) / sum < bestRatio) continue;
    if ((2 * sharedCount(counts, nameCounts)) / sum < bestRatio) continue;
    const ratio = levenshteinRatio(lower, name);
    if (ratio > bestRatio || (ratio === bestRatio && best !== null)) {
      best = ratio > bestRatio ? entry : preferred(best, entry);
      bestRatio = ratio;
    }
  }
  return best ? match(value, best) : NO_MATCH(value);
}

/** Does an access-rights value actually name a licence (so A1 moves it to the licences, fair.md §2.9)? */
export function looksLikeLicence(value: string): boolean {
  if (/licen[cs]e|creativecommons\.org|opensource\.org|spdx\.org/i.test(value)) return true;
  return detectLicence(value).spdxId !== null;
}
