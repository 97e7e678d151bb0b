/**
 * Data file formats (data/file_formats.json; fair.md §2.10): a MIME type passes R1.3-02D when it is a
 * scientific, long-term (ISO/TR 22299) or open format, or any text, XML or JSON type other than HTML.
 * Archives say nothing about their content and are skipped (F-UJI looks inside with Tika; we do not).
 */
import { z } from 'zod';
import formatsFile from '../../data/file_formats.json' with { type: 'json' };

export const FORMAT_REASONS = ['scientific', 'long_term', 'open'] as const;
export type FormatReason = (typeof FORMAT_REASONS)[number];

const formatsSchema = z.object({
  formats: z.array(
    z.object({
      name: z.string().min(1),
      mime: z.array(z.string().regex(/^[a-z0-9.+-]+\/[a-z0-9.+_-]+$/)),
      ext: z.array(z.string()),
      reasons: z.array(z.enum(FORMAT_REASONS)).min(1),
    }),
  ),
});
const FORMATS = formatsSchema.parse(formatsFile).formats;

const BY_MIME = new Map<string, { name: string; reasons: FormatReason[] }>();
const BY_EXT = new Map<string, string>();
for (const format of FORMATS) {
  for (const mime of format.mime) {
    const known = BY_MIME.get(mime);
    BY_MIME.set(mime, { name: known?.name ?? format.name, reasons: [...new Set([...(known?.reasons ?? []), ...format.reasons])] });
    for (const ext of format.ext) if (!BY_EXT.has(ext)) BY_EXT.set(ext, mime);
  }
}

/** Container types that hide the content's real format (fair.md §2.10). */
export const ARCHIVE_TYPES: ReadonlySet<string> = new Set([
  'application/gzip',
  'application/x-gzip',
  'application/zstd',
  'application/octet-stream',
  'application/vnd.ms-cab-compressed',
  'application/zip',
  'application/x-zip-compressed',
]);

export interface FormatVerdict {
  mime: string;
  /** The format list entry's name, or 'text/XML/JSON' for the generic text rule. */
  format: string | null;
  reasons: (FormatReason | 'text')[];
  archive: boolean;
  accepted: boolean;
}

/** A MIME type guessed from a URL's file extension (`.csv` → `text/csv`), or null. */
export function mimeFromUrl(url: string): string | null {
  let path: string;
  try {
    path = new URL(url).pathname.toLowerCase();
  } catch {
    return null;
  }
  const ext = /\.([a-z0-9]{1,8})$/.exec(path)?.[1];
  return ext ? (BY_EXT.get(ext) ?? null) : null;
}

/** Judge one MIME type (parameters and case ignored). */
export function judgeMime(raw: string): FormatVerdict {
  const mime = raw.split(';')[0]!.trim().toLowerCase();
  const archive = ARCHIVE_TYPES.has(mime);
  const listed = BY_MIME.get(mime);
  const reasons: FormatVerdict['reasons'] = listed ? [...listed.reasons] : [];
  // F-UJI's text rule, as written: `(^text)/` or `/xml`, `+xml`, `/json`, `+text` … anywhere, and no "html" in the type.
  const textual = !mime.includes('html') && /^text\/|[/+](?:xml|text|json)/.test(mime);
  if (textual) reasons.push('text');
  const accepted = !archive && reasons.length > 0;
  return { mime, format: listed?.name ?? (textual ? 'text/XML/JSON' : null), reasons, archive, accepted };
}
