/**
 * A next version of a snapshot, as a new catalogue release would give: a copy with some works removed (with
 * every row that names them), some works added (copies of existing ones under new ids, with their prediction,
 * legacy score and authorship rows) and some citation counts raised, so cohorts gain and lose works both by
 * the frame changing and by works changing. Screened and retracted works are left alone (the screening sample
 * and the retraction record are separate releases).
 */
import { readTable } from './oracle.ts';
import { csvCell, mutate, type SnapshotEditor } from './snapshot.ts';

export interface NextVersion {
  dir: string;
  removed: string[];
  added: string[];
  /** Works whose cited_by was raised by 1,000. */
  raised: string[];
}

/** Tables with a `work_id` column whose rows go with their work. */
const PER_WORK = ['authorships.csv', 'direct_labels.csv', 'legacy_scores.csv', 'predictions.csv'] as const;

function deleteRowsOf(s: SnapshotEditor, file: string, ids: Set<string>): void {
  const col = s.columnOf(file, 'work_id') - 1;
  for (let line = s.lineCount(file); line >= 2; line--) if (ids.has(s.cells(file, line)[col]!)) s.deleteLine(file, line);
}

/** Copies `src` with every `every`-th plain work removed, `add` works added and every `raiseEvery`-th work's citations raised. */
export async function nextSnapshotVersion(src: string, o: { every?: number; add?: number; raiseEvery?: number } = {}): Promise<NextVersion> {
  const every = o.every ?? 40;
  const add = o.add ?? 60;
  const raiseEvery = o.raiseEvery ?? 97;
  const fixed = new Set([...readTable(src, 'screened.csv').map((r) => r.work_id!), ...readTable(src, 'retractions.csv').map((r) => r.work_id!)]);
  const { dir, result } = await mutate(src, (s) => {
    const works = s.rows('works.csv');
    const plain = works.filter((w) => !fixed.has(w.id!));
    const removed = plain.filter((_, k) => k % every === every - 1).map((w) => w.id!);
    const gone = new Set(removed);
    const raised = plain.filter((w, k) => k % raiseEvery === 3 && !gone.has(w.id!)).map((w) => w.id!);
    const raise = new Set(raised);
    // New ids above every existing one, copied from works that stay.
    const maxId = Math.max(...works.map((w) => Number(w.id!.slice(1))));
    const sources = plain.filter((w) => !gone.has(w.id!)).slice(0, add);
    const added = sources.map((_, k) => `W${maxId + 1 + k}`);
    const newId = new Map(sources.map((w, k) => [w.id!, added[k]!]));

    // Per-work tables: copy the rows of the source works under the new ids, then drop the removed works' rows.
    for (const file of PER_WORK) {
      const col = s.columnOf(file, 'work_id') - 1;
      const copies: string[] = [];
      for (let line = 2; line <= s.lineCount(file); line++) {
        const cells = s.cells(file, line);
        const to = newId.get(cells[col]!);
        if (to !== undefined) copies.push([...cells.slice(0, col), to, ...cells.slice(col + 1)].map(csvCell).join(','));
      }
      deleteRowsOf(s, file, gone);
      for (const c of copies) s.appendLine(file, c);
    }
    // Works: removed ones out, raised ones up, copies in (no DOI: a DOI names one work).
    const idCol = s.columnOf('works.csv', 'id') - 1;
    const citedCol = s.columnOf('works.csv', 'cited_by') - 1;
    const copies: string[] = [];
    for (let line = s.lineCount('works.csv'); line >= 2; line--) {
      const cells = s.cells('works.csv', line);
      const id = cells[idCol]!;
      if (gone.has(id)) {
        s.deleteLine('works.csv', line);
        continue;
      }
      if (raise.has(id)) s.setCell('works.csv', line, 'cited_by', String(Number(cells[citedCol]) + 1000));
      const to = newId.get(id);
      if (to !== undefined) {
        const copy = [...cells];
        copy[idCol] = to;
        copy[s.columnOf('works.csv', 'doi') - 1] = '';
        copy[citedCol] = String(Number(cells[citedCol]) + (raise.has(id) ? 1000 : 0));
        copies.push(copy.map(csvCell).join(','));
      }
    }
    for (const c of copies.reverse()) s.appendLine('works.csv', c);
    return { removed, added, raised };
  });
  return { dir, ...result };
}
