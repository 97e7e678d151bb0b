/**
 * A sqlite-wasm VFS over real files in Node ("node-file"): SQLite asks for pages and this module reads and writes
 * them with fs.readSync/writeSync at their offsets, straight between the file and the wasm heap. In Node,
 * sqlite-wasm's own VFSes keep files in an in-memory file system (DECISIONS.md §2), so without this a database
 * had to be deserialized whole into the wasm heap to be read (the server) or built there and exported (the
 * pipeline): memory grew with the database (gigabytes at millions of excerpts). With it, memory holds only SQLite's
 * page cache (bounded by `PRAGMA cache_size`) and the operating system's file cache holds the rest, shared and
 * outside the process's RSS.
 *
 * One module for the server (read-only) and the pipeline (read-write), with the sqlite3 module they share; both
 * import it, neither imports the other.
 *
 * What it does not do, on purpose: locking (one writer, the pipeline, writes a new file that no reader has open;
 * readers only read a finished file), shared memory (no WAL), and temporary files: sqlite-wasm is compiled with
 * SQLITE_TEMP_STORE=2, so temp tables, sorts, statement journals and VACUUM's copy stay in memory and never
 * reach a VFS; a nameless open is refused. Callers turn the rollback journal off or into memory.
 */
import { closeSync, constants, existsSync, fstatSync, ftruncateSync, fsyncSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';

export type Sqlite3 = Awaited<ReturnType<typeof sqlite3InitModule>>;
export type SqliteDb = InstanceType<Sqlite3['oo1']['DB']>;
/** The module's init accepts Emscripten options at run time; its type declaration omits them. */
const init = sqlite3InitModule as unknown as (options: { print: (...a: unknown[]) => void; printErr: (...a: unknown[]) => void }) => Promise<Sqlite3>;

let module: Promise<Sqlite3> | null = null;
let loaded: Sqlite3 | null = null;

/**
 * The sqlite3 module, initialised once per process (which compiles the wasm, ~20 ms); its diagnostics go to
 * stderr only when they are errors.
 */
export function sqlite3(): Promise<Sqlite3> {
  module ??= init({ print: () => {}, printErr: (...args: unknown[]) => console.error('sqlite3:', ...args) }).then((s) => (loaded = s));
  return module;
}

/** The module `sqlite3()` initialised, for code handed one of its databases (which it needs to call C functions on). */
export function loadedSqlite3(): Sqlite3 {
  if (!loaded) throw new Error('sqlite3 is not initialised');
  return loaded;
}
type Pointer = number;

/** The VFS's registered name (what `new DB({ vfs })` takes). */
export const FILE_VFS = 'node-file';

interface OpenFile {
  fd: number;
  path: string;
  /**
   * Writes that follow one another, held until WRITE_BUFFER bytes are (a file opened for writing only): VACUUM INTO
   * writes its copy a 4 KiB page at a time in order, and a `writeSync` each would be most of a rebuild's compaction
   * (one call per page: tens of thousands for a corpus). Written out before anything that must see the file as
   * SQLite wrote it (a read, its size, a truncation, a sync) and at the end of every commit, when SQLite sends
   * SQLITE_FCNTL_SYNC whether or not it syncs (the pipeline runs with `synchronous = OFF`): a write that fails
   * there fails the commit or the VACUUM INTO, as it did when each page was written at once. The close writes
   * what may be left, but SQLite ignores what a close returns: a file whose held writes fail there is emptied, so
   * no reader takes it for whole.
   */
  pending: { buf: Buffer; start: number; length: number } | null;
}

/** Bytes of consecutive writes held before they are written out. */
const WRITE_BUFFER = 1 << 20;

/** Per sqlite3 module instance: the VFS is registered once; the last I/O error, to explain a failure. */
const installed = new WeakMap<Sqlite3, { lastError: string | null }>();

/** Registers the VFS in this sqlite3 module (once; later calls do nothing). */
export function installFileVfs(s: Sqlite3): void {
  if (installed.has(s)) return;
  const state = { lastError: null as string | null };
  const { capi, wasm } = s;
  const files = new Map<Pointer, OpenFile>();
  const fail = (rc: number, what: string, err: unknown): number => {
    state.lastError = `${what}: ${err instanceof Error ? err.message : String(err)}`;
    return rc;
  };
  const io = new capi.sqlite3_io_methods();
  (io as unknown as { $iVersion: number }).$iVersion = 1;
  const vfs = new capi.sqlite3_vfs();
  const base = new capi.sqlite3_vfs(capi.sqlite3_vfs_find(null));
  vfs.$iVersion = 2;
  vfs.$szOsFile = (capi.sqlite3_file as unknown as { structInfo: { sizeof: number } }).structInfo.sizeof;
  vfs.$mxPathname = 1024;
  // Time, randomness and sleep are the default VFS's own C functions (nothing file-related in them).
  const v = vfs as unknown as Record<string, Pointer>;
  const b = base as unknown as Record<string, Pointer>;
  for (const k of ['$xRandomness', '$xSleep', '$xCurrentTime', '$xCurrentTimeInt64', '$xGetLastError']) v[k] = b[k]!;
  base.dispose();

  const file = (p: Pointer): OpenFile => {
    const f = files.get(p);
    if (!f) throw new Error(`no open file at ${p}`);
    return f;
  };
  /** Writes out what a file holds back (see `OpenFile.pending`); a partial failure keeps the rest held. */
  const flush = (f: OpenFile): void => {
    const w = f.pending;
    if (!w || w.length === 0) return;
    for (let done = 0; done < w.length;) done += writeSync(f.fd, w.buf, done, w.length - done, w.start + done);
    w.length = 0;
  };
  /** `flush` as SQLite's result: 0, or a write error named as one (whichever call it came before). */
  const flushed = (f: OpenFile): number => {
    try {
      flush(f);
      return 0;
    } catch (err) {
      return fail(capi.SQLITE_IOERR_WRITE, `write ${f.path}`, err);
    }
  };
  const cstr = (p: Pointer): string => wasm.cstrToJs(p) ?? '';
  // i64 arguments arrive as BigInt (sqlite-wasm is built with BigInt support); file offsets fit in a double.
  const num = (n: number | bigint): number => Number(n);

  s.vfs.installVfs({
    io: {
      struct: io,
      methods: {
        xClose(p: Pointer) {
          const f = files.get(p);
          files.delete(p);
          if (!f) return 0;
          const rc = flushed(f);
          if (rc !== 0) {
            // Held writes lost: the file is emptied (see `OpenFile.pending`), and the error stays in lastError.
            try {
              ftruncateSync(f.fd, 0);
            } catch {
              // Nothing more to do: lastError names the write that failed.
            }
          }
          try {
            closeSync(f.fd);
          } catch (err) {
            return fail(capi.SQLITE_IOERR_CLOSE, `close ${f.path}`, err);
          }
          return rc;
        },
        xRead(p: Pointer, dest: Pointer, n: number, offset: number | bigint) {
          try {
            const f = file(p);
            const rc = flushed(f);
            if (rc !== 0) return rc;
            const at = num(offset);
            let done = 0;
            while (done < n) {
              // A fresh view each time: the heap's buffer is replaced whenever wasm memory grows.
              const got = readSync(f.fd, wasm.heap8u(), dest + done, n - done, at + done);
              if (got === 0) break;
              done += got;
            }
            if (done < n) {
              // SQLite requires the unread tail zeroed on a short read (reading past the end is how it sees the size).
              wasm.heap8u().fill(0, dest + done, dest + n);
              return capi.SQLITE_IOERR_SHORT_READ;
            }
            return 0;
          } catch (err) {
            return fail(capi.SQLITE_IOERR_READ, 'read', err);
          }
        },
        xWrite(p: Pointer, src: Pointer, n: number, offset: number | bigint) {
          try {
            const f = file(p);
            const at = num(offset);
            const w = f.pending;
            if (w) {
              // Held when it follows what is held and fits; else what is held goes out first.
              if (w.length > 0 && (at !== w.start + w.length || w.length + n > WRITE_BUFFER)) flush(f);
              if (n <= WRITE_BUFFER) {
                if (w.length === 0) w.start = at;
                w.buf.set(wasm.heap8u().subarray(src, src + n), w.length);
                w.length += n;
                return 0;
              }
            }
            for (let done = 0; done < n;) done += writeSync(f.fd, wasm.heap8u(), src + done, n - done, at + done);
            return 0;
          } catch (err) {
            return fail(capi.SQLITE_IOERR_WRITE, 'write', err);
          }
        },
        xTruncate(p: Pointer, size: number | bigint) {
          try {
            const f = file(p);
            const rc = flushed(f);
            if (rc !== 0) return rc;
            ftruncateSync(f.fd, num(size));
            return 0;
          } catch (err) {
            return fail(capi.SQLITE_IOERR_TRUNCATE, 'truncate', err);
          }
        },
        xSync(p: Pointer) {
          try {
            const f = file(p);
            const rc = flushed(f);
            if (rc !== 0) return rc;
            fsyncSync(f.fd);
            return 0;
          } catch (err) {
            return fail(capi.SQLITE_IOERR_FSYNC, 'fsync', err);
          }
        },
        xFileSize(p: Pointer, out: Pointer) {
          try {
            const f = file(p);
            const rc = flushed(f);
            if (rc !== 0) return rc;
            wasm.poke64(out, BigInt(fstatSync(f.fd).size));
            return 0;
          } catch (err) {
            return fail(capi.SQLITE_IOERR_FSTAT, 'fstat', err);
          }
        },
        xLock: () => 0,
        xUnlock: () => 0,
        xCheckReservedLock(_p: Pointer, out: Pointer) {
          wasm.poke32(out, 0);
          return 0;
        },
        xFileControl(p: Pointer, op: number) {
          if (op !== capi.SQLITE_FCNTL_SYNC) return capi.SQLITE_NOTFOUND;
          const f = files.get(p);
          return f ? flushed(f) : 0;
        },
        xSectorSize: () => 4096,
        xDeviceCharacteristics: () => 0,
      },
    },
    vfs: {
      struct: vfs,
      name: FILE_VFS,
      methods: {
        xOpen(_vfs: Pointer, zName: Pointer, p: Pointer, flags: number, outFlags: Pointer) {
          if (!zName) return fail(capi.SQLITE_CANTOPEN, 'open', 'a temporary file (sqlite-wasm keeps temporary storage in memory; nothing should ask for one)');
          const path = cstr(zName);
          try {
            const readOnly = (flags & capi.SQLITE_OPEN_READONLY) !== 0;
            const mode = readOnly ? constants.O_RDONLY : constants.O_RDWR | ((flags & capi.SQLITE_OPEN_CREATE) !== 0 ? constants.O_CREAT : 0);
            files.set(p, { fd: openSync(path, mode), path, pending: readOnly ? null : { buf: Buffer.allocUnsafe(WRITE_BUFFER), start: 0, length: 0 } });
          } catch (err) {
            return fail(capi.SQLITE_CANTOPEN, `open ${path}`, err);
          }
          const f = new capi.sqlite3_file(p);
          f.$pMethods = io.pointer!;
          f.dispose();
          if (outFlags) wasm.poke32(outFlags, flags);
          return 0;
        },
        xDelete(_vfs: Pointer, zName: Pointer) {
          const path = cstr(zName);
          try {
            unlinkSync(path);
            return 0;
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === 'ENOENT') return capi.SQLITE_IOERR_DELETE_NOENT;
            return fail(capi.SQLITE_IOERR_DELETE, `delete ${path}`, err);
          }
        },
        xAccess(_vfs: Pointer, zName: Pointer, _flags: number, out: Pointer) {
          wasm.poke32(out, existsSync(cstr(zName)) ? 1 : 0);
          return 0;
        },
        xFullPathname(_vfs: Pointer, zName: Pointer, nOut: number, zOut: Pointer) {
          const full = resolve(cstr(zName));
          const written = wasm.jstrcpy(full, wasm.heap8u(), zOut, nOut, true);
          return written >= nOut ? capi.SQLITE_CANTOPEN : 0;
        },
      } as never,
    },
  } as never);
  installed.set(s, state);
}

export type FileMode = 'read' | 'create';

/**
 * The database file at `path` opened through the VFS: 'read' (read-only; the file must exist and be whole) or
 * 'create' (read-write, created, emptied first if it exists). Errors name the file and what went wrong.
 */
export function openDatabaseFile(s: Sqlite3, path: string, mode: FileMode): SqliteDb {
  installFileVfs(s);
  if (mode === 'read') checkDatabaseFile(path);
  else if (existsSync(path)) unlinkSync(path);
  const state = installed.get(s)!;
  state.lastError = null;
  try {
    return new s.oo1.DB({ filename: path, flags: mode === 'read' ? 'r' : 'c', vfs: FILE_VFS });
  } catch (err) {
    throw new Error(`${path}: ${err instanceof Error ? err.message : String(err)}${state.lastError ? ` (${state.lastError})` : ''}`);
  }
}

/**
 * Throws unless `path` is a whole SQLite database file: it exists, has the SQLite header, and is as long as its
 * header's page size × page count say. Reading pages on demand, a truncated file would otherwise be found only
 * by the query that first reads past its end, as "database disk image is malformed".
 */
export function checkDatabaseFile(path: string): void {
  if (!existsSync(path)) throw new Error(`${path}: no such database file`);
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const header = Buffer.alloc(100);
    const got = readSync(fd, header, 0, 100, 0);
    if (got < 100 || header.toString('latin1', 0, 16) !== 'SQLite format 3\u0000')
      throw new Error(`${path}: not a SQLite database (${size} bytes, no SQLite header)`);
    const raw = header.readUInt16BE(16);
    const pageSize = raw === 1 ? 65536 : raw;
    // The header's page count is valid only when its "version-valid-for" matches the change counter.
    const pages = header.readUInt32BE(24) === header.readUInt32BE(92) ? header.readUInt32BE(28) : 0;
    if (pages > 0 && size !== pageSize * pages)
      throw new Error(`${path}: truncated or damaged database file: ${size} bytes, its header says ${pages} pages of ${pageSize} = ${pageSize * pages} bytes`);
    if (pages === 0 && size % pageSize !== 0)
      throw new Error(`${path}: truncated or damaged database file: ${size} bytes is not a whole number of ${pageSize}-byte pages`);
  } finally {
    closeSync(fd);
  }
}
