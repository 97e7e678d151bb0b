/**
 * A fast synchronous CSV writer for the generator: buffers text, writes in 4 MiB blocks, and hashes what it
 * writes so the manifest needs no second pass over the file.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';

/** Quotes a cell when RFC 4180 requires it: the export's rule, one for every CSV the project writes. */
export { csvField as csvCell } from '../../contracts/frame/export-columns.ts';

export class CsvFileWriter {
  private readonly fd: number;
  private buffer = '';
  private readonly hash: Hash = createHash('sha256');
  bytes = 0;
  rows = 0;

  constructor(
    readonly path: string,
    header: readonly string[] | null,
  ) {
    this.fd = openSync(path, 'w');
    if (header) this.buffer = `${header.join(',')}\n`;
  }

  /** Appends one pre-joined line (cells already escaped with csvCell). */
  line(text: string): void {
    this.buffer += text;
    this.buffer += '\n';
    this.rows++;
    if (this.buffer.length > 4_194_304) this.flush();
  }

  /** Appends raw bytes (used to concatenate part files). */
  raw(chunk: Buffer): void {
    this.flush();
    this.hash.update(chunk);
    this.bytes += chunk.length;
    writeSync(this.fd, chunk);
  }

  private flush(): void {
    if (this.buffer === '') return;
    const chunk = Buffer.from(this.buffer, 'utf8');
    this.buffer = '';
    this.hash.update(chunk);
    this.bytes += chunk.length;
    writeSync(this.fd, chunk);
  }

  /** Flushes, closes and returns the size and hash of the file. */
  close(): { bytes: number; sha256: string } {
    this.flush();
    closeSync(this.fd);
    return { bytes: this.bytes, sha256: this.hash.digest('hex') };
  }
}
