// The derived-tables step keeps a staging table that is already in key order (renamed, no sort) and sorts
// any other; either way the table ends up holding the same rows in key order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Duck, openDuck } from '../../pipeline/lib/duckdb.ts';
import { keepSorted } from '../../pipeline/steps/frame/frame.duckdb.ts';

let duck: Duck;
beforeAll(async () => {
  duck = await openDuck(':memory:', { preserve_insertion_order: 'true' });
});
afterAll(() => duck.close());

async function run(rows: [string | null, number][]) {
  await duck.run('DROP TABLE IF EXISTS authorships');
  await duck.run('DROP TABLE IF EXISTS s_authorships');
  await duck.run('CREATE TABLE s_authorships (work_id VARCHAR, position INTEGER, payload VARCHAR)');
  for (const [w, p] of rows) await duck.run(`INSERT INTO s_authorships VALUES (${w === null ? 'NULL' : `'${w}'`}, ${p}, 'x${p}')`);
  const how = await keepSorted(duck, 'authorships', ['work_id', 'position']);
  const got = await duck.all<{ work_id: string | null; position: number }>('SELECT work_id, position FROM authorships ORDER BY rowid');
  const staging = await duck.all("SELECT 1 FROM information_schema.tables WHERE table_name = 's_authorships'");
  return { how, got: got.map((r) => [r.work_id, r.position]), stagingLeft: staging.length === 1 };
}

describe('keepSorted', () => {
  it('renames a staging table already in key order (ties on the first column broken by the second)', async () => {
    const rows: [string, number][] = [
      ['W1', 1],
      ['W1', 2],
      ['W2', 1],
      ['W3', 1],
      ['W3', 5],
    ];
    expect(await run(rows)).toEqual({ how: 'renamed', got: rows, stagingLeft: false });
  });

  it('sorts when the first key column goes backwards', async () => {
    const r = await run([
      ['W2', 1],
      ['W1', 1],
      ['W3', 1],
    ]);
    expect(r.how).toBe('sorted');
    expect(r.got).toEqual([
      ['W1', 1],
      ['W2', 1],
      ['W3', 1],
    ]);
  });

  it('sorts when only the second key column goes backwards', async () => {
    const r = await run([
      ['W1', 2],
      ['W1', 1],
      ['W2', 1],
    ]);
    expect(r.how).toBe('sorted');
    expect(r.got).toEqual([
      ['W1', 1],
      ['W1', 2],
      ['W2', 1],
    ]);
  });

  it('sorts in string order, as ORDER BY does (W10 before W9)', async () => {
    const r = await run([
      ['W9', 1],
      ['W10', 1],
    ]);
    expect(r.how).toBe('sorted');
    expect(r.got).toEqual([
      ['W10', 1],
      ['W9', 1],
    ]);
  });

  it('treats a null key as out of order', async () => {
    const r = await run([
      ['W1', 1],
      [null, 1],
    ]);
    expect(r.how).toBe('sorted');
  });
});
