/**
 * Text files of one record a line, written and read in pieces, synchronously: a record of millions of lines would
 * not fit in one JavaScript string (V8's limit is about 512 MiB), which `JSON.stringify` of the whole would need.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** Bytes gathered before a write, and read at once. */
const PIECE = 1 << 20;

/** Writes `count` lines, `line(i)` each (without its line break), to a new file at `path`. */
export function writeLineFile(path: string, count: number, line: (i: number) => string): void {
  const fd = openSync(path, 'w');
  try {
    let piece = '';
    for (let i = 0; i < count; i++) {
      piece += `${line(i)}\n`;
      if (piece.length >= PIECE) {
        writeSync(fd, piece);
        piece = '';
      }
    }
    if (piece) writeSync(fd, piece);
  } finally {
    closeSync(fd);
  }
}

/** Calls `onLine` with each line of the file at `path` (split at \n; a last line without one included). */
export function readLineFile(path: string, onLine: (line: string) => void): void {
  const fd = openSync(path, 'r');
  const buffer = Buffer.allocUnsafe(PIECE);
  const decoder = new StringDecoder('utf8');
  let rest = '';
  try {
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) {
      const text = rest + decoder.write(buffer.subarray(0, n));
      let at = 0;
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', at)) {
        onLine(text.slice(at, end));
        at = end + 1;
      }
      rest = text.slice(at);
    }
    rest += decoder.end();
    if (rest) onLine(rest);
  } finally {
    closeSync(fd);
  }
}
