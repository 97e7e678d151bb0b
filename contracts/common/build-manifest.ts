/**
 * `build-output/current/manifest.json`: what a build contains and what it was built from. The server checks
 * it at start and on reload; `npm start` compares it with the snapshot to decide whether to rebuild.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { snapshotRefSchema } from '../frame/snapshot-ref.ts';
import { markerPid } from './build-markers.ts';

/** Bump when the pipeline's output format changes, so old builds are rebuilt. */
export const PIPELINE_VERSION = '8';

export const buildFileSchema = z.object({ bytes: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) }).strict();

/** What the build manifest records about the corpus, and what `--if-stale` compares. */
export const corpusManifestSchema = z
  .object({
    input: z.enum(['none', 'jats', 'csv']),
    /** sha256 over the input files' names and contents, packages and lists included (pipeline/steps/corpus/inputs.ts); "none" without a corpus. */
    fingerprint: z.string(),
    /** Loose article files (jats) or 2 (csv). */
    input_files: z.number().int().min(0),
    /** PMC OA bulk packages (`.tar.gz`) read; 0 in builds made before packages were read. */
    input_packages: z.number().int().min(0).default(0),
    /** Articles removed because a deletion list names them. */
    deleted_articles: z.number().int().min(0).default(0),
    articles: z.number().int().min(0),
    excerpts: z.number().int().min(0),
    skipped_files: z.number().int().min(0),
    duplicate_articles: z.number().int().min(0),
    generated_ids: z.number().int().min(0),
    lexicon: z.object({ version: z.string(), source: z.string(), sha256: z.string() }).strict(),
  })
  .strict();
export type CorpusManifest = z.infer<typeof corpusManifestSchema>;

export const buildManifestSchema = z
  .object({
    pipeline_version: z.string(),
    snapshot: snapshotRefSchema.extend({ manifest_sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
    /** Every output file except the per-work documents, by path relative to the build directory. */
    files: z.record(z.string(), buildFileSchema),
    /** Per-work documents: their count and the index file (`sha256sum` format) that hashes each one. */
    work_documents: z.object({ count: z.number().int().min(0), directory: z.string(), index: z.string().nullable() }).strict(),
    /** Content fingerprints of the database tables (order-independent row hashes), stable across rebuilds. */
    database_content: z.record(z.string(), z.string()),
    corpus: corpusManifestSchema,
  })
  .strict();
export type BuildManifest = z.infer<typeof buildManifestSchema>;

/**
 * Paths of the files below the build directory `dir` that its manifest lists, relative to it: every file but the
 * manifest itself, the servers' marker files and those below `skip` (the per-work documents, hashed by their index).
 */
export function manifestFiles(dir: string, skip: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const rel = relative(dir, join(d, e.name));
      if (e.isDirectory()) {
        if (rel !== skip) walk(join(d, e.name));
      } else if (rel !== 'manifest.json' && !(d === dir && markerPid(e.name) !== null)) out.push(rel);
    }
  };
  walk(dir);
  return out;
}
