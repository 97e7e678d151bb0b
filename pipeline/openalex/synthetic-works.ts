/**
 * Works snapshot partitions for the builder's benchmark: records in the real shape, made by cycling through
 * the real OpenAlex records of ../shared/reference/openalex/works-api (every field kept; long lists cut to the
 * average record's weight), with fresh ids, years spread over 1950–2026, and about 1% given a Canadian
 * affiliation (the real frame is ~0.8% of the snapshot). Deterministic for a seed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

type Rec = Record<string, unknown>;

export function referenceTemplates(dir: string): Rec[] {
  const out: Rec[] = [];
  for (const f of readdirSync(dir).sort()) {
    const doc = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    out.push(...(Array.isArray(doc) ? doc : (doc.results ?? [doc])));
  }
  return out;
}

/** A small xorshift generator (deterministic; quality is irrelevant here). */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

/** The JSON line of synthetic record `n` (templates serialised once by the caller and patched by string). */
export class SyntheticWorks {
  private readonly heads: string[];
  private readonly caHeads: string[];
  private readonly random: () => number;
  constructor(templates: Rec[], seed: number) {
    this.random = rng(seed);
    // Each template as text with its id, year and updated_date cut out, so a record is three string joins.
    const prep = (t: Rec, ca: boolean, k: number) => {
      const copy: Rec = { ...t };
      // The reference records are well-cited works (long reference lists, abstracts); the average snapshot
      // record is far lighter (670 GB / 510 M = 1.3 kB gzipped): lists cut, a third without abstract.
      for (const key of ['referenced_works', 'related_works', 'counts_by_year', 'concepts', 'topics', 'locations', 'mesh', 'sustainable_development_goals'])
        if (Array.isArray(copy[key])) copy[key] = (copy[key] as unknown[]).slice(0, 3);
      if (Array.isArray(copy.authorships)) copy.authorships = (copy.authorships as unknown[]).slice(0, 8);
      if (k % 3 === 0) copy.abstract_inverted_index = null;
      delete copy.id;
      delete copy.publication_year;
      delete copy.updated_date;
      if (ca) {
        const auth = Array.isArray(copy.authorships) && copy.authorships.length > 0 ? (copy.authorships as Rec[]) : [{ author: { id: 'https://openalex.org/A5000000001', display_name: 'Synthetic Author' } }];
        copy.authorships = auth.map((a, k) => (k === 0 ? { ...a, institutions: [{ id: 'https://openalex.org/I70931966', display_name: 'Université de Montréal', country_code: 'CA' }], countries: ['CA'] } : a));
      } else if (Array.isArray(copy.authorships)) {
        copy.authorships = (copy.authorships as Rec[]).map((a) => ({
          ...a,
          institutions: ((a.institutions as Rec[]) ?? []).map((i) => (i.country_code === 'CA' ? { ...i, country_code: 'US' } : i)),
          countries: ((a.countries as string[]) ?? []).filter((c) => c !== 'CA'),
        }));
      }
      return JSON.stringify(copy).slice(1);
    };
    this.heads = templates.map((t, k) => prep(t, false, k));
    this.caHeads = templates.map((t, k) => prep(t, true, k));
  }

  line(n: number, updated: string): string {
    const k = n % this.heads.length;
    const ca = this.random() < 0.01;
    const year = 1950 + Math.floor(this.random() * 77);
    return `{"id":"https://openalex.org/W${9_000_000_000 + n}","publication_year":${year},"updated_date":"${updated}T00:00:00",${(ca ? this.caHeads : this.heads)[k]}`;
  }
}
