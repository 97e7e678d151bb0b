/**
 * What a snapshot's corpus is made of: `snapshots/<name>/corpus/` holds either JATS full texts (PubMed Central
 * style `.xml`/`.nxml`, each optionally gzipped as `.gz`) or a pre-extracted pair `papers.csv` +
 * `sentences.csv` (csv-input.ts). Other files (a generator's ground-truth.json, a README) are ignored and
 * listed in the log, so a stray file never becomes an article silently. No corpus directory: an empty corpus.
 *
 * The fingerprint hashes every input file's name and bytes, so `--if-stale` rebuilds when any article
 * changes, even though the frame's manifest.json does not list the corpus.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const CORPUS_DIR = 'corpus';
export const PAPERS_CSV = 'papers.csv';
export const SENTENCES_CSV = 'sentences.csv';

const JATS_FILE = /\.(n?xml)(\.gz)?$/i;

export type CorpusInput =
  | { kind: 'none'; dir: string }
  | { kind: 'jats'; dir: string; files: string[]; ignored: string[]; bytes: number }
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
  const files = names.filter((n) => JATS_FILE.test(n));
  const ignored = names.filter((n) => !files.includes(n));
  const bytes = files.reduce((s, n) => s + statSync(join(dir, n)).size, 0);
  return { kind: 'jats', dir, files, ignored, bytes };
}

/** A hash of the input's file names and contents ("none" without a corpus). Synchronous: `--if-stale` is. */
export function corpusFingerprint(input: CorpusInput): string {
  if (input.kind === 'none') return 'none';
  const names = input.kind === 'jats' ? input.files : [PAPERS_CSV, SENTENCES_CSV];
  const h = createHash('sha256').update(input.kind);
  for (const n of names) h.update(`\n${n}\t`).update(createHash('sha256').update(readFileSync(join(input.dir, n))).digest('hex'));
  return h.digest('hex');
}
