/**
 * The licence name matcher's shortcuts (length and character-count bounds, typed LCS rows, memo) must not change a
 * single answer: compared with a brute-force oracle that scores every SPDX name with a plain Levenshtein ratio.
 */
import spdx from 'spdx-license-list';
import { describe, expect, it } from 'vitest';
import { detectLicence } from '../../../../api-dynamic/src/services/fair/engine/vocab/licences.ts';

/** python-Levenshtein ratio, textbook: (|a|+|b| − insert/delete distance) / (|a|+|b|), full DP matrix. */
function ratio(a: string, b: string): number {
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) lcs[i]![j] = a[i - 1] === b[j - 1] ? lcs[i - 1]![j - 1]! + 1 : Math.max(lcs[i - 1]![j]!, lcs[i]![j - 1]!);
  return a.length + b.length === 0 ? 1 : (2 * lcs[a.length]![b.length]!) / (a.length + b.length);
}

/** The SPDX id a name matches: the best ratio above 0.85; on a tie the longer id, the first on equal length. */
function oracle(value: string): string | null {
  const lower = value.trim().toLowerCase();
  const entries = Object.entries(spdx).filter(([, l]) => typeof l?.name === 'string' && typeof l.url === 'string');
  const exact = entries.find(([id]) => id.toLowerCase() === lower);
  if (exact) return exact[0];
  let best: string | null = null;
  let bestRatio = 0.85;
  for (const [id, licence] of entries) {
    const r = ratio(lower, licence.name.toLowerCase());
    if (r > bestRatio) [best, bestRatio] = [id, r];
    else if (r === bestRatio && best !== null && id.length > best.length) best = id;
  }
  return best;
}

const NAMES = [
  'MIT License',
  'MIT Licence',
  'mit',
  'Apache License 2.0',
  'Apache Licence 2.0',
  'Apache License, Version 2.0',
  'GNU General Public License v3.0',
  'GNU General Public License v3.0 or later',
  'GNU Lesser General Public License v2.1',
  'BSD 3-Clause License',
  'BSD 3-Clause "New" or "Revised" License',
  'Creative Commons Attribution 4.0 International',
  'Creative Commons Attribution Share Alike 4.0',
  'Mozilla Public License 2.0',
  'The Unlicense',
  'Eclipse Public License 2.0',
  'Data access is restricted to registered users of the repository',
  'Other',
  'Our own terms of use',
  'Lizenz: CC BY 4.0',
  'Licence Ouverte / Open Licence 2.0',
];

describe('licence names: the fast matcher agrees with a brute-force oracle', () => {
  it.each(NAMES)('%s', (name) => {
    expect(detectLicence(name).spdxId).toBe(oracle(name));
    // asked again (memoised), same answer and a fresh object
    const again = detectLicence(name);
    expect(again.spdxId).toBe(oracle(name));
    again.spdxId = 'changed';
    expect(detectLicence(name).spdxId).toBe(oracle(name));
  });
});
