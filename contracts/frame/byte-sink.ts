/**
 * Bytes of serialized text, written where they will be sent: the work serializers (work-serialize.ts) copy a
 * work's strings from the work store's UTF-8 bytes into a sink, escaped for JSON or a CSV cell on the way,
 * instead of decoding them to JavaScript strings, concatenating and encoding the result again (encoding the
 * text chunks alone is a large share of an export's CPU; docs/benchmarks.md has the measurement).
 *
 * The escapes give the bytes of JSON.stringify and of csvField(exportCell(...)) (export-columns.ts) of the
 * decoded string; the tests compare them on generated strings of every kind (test/contracts/byte-sink.test.ts).
 */
import { ByteBuffer } from '../common/bytes.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const APOSTROPHE = 0x27;

/** Bytes a JSON string escape writes for a byte below 0x20, `"` and `\` (none: the byte stands for itself). */
const JSON_ESCAPES: (Uint8Array | undefined)[] = Array.from({ length: 0x80 }, (_, b) => {
  if (b >= 0x20 && b !== QUOTE && b !== BACKSLASH) return undefined;
  return Buffer.from(JSON.stringify(String.fromCharCode(b)).slice(1, -1), 'latin1');
});

/** First characters that exportCell guards with a `'` (formula injection: `=`, `+`, `-`, `@`, tab, CR). */
const FORMULA_START = new Uint8Array(0x100);
for (const c of '=+-@\t\r') FORMULA_START[c.charCodeAt(0)] = 1;
/** Bytes that make csvField quote a cell. */
const CSV_SPECIAL = new Uint8Array(0x100);
for (const c of '",\r\n') CSV_SPECIAL[c.charCodeAt(0)] = 1;

/** A growable byte buffer (contracts/common/bytes.ts) with the escapes of JSON strings and CSV cells. */
export class ByteSink extends ByteBuffer {
  /** A non-negative integer's decimal digits, as String() prints it (below 2^53). */
  uint(v: number): void {
    if (v < 10) return this.byte(0x30 + v);
    // Past 2^53 division by 10 is no longer exact: String() prints such values.
    if (v > Number.MAX_SAFE_INTEGER) return this.ascii(String(v));
    let digits = 1;
    for (let p = 10; p <= v; p *= 10) digits++;
    this.room(digits);
    const buf = this.buf;
    const end = this.length + digits;
    for (let k = end - 1; k >= this.length; k--) {
      const q = Math.floor(v / 10);
      buf[k] = 0x30 + (v - 10 * q);
      v = q;
    }
    this.length = end;
  }
  /**
   * A UTF-8 string's JSON (quotes included), as JSON.stringify writes the decoded string; with `doubled`, every
   * `"` written twice, as the JSON stands inside a quoted CSV cell.
   */
  jsonString(src: Uint8Array, from: number, to: number, doubled: boolean): void {
    // Worst case: every byte a \u00XX escape (6 bytes), quotes doubled, plus the two ends.
    this.room(6 * (to - from) + 4);
    const buf = this.buf;
    let n = this.length;
    buf[n++] = QUOTE;
    if (doubled) buf[n++] = QUOTE;
    for (let k = from; k < to; k++) {
      const b = src[k]!;
      const e = b < 0x80 ? JSON_ESCAPES[b] : undefined;
      if (e === undefined) {
        buf[n++] = b;
        continue;
      }
      for (let i = 0; i < e.length; i++) buf[n++] = e[i]!;
      if (doubled && b === QUOTE) buf[n++] = QUOTE;
    }
    buf[n++] = QUOTE;
    if (doubled) buf[n++] = QUOTE;
    this.length = n;
  }

  /** A UTF-8 string as one CSV cell: csvField(exportCell(s)) of the decoded string (empty for no bytes). */
  csvCell(src: Uint8Array, from: number, to: number): void {
    if (from === to) return;
    let quote = false;
    for (let k = from; k < to; k++)
      if (CSV_SPECIAL[src[k]!] === 1) {
        quote = true;
        break;
      }
    const guard = FORMULA_START[src[from]!] === 1;
    if (!quote && !guard) return this.bytes(src, from, to);
    this.room(2 * (to - from) + 3);
    const buf = this.buf;
    let n = this.length;
    if (quote) buf[n++] = QUOTE;
    if (guard) buf[n++] = APOSTROPHE;
    if (quote)
      for (let k = from; k < to; k++) {
        const b = src[k]!;
        buf[n++] = b;
        if (b === QUOTE) buf[n++] = QUOTE;
      }
    else for (let k = from; k < to; k++) buf[n++] = src[k]!;
    if (quote) buf[n++] = QUOTE;
    this.length = n;
  }

  /** The bytes written as a string, and the sink emptied. */
  takeString(): string {
    const s = this.buf.toString('utf8', 0, this.length);
    this.length = 0;
    return s;
  }
}

/** Bytes of a JavaScript string's UTF-8. */
export const utf8Bytes = (s: string): Uint8Array => Buffer.from(s, 'utf8');
