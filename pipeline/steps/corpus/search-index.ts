/**
 * The corpus search index (`search_terms`, `search_documents`; contracts/corpus/database.ts), written from
 * FTS5's own tokens: an `fts5vocab` table of type `instance` lists every (term, excerpt, offset) FTS5 indexed,
 * so the server's index holds exactly the tokens FTS5 matches on, whatever unicode61 does with a character.
 * Runs after the FTS5 rebuild, on the database being built.
 */
import { encodeTerm, encodeVarints } from '../../../contracts/corpus/search-postings.ts';
import type { SqliteDb } from '../../lib/sqlite.ts';

/** Parses FTS5's `group_concat(doc || ' ' || offset, ',')` of one term into ids and offsets per id. */
function parseInstances(s: string): { ids: number[]; offsets: number[][] } {
  const ids: number[] = [];
  const offsets: number[][] = [];
  let doc = 0;
  let v = 0;
  const end = (offset: number) => {
    if (ids.length > 0 && ids[ids.length - 1] === doc) offsets[offsets.length - 1]!.push(offset);
    else {
      ids.push(doc);
      offsets.push([offset]);
    }
  };
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      doc = v;
      v = 0;
    } else if (c === 44) {
      end(v);
      v = 0;
    } else v = v * 10 + (c - 48);
  }
  if (s.length > 0) end(v);
  return { ids, offsets };
}

/** Fills the search tables from `excerpts_fts`; returns the number of terms and of token instances. */
export function writeSearchIndex(db: SqliteDb): { terms: number; tokens: number } {
  const excerpts = Number(db.selectValue('SELECT count(*) FROM excerpts'));
  if (excerpts > 0 && Number(db.selectValue('SELECT max(id) FROM excerpts')) !== excerpts) throw new Error('excerpt ids are not 1 … n');
  db.exec('CREATE VIRTUAL TABLE temp.search_vocab_rows USING fts5vocab(main, excerpts_fts, row)');
  db.exec('CREATE VIRTUAL TABLE temp.search_vocab_instances USING fts5vocab(main, excerpts_fts, instance)');
  const sizes = new Int32Array(excerpts);
  let tokens = 0;
  let terms = 0;
  const read = db.prepare("SELECT group_concat(doc || ' ' || offset, ',') FROM temp.search_vocab_instances WHERE term = ?");
  const put = db.prepare('INSERT INTO search_terms (term, docs, postings, positions, offset_width) VALUES (?, ?, ?, ?, ?)');
  try {
    // One aggregate per term: stepping the instance rows one by one from JS costs several times as much.
    for (const term of db.selectValues('SELECT term FROM temp.search_vocab_rows ORDER BY term') as string[]) {
      read.bind([term]).step();
      const occurrences = parseInstances(read.getString(0) ?? '');
      read.reset();
      const { postings, positions, offsetWidth } = encodeTerm(occurrences);
      occurrences.ids.forEach((id, k) => {
        sizes[id - 1]! += occurrences.offsets[k]!.length;
        tokens += occurrences.offsets[k]!.length;
      });
      put.bind([term, occurrences.ids.length, postings, positions, offsetWidth]).stepReset();
      terms++;
    }
  } finally {
    read.finalize();
    put.finalize();
    db.exec('DROP TABLE temp.search_vocab_rows; DROP TABLE temp.search_vocab_instances;');
  }
  db.prepare('INSERT INTO search_documents (excerpts, tokens, sizes) VALUES (?, ?, ?)')
    .bind([excerpts, tokens, encodeVarints(sizes)])
    .stepFinalize();
  return { terms, tokens };
}
