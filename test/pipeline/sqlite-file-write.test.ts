/**
 * Writing through the file VFS (contracts/common/sqlite-file-vfs.ts), which holds consecutive writes back and
 * writes them out together: a database written by a workload that spills pages from a tiny page cache and reads
 * them back, rewrites earlier pages, grows and shrinks the file, then is read again from disk, is byte for byte the
 * database the same workload gives in memory (the oracle: no VFS, `sqlite3_js_db_export`; three header fields
 * aside), and passes SQLite's integrity check. A disk that fills while writes are held fails the commit or the
 * copy that wrote them (the pipeline runs with `synchronous = OFF`, so SQLite never syncs), and a close that cannot
 * write what it holds leaves an empty file, never one that looks whole.
 */
import fs, { readFileSync, statSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabaseFile } from '../../contracts/common/sqlite-file-vfs.ts';
import { createDatabase, sqlite3, vacuumInto, type SqliteDb } from '../../pipeline/lib/sqlite.ts';
import { mulberry32 } from '../helpers/random.ts';
import { tempDir } from '../helpers/fixture-build.ts';

const tmp = tempDir('sqlite-file-write');
afterAll(tmp.remove);

/** The same random statements on any database: inserts in random order of keys (pages split everywhere, index pages rewritten); with `churn`, updates that move rows between pages, deletes, and a file that shrinks. */
function workload(db: SqliteDb, seed: number, churn: boolean): void {
  const random = mulberry32(seed);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT, v BLOB); CREATE INDEX t_k ON t (k)');
  db.exec('BEGIN');
  const put = db.prepare('INSERT INTO t (id, k, v) VALUES (?, ?, ?)');
  for (let i = 1; i <= 4000; i++)
    put.bind([Math.floor(random() * 1e9), `k${Math.floor(random() * 1e6)}`, new Uint8Array(Math.floor(random() * 2000)).fill(i % 251)]).stepReset();
  put.finalize();
  db.exec('COMMIT');
  if (!churn) return;
  db.exec('BEGIN');
  const ids = db.selectValues('SELECT id FROM t ORDER BY id').map(Number);
  for (let r = 0; r < 300; r++) {
    const id = ids[Math.floor(random() * ids.length)]!;
    if (random() < 0.5)
      db.exec({ sql: 'UPDATE t SET v = ?, k = ? WHERE id = ?', bind: [new Uint8Array(Math.floor(random() * 5000)).fill(r % 253), `u${r}`, id] });
    else db.exec({ sql: 'DELETE FROM t WHERE id = ?', bind: [id] });
  }
  db.exec('COMMIT');
  db.exec({ sql: 'DELETE FROM t WHERE id > ?', bind: [ids[Math.floor(ids.length * 0.7)]!] });
  db.exec('VACUUM');
}

const rows = (db: SqliteDb) => db.selectArrays('SELECT id, k, hex(v) FROM t ORDER BY id');

describe('writing through the file VFS', () => {
  it('gives, byte for byte, the database the same inserts give in memory', async () => {
    const s = await sqlite3();
    for (const seed of [1, 2]) {
      const path = join(tmp.path, `w${seed}.sqlite`);
      // 4 KiB pages and a page cache of 8 pages: pages are spilled, and read back and rewritten, all along.
      const file = createDatabase(s, path, 4096, 32);
      const memory = new s.oo1.DB(':memory:');
      memory.exec('PRAGMA page_size = 4096; PRAGMA cache_size = -32');
      workload(file, seed, false);
      workload(memory, seed, false);
      file.close();
      const expected = Buffer.from(s.capi.sqlite3_js_db_export(memory.pointer!));
      memory.close();
      const written = readFileSync(path);
      // All but the header's change counter (24), version-valid-for (92) and SQLite version (96), which an in-memory
      // database leaves zero (as test/pipeline/corpus/database-file.test.ts found).
      const blank = (b: Buffer) => Buffer.concat([b.subarray(0, 24), Buffer.alloc(4), b.subarray(28, 92), Buffer.alloc(8), b.subarray(100)]);
      expect(written.length).toBeGreaterThan(4 << 20);
      expect(written.length).toBe(expected.length);
      expect(blank(written).equals(blank(expected)), `seed ${seed}`).toBe(true);
    }
  });

  it('keeps a database whole through updates, deletes and a shrinking file', async () => {
    const s = await sqlite3();
    const path = join(tmp.path, 'churn.sqlite');
    const file = createDatabase(s, path, 4096, 32);
    const memory = new s.oo1.DB(':memory:');
    workload(file, 3, true);
    workload(memory, 3, true);
    file.close();
    const back = openDatabaseFile(s, path, 'read');
    try {
      expect(back.selectValue('PRAGMA integrity_check')).toBe('ok');
      expect(rows(back)).toEqual(rows(memory));
      expect(rows(back).length).toBeGreaterThan(2000);
    } finally {
      back.close();
      memory.close();
    }
  });

  describe('on a disk that fills', () => {
    /** Writes to files whose name contains `full` fail with ENOSPC once `room` bytes are written (fs patched). */
    let room = Infinity;
    const fds = new Set<number>();
    const real = { openSync: fs.openSync, writeSync: fs.writeSync, closeSync: fs.closeSync };
    const patch = () => {
      Object.assign(fs, {
        openSync: (path: fs.PathLike, ...rest: unknown[]) => {
          const fd = (real.openSync as (...a: unknown[]) => number)(path, ...rest);
          if (String(path).includes('full')) fds.add(fd);
          return fd;
        },
        writeSync: (fd: number, ...rest: unknown[]) => {
          if (fds.has(fd)) {
            const n = rest[2] as number;
            if (n > room) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
            room -= n;
          }
          return (real.writeSync as (...a: unknown[]) => number)(fd, ...rest);
        },
        closeSync: (fd: number) => {
          fds.delete(fd);
          real.closeSync(fd);
        },
      });
      syncBuiltinESMExports();
    };
    const unpatch = () => {
      Object.assign(fs, real);
      syncBuiltinESMExports();
      room = Infinity;
    };

    it('fails the commit and the VACUUM INTO whose writes it held, naming the write', async () => {
      const s = await sqlite3();
      const source = createDatabase(s, join(tmp.path, 'source.sqlite'), 4096, 256);
      workload(source, 1, false);
      vacuumInto(source, join(tmp.path, 'copy.sqlite'), 4096);
      const size = statSync(join(tmp.path, 'copy.sqlite')).size;
      patch();
      try {
        // The copy from the writing connection, the disk full 100 KiB before its end: only its last run of pages,
        // held until the copy ends (no sync after it), cannot be written.
        room = size - (100 << 10);
        expect(() => vacuumInto(source, join(tmp.path, 'full-copy.sqlite'), 4096)).toThrow(/IOERR_WRITE/);
        // A commit whose pages, all held (a page cache larger than what it writes), go out only as it ends.
        room = Infinity;
        const db = createDatabase(s, join(tmp.path, 'full-commit.sqlite'), 4096, 8192);
        db.exec('CREATE TABLE t (v BLOB)');
        room = 0;
        expect(() => db.exec({ sql: 'INSERT INTO t (v) VALUES (?)', bind: [new Uint8Array(64 << 10)] })).toThrow(/IOERR_WRITE/);
        room = Infinity;
        db.close();
      } finally {
        unpatch();
        source.close();
      }
    });

    it('empties a file whose held writes cannot be written when it is closed', async () => {
      const s = await sqlite3();
      const path = join(tmp.path, 'full-close.sqlite');
      patch();
      const db = createDatabase(s, path, 4096, 32);
      try {
        db.exec('CREATE TABLE t (v BLOB)');
        // An open transaction spills pages (a cache of 8 pages, no journal), held by the VFS; the close must write them.
        db.exec('BEGIN');
        for (let i = 0; i < 200; i++) db.exec({ sql: 'INSERT INTO t (v) VALUES (?)', bind: [new Uint8Array(1500).fill(i)] });
        room = 0;
        db.close();
      } finally {
        unpatch();
      }
      expect(statSync(path).size).toBe(0);
    });
  });
});
