/**
 * What changed in a cohort between two snapshots: the works that entered it and those that left, exactly.
 * Both builds store their works in ascending id order (row i has the i-th smallest id), so the two cohorts'
 * bitsets are walked together like two sorted id lists: one merge, no set of ids in memory. A work that
 * entered is either new to the frame or now matches the filters (e.g. more citations); one that left was
 * removed from the frame or no longer matches.
 */
import type { CohortFilters } from '../../../../../contracts/frame/cohort-query.ts';
import type { Build } from '../../build-store.ts';
import { cohortMatch } from './answers.ts';

export interface ChangedWork {
  id: string;
  title: string | null;
}

export interface ChangeList {
  count: number;
  /** Entered: works not in the earlier frame at all. Left: works not in the later frame at all. */
  outside_other_frame: number;
  /** The first `perPage` of them by work id. */
  results: (ChangedWork & { in_other_frame: boolean })[];
}

/** Rows whose bit is set, ascending. */
function* setRows(bits: Uint32Array): Generator<number> {
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]!;
    while (word !== 0) {
      const b = 31 - Math.clz32(word & -word);
      yield (w << 5) + b;
      word &= word - 1;
    }
  }
}

function titleOf(build: Build, row: number): string | null {
  const record = JSON.parse(build.cohort.record(row)) as { title?: string | null };
  return record.title ?? null;
}

/** Works in `to`'s cohort and not in `from`'s (entered), and the reverse (left), by work id. */
export function cohortChanges(
  from: Build,
  to: Build,
  filters: CohortFilters,
  perPage: number,
): { entered: ChangeList; left: ChangeList; from_total: number; to_total: number } {
  const a = cohortMatch(from, filters);
  const b = cohortMatch(to, filters);
  const idA = from.cohort.col.id;
  const idB = to.cohort.col.id;
  const entered: ChangeList = { count: 0, outside_other_frame: 0, results: [] };
  const left: ChangeList = { count: 0, outside_other_frame: 0, results: [] };
  const note = (list: ChangeList, own: Build, row: number, other: Build, id: number) => {
    list.count++;
    const wid = `W${id}`;
    const inOther = other.cohort.rowOfWork(wid) >= 0;
    if (!inOther) list.outside_other_frame++;
    if (list.results.length < perPage) list.results.push({ id: wid, title: titleOf(own, row), in_other_frame: inOther });
  };
  const ia = setRows(a.bits);
  const ib = setRows(b.bits);
  let ra = ia.next();
  let rb = ib.next();
  while (!ra.done || !rb.done) {
    const x = ra.done ? Infinity : idA[ra.value]!;
    const y = rb.done ? Infinity : idB[rb.value]!;
    if (x === y) {
      ra = ia.next();
      rb = ib.next();
    } else if (x < y) {
      note(left, from, ra.value as number, to, x);
      ra = ia.next();
    } else {
      note(entered, to, rb.value as number, from, y);
      rb = ib.next();
    }
  }
  return { entered, left, from_total: a.total, to_total: b.total };
}
