/**
 * The pinned lists behind routes CA-FUND and CA-VENUE, for a snapshot built from OpenAlex: derived from the
 * snapshot's own funder and source entities (`country_code` CA), or read from CSV files the operator pinned
 * (`id,name`, ids bare or as OpenAlex URLs).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { shortId } from '../../contracts/frame/catalogue-work.ts';
import type { CanadianListEntry } from '../../contracts/frame/canadian-lists.ts';
import { BuildError, linesOf, walk } from './layout.ts';

/** Entities with country_code CA from an entity directory (JSON Lines, gzipped or not; or API JSON files). */
export async function canadianEntities(dir: string, letter: 'F' | 'S'): Promise<CanadianListEntry[]> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new BuildError(`${dir}: no such directory`);
  const found = new Map<string, string>();
  const take = (e: unknown) => {
    if (typeof e !== 'object' || e === null) return;
    const r = e as { id?: unknown; display_name?: unknown; country_code?: unknown };
    const id = typeof r.id === 'string' ? shortId(r.id) : null;
    const name = typeof r.display_name === 'string' ? r.display_name.replace(/\s+/g, ' ').trim() : '';
    if (id && id.startsWith(letter) && String(r.country_code ?? '').toUpperCase() === 'CA' && name !== '') found.set(id, name.slice(0, 300));
  };
  for (const file of walk(dir, (n) => /\.(gz|jsonl|json)$/.test(n) && !n.endsWith('.csv.gz'))) {
    if (file.endsWith('.json')) {
      const doc = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      const results = (doc as { results?: unknown[] }).results;
      for (const e of Array.isArray(doc) ? doc : Array.isArray(results) ? results : [doc]) take(e);
      continue;
    }
    for await (const line of linesOf(file)) {
      if (line.trim() === '') continue;
      try {
        take(JSON.parse(line));
      } catch {
        throw new BuildError(`${file}: a line is not JSON`);
      }
    }
  }
  return [...found].map(([id, name]) => ({ id, name }));
}

/** A pinned list as CSV: a header with `id` and `name` (or `display_name`) columns. */
export function listFromCsv(path: string, letter: 'F' | 'S'): CanadianListEntry[] {
  if (!existsSync(path)) throw new BuildError(`${path}: no such file`);
  const rows = parse(readFileSync(path, 'utf8'), { columns: true, skip_empty_lines: true, bom: true }) as Record<string, string>[];
  const out = new Map<string, string>();
  rows.forEach((row, k) => {
    const id = shortId(row.id ?? '');
    const name = (row.name ?? row.display_name ?? '').replace(/\s+/g, ' ').trim();
    if (!id || !id.startsWith(letter)) throw new BuildError(`${path}:${k + 2}: id must be ${letter} followed by digits, got ${JSON.stringify(row.id ?? '')}`);
    if (name === '') throw new BuildError(`${path}:${k + 2}: name is empty`);
    out.set(id, name.slice(0, 300));
  });
  return [...out].map(([id, name]) => ({ id, name }));
}
