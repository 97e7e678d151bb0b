/**
 * The pre-extracted corpus input (DECISIONS.md §5): for a corpus whose sentences were extracted elsewhere,
 * `papers.csv` (one row per paper) and `sentences.csv` (one row per sentence, in document order). The same
 * lexicon, p-value parser, association and bands run over these sentences as over JATS; only reading and
 * sentence splitting are skipped. RFC 4180, UTF-8, header row first.
 *
 * papers.csv:    paper_id, pmcid, pmid, doi, title, journal, year, authors, licence_url
 * sentences.csv: paper_id, section, section_title, paragraph, text
 *
 * `paper_id` is any unique key of the input; `pmcid` may be "PMC123", "123" or empty (the paper then gets a
 * generated id); `authors` are separated by "; ". Sentences of one paragraph are numbered in row order.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { SECTIONS } from '../../../contracts/corpus/vocab.ts';
import type { ArticleMeta } from '../../corpus/jats.ts';
import { normalisePmcid } from '../../../contracts/corpus/article-id.ts';
import type { PlacedSentence } from '../../corpus/extract.ts';

const optional = z
  .string()
  .transform((s) => s.trim())
  .transform((s) => (s === '' ? null : s));

const paperRowSchema = z
  .object({
    paper_id: z.string().trim().min(1, 'must not be empty'),
    pmcid: optional.refine((s) => s === null || normalisePmcid(s) !== null, 'must be PMC followed by digits, digits, or empty'),
    pmid: optional.refine((s) => s === null || /^\d+$/.test(s), 'must be digits or empty'),
    doi: optional,
    title: optional,
    journal: optional,
    year: optional.refine((s) => s === null || /^\d{4}$/.test(s), 'must be a four-digit year or empty'),
    authors: optional,
    licence_url: optional,
  })
  .strict();

const sentenceRowSchema = z
  .object({
    paper_id: z.string().trim().min(1, 'must not be empty'),
    section: z.enum(SECTIONS),
    section_title: z.string(),
    paragraph: z.string().regex(/^\d+$/, 'must be a whole number'),
    text: z.string().trim().min(1, 'must not be empty'),
  })
  .strict();

/** A row that does not fit, as `file:line — column: reason`. */
export class CorpusCsvError extends Error {
  override name = 'CorpusCsvError';
}

function rows<T>(path: string, schema: z.ZodType<T>): T[] {
  const records = parse(readFileSync(path), { columns: true, bom: true, skip_empty_lines: true, relax_column_count: false }) as Record<string, string>[];
  return records.map((r, i) => {
    const parsed = schema.safeParse(r);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      // Line i + 2: the header is line 1 (no line breaks inside cells in our dialect).
      throw new CorpusCsvError(`${basename(path)}:${i + 2} — ${String(issue.path[0] ?? '')}: ${issue.message}`);
    }
    return parsed.data;
  });
}

/** One paper of the CSV input, ready for `extractSentences`. */
export interface CsvPaper {
  paperId: string;
  meta: ArticleMeta;
  sentences: PlacedSentence[];
}

/** Reads and checks both files; throws CorpusCsvError naming the first bad row. */
export function readCsvCorpus(papersPath: string, sentencesPath: string): CsvPaper[] {
  const papers = new Map<string, CsvPaper>();
  for (const p of rows(papersPath, paperRowSchema)) {
    if (papers.has(p.paper_id)) throw new CorpusCsvError(`${basename(papersPath)}: paper_id "${p.paper_id}" appears twice`);
    papers.set(p.paper_id, {
      paperId: p.paper_id,
      meta: {
        pmcid: normalisePmcid(p.pmcid),
        pmid: p.pmid,
        doi: p.doi,
        title: p.title,
        journal: p.journal,
        year: p.year === null ? null : Number(p.year),
        authors: (p.authors ?? '')
          .split(';')
          .map((a) => a.trim())
          .filter(Boolean)
          .map((name) => ({ name, surname: null, givenNames: null })),
        licence: p.licence_url ? { url: p.licence_url, type: null, text: null } : null,
        articleType: null,
      },
      sentences: [],
    });
  }
  const nextInParagraph = new Map<string, number>();
  for (const s of rows(sentencesPath, sentenceRowSchema)) {
    const paper = papers.get(s.paper_id);
    if (!paper) throw new CorpusCsvError(`${basename(sentencesPath)}: paper_id "${s.paper_id}" is not in ${basename(papersPath)}`);
    const key = `${s.paper_id}\u0000${s.paragraph}`;
    const sentence = nextInParagraph.get(key) ?? 0;
    nextInParagraph.set(key, sentence + 1);
    paper.sentences.push({
      section: s.section,
      sectionTitle: s.section_title,
      label: null,
      paragraph: Number(s.paragraph),
      sentence,
      text: s.text.replace(/\s+/g, ' '),
    });
  }
  return [...papers.values()];
}
