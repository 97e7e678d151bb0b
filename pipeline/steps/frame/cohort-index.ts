/**
 * Step 3c: the cohort index (layout in contracts/frame/cohort-index.ts). Columns, dictionaries, one row
 * permutation per sort, and the term/author lists, all read out of the frame database in row order and
 * written as little-endian typed arrays the server loads without parsing.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import {
  COHORT_DIR,
  COLUMNS,
  type ColumnName,
  type CohortIndexManifest,
  type CsrName,
  DICTIONARIES,
  file,
  FLAG,
  isPackedCsr,
  narrowName,
  ORDERS,
  texts,
} from '../../../contracts/frame/cohort-index.ts';
import { DESIGNS } from '../../../contracts/frame/vocab.ts';
import { stablePretty } from '../../../contracts/common/stable-json.ts';
import { ByteBuffer, columnBytes, TYPED_ARRAYS, type TypedColumn } from '../../../contracts/common/bytes.ts';
import { type Duck, forEachChunk, lit, registerTermsFunction, termsListSql } from '../../lib/duckdb.ts';
import type { Progress } from '../../lib/progress.ts';
import { maskSql } from './frame.duckdb.ts';

function writeTyped(path: string, array: TypedColumn): void {
  writeFileSync(path, columnBytes(array));
}

/** Appends u32 values to a file through a buffer. */
class U32Writer {
  private buf: Uint16Array | Uint32Array;
  private n = 0;
  private readonly fd: number;
  count = 0;
  /** `width` 2 writes u16 (every value must fit: narrowName chose it). */
  constructor(path: string, width: 2 | 4 = 4) {
    this.fd = openSync(path, 'w');
    this.buf = width === 2 ? new Uint16Array(1 << 16) : new Uint32Array(1 << 16);
  }
  push(v: number): void {
    this.buf[this.n++] = v;
    this.count++;
    if (this.n === this.buf.length) this.flush();
  }
  private flush(): void {
    if (this.n > 0) writeSync(this.fd, new Uint8Array(this.buf.buffer, 0, this.n * this.buf.BYTES_PER_ELEMENT));
    this.n = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** Writes texts found by row (contracts/frame/cohort-index.ts `texts`): the bytes, then n + 1 u32 offsets. */
class TextsWriter {
  private readonly fd: number;
  private readonly offsets: Uint32Array<ArrayBuffer>;
  private parts: Buffer[] = [];
  private held = 0;
  private pos = 0;
  private k = 0;
  constructor(
    private readonly dir: string,
    private readonly name: string,
    rows: number,
  ) {
    this.fd = openSync(join(dir, texts(name).bin), 'w');
    this.offsets = new Uint32Array(rows + 1);
  }
  push(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.pos += b.length;
    if (this.pos > 0xffffffff) throw new Error(`${this.name}: more than 4 GiB of text`);
    this.offsets[++this.k] = this.pos;
    this.parts.push(b);
    this.held += b.length;
    if (this.held > 1 << 20) this.flush();
  }
  private flush(): void {
    writeSync(this.fd, Buffer.concat(this.parts));
    this.parts = [];
    this.held = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
    writeTyped(join(this.dir, texts(this.name).offsets), this.offsets);
  }
}

const designIndex = (col: string) => `coalesce(list_position(${lit(`[${DESIGNS.map((d) => `'${d}'`).join(',')}]`)}::VARCHAR[], ${col}), 0)`;

/** Appends delta-varint coded values (contracts/frame/cohort-index.ts PACKED_CSRS) to a file through a buffer. */
class DeltaVarintWriter {
  private readonly buf = new ByteBuffer();
  private readonly fd: number;
  private prev = -1;
  bytes = 0;
  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }
  /** The next values belong to a new key: its first value is written whole. */
  newKey(): void {
    this.prev = -1;
  }
  push(v: number): void {
    const x = this.prev < 0 ? v : v - this.prev;
    if (x <= 0 && this.prev >= 0) throw new Error('a packed CSR list must be strictly ascending');
    this.prev = v;
    const before = this.buf.length;
    this.buf.uvar(x);
    this.bytes += this.buf.length - before;
    if (this.buf.length >= 1 << 16) this.flush();
  }
  private flush(): void {
    if (this.buf.length > 0) writeSync(this.fd, this.buf.view());
    this.buf.reset();
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/**
 * Writes a packed CSR (PACKED_CSRS) over `(key, value)` pairs sorted by key then value: keys are 0..keys-1
 * when `keys` is given, else strings (collected and returned).
 */
async function writePackedCsr(duck: Duck, dir: string, name: CsrName, sql: string, keys?: number): Promise<string[]> {
  const values = new DeltaVarintWriter(join(dir, file.csrPackedValues(name)));
  const byteOffsets: number[] = [];
  const counts: number[] = [];
  const terms: string[] = [];
  let last: string | number | undefined;
  const openKey = () => {
    byteOffsets.push(values.bytes);
    counts.push(0);
    values.newKey();
  };
  await forEachChunk(duck, sql, (cols, n) => {
    const [k, v] = cols as [ArrayLike<string | number>, ArrayLike<number>];
    for (let i = 0; i < n; i++) {
      if (k[i] !== last) {
        last = k[i]!;
        if (keys === undefined) {
          terms.push(last as string);
          openKey();
        } else while (counts.length <= (last as number)) openKey();
      }
      values.push(v[i]!);
      counts[counts.length - 1]!++;
    }
  });
  if (keys !== undefined) while (counts.length < keys) openKey();
  byteOffsets.push(values.bytes);
  values.close();
  writeTyped(join(dir, file.csrByteOffsets(name)), Float64Array.from(byteOffsets));
  writeTyped(join(dir, file.csrCounts(name)), Uint32Array.from(counts));
  return terms;
}

/**
 * Writes a CSR over `(key, value)` pairs the query yields sorted by key then value. `keys` is the number of
 * keys when they are rows (0..keys-1); otherwise the distinct string keys are collected and returned.
 */
export async function writeCsr(
  duck: Duck,
  dir: string,
  name: CsrName,
  sql: string,
  keys?: number,
  /** Called for each pair, to write columns beyond the value (parallel arrays). */
  extra?: (cols: ArrayLike<unknown>[], i: number) => void,
): Promise<string[]> {
  if (isPackedCsr(name)) {
    if (extra) throw new Error(`${name}: a packed CSR has no parallel columns`);
    return writePackedCsr(duck, dir, name, sql, keys);
  }
  const values = new U32Writer(join(dir, file.csrValues(name)));
  const terms: string[] = [];
  if (keys !== undefined) {
    // Row keys 0..keys-1: count per key, then prefix sums.
    const offsets = new Float64Array(keys + 1);
    await forEachChunk(duck, sql, (cols, n) => {
      const [k, v] = cols as [ArrayLike<number>, ArrayLike<number>];
      for (let i = 0; i < n; i++) {
        offsets[k[i]! + 1]!++;
        values.push(v[i]!);
        extra?.(cols, i);
      }
    });
    for (let k = 0; k < keys; k++) offsets[k + 1]! += offsets[k]!;
    values.close();
    writeTyped(join(dir, file.csrOffsets(name)), offsets);
    return terms;
  }
  const offsets: number[] = [];
  let last: string | undefined;
  await forEachChunk(duck, sql, (cols, n) => {
    const [k, v] = cols as [ArrayLike<string>, ArrayLike<number>];
    for (let i = 0; i < n; i++) {
      if (k[i] !== last) {
        last = k[i]!;
        terms.push(last);
        offsets.push(values.count);
      }
      values.push(v[i]!);
    }
  });
  offsets.push(values.count);
  values.close();
  writeTyped(join(dir, file.csrOffsets(name)), Float64Array.from(offsets));
  return terms;
}

export async function writeCohortIndex(duck: Duck, outDir: string, progress: Progress): Promise<void> {
  const dir = join(outDir, COHORT_DIR);
  mkdirSync(dir, { recursive: true });
  registerTermsFunction(duck);
  const steps = 6;
  progress.start('cohort index', steps);

  // Dictionaries: code = 1 + position in value order; 0 = none.
  const dictionaries = {} as CohortIndexManifest['dictionaries'];
  for (const d of DICTIONARIES) {
    await duck.run(
      `CREATE OR REPLACE TEMP TABLE dict_${d} AS SELECT value, (row_number() OVER (ORDER BY value))::INTEGER AS code, works
       FROM (SELECT ${d} AS value, count(*)::INTEGER AS works FROM works WHERE coalesce(${d}, '') <> '' GROUP BY 1)`,
    );
    dictionaries[d] = (await duck.all<{ value: string; works: number }>(`SELECT value, works FROM dict_${d} ORDER BY code`)).map((r) => [r.value, r.works]);
  }
  progress.update(1);

  // Per-row columns.
  await duck.run(`CREATE OR REPLACE TEMP TABLE cx AS
    SELECT w.cohort_row AS row, w.id AS wid,
      CAST(substr(w.id, 2) AS DOUBLE) AS id,
      coalesce(w.year, 0)::INTEGER AS year,
      w.cited_by::INTEGER AS cited,
      ((CASE WHEN w.route_ca_aff THEN ${FLAG.aff} ELSE 0 END) + (CASE WHEN w.route_ca_fund THEN ${FLAG.fund} ELSE 0 END)
       + (CASE WHEN w.route_ca_venue THEN ${FLAG.venue} ELSE 0 END) + (CASE WHEN w.route_about_ca THEN ${FLAG.about} ELSE 0 END)
       + (CASE WHEN w.is_retracted THEN ${FLAG.retracted} ELSE 0 END) + (CASE WHEN w.has_abstract THEN ${FLAG.has_abstract} ELSE 0 END)
       + (CASE WHEN w.predicted THEN ${FLAG.predicted} ELSE 0 END) + (CASE WHEN w.direct_label_models > 0 THEN ${FLAG.direct_labeled} ELSE 0 END))::INTEGER AS flags,
      coalesce(w.screen_n_in, -1)::INTEGER AS n_in,
      ${DICTIONARIES.map((d) => `coalesce(dict_${d}.code, 0)::INTEGER AS ${d}`).join(',\n      ')},
      w.pred_candidate_mask::INTEGER AS pred_cand,
      w.pred_consensus_mask::INTEGER AS pred_cons,
      ${designIndex('w.pred_design_candidate')}::INTEGER AS pred_design_cand,
      ${designIndex('w.pred_design_consensus')}::INTEGER AS pred_design_cons,
      coalesce(l.any_mask, 0)::INTEGER AS direct_any,
      coalesce(l.all_mask, 0)::INTEGER AS direct_all,
      coalesce(l.design_any, 0)::INTEGER AS direct_design_any,
      coalesce(l.design_all, 0)::INTEGER AS direct_design_all,
      least(coalesce(t.ntok, 0), 255)::INTEGER AS ntok
    FROM works w
    ${DICTIONARIES.map((d) => `LEFT JOIN dict_${d} ON dict_${d}.value = w.${d}`).join('\n    ')}
    LEFT JOIN (
      SELECT work_id, bit_or(m) AS any_mask, bit_and(m) AS all_mask,
             bit_or(CASE WHEN di > 0 THEN 1 << (di - 1) ELSE 0 END) AS design_any,
             -- One design for the work only when every labelling model gave that same design.
             CASE WHEN count(DISTINCT di) = 1 AND min(di) > 0 THEN 1 << (min(di) - 1) ELSE 0 END AS design_all
      FROM (SELECT work_id, ${maskSql('categories')}::INTEGER AS m, ${designIndex('study_design')}::INTEGER AS di FROM direct_labels)
      GROUP BY work_id) l ON l.work_id = w.id
    LEFT JOIN (SELECT row, count(*) AS ntok FROM title_terms GROUP BY row) t ON t.row = w.cohort_row`);
  const [{ n: rows } = { n: 0 }] = await duck.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM cx');
  const names = Object.keys(COLUMNS) as ColumnName[];
  const arrays = Object.fromEntries(names.map((c) => [c, new TYPED_ARRAYS[COLUMNS[c][0]](rows)])) as Record<ColumnName, TypedColumn>;
  let at = 0;
  await forEachChunk(duck, `SELECT ${names.join(', ')} FROM cx ORDER BY row`, (cols, n) => {
    names.forEach((c, k) => {
      const target = arrays[c];
      const src = cols[k] as ArrayLike<number>;
      // A typed array converts as element assignment does (the same values), in one call.
      if (ArrayBuffer.isView(src)) target.set(src, at);
      else for (let i = 0; i < n; i++) target[at + i] = src[i]!;
    });
    at += n;
  });
  for (const c of names) writeTyped(join(dir, file.column(c)), arrays[c]);
  progress.update(2);

  // One permutation per sort.
  const orderBy: Record<keyof typeof ORDERS, string> = {
    cited: 'cited DESC, row',
    year_desc: '(year = 0), year DESC, cited DESC, row',
    year_asc: '(year = 0), year ASC, cited DESC, row',
    relevance: 'ntok ASC, cited DESC, row',
  };
  for (const [sort, by] of Object.entries(orderBy) as [keyof typeof ORDERS, string][]) {
    const perm = new Uint32Array(rows);
    let k = 0;
    await forEachChunk(duck, `SELECT row FROM cx ORDER BY ${by}`, (cols, n) => {
      const src = cols[0] as ArrayLike<number>;
      if (ArrayBuffer.isView(src)) {
        perm.set(src, k);
        k += n;
      } else for (let i = 0; i < n; i++) perm[k++] = src[i]!;
    });
    writeTyped(join(dir, file.order(sort)), perm);
  }
  progress.update(3);

  // Title terms, numbered in term order: the pairs are read and sorted as integers, not as 43M strings.
  await duck.run(
    'CREATE OR REPLACE TEMP TABLE tterm AS SELECT term, (row_number() OVER (ORDER BY term) - 1)::INTEGER AS k FROM (SELECT DISTINCT term FROM title_terms)',
  );
  const titleTerms = (await duck.all<{ term: string }>('SELECT term FROM tterm ORDER BY k')).map((r) => r.term);
  await writeCsr(duck, dir, 'title_terms', 'SELECT t.k, x.row FROM title_terms x JOIN tterm t USING (term) ORDER BY 1, 2', titleTerms.length);
  progress.update(4);

  // Authors: numeric id order, their Canadian output and names, their works, and their name terms.
  await duck.run(`CREATE OR REPLACE TEMP TABLE ax AS
    SELECT (row_number() OVER (ORDER BY length(id), id) - 1)::INTEGER AS arow, id, CAST(substr(id, 2) AS DOUBLE) AS idn, name, orcid, ca_works
    FROM authors`);
  const [{ n: authors } = { n: 0 }] = await duck.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM ax');
  const authorId = new Float64Array(authors);
  const caWorks = new Uint32Array(authors);
  const nameTexts = new TextsWriter(dir, file.authorNames, authors);
  const orcids = new TextsWriter(dir, file.authorOrcids, authors);
  let a = 0;
  await forEachChunk(duck, 'SELECT idn, ca_works, name, orcid, id FROM ax ORDER BY arow', (cols, n) => {
    const [ids, cas, nms, ors, sids] = cols as [ArrayLike<number>, ArrayLike<number>, ArrayLike<string>, ArrayLike<string | null>, ArrayLike<string>];
    for (let i = 0; i < n; i++, a++) {
      // The work store keeps authors by numeric id and prints them back as A + number.
      if (`A${ids[i]}` !== sids[i]) throw new Error(`author id ${JSON.stringify(sids[i])} is not A followed by a number without leading zeros`);
      if (ors[i] === '') throw new Error(`author ${sids[i]} has an empty ORCID (null expected)`);
      authorId[a] = ids[i]!;
      caWorks[a] = cas[i]!;
      nameTexts.push(nms[i]!);
      orcids.push(ors[i] ?? '');
    }
  });
  nameTexts.close();
  orcids.close();
  writeTyped(join(dir, file.authorId), authorId);
  writeTyped(join(dir, file.authorCaWorks), caWorks);
  await writeCsr(
    duck,
    dir,
    'author_works',
    'SELECT DISTINCT a.arow, c.row FROM authorships s JOIN ax a ON a.id = s.author_id JOIN cx c ON c.wid = s.work_id ORDER BY 1, 2',
    authors,
  );
  progress.update(5);
  // Name terms: one key list for two lists, the authors with the term and the works of those authors (a
  // one-term author search reads the second directly instead of merging thousands of authors' lists).
  await duck.run(`CREATE OR REPLACE TEMP TABLE aname AS
    SELECT DISTINCT arow, term FROM (
      SELECT arow, unnest(${termsListSql('name')}) AS term FROM ax)
    WHERE term <> ''`);
  await duck.run(
    'CREATE OR REPLACE TEMP TABLE aterm AS SELECT term, (row_number() OVER (ORDER BY term) - 1)::INTEGER AS k FROM (SELECT DISTINCT term FROM aname)',
  );
  const authorTerms = (await duck.all<{ term: string }>('SELECT term FROM aterm ORDER BY k')).map((r) => r.term);
  await writeCsr(duck, dir, 'author_terms', 'SELECT t.k, n.arow FROM aname n JOIN aterm t USING (term) ORDER BY 1, 2', authorTerms.length);
  await writeCsr(
    duck,
    dir,
    'author_term_works',
    `SELECT DISTINCT t.k, c.row FROM aname n JOIN aterm t USING (term) JOIN ax a USING (arow)
     JOIN authorships s ON s.author_id = a.id JOIN cx c ON c.wid = s.work_id ORDER BY 1, 2`,
    authorTerms.length,
  );
  // The collaboration network by author row, with each edge's shared works and weight beside it.
  const maxShared = (await duck.all<{ m: number | null }>('SELECT max(shared_works)::DOUBLE AS m FROM ca_neighbours'))[0]?.m ?? 0;
  const sharedName = narrowName(file.neighbourShared, maxShared);
  const shared = new U32Writer(join(dir, sharedName), sharedName === file.neighbourShared.u16 ? 2 : 4);
  const weights: number[] = [];
  const weightFd = openSync(join(dir, file.neighbourWeight), 'w');
  await writeCsr(
    duck,
    dir,
    'ca_neighbours',
    `SELECT a.arow, o.arow AS other, n.shared_works, n.weight FROM ca_neighbours n JOIN ax a ON a.id = n.author JOIN ax o ON o.id = n.other
     ORDER BY a.arow, n.weight DESC, n.shared_works DESC, n.other`,
    authors,
    (cols, i) => {
      shared.push((cols[2] as ArrayLike<number>)[i]!);
      weights.push((cols[3] as ArrayLike<number>)[i]!);
      if (weights.length === 1 << 16) writeSync(weightFd, new Uint8Array(Float64Array.from(weights.splice(0)).buffer));
    },
  );
  if (weights.length > 0) writeSync(weightFd, new Uint8Array(Float64Array.from(weights).buffer));
  closeSync(weightFd);
  shared.close();
  progress.update(6);
  progress.stop();

  const manifest: CohortIndexManifest = { rows, authors, title_terms: titleTerms, author_terms: authorTerms, dictionaries };
  writeFileSync(join(dir, file.manifest), stablePretty(manifest));
}
