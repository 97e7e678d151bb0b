/**
 * Scratch files of 32-bit integers, written in order through a buffer and read back in order: what a step spills
 * to disk so that its memory stays bounded whatever the input's size (the corpus's two-word phrases,
 * pipeline/steps/corpus/search-bigrams.ts). Native byte order: a file is read back by the process that wrote it.
 *
 * Neither holds a file descriptor between writes or reads: a step may have hundreds of these files at once (one per
 * chunk of the whole OA subset's tokens), more than a system's default limit of open files (1,024 on many Linux
 * systems, 256 on macOS). Opening the file for each buffer's worth costs a few microseconds a buffer.
 */
import { closeSync, openSync, readSync, writeFileSync, writeSync } from 'node:fs';

export class IntFileWriter {
  private buffer: Int32Array;
  private n = 0;
  /** Integers written so far (buffered ones included). */
  length = 0;

  constructor(
    readonly path: string,
    bufferInts = 1 << 16,
  ) {
    writeFileSync(path, new Uint8Array(0));
    // At least two: `push2` writes both after one check.
    this.buffer = new Int32Array(Math.max(2, bufferInts));
  }

  push(v: number): void {
    if (this.n === this.buffer.length) this.flush();
    this.buffer[this.n++] = v;
    this.length++;
  }

  /** Appends two integers (a spill's pairs: one buffer check instead of two). */
  push2(a: number, b: number): void {
    if (this.n + 2 > this.buffer.length) this.flush();
    this.buffer[this.n++] = a;
    this.buffer[this.n++] = b;
    this.length += 2;
  }

  /** Appends `values[from … to - 1]`. */
  pushRange(values: Int32Array, from: number, to: number): void {
    if (to - from > this.buffer.length - this.n) {
      this.flush();
      if (to - from > this.buffer.length) {
        append(this.path, new Uint8Array(values.buffer, values.byteOffset + from * 4, (to - from) * 4));
        this.length += to - from;
        return;
      }
    }
    this.buffer.set(values.subarray(from, to), this.n);
    this.n += to - from;
    this.length += to - from;
  }

  flush(): void {
    if (this.n > 0) append(this.path, new Uint8Array(this.buffer.buffer, 0, this.n * 4));
    this.n = 0;
  }

  /** Writes what is buffered and lets the buffer go. */
  close(): void {
    this.flush();
    this.buffer = new Int32Array(0);
  }
}

function append(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, 'a');
  try {
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
  } finally {
    closeSync(fd);
  }
}

export class IntFileReader {
  /** The integers read and not yet used: `buffer[at … end - 1]`. */
  buffer: Int32Array;
  at = 0;
  end = 0;
  private done = false;
  /** Bytes of the file read so far. */
  private position = 0;

  constructor(
    readonly path: string,
    bufferInts = 1 << 16,
  ) {
    this.buffer = new Int32Array(bufferInts);
  }

  /**
   * Makes the next `m` integers available from `at` (the buffer grows for more than it holds); false when the file
   * ends before. Positions in `buffer` from before the call are no longer valid after it.
   */
  ensure(m: number): boolean {
    if (this.end - this.at >= m) return true;
    if (this.done) return false;
    const left = this.end - this.at;
    if (m > this.buffer.length) {
      const grown = new Int32Array(Math.max(m, 2 * this.buffer.length));
      grown.set(this.buffer.subarray(this.at, this.end));
      this.buffer = grown;
    } else this.buffer.copyWithin(0, this.at, this.end);
    this.at = 0;
    this.end = left;
    const bytes = new Uint8Array(this.buffer.buffer);
    const fd = openSync(this.path, 'r');
    try {
      while (this.end < m && !this.done) {
        const read = readSync(fd, bytes, this.end * 4, (this.buffer.length - this.end) * 4, this.position);
        if (read === 0) this.done = true;
        // Every write was whole integers, so a read ends on one unless the file was cut short.
        if (read % 4 !== 0) throw new Error(`${this.path}: read ${read} bytes, not whole 32-bit integers`);
        this.position += read;
        this.end += read / 4;
      }
    } finally {
      closeSync(fd);
    }
    return this.end - this.at >= m;
  }

  /** Lets the buffer go. */
  close(): void {
    this.buffer = new Int32Array(0);
  }
}
