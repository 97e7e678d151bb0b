/**
 * The compact set of document keys (pipeline/steps/corpus/doc-key-set.ts) against a JS `Set` of the same strings:
 * thousands of sha256 keys under two meta versions (enough to grow the table several times), keys that differ in
 * their last byte or only in their version, and texts of another form.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DocKeySet } from '../../../pipeline/steps/corpus/doc-key-set.ts';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('DocKeySet', () => {
  it('answers has() as a Set of the same strings does', () => {
    const set = new DocKeySet();
    const oracle = new Set<string>();
    const add = (k: string) => (set.add(k), oracle.add(k));
    for (let i = 0; i < 5000; i++) add(`${sha(String(i))}-v1`);
    for (let i = 0; i < 5000; i += 3) add(`${sha(String(i))}-2b`);
    add('none:17');
    add(`${sha('x').toUpperCase()}-v1`); // not lowercase hex: kept as text
    add(`${sha('0')}-v1`); // again
    const probes = [...oracle];
    for (let i = 0; i < 6000; i++) probes.push(`${sha(String(i))}-v1`, `${sha(String(i))}-2b`, `${sha(String(i))}-v3`);
    const last = sha('7');
    probes.push(`${last.slice(0, 63)}${last[63] === '0' ? '1' : '0'}-v1`, 'none:18', `${sha('x')}-v1`, `${sha('x').toUpperCase()}-v1`, '', '-v1');
    for (const p of probes) expect(set.has(p), p).toBe(oracle.has(p));
    expect(probes.filter((p) => oracle.has(p)).length).toBeGreaterThan(6000);
    expect(probes.filter((p) => !oracle.has(p)).length).toBeGreaterThan(5000);
  });
});
