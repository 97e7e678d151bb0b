/**
 * The side files of PMC OA bulk packages (docs/corpus-jats.md, "Bulk packages"):
 *
 * - File lists: PMC publishes one CSV per package (`oa_comm_xml.PMC000xxxxxx.baseline.<date>.filelist.csv`,
 *   header `Article File,Article Citation,AccessionID,LastUpdated (YYYY-MM-DD HH:MM:SS),PMID,License,Retracted`)
 *   and the older `oa_file_list.csv` (`File,Article Citation,Accession ID,Last Updated (YYYY-MM-DD HH:MM:SS),PMID,License`).
 *   Both are read, by header name: the member path, accession id, PMID, licence and last-updated time.
 *   A package's own list (its name with `.tar.gz`/`.tgz` replaced by `.filelist.csv`, as PMC pairs them) is
 *   read when that package is read, answers for that package's members only, and is let go after it: a daily
 *   package's members have the same paths as the baseline's (`PMC000xxxxxx/PMC2000031.xml` in both), so one
 *   map of every list's rows by path would date the baseline copy by the daily list, and
 *   holding every list's rows costs ~350 B per article for the whole extraction. Lists that pair with no
 *   package (the old whole-subset `oa_file_list.csv`, a list whose package is absent) are global: read up
 *   front, they answer for loose files and for any member its own list does not name. Precedence for a
 *   member: its own list by path, then by accession id; then the global lists by path, then by accession id.
 * - Deletion lists: articles PMC withdrew from the subset; a file whose name says `deleted` or `withdrawn`
 *   (`.txt` or `.csv`), one PMCID per line (the first field of a CSV line; a header and `#` comments are skipped).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { normalisePmcid } from '../../../contracts/corpus/article-id.ts';
import { memberName, PACKAGE_FILE } from './packages.ts';

export const FILE_LIST = /(^|[._-])file_?list\.csv$/i;
export const DELETION_LIST = /(deleted|withdrawn|withdrawals?)[^/]*\.(txt|csv)$/i;

/** What a file list says about one article file. */
export interface FileListRow {
  pmcid: string | null;
  pmid: string | null;
  /** The licence as PMC writes it ("CC BY", "CC BY-NC", "CC0", "NO-CC CODE"). */
  licence: string | null;
  /** "YYYY-MM-DD HH:MM:SS", so text order is time order. */
  updated: string | null;
}

/** The rows of some file lists, by member path and by accession id (for members named otherwise). */
export interface FileLists {
  byMember: Map<string, FileListRow>;
  byPmcid: Map<string, FileListRow>;
  rows: number;
}

/** The name of a package's own file list, as PMC pairs them (`x.tar.gz` → `x.filelist.csv`). */
export function ownFileListName(pkg: string): string {
  return pkg.replace(PACKAGE_FILE, '.filelist.csv');
}

/**
 * Splits `fileLists` into each package's own list (by package name) and the global ones (the rest, in the
 * order given).
 */
export function pairFileLists(packages: readonly string[], fileLists: readonly string[]): { own: Map<string, string>; global: string[] } {
  const names = new Set(fileLists);
  const own = new Map<string, string>();
  for (const pkg of packages) {
    const list = ownFileListName(pkg);
    if (list !== pkg && names.has(list)) own.set(pkg, list);
  }
  const paired = new Set(own.values());
  return { own, global: fileLists.filter((n) => !paired.has(n)) };
}

const column = (header: string[], ...names: string[]) => {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/\(.*\)/, '')
      .replace(/[^a-z]/g, '');
  const wanted = names.map(norm);
  return header.findIndex((h) => wanted.includes(norm(h)));
};

/** One file list's rows in order: each article file's member path (as `memberName` gives it; null when empty) and row. */
export type FileListEntries = [member: string | null, row: FileListRow][];

/** Reads one file list (throws when it lacks the needed columns). */
export function parseFileList(path: string): FileListEntries {
  const records = parse(readFileSync(path), { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
  const header = records[0] ?? [];
  const file = column(header, 'Article File', 'File');
  const accession = column(header, 'AccessionID');
  const pmid = column(header, 'PMID');
  const licence = column(header, 'License', 'Licence');
  const updated = column(header, 'LastUpdated');
  if (file < 0 || accession < 0) throw new Error(`${path}: not a PMC file list (needs the columns "Article File" or "File", and "AccessionID")`);
  const out: FileListEntries = [];
  for (const r of records.slice(1)) {
    const text = (i: number) => (i >= 0 ? (r[i] ?? '').trim() || null : null);
    const row: FileListRow = {
      pmcid: normalisePmcid(text(accession)),
      pmid: /^\d+$/.test(text(pmid) ?? '') ? text(pmid) : null,
      licence: text(licence),
      updated: text(updated),
    };
    const member = text(file);
    out.push([member ? memberName(member) : null, row]);
  }
  return out;
}

/** Indexes file lists' rows (in order: a later list's row for the same member or accession id replaces an earlier one's). */
export function indexFileLists(lists: Iterable<FileListEntries>): FileLists {
  const out: FileLists = { byMember: new Map(), byPmcid: new Map(), rows: 0 };
  for (const entries of lists) {
    for (const [member, row] of entries) {
      if (member) out.byMember.set(member, row);
      if (row.pmcid) out.byPmcid.set(row.pmcid, row);
      out.rows++;
    }
  }
  return out;
}

/** The PMCIDs of the deletion lists at `paths`, each with the list that names it first. */
export function readDeletionLists(paths: readonly { path: string; name: string }[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const { path, name } of paths) {
    for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
      const first = line
        .trim()
        .split(/[,\t ]/)[0]
        ?.replace(/^"|"$/g, '');
      if (!first || first.startsWith('#')) continue;
      const id = normalisePmcid(first);
      if (id && !out.has(id)) out.set(id, name);
    }
  }
  return out;
}
