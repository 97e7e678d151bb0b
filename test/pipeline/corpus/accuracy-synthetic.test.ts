/**
 * Accuracy of the whole extraction (`readArticleFile` + `extractArticle`) on the synthetic JATS corpus, against
 * the generator's `ground-truth.json` (pipeline/generate/corpus/ground-truth.ts). The oracle is the generator's
 * statement of what each sentence is, never the extractor's output: every expected hedge must come out with
 * its phrase, status, band and p-value, verified precision and recall must both be 1, traps must not verify,
 * text outside the read sections must never appear, and generated article ids must be stable.
 * Method and figures: docs/corpus-accuracy.md.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractArticle, GENERATED_ID_PREFIX, type ExtractedArticle } from '../../../pipeline/corpus/extract.ts';
import { readArticleFile } from '../../../pipeline/corpus/jats.ts';
import { compileLexicon, loadLexicon } from '../../../pipeline/corpus/lexicon.ts';
import { generateCorpus, GROUND_TRUTH_FILE } from '../../../pipeline/generate/corpus/generate.ts';
import { type ArticleTruth, type GroundTruth, type HedgeTruth, readGroundTruth } from '../../../pipeline/generate/corpus/ground-truth.ts';
import { tempDir } from '../../helpers/fixture-build.ts';

const ARTICLES = 300;
const SEED = 20260701;

const tmp = tempDir('corpus-accuracy');
afterAll(tmp.remove);

const matcher = compileLexicon(loadLexicon());
let truth: GroundTruth;
/** Extraction of each truth file, in truth order; and of a second, independently generated copy. */
let runA: ExtractedArticle[];
let runB: ExtractedArticle[];

async function extractAll(dir: string, t: GroundTruth): Promise<ExtractedArticle[]> {
  const out: ExtractedArticle[] = [];
  for (const f of t.files) out.push(extractArticle(await readArticleFile(join(dir, f.file)), matcher));
  return out;
}

beforeAll(async () => {
  const dirA = join(tmp.path, 'a');
  const dirB = join(tmp.path, 'b');
  await generateCorpus({ dir: dirA, articles: ARTICLES, seed: SEED });
  await generateCorpus({ dir: dirB, articles: ARTICLES, seed: SEED });
  truth = readGroundTruth(join(dirA, GROUND_TRUTH_FILE));
  runA = await extractAll(dirA, truth);
  runB = await extractAll(dirB, readGroundTruth(join(dirB, GROUND_TRUTH_FILE)));
});

/** The truth's hedges of one article, one entry per distinct sentence (repeats are listed once per place). */
function distinctHedgeSentences(f: ArticleTruth): Map<string, HedgeTruth[]> {
  const bySentence = new Map<string, HedgeTruth[]>();
  for (const h of f.hedges) bySentence.set(h.sentence, [...(bySentence.get(h.sentence) ?? []), h]);
  return bySentence;
}

/** Truth hedges of one sentence, one per phrase (the places of a repeated sentence collapse). */
function distinctPhrases(places: HedgeTruth[]): HedgeTruth[] {
  return [...new Map(places.map((h) => [h.phrase, h])).values()];
}

describe(`extraction on ${ARTICLES} synthetic articles (seed ${SEED}) against ground-truth.json`, () => {
  it('generated a corpus with every outcome to measure', () => {
    expect(truth.files).toHaveLength(ARTICLES);
    expect(runA).toHaveLength(ARTICLES);
    const outcomes = new Set(truth.files.flatMap((f) => f.hedges.map((h) => h.outcome)));
    expect([...outcomes].sort()).toEqual(['rejected', 'unverified', 'verified']);
    expect(truth.files.some((f) => f.pmcid === null)).toBe(true);
    expect(truth.files.some((f) => f.hedges.some((h) => h.tags.includes('repeated')))).toBe(true);
  });

  it('finds every hedged sentence once, with its phrase, status, band and p-value', () => {
    const problems: string[] = [];
    truth.files.forEach((f, i) => {
      const doc = runA[i]!;
      for (const [sentence, places] of distinctHedgeSentences(f)) {
        const matches = doc.excerpts.filter((e) => e.text === sentence);
        if (matches.length !== 1) {
          problems.push(`${f.file}: ${matches.length} excerpts for "${sentence}"`);
          continue;
        }
        const e = matches[0]!;
        // The sentence is listed at one place and the others are in also_in: the same sections, as a multiset.
        expect([e.section, ...e.also_in].sort(), `${f.file}: places of "${sentence}"`).toEqual(places.map((h) => h.section).sort());
        for (const h of distinctPhrases(places)) {
          const occ = e.occurrences.filter((o) => e.text.slice(o.start, o.end) === h.phrase);
          if (occ.length !== 1) {
            problems.push(`${f.file}: phrase "${h.phrase}" found ${occ.length} times in "${sentence}"`);
            continue;
          }
          const o = occ[0]!;
          const got = { status: o.status, band: o.band, at_threshold: o.at_threshold, p: o.p && { text: o.p.text, operator: o.p.operator, value: o.p.value } };
          const want = {
            status: h.outcome,
            band: h.band,
            at_threshold: h.atThreshold,
            p: h.pValue && { text: h.pValue.text, operator: h.pValue.operator, value: h.pValue.value },
          };
          if (JSON.stringify(got) !== JSON.stringify(want))
            problems.push(`${f.file}: "${sentence}"\n  got  ${JSON.stringify(got)}\n  want ${JSON.stringify(want)}`);
        }
      }
    });
    expect(problems).toEqual([]);
  });

  it('has verified precision and recall of 1 (every verified occurrence is an expected one, with its band and value)', () => {
    let truthVerified = 0;
    let extractedVerified = 0;
    let truePositives = 0;
    const falsePositives: string[] = [];
    truth.files.forEach((f, i) => {
      const expected = new Map<string, HedgeTruth>();
      for (const [sentence, places] of distinctHedgeSentences(f))
        for (const h of distinctPhrases(places)) if (h.outcome === 'verified') expected.set(`${sentence}\u0000${h.phrase}`, h);
      truthVerified += expected.size;
      for (const e of runA[i]!.excerpts)
        for (const o of e.occurrences) {
          if (o.status !== 'verified') continue;
          extractedVerified++;
          const h = expected.get(`${e.text}\u0000${e.text.slice(o.start, o.end)}`);
          if (h && h.band === o.band && h.pValue?.value === o.p?.value) truePositives++;
          else falsePositives.push(`${f.file}: "${e.text}" (${o.phrase}, ${o.band})`);
        }
    });
    // Recorded in docs/corpus-accuracy.md: 300 articles of seed 20260701 hold 884 distinct verified hedged sentences.
    expect(truthVerified).toBeGreaterThan(500);
    expect(falsePositives).toEqual([]);
    expect({ precision: truePositives / extractedVerified, recall: truePositives / truthVerified }).toEqual({ precision: 1, recall: 1 });
  });

  it('verifies no trap sentence', () => {
    let traps = 0;
    const verifiedTraps: string[] = [];
    truth.files.forEach((f, i) => {
      for (const t of f.traps) {
        traps++;
        const e = runA[i]!.excerpts.find((x) => x.text === t.sentence);
        if (e?.occurrences.some((o) => o.status === 'verified')) verifiedTraps.push(`${f.file} (${t.reason}): ${t.sentence}`);
      }
    });
    expect(traps).toBeGreaterThan(1000);
    expect(verifiedTraps).toEqual([]);
  });

  it('emits no excerpt the truth does not explain (each is an expected hedge or a trap sentence)', () => {
    const unexplained: string[] = [];
    truth.files.forEach((f, i) => {
      const known = new Set([...f.hedges.map((h) => h.sentence), ...f.traps.map((t) => t.sentence)]);
      for (const e of runA[i]!.excerpts) if (!known.has(e.text)) unexplained.push(`${f.file}: ${e.text}`);
    });
    expect(unexplained).toEqual([]);
  });

  it('extracts none of the text outside the read sections (references, peer review, table cells, supplements, acknowledgements)', () => {
    let absent = 0;
    const leaks: string[] = [];
    truth.files.forEach((f, i) => {
      for (const a of f.absent) {
        absent++;
        for (const e of runA[i]!.excerpts) if (e.text.includes(a.text) || a.text.includes(e.text)) leaks.push(`${f.file} (${a.where}): ${e.text}`);
      }
    });
    expect(absent).toBeGreaterThan(500);
    expect(leaks).toEqual([]);
  });

  it('lists articles under their PMCID, or under a stable generated id when there is none', () => {
    const ids = runA.map((d) => d.pmcid);
    expect(new Set(ids).size).toBe(ARTICLES);
    truth.files.forEach((f, i) => {
      const doc = runA[i]!;
      if (f.pmcid) expect({ id: doc.pmcid, kind: doc.id_kind }, f.file).toEqual({ id: f.pmcid, kind: 'pmcid' });
      else {
        expect(doc.pmcid, f.file).toMatch(new RegExp(`^${GENERATED_ID_PREFIX}[0-9a-f]{12}$`));
        expect(doc.id_kind).toBe('generated');
      }
      for (const e of doc.excerpts) expect(e.id.startsWith(`${doc.pmcid}/`), e.id).toBe(true);
    });
    // A second generation of the same corpus, extracted again, gives the same ids and the same documents.
    expect(runB.map((d) => d.pmcid)).toEqual(ids);
    expect(runB).toEqual(runA);
  });
});
