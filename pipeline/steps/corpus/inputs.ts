/**
 * What a snapshot's corpus is made of: `snapshots/<name>/corpus/` holds either JATS full texts or a
 * pre-extracted pair `papers.csv` + `sentences.csv` (csv-input.ts). JATS comes as loose files (PubMed Central
 * style `.xml`/`.nxml`, each optionally gzipped as `.gz`), as PMC OA bulk packages (`.tar.gz`/`.tgz` archives
 * of such files, packages.ts), or both, with the packages' file lists (`*.filelist.csv`, `oa_file_list.csv`)
 * and deletion lists (a name with `deleted` or `withdrawn`) beside them (file-lists.ts). Other files (a
 * generator's ground-truth.json, a README) are ignored and listed in the log, so a stray file never becomes an
 * article silently. No corpus directory: an empty corpus.
 *
 * The fingerprint hashes every input file's name and bytes (streamed: a package is never read whole), so
 * `--if-stale` rebuilds when any article, package or list changes, even though the frame's manifest.json does
 * not list the corpus.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sha256FileSync } from '../../lib/hash.ts';
import { DELETION_LIST, FILE_LIST } from './file-lists.ts';
import { JATS_MEMBER, PACKAGE_FILE } from './packages.ts';

export const CORPUS_DIR = 'corpus';
export const PAPERS_CSV = 'papers.csv';
export const SENTENCES_CSV = 'sentences.csv';

export type CorpusInput =
  | { kind: 'none'; dir: string }
  | {
      kind: 'jats';
      dir: string;
      /** Loose article files. */
      files: string[];
      /** Bulk packages (`.tar.gz`), read in name order. */
      packages: string[];
      /** PMC file lists and deletion lists. */
      fileLists: string[];
      deletionLists: string[];
      ignored: string[];
      bytes: number;
    }
  | { kind: 'csv'; dir: string; papers: string; sentences: string; ignored: string[]; bytes: number };

/** Lists the corpus input of a snapshot directory (file names sorted, so runs are reproducible). */
export function corpusInput(snapshot: string): CorpusInput {
  const dir = join(snapshot, CORPUS_DIR);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return { kind: 'none', dir };
  const names = readdirSync(dir)
    .filter((n) => statSync(join(dir, n)).isFile())
    .sort();
  if (names.includes(PAPERS_CSV) || names.includes(SENTENCES_CSV)) {
    if (!names.includes(PAPERS_CSV) || !names.includes(SENTENCES_CSV))
      throw new Error(`${dir}: a pre-extracted corpus needs both ${PAPERS_CSV} and ${SENTENCES_CSV}`);
    const ignored = names.filter((n) => n !== PAPERS_CSV && n !== SENTENCES_CSV);
    const bytes = statSync(join(dir, PAPERS_CSV)).size + statSync(join(dir, SENTENCES_CSV)).size;
    return { kind: 'csv', dir, papers: join(dir, PAPERS_CSV), sentences: join(dir, SENTENCES_CSV), ignored, bytes };
  }
  const files = names.filter((n) => JATS_MEMBER.test(n));
  const packages = names.filter((n) => PACKAGE_FILE.test(n));
  const fileLists = names.filter((n) => FILE_LIST.test(n));
  const deletionLists = names.filter((n) => DELETION_LIST.test(n) && !fileLists.includes(n));
  const used = new Set([...files, ...packages, ...fileLists, ...deletionLists]);
  const ignored = names.filter((n) => !used.has(n));
  const bytes = [...files, ...packages].reduce((s, n) => s + statSync(join(dir, n)).size, 0);
  return { kind: 'jats', dir, files, packages, fileLists, deletionLists, ignored, bytes };
}

/** The input files of a corpus (every file the build reads), by name. */
export function corpusInputFiles(input: CorpusInput): string[] {
  if (input.kind === 'none') return [];
  if (input.kind === 'csv') return [PAPERS_CSV, SENTENCES_CSV];
  return [...input.files, ...input.packages, ...input.fileLists, ...input.deletionLists].sort();
}

/**
 * A hash of the input's file names and contents ("none" without a corpus), with each file's own sha256 (the
 * extraction cache knows an unchanged package by it). Synchronous: `--if-stale` is.
 */
export function corpusFingerprint(input: CorpusInput, fileHashes?: Map<string, string>): string {
  if (input.kind === 'none') return 'none';
  const h = createHash('sha256').update(input.kind);
  for (const n of corpusInputFiles(input)) {
    const sha = sha256FileSync(join(input.dir, n));
    fileHashes?.set(n, sha);
    h.update(`\n${n}\t`).update(sha);
  }
  return h.digest('hex');
}
