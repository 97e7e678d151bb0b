/**
 * Works snapshot partitions for the builder's benchmark: records in the real shape, made from the real OpenAlex
 * records of ../shared/reference/openalex/works-api (every field kind kept), with fresh ids, years spread over
 * 1950–2026, and about 1% given a Canadian affiliation (the real frame is ~0.8% of the snapshot). Deterministic
 * for a seed.
 *
 * Calibrated to the real snapshot's average record (docs/decisions.md has the derivation): about 1.3 kB
 * gzipped (Sept 2023 manifest: 317.6 GB / 244.4 M works; June 2026: 670 GB / 510 M) and about 6.3 kB as text
 * (the 2024 docs' 1.6 TB / 330 GB = 4.85× gzip ratio). The reference records are search results, i.e. richer
 * than the average work (18.8 kB a line, mean 36 references, 79% with abstracts), so each template is used in
 * VARIANTS cut-down variants: an abstract on about half (ABSTRACT_SHARE), and the long lists drawn short (most
 * works have few authors, few or no references and no MeSH terms).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

type Rec = Record<string, unknown>;

/** Share of records that keep their template's inverted index (when it has one). */
export const ABSTRACT_SHARE = 0.35;
/** Cut-down variants per template (each with its own draws). */
const VARIANTS = 8;
/** Per list: the lengths a variant's list is cut to, drawn uniformly (never longer than the template's). */
const LIST_CUTS: Record<string, number[]> = {
  authorships: [1, 1, 2, 2, 3, 3, 4, 5, 6, 8],
  referenced_works: [0, 0, 0, 2, 5, 10, 15, 25],
  related_works: [0, 0, 3, 10],
  counts_by_year: [0, 1, 3, 6],
  concepts: [1, 2, 4],
  topics: [1, 1, 3],
  locations: [1, 1, 1, 2],
  keywords: [0, 2, 4],
  mesh: [0, 0, 0, 0, 5],
  sustainable_development_goals: [0, 1],
};

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

/** The JSON line of synthetic record `n` (variants serialised once by the constructor and patched by string). */
export class SyntheticWorks {
  private readonly heads: string[];
  private readonly caHeads: string[];
  private readonly random: () => number;
  constructor(templates: Rec[], seed: number) {
    this.random = rng(seed);
    const draw = rng(seed ^ 0x5bd1e995);
    const pick = (a: number[]) => a[Math.floor(draw() * a.length)]!;
    // Each variant as text with its id, year and updated_date cut out, so a record is three string joins.
    const prep = (t: Rec, ca: boolean) => {
      const copy: Rec = { ...t };
      for (const [key, cuts] of Object.entries(LIST_CUTS)) if (Array.isArray(copy[key])) copy[key] = (copy[key] as unknown[]).slice(0, pick(cuts));
      if (draw() >= ABSTRACT_SHARE) copy.abstract_inverted_index = null;
      delete copy.id;
      delete copy.publication_year;
      delete copy.updated_date;
      if (ca) {
        const auth =
          Array.isArray(copy.authorships) && copy.authorships.length > 0
            ? (copy.authorships as Rec[])
            : [{ author: { id: 'https://openalex.org/A5000000001', display_name: 'Synthetic Author' } }];
        copy.authorships = auth.map((a, k) =>
          k === 0
            ? { ...a, institutions: [{ id: 'https://openalex.org/I70931966', display_name: 'Université de Montréal', country_code: 'CA' }], countries: ['CA'] }
            : a,
        );
      } else if (Array.isArray(copy.authorships)) {
        copy.authorships = (copy.authorships as Rec[]).map((a) => ({
          ...a,
          institutions: ((a.institutions as Rec[]) ?? []).map((i) => (i.country_code === 'CA' ? { ...i, country_code: 'US' } : i)),
          countries: ((a.countries as string[]) ?? []).filter((c) => c !== 'CA'),
        }));
      }
      return JSON.stringify(copy).slice(1);
    };
    this.heads = [];
    this.caHeads = [];
    for (let v = 0; v < VARIANTS; v++)
      for (const t of templates) {
        this.heads.push(prep(t, false));
        this.caHeads.push(prep(t, true));
      }
  }

  line(n: number, updated: string): string {
    const k = n % this.heads.length;
    const ca = this.random() < 0.01;
    const year = 1950 + Math.floor(this.random() * 77);
    return `{"id":"https://openalex.org/W${9_000_000_000 + n}","publication_year":${year},"updated_date":"${updated}T00:00:00",${(ca ? this.caHeads : this.heads)[k]}`;
  }
}
