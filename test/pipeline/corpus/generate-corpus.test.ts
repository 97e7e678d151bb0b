import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArticleFile } from '../../../pipeline/corpus/jats.ts';
import { splitSentences } from '../../../pipeline/corpus/sentences.ts';
import { generateCorpus, GROUND_TRUTH_FILE } from '../../../pipeline/generate/corpus/generate.ts';
import { type GroundTruth, readGroundTruth } from '../../../pipeline/generate/corpus/ground-truth.ts';
import { tempDir } from '../../helpers/fixture-build.ts';

const tmp = tempDir('corpus-gen');
afterAll(tmp.remove);

const ARTICLES = 160;
const SEED = 424242;
const dirA = join(tmp.path, 'a');
const dirB = join(tmp.path, 'b');
let truth: GroundTruth;

function filesOf(dir: string): Map<string, Buffer> {
  return new Map(
    readdirSync(dir)
      .sort()
      .map((f) => [f, readFileSync(join(dir, f))]),
  );
}

beforeAll(async () => {
  await generateCorpus({ dir: dirA, articles: ARTICLES, seed: SEED });
  await generateCorpus({ dir: dirB, articles: ARTICLES, seed: SEED });
  truth = readGroundTruth(join(dirA, GROUND_TRUTH_FILE));
});

describe('synthetic corpus generator', () => {
  it('writes the same bytes on every run', () => {
    const a = filesOf(dirA);
    const b = filesOf(dirB);
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [f, bytes] of a) expect(bytes.equals(b.get(f)!), f).toBe(true);
  });

  it('writes one file per article plus the ground truth, with sizes and checksums', () => {
    const files = readdirSync(dirA).filter((f) => f !== GROUND_TRUTH_FILE);
    expect(files).toHaveLength(ARTICLES);
    expect(truth.articles).toBe(ARTICLES);
    expect(truth.files.map((f) => f.file).sort()).toEqual(files.sort());
    for (const f of truth.files) {
      const bytes = readFileSync(join(dirA, f.file));
      expect(bytes.length).toBe(f.bytes);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(f.sha256);
      expect(f.gzip).toBe(f.file.endsWith('.gz'));
      if (f.gzip) expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    }
  });

  it('draws each article independently of the corpus size and changes with the seed', async () => {
    const small = join(tmp.path, 'small');
    await generateCorpus({ dir: small, articles: 20, seed: SEED });
    const smallTruth = readGroundTruth(join(small, GROUND_TRUTH_FILE));
    for (const f of smallTruth.files) {
      expect(readFileSync(join(small, f.file)).equals(readFileSync(join(dirA, f.file))), f.file).toBe(true);
    }
    const other = join(tmp.path, 'other');
    await generateCorpus({ dir: other, articles: 20, seed: SEED + 1 });
    expect(readFileSync(join(other, GROUND_TRUTH_FILE)).equals(readFileSync(join(small, GROUND_TRUTH_FILE)))).toBe(false);
  });

  it('covers the identifier variants, file forms, sections, traps and p-value forms it promises', () => {
    const variants = new Set(truth.files.map((f) => f.idVariant));
    expect([...variants].sort()).toEqual(['none', 'pmc', 'pmcid-bare', 'pmcid-prefixed']);
    const names = truth.files.map((f) => f.file);
    for (const re of [/^PMC\d+\.nxml$/, /^PMC\d+\.xml$/, /\.gz$/, /^[a-z]+\.\d{7}\.xml(\.gz)?$/])
      expect(
        names.some((n) => re.test(n)),
        String(re),
      ).toBe(true);
    for (const f of truth.files) if (f.idVariant === 'none') expect(f.pmcid).toBeNull();
    const hedges = truth.files.flatMap((f) => f.hedges);
    const tags = new Set(hedges.flatMap((h) => h.tags));
    for (const tag of [
      'italic-p',
      'nbsp',
      'exponent',
      'plural-ps',
      'value-of',
      'ns',
      'mathml',
      'upper-bound',
      'at-threshold',
      'gene-p53',
      'gene-p450',
      'repeated',
      'p-before-phrase',
      'second-p-significant',
      'hedge-significant',
      'no-p',
      'abbrev-et-al',
      'abbrev-fig',
      'abbrev-eg',
      'abbrev-spp',
      'abbrev-vs',
      'abbrev-approx',
      'abbrev-ca',
      'abbrev-dr',
      'abbrev-ie',
      'citation',
      'superscript-citation',
      'operator-missing',
      'no-leading-zero',
    ])
      expect(tags.has(tag), tag).toBe(true);
    expect(new Set(hedges.map((h) => h.section))).toEqual(new Set(['abstract', 'body', 'caption', 'table-footnote']));
    expect(new Set(hedges.map((h) => h.outcome))).toEqual(new Set(['verified', 'rejected', 'unverified']));
    expect(new Set(hedges.map((h) => h.band))).toEqual(new Set(['0.05-0.06', '0.06-0.08', '0.08-0.10', '>0.10', 'ns', 'none', null]));
    expect(new Set(hedges.map((h) => h.phraseSource))).toEqual(new Set(['otte', 'variant']));
    const reasons = new Set(truth.files.flatMap((f) => f.traps.map((t) => t.reason)));
    for (const r of ['significant-no-hedge', 'neutral-non-significant', 'gene-p53', 'small-but-significant', 'threshold-definition'])
      expect(reasons.has(r), r).toBe(true);
    const wheres = new Set(truth.files.flatMap((f) => f.absent.map((a) => a.where)));
    expect(wheres).toEqual(new Set(['ref-list', 'sub-article', 'table-cell', 'supplementary', 'ack']));
    expect(truth.files.some((f) => f.hedges.length === 0)).toBe(true);
    expect(truth.totals.hedges).toBe(hedges.length);
  });

  it('states each hedge consistently: phrase and p-value text in the sentence, outcome matching the band', () => {
    for (const f of truth.files) {
      for (const h of f.hedges) {
        expect(h.sentence, f.file).toContain(h.phrase);
        if (h.pValue) expect(h.sentence, f.file).toContain(h.pValue.text);
        for (const p of h.otherPValues) expect(h.sentence).toContain(p.text);
        if (h.outcome === 'rejected') expect(h.band).toBeNull();
        if (h.outcome === 'unverified') expect([h.band, h.pValue]).toEqual(['none', null]);
        if (h.outcome === 'verified') expect(h.band).not.toBe('none');
      }
    }
  });

  it('agrees with the reader: metadata, every expected sentence split intact in its section, absent text absent', async () => {
    for (const f of truth.files) {
      const a = await readArticleFile(join(dirA, f.file));
      expect(a.meta, f.file).toMatchObject({ pmcid: f.pmcid, pmid: f.pmid, doi: f.doi, title: f.title, journal: f.journal, year: f.year });
      expect(
        a.meta.authors.map((x) => x.name),
        f.file,
      ).toEqual(f.authors);
      expect(a.meta.licence?.url ?? null, f.file).toBe(f.licenceUrl);
      const sentences = a.blocks.flatMap((b) => splitSentences(b.text).map((s) => ({ text: s.text, block: b })));
      for (const h of f.hedges) {
        const hit = sentences.find((s) => s.text === h.sentence && s.block.section === h.section && s.block.sectionTitle === h.sectionPath.join(' > '));
        expect(hit, `${f.file}: ${h.section} ${h.sectionPath.join(' > ')}: ${h.sentence}`).toBeDefined();
      }
      for (const t of f.traps) {
        expect(
          sentences.some((s) => s.text === t.sentence && s.block.section === t.section),
          `${f.file}: ${t.sentence}`,
        ).toBe(true);
      }
      const text = a.blocks.map((b) => b.text).join('\n');
      for (const ab of f.absent) expect(text, `${f.file}: ${ab.where}`).not.toContain(ab.text);
    }
  });

  it('refuses to replace a directory that is not a generated corpus', async () => {
    const keep = join(tmp.path, 'keep');
    mkdirSync(keep);
    writeFileSync(join(keep, 'notes.txt'), 'mine');
    await expect(generateCorpus({ dir: keep, articles: 1, seed: 1 })).rejects.toThrow(/refusing to replace/);
    expect(readFileSync(join(keep, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('has a CLI with --help and argument checks', () => {
    const cli = join(import.meta.dirname, '../../../pipeline/generate/corpus/cli.ts');
    const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { encoding: 'utf8' });
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--articles N');
    const bad = run('--articles', 'zero', '--out', join(tmp.path, 'x'));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--articles must be a whole number');
    const ok = run('--articles', '3', '--out', join(tmp.path, 'cli'), '--seed', '9', '--gzip-share', '1');
    expect(ok.status, ok.stderr).toBe(0);
    expect(readdirSync(join(tmp.path, 'cli')).filter((f) => f.endsWith('.gz'))).toHaveLength(3);
  });
});
