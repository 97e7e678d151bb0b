/**
 * Generated articles packed the way PMC ships its OA bulk packages (docs/corpus-jats.md, "Bulk packages"), for
 * tests and `npm run bench:corpus -- --packages`: baseline packages
 * `oa_comm_xml.PMC<k>xxxxxx.baseline.<date>.tar.gz` of `perPackage` articles each (members
 * `PMC<k>xxxxxx/<file>.xml`, uncompressed XML as in the real packages), each with its `.filelist.csv`
 * (`Article File,Article Citation,AccessionID,LastUpdated (YYYY-MM-DD HH:MM:SS),PMID,License,Retracted`), and
 * a daily incremental package `oa_comm_xml.incr.<date>.tar.gz` holding revised versions of some articles and
 * new ones, with its file list and, optionally, a deletion list.
 *
 * Article i is `generateArticle(seed, i)` (generate.ts), so the packed articles are the loose generator's;
 * a revised article is that XML with one added paragraph (a new hedged sentence), under the same ids.
 * Packages are streamed to disk (tar-stream → gzip), never built in memory.
 */
import { createWriteStream, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack } from 'tar-stream';
import { csvField } from '../../../contracts/frame/export-columns.ts';
import { type Progress, silentProgress } from '../../lib/progress.ts';
import { generateArticle, type GeneratedArticle } from './article.ts';

const FILE_LIST_HEADER = 'Article File,Article Citation,AccessionID,LastUpdated (YYYY-MM-DD HH:MM:SS),PMID,License,Retracted';

/** The paragraph a revision adds: a hedged result, so the revision changes the article's excerpts. */
export function reviseArticleXml(xml: string, revision: number): string {
  const p = `<sec><title>Erratum</title><p>In the corrected analysis the difference tended to be larger in the treated arm (p = 0.0${6 + (revision % 3)}).</p></sec>`;
  const at = xml.lastIndexOf('</body>');
  if (at < 0) throw new Error('a generated article without </body>');
  return xml.slice(0, at) + p + xml.slice(at);
}

interface Member {
  name: string;
  xml: string;
  truth: GeneratedArticle['truth'];
}

function memberOf(a: GeneratedArticle, dir: string, xml = a.xml): Member {
  return { name: `${dir}/${a.file.replace(/\.gz$/, '')}`, xml, truth: a.truth };
}

/** Writes one package and its file list; returns the package's bytes. */
async function writePackage(path: string, members: Iterable<Member>, updated: string): Promise<number> {
  const tar = pack();
  const rows = [FILE_LIST_HEADER];
  const gzip = createGzip({ level: 6 });
  const file = createWriteStream(path);
  const done = pipeline(tar, gzip, file);
  for (const m of members) {
    const bytes = Buffer.from(m.xml, 'utf8');
    await new Promise<void>((resolve, reject) =>
      tar.entry({ name: m.name, size: bytes.length, mtime: new Date(Date.UTC(2026, 0, 1)) }, bytes, (err) => (err ? reject(err) : resolve())),
    );
    const t = m.truth;
    rows.push([m.name, `${t.journal}. ${t.year}`, t.pmcid ?? '', updated, t.pmid ?? '', 'CC BY', 'no'].map(csvField).join(','));
  }
  tar.finalize();
  await done;
  writeFileSync(path.replace(/\.tar\.gz$/, '.filelist.csv'), `${rows.join('\n')}\n`);
  return statSync(path).size;
}

export interface PackageOptions {
  dir: string;
  /** Articles 0 … n-1 of the generator. */
  articles: number;
  seed: number;
  /** Articles per baseline package (default 10,000, a few hundred MB of XML in PMC's own). */
  perPackage?: number;
  date?: string;
  progress?: Progress;
}

/** Writes the baseline packages; returns their names and total bytes. */
export async function generateBaselinePackages(o: PackageOptions): Promise<{ packages: string[]; bytes: number }> {
  const per = o.perPackage ?? 10_000;
  const date = o.date ?? '2026-01-01';
  const progress = o.progress ?? silentProgress;
  mkdirSync(o.dir, { recursive: true });
  const packages: string[] = [];
  let bytes = 0;
  progress.start('packing articles', o.articles);
  for (let start = 0, k = 0; start < o.articles; start += per, k++) {
    const dir = `PMC${String(k).padStart(3, '0')}xxxxxx`;
    const name = `oa_comm_xml.${dir}.baseline.${date}.tar.gz`;
    const end = Math.min(o.articles, start + per);
    function* members(): Generator<Member> {
      for (let i = start; i < end; i++) {
        yield memberOf(generateArticle(o.seed, i, 0), dir);
        if ((i & 255) === 255) progress.update(i + 1);
      }
    }
    bytes += await writePackage(join(o.dir, name), members(), `${date} 00:00:00`);
    packages.push(name);
  }
  progress.update(o.articles);
  progress.stop();
  return { packages, bytes };
}

export interface IncrementOptions {
  dir: string;
  seed: number;
  /** Indices of baseline articles to ship revised. */
  revised: readonly number[];
  /** Indices of new articles (past the baseline's). */
  added: readonly number[];
  /** PMCIDs to list as withdrawn (written as `oa_comm.withdrawn.<date>.txt` when non-empty). */
  withdrawn?: readonly string[];
  date?: string;
}

/** Writes one daily incremental package (and deletion list); returns the file names written. */
export async function generateIncrementPackage(o: IncrementOptions): Promise<string[]> {
  const date = o.date ?? '2026-01-02';
  const name = `oa_comm_xml.incr.${date}.tar.gz`;
  const dir = 'incr';
  function* members(): Generator<Member> {
    for (const i of o.revised) {
      const a = generateArticle(o.seed, i, 0);
      yield memberOf(a, dir, reviseArticleXml(a.xml, i));
    }
    for (const i of o.added) yield memberOf(generateArticle(o.seed, i, 0), dir);
  }
  mkdirSync(o.dir, { recursive: true });
  await writePackage(join(o.dir, name), members(), `${date} 00:00:00`);
  const written = [name, name.replace(/\.tar\.gz$/, '.filelist.csv')];
  if (o.withdrawn?.length) {
    const list = `oa_comm.withdrawn.${date}.txt`;
    writeFileSync(join(o.dir, list), `${o.withdrawn.join('\n')}\n`);
    written.push(list);
  }
  return written;
}
