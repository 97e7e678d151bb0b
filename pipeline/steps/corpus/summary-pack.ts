/**
 * A package's summary pack (issue 21, session 27): what extraction needs of every member of a bulk package whose
 * articles are all cached, in one file of the extraction cache (extraction-cache.ts, `packs/`), so that a rebuild
 * reads an unchanged package in one sequential read instead of its member list (JSON) plus one summary per article,
 * each a JSON text to parse out of the segments (at 100,000 articles that was 1.6 s of a rebuild's extraction, on
 * its critical path: the plan the worker waits for is made after it).
 *
 * A pack holds, in member order: each member's kind and path; for an article, the sha256 of its bytes, its
 * extraction's cache key, and its summary (article-summary.ts) or the error it was cached as. It follows from the
 * package's bytes and the cache's salt (extractor version, lexicon, band options), which name it; whether the
 * extractions behind it are still in the cache is checked when it is opened (`PackReader.open`).
 *
 * Written and read a piece at a time, never whole: PMC's baseline packages hold up to a few hundred thousand
 * articles (~220 bytes each here). Layout: "CPACK" and a format byte; the members' records, each its byte length
 * (a varint) and then its kind, path, hashes and summary as varints, texts and raw bytes (contracts/frame/
 * work-store.ts's ByteWriter), phrases and id kinds by their number in the trailer; the trailer, a JSON text (member
 * and article counts, those strings), and its byte length as a uint32 (LE); last, the sha256 of everything before
 * it, checked before anything is used (a damaged pack is a miss: the package is read as before). Texts of the
 * article (its ids, its licence) are written as bytes at once, not held: they may be slices of the article's whole
 * text, which a held slice keeps alive (extract-corpus.ts).
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { BANDS, type Band, OCCURRENCE_STATUSES, type OccurrenceStatus } from '../../../contracts/corpus/vocab.ts';
import { ByteBuffer as ByteWriter } from '../../../contracts/common/bytes.ts';
import type { ArticleSummary } from './article-summary.ts';
import type { CachedSummary, PackageMemberRecord } from './extraction-cache.ts';

const MAGIC = 'CPACK';
/** Bump when the layout changes: a pack of another format is not read (the package is read as before). */
export const PACK_FORMAT = 2;
const HEAD = MAGIC.length + 1;
const HASH = 32;
/** Bytes written or read at a time. */
const CHUNK = 1 << 20;

/** Member kinds in a pack. */
const ARTICLE = 0;
const ARTICLE_ERROR = 1;
const OTHER = 2;
const BROKEN = 3;

/** One member as a pack gives it back: its record and, for an article, its summary (or error) and cache key. */
export type PackedMember =
  | { record: Extract<PackageMemberRecord, { kind: 'article' }>; summary: CachedSummary; key: Uint8Array }
  | { record: Exclude<PackageMemberRecord, { kind: 'article' }>; summary: null };

interface Trailer {
  members: number;
  articles: number;
  /** Phrases and id kinds, by their number in the records. */
  strings: string[];
}

/** Collects a package's members as they are read into a new pack at `path` (written beside it, then renamed). */
export class PackWriter {
  /** Phrases and id kinds: few, and the lexicon's own strings (or short ones parsed from the cache). */
  private readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();
  /** The record being made, then the records not yet written to the file. */
  private readonly record = new ByteWriter();
  private readonly out = new ByteWriter();
  private readonly hash: Hash = createHash('sha256');
  private readonly tmp: string;
  private fd: number | null;
  private members = 0;
  private articles = 0;

  constructor(private readonly path: string) {
    this.tmp = `${path}.tmp-${process.pid}`;
    this.fd = openSync(this.tmp, 'w');
    this.out.bytes(Buffer.from([...Buffer.from(MAGIC, 'latin1'), PACK_FORMAT]));
  }

  private sid(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.strings.push(s) - 1;
      this.ids.set(s, id);
    }
    return id;
  }

  /** A text or null: a flag byte, then the text. */
  private optional(s: string | null): void {
    if (s === null) this.record.byte(0);
    else {
      this.record.byte(1);
      this.record.text(s);
    }
  }

  /** Ends the record being made: its length, then its bytes, out; the file written once a chunk is full. */
  private endRecord(): void {
    this.members++;
    this.out.uvar(this.record.length);
    this.out.bytes(this.record.view());
    this.record.reset();
    if (this.out.length >= CHUNK) this.flush();
  }

  private flush(): void {
    const bytes = this.out.view();
    this.hash.update(bytes);
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd!, bytes, done, bytes.length - done);
    this.out.reset();
  }

  /** A member that is not an article, or a broken one. */
  other(record: Exclude<PackageMemberRecord, { kind: 'article' }>): void {
    if (record.kind === 'other') {
      this.record.byte(OTHER);
      this.optional(record.member);
    } else {
      this.record.byte(BROKEN);
      this.optional(record.member);
      this.record.text(record.reason);
    }
    this.endRecord();
  }

  /** An article member: the sha256 of its bytes (hex), its cache key (32 bytes) and its cached summary. */
  article(member: string, sha256: string, key: Uint8Array, summary: CachedSummary): void {
    const w = this.record;
    this.articles++;
    w.byte('error' in summary ? ARTICLE_ERROR : ARTICLE);
    this.optional(member);
    w.bytes(Buffer.from(sha256, 'hex'));
    w.bytes(key);
    if ('error' in summary) {
      w.text(summary.error);
      return this.endRecord();
    }
    const a = summary;
    w.text(a.pmcid);
    w.uvar(this.sid(a.id_kind));
    this.optional(a.pmid);
    if (a.licence === null) w.byte(0);
    else {
      w.byte(1);
      this.optional(a.licence.url);
      this.optional(a.licence.type);
    }
    if (a.year === null) w.byte(0);
    else {
      w.byte(1);
      w.svar(a.year);
    }
    w.uvar(a.sentences_scanned);
    for (const s of OCCURRENCE_STATUSES) w.uvar(a.occurrences[s]);
    w.uvar(a.excerpts.length);
    for (const e of a.excerpts) {
      w.uvar(e.occurrences.length);
      for (const o of e.occurrences) {
        w.uvar(this.sid(o.phrase));
        w.byte(OCCURRENCE_STATUSES.indexOf(o.status));
        w.byte(o.band === null ? 255 : BANDS.indexOf(o.band));
        if (o.p === null) w.byte(0);
        else {
          w.byte(o.p.exact ? 1 : 2);
          if (o.p.value === null) w.byte(0);
          else {
            w.byte(1);
            // + 0: a -0 is written as 0, as the cache's JSON text would give it.
            w.f64(o.p.value + 0);
          }
        }
      }
    }
    this.endRecord();
  }

  /** Writes the trailer and the checksum, and puts the pack in place. */
  finish(): void {
    const trailer = Buffer.from(JSON.stringify({ members: this.members, articles: this.articles, strings: this.strings } satisfies Trailer), 'utf8');
    this.out.bytes(trailer);
    const length = Buffer.alloc(4);
    length.writeUInt32LE(trailer.length);
    this.out.bytes(length);
    this.flush();
    const sum = this.hash.digest();
    writeSync(this.fd!, sum);
    closeSync(this.fd!);
    this.fd = null;
    renameSync(this.tmp, this.path);
  }

  /** Drops the pack being written (the package could not be read through). */
  abort(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    rmSync(this.tmp, { force: true });
  }
}

/**
 * Reads a pack's records in order, a chunk of the file at a time: each `next()` gives one record's bytes (a view,
 * valid until the next call) or null at the end of the records.
 */
class RecordReader {
  private buf = Buffer.allocUnsafe(CHUNK);
  private start = 0;
  private end = 0;
  private pos: number;

  constructor(
    private readonly fd: number,
    from: number,
    private readonly to: number,
    private readonly hash: Hash | null = null,
  ) {
    this.pos = from;
  }

  /** At least `n` bytes from `start` in the buffer, unless the records end first; how many there are. */
  private ensure(n: number): number {
    const held = this.end - this.start;
    if (held >= n || this.pos >= this.to) return held;
    // Never more than the records hold: a damaged length must not make a buffer of its size, and near the end
    // a request for more than is left still reads what is left.
    const want = Math.min(n, held + this.to - this.pos);
    if (this.buf.length < want) {
      const bigger = Buffer.allocUnsafe(Math.max(want, 2 * this.buf.length));
      this.buf.copy(bigger, 0, this.start, this.end);
      this.buf = bigger;
    } else this.buf.copy(this.buf, 0, this.start, this.end);
    this.end -= this.start;
    this.start = 0;
    while (this.end < this.buf.length && this.pos < this.to) {
      const got = readSync(this.fd, this.buf, this.end, Math.min(this.buf.length - this.end, this.to - this.pos), this.pos);
      if (got === 0) throw new Error('a truncated summary pack');
      this.hash?.update(this.buf.subarray(this.end, this.end + got));
      this.end += got;
      this.pos += got;
    }
    return this.end - this.start;
  }

  /** Points `into` at the next record (valid until the next call); false at the end of the records. */
  next(into: RecordBytes): boolean {
    if (this.ensure(10) === 0) return false;
    // The record's length, read like its fields (never past the bytes held: a damaged one is an error).
    into.reset(this.buf, this.start, this.end);
    const length = into.uvar();
    this.start = into.position;
    if (this.ensure(length) < length) throw new Error('a damaged summary pack');
    into.reset(this.buf, this.start, this.start + length);
    this.start += length;
    return true;
  }
}

/**
 * A pack opened and checked: its members one by one. It keeps the file open from the check to the reading, so the
 * bytes read are those checked even if the pack is replaced or removed meanwhile; `entries` or `close` closes it.
 */
export class PackReader {
  private constructor(
    private fd: number | null,
    private readonly recordsEnd: number,
    private readonly trailer: Trailer,
  ) {}

  get articles(): number {
    return this.trailer.articles;
  }

  /**
   * Opens the pack at `path`: checks its sha256 and format, and that `wanted` holds every cache key it names (read
   * from the file as it is checked); null when it is missing, damaged, of another format or names an extraction the
   * cache no longer has. `use` sees every key once the whole pack has passed.
   */
  static open(path: string, wanted: (key: Uint8Array) => boolean, use: (key: Uint8Array) => void): PackReader | null {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return null;
    }
    let opened = false;
    try {
      const size = fstatSync(fd).size;
      if (size < HEAD + 4 + HASH) return null;
      const head = Buffer.alloc(HEAD);
      readSync(fd, head, 0, HEAD, 0);
      if (head.toString('latin1', 0, MAGIC.length) !== MAGIC || head[MAGIC.length] !== PACK_FORMAT) return null;
      const tail = Buffer.alloc(4 + HASH);
      readSync(fd, tail, 0, tail.length, size - tail.length);
      const trailerLength = tail.readUInt32LE(0);
      const recordsEnd = size - tail.length - trailerLength;
      if (recordsEnd < HEAD) return null;
      // One pass over the records: the sha256 of the whole file as it is read, and the keys the articles name.
      const hash = createHash('sha256').update(head);
      const trailerBytes = Buffer.alloc(trailerLength);
      readSync(fd, trailerBytes, 0, trailerLength, recordsEnd);
      const trailer = JSON.parse(trailerBytes.toString('utf8')) as Trailer;
      // Not checked yet: a count the records could not hold must not size a buffer.
      if (!Number.isInteger(trailer.articles) || trailer.articles < 0 || trailer.articles * 2 * HASH > recordsEnd) return null;
      const records = new RecordReader(fd, HEAD, recordsEnd, hash);
      const r = new RecordBytes();
      const keys = Buffer.alloc(trailer.articles * HASH);
      let articles = 0;
      let missing = false;
      while (records.next(r)) {
        const kind = r.byte();
        if (kind !== ARTICLE && kind !== ARTICLE_ERROR) continue;
        r.skipOptionalText(); // its path
        r.skip(HASH);
        const key = r.bytes(HASH);
        if (articles === trailer.articles) return null;
        if (!wanted(key)) missing = true;
        else key.copy(keys, articles * HASH);
        articles++;
      }
      hash.update(trailerBytes).update(tail.subarray(0, 4));
      if (!hash.digest().equals(tail.subarray(4))) return null;
      if (missing || articles !== trailer.articles) return null;
      for (let k = 0; k < articles; k++) use(keys.subarray(k * HASH, (k + 1) * HASH));
      opened = true;
      return new PackReader(fd, recordsEnd, trailer);
    } catch {
      return null;
    } finally {
      if (!opened) closeSync(fd);
    }
  }

  /** Closes the file (once; `entries` does when it ends). */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  /** Every member in order (the file read again, a chunk at a time; once). */
  *entries(): Generator<PackedMember> {
    const fd = this.fd;
    if (fd === null) throw new Error('a summary pack read twice');
    try {
      const records = new RecordReader(fd, HEAD, this.recordsEnd);
      const { strings } = this.trailer;
      const str = (id: number) => {
        const s = strings[id];
        if (s === undefined) throw new Error('a damaged summary pack');
        return s;
      };
      const r = new RecordBytes();
      let members = 0;
      while (records.next(r)) {
        members++;
        const kind = r.byte();
        const member = r.optionalText();
        if (kind === OTHER) {
          yield { record: { kind: 'other', member: member! }, summary: null };
          continue;
        }
        if (kind === BROKEN) {
          yield { record: { kind: 'broken', member, reason: r.text() }, summary: null };
          continue;
        }
        if (kind !== ARTICLE && kind !== ARTICLE_ERROR) throw new Error('a damaged summary pack');
        const sha256 = r.hex(HASH);
        const key = Buffer.from(r.bytes(HASH));
        const record = { kind: 'article' as const, member: member!, sha256 };
        if (kind === ARTICLE_ERROR) {
          yield { record, summary: { error: r.text() }, key };
          continue;
        }
        const pmcid = r.text();
        const idKind = str(r.uvar()) as ArticleSummary['id_kind'];
        const pmid = r.optionalText();
        const licence = r.byte() === 0 ? null : { url: r.optionalText(), type: r.optionalText() };
        const year = r.byte() === 0 ? null : r.svar();
        const sentences = r.uvar();
        const occurrences = {} as ArticleSummary['occurrences'];
        for (const s of OCCURRENCE_STATUSES) occurrences[s] = r.uvar();
        const excerpts: { occurrences: ArticleSummary['excerpts'][number]['occurrences'][number][] }[] = new Array(r.uvar());
        for (let e = 0; e < excerpts.length; e++) {
          const list: ArticleSummary['excerpts'][number]['occurrences'][number][] = new Array(r.uvar());
          for (let o = 0; o < list.length; o++) {
            const phrase = str(r.uvar());
            const status = OCCURRENCE_STATUSES[r.byte()] as OccurrenceStatus;
            const bandCode = r.byte();
            const band = bandCode === 255 ? null : (BANDS[bandCode] as Band);
            const pKind = r.byte();
            const p = pKind === 0 ? null : { exact: pKind === 1, value: r.byte() === 0 ? null : r.f64() };
            list[o] = { phrase, status, band, p };
          }
          excerpts[e] = { occurrences: list };
        }
        if (!r.done) throw new Error('a damaged summary pack');
        yield { record, summary: { pmcid, id_kind: idKind, pmid, licence, year, sentences_scanned: sentences, occurrences, excerpts }, key };
      }
      if (members !== this.trailer.members) throw new Error('a damaged summary pack');
    } finally {
      this.close();
    }
  }
}

/**
 * One record's bytes read in ByteWriter's forms, never past its end (a pack is read for its keys before its sha256
 * is known to be right: damaged bytes must end in an error, not in a read past the record that never ends).
 */
class RecordBytes {
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  private end = 0;

  /** Reads bytes `start` … `end` of `buf` next (one object for every record: issue 21, a rebuild's 100,000). */
  reset(buf: Buffer, start: number, end: number): void {
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }

  /** Where the next read starts in the buffer. */
  get position(): number {
    return this.pos;
  }

  private need(n: number): void {
    if (this.pos + n > this.end) throw new Error('a damaged summary pack');
  }
  byte(): number {
    this.need(1);
    return this.buf[this.pos++]!;
  }
  uvar(): number {
    let v = 0;
    let mul = 1;
    for (let k = 0; k < 8; k++) {
      const b = this.byte();
      v += (b & 0x7f) * mul;
      if (b < 0x80) return v;
      mul *= 0x80;
    }
    throw new Error('a damaged summary pack');
  }
  svar(): number {
    const u = this.uvar();
    return u % 2 === 1 ? -(u + 1) / 2 : u / 2;
  }
  f64(): number {
    this.need(8);
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }
  bytes(n: number): Buffer {
    this.need(n);
    this.pos += n;
    return this.buf.subarray(this.pos - n, this.pos);
  }
  skip(n: number): void {
    this.need(n);
    this.pos += n;
  }
  hex(n: number): string {
    this.need(n);
    this.pos += n;
    return this.buf.toString('hex', this.pos - n, this.pos);
  }
  text(): string {
    const n = this.uvar();
    this.need(n);
    this.pos += n;
    return this.buf.toString('utf8', this.pos - n, this.pos);
  }
  /** A flag byte, then a text when it is not 0. */
  optionalText(): string | null {
    return this.byte() === 0 ? null : this.text();
  }
  skipOptionalText(): void {
    if (this.byte() !== 0) this.skip(this.uvar());
  }
  /** The whole record has been read. */
  get done(): boolean {
    return this.pos === this.end;
  }
}
