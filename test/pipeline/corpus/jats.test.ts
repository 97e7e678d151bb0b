import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { JatsError, normalisePmcid, parseArticle, readArticleFile, type ParsedArticle } from '../../../pipeline/corpus/jats.ts';
import { normaliseText } from '../../../pipeline/corpus/jats-text.ts';
import { splitSentences } from '../../../pipeline/corpus/sentences.ts';
import { tempDir } from '../../helpers/fixture-build.ts';
import { needShared, sharedPath } from '../../helpers/needs.ts';

const JATS = sharedPath('reference/hedged/jats');
const haveJats = needShared('reference/hedged/jats', 'the real-article JATS tests');

const tmp = tempDir('jats');
afterAll(tmp.remove);

/** A minimal article around the given front and body markup. */
function article(opts: { meta?: string; body?: string; back?: string; extra?: string } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD v1.2 20190208//EN" "JATS-archivearticle1.dtd">
<article xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:mml="http://www.w3.org/1998/Math/MathML" article-type="research-article">
<front><journal-meta><journal-title-group><journal-title>Synthetic Journal</journal-title></journal-title-group></journal-meta>
<article-meta>${opts.meta ?? ''}<title-group><article-title>A title</article-title></title-group></article-meta></front>
<body>${opts.body ?? ''}</body><back>${opts.back ?? ''}</back>${opts.extra ?? ''}</article>`;
}

/** Text of the single body block of an article whose body is one paragraph. */
const bodyText = (p: string) => {
  const blocks = parseArticle(article({ body: `<sec><title>Results</title><p>${p}</p></sec>` })).blocks;
  expect(blocks).toHaveLength(1);
  return blocks[0]!.text;
};

const allText = (a: ParsedArticle) => a.blocks.map((b) => b.text).join('\n');
const sentencesOf = (a: ParsedArticle) => a.blocks.flatMap((b) => splitSentences(b.text).map((s) => ({ ...s, block: b })));

describe('inline markup and text normalisation', () => {
  it('keeps italic p, NBSPs and cross-reference text in reading order', () => {
    expect(
      bodyText('The effect approached significance (<italic>p</italic>&#160;=&#160;0.064; see <xref ref-type="fig" rid="f1">Fig. 1</xref>) in\n   plants.'),
    ).toBe('The effect approached significance (p = 0.064; see Fig. 1) in plants.');
  });

  it('writes integer superscripts after a digit as exponents and keeps other superscripts as text', () => {
    expect(bodyText('p = 7.2 × 10<sup>−2</sup> and P&lt;10<sup>-12</sup>')).toBe('p = 7.2 × 10^-2 and P<10^-12');
    expect(bodyText('χ<sup>2</sup> = 5.37, 7<sup>th</sup> grade, Ca<sup>2+</sup>')).toBe('χ2 = 5.37, 7th grade, Ca2+');
    // A subscript digit is not a base: χ²₂₁ written as χ<sub>21</sub><sup>2</sup>.
    expect(bodyText('<italic>χ<sub>21</sub></italic><sup>2</sup> = 84.23')).toBe('χ212 = 84.23');
  });

  it('concatenates subscripts, so labels arrive as "pHet" or "ptrend"', () => {
    expect(bodyText('<italic>p</italic><sub>Het</sub> = 0.007, p<sub>trend</sub> = 0.08')).toBe('pHet = 0.007, ptrend = 0.08');
  });

  it('keeps citation numbers, bracketing superscripted cross-references so they cannot fuse with a number', () => {
    expect(bodyText('as before [<xref ref-type="bibr" rid="b3">3</xref>]')).toBe('as before [3]');
    expect(bodyText('in adults<sup><xref ref-type="bibr" rid="b1">1</xref>,<xref ref-type="bibr" rid="b2">2</xref></sup>.')).toBe('in adults [1,2].');
    expect(bodyText('(p = 0.07<xref ref-type="bibr" rid="b4"><sup>4</sup></xref>)')).toBe('(p = 0.07 [4])');
    expect(bodyText('p = 0.04<sup><xref ref-type="table-fn" rid="fn1">2</xref></sup>')).toBe('p = 0.04 [2]');
  });

  it('decodes numeric, XML and ISO named entities; keeps unknown ones literally; reads CDATA as is', () => {
    expect(bodyText('&lt; &amp; &rsqb;&percnt; &#x2264; &#8722;1 &ndash; &madeup; <![CDATA[a < b & c]]>')).toBe('< & ]% ≤ −1 – &madeup; a < b & c');
  });

  it('takes MathML text, with msup exponents, and one alternative only', () => {
    const mml =
      '<inline-formula><mml:math><mml:mi>p</mml:mi><mml:mo>=</mml:mo><mml:mn>3</mml:mn><mml:mo>×</mml:mo>' +
      '<mml:msup><mml:mn>10</mml:mn><mml:mrow><mml:mo>−</mml:mo><mml:mn>4</mml:mn></mml:mrow></mml:msup></mml:math></inline-formula>';
    expect(bodyText(`significant (${mml})`)).toBe('significant (p=3×10^-4)');
    const alt =
      '<inline-formula><alternatives><tex-math>$p=0.07$</tex-math><mml:math><mml:mi>p</mml:mi><mml:mo>=</mml:mo>' +
      '<mml:mn>0.07</mml:mn><mml:annotation encoding="TeX">p=0.07</mml:annotation></mml:math><inline-graphic xlink:href="x.gif"/></alternatives></inline-formula>';
    expect(bodyText(`a trend (${alt})`)).toBe('a trend (p=0.07)');
    const tex =
      '<inline-formula><tex-math>\\documentclass[12pt]{minimal}\\usepackage{amsmath}\\begin{document}$p \\le 0.10$\\end{document}</tex-math></inline-formula>';
    expect(bodyText(`close (${tex})`)).toBe('close (p ≤ 0.10)');
  });

  it('cuts nested blocks out of a paragraph and emits captions, footnotes and list items separately', () => {
    const a = parseArticle(
      article({
        body:
          '<sec><title>Results</title><p>Before the figure <fig id="f1"><label>Figure 1</label><caption><title>Outcome by group.</title>' +
          '<p>Means (<italic>P</italic> = .08).</p></caption><graphic xlink:href="f1.tif"/></fig>.' +
          ' Then a list:<list><list-item><p>first item</p></list-item></list> and a formula <disp-formula><mml:math><mml:mi>x</mml:mi></mml:math></disp-formula> here.</p>' +
          '<table-wrap id="t1"><label>Table 1</label><caption><p>Baseline.</p></caption><table><tr><td>marginally significant 0.07</td></tr></table>' +
          '<table-wrap-foot><fn><label>*</label><p>A marginally significant difference, p 0.06.</p></fn></table-wrap-foot></table-wrap></sec>',
      }),
    );
    expect(a.blocks.map((b) => [b.section, b.sectionTitle, b.label, b.text])).toEqual([
      ['body', 'Results', null, 'Before the figure. Then a list: and a formula here.'],
      ['caption', 'Results', 'Figure 1', 'Outcome by group.'],
      ['caption', 'Results', 'Figure 1', 'Means (P = .08).'],
      ['body', 'Results', null, 'first item'],
      ['caption', 'Results', 'Table 1', 'Baseline.'],
      ['table-footnote', 'Results', 'Table 1', 'A marginally significant difference, p 0.06.'],
    ]);
    expect(a.blocks.map((b) => b.paragraphIndex)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('builds section paths, reads all abstracts, and skips back matter, supplements and sub-articles', () => {
    const a = parseArticle(
      article({
        meta:
          '<abstract><sec><title>Background</title><p>Why.</p></sec><sec><title>Results</title><p>What.</p></sec></abstract>' +
          '<abstract abstract-type="summary"><title>Author Summary</title><p>Plain words.</p></abstract>' +
          '<abstract abstract-type="toc"><p>One line.</p></abstract><trans-abstract><p>Resumen.</p></trans-abstract>',
        body:
          '<sec><title>Results</title><sec><title>Subgroups</title><p>Sub text.</p>' +
          '<supplementary-material><caption><p>A nearly significant supplement (p = 0.06).</p></caption></supplementary-material></sec></sec>' +
          '<p>Top-level text.</p>',
        back:
          '<ack><p>We thank everyone.</p><fig><caption><p>An acknowledged figure.</p></caption></fig></ack><fn-group><fn><p>Funding note.</p></fn></fn-group>' +
          '<sec sec-type="display-objects"><title>Figures and Tables</title><p>Not a caption.</p>' +
          '<fig><label>Figure 2</label><caption><title>Back figure.</title></caption></fig>' +
          '<table-wrap><label>Table 3</label><caption><p>Back table.</p></caption><table><tr><td>cell</td></tr></table>' +
          '<table-wrap-foot><fn><p>Back footnote, p = 0.07.</p></fn></table-wrap-foot></table-wrap></sec>' +
          '<app-group><app><title>Appendix 1</title><p>Appendix text.</p></app></app-group>' +
          '<ref-list><ref><mixed-citation>A trend toward significance (p = 0.07) in a reference title.</mixed-citation></ref></ref-list>',
        extra:
          '<floats-group><fig><label>Figure 9</label><caption><p>Float caption.</p></caption></fig></floats-group>' +
          '<sub-article article-type="decision-letter"><front-stub><title-group><article-title>Decision letter</article-title></title-group></front-stub>' +
          '<body><p>Reviewer text.</p></body></sub-article>',
      }),
    );
    expect(a.blocks.map((b) => [b.section, b.sectionPath, b.text])).toEqual([
      ['abstract', ['Background'], 'Why.'],
      ['abstract', ['Results'], 'What.'],
      ['abstract', ['Author Summary'], 'Plain words.'],
      ['abstract', ['toc'], 'One line.'],
      ['body', ['Results', 'Subgroups'], 'Sub text.'],
      ['body', [], 'Top-level text.'],
      ['caption', [], 'Back figure.'],
      ['caption', [], 'Back table.'],
      ['table-footnote', [], 'Back footnote, p = 0.07.'],
      ['body', ['Appendix 1'], 'Appendix text.'],
      ['caption', [], 'Float caption.'],
    ]);
    expect(a.blocks[4]!.sectionTitle).toBe('Results > Subgroups');
    const withReview = parseArticle(
      article({
        extra:
          '<sub-article><front-stub><title-group><article-title>Decision letter</article-title></title-group></front-stub><body><p>Reviewer text.</p></body></sub-article>',
      }),
      {
        includePeerReview: true,
      },
    );
    expect(withReview.blocks.map((b) => [b.section, b.sectionTitle, b.text])).toEqual([['peer-review', 'Decision letter', 'Reviewer text.']]);
  });

  it('rejects input without an article element', () => {
    expect(() => parseArticle('<html><body><p>x</p></body></html>')).toThrow(JatsError);
  });

  it('decodes a Buffer by its XML declaration', () => {
    const xml = article({ body: '<p>Caf\u00e9 p = 0.07</p>' }).replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
    const a = parseArticle(Buffer.from(xml, 'latin1'));
    expect(a.blocks[0]!.text).toBe('Café p = 0.07');
  });
});

describe('identifiers and metadata', () => {
  const meta = (ids: string, more = '') => parseArticle(article({ meta: ids + more })).meta;

  it('normalises PMCIDs from pub-id-type "pmc" and "pmcid", with or without the prefix', () => {
    expect(meta('<article-id pub-id-type="pmc">3166277</article-id>').pmcid).toBe('PMC3166277');
    expect(meta('<article-id pub-id-type="pmcid">PMC6095483</article-id>').pmcid).toBe('PMC6095483');
    expect(meta('<article-id pub-id-type="pmcid">6095483</article-id>').pmcid).toBe('PMC6095483');
    expect(meta('<article-id pub-id-type="pmc">pmc 42</article-id>').pmcid).toBe('PMC42');
    expect(meta('<article-id pub-id-type="doi">10.5555/x.1</article-id>').pmcid).toBeNull();
    expect(normalisePmcid('PMC12a')).toBeNull();
    expect(normalisePmcid('')).toBeNull();
  });

  it('reads DOI, PMID, authors, year and licence from article-meta only', () => {
    const m = meta(
      '<article-id pub-id-type="pmid">123</article-id><article-id pub-id-type="doi">10.5555/a.1</article-id>',
      '<contrib-group><contrib contrib-type="author"><name><surname>Otte</surname><given-names>W M</given-names></name></contrib>' +
        '<contrib contrib-type="author"><collab>The Trial Group</collab></contrib><contrib contrib-type="editor"><name><surname>Ed</surname></name></contrib></contrib-group>' +
        '<pub-date pub-type="ppub"><year>2021</year></pub-date><pub-date pub-type="epub"><year>2020</year></pub-date>' +
        '<permissions><license license-type="open-access" xlink:href="https://creativecommons.org/licenses/by/4.0/"><license-p>CC BY.</license-p></license></permissions>',
    );
    expect(m).toMatchObject({
      pmid: '123',
      doi: '10.5555/a.1',
      title: 'A title',
      journal: 'Synthetic Journal',
      year: 2020,
      licence: { url: 'https://creativecommons.org/licenses/by/4.0/', type: 'open-access', text: 'CC BY.' },
      articleType: 'research-article',
    });
    expect(m.authors).toEqual([
      { name: 'Otte W M', surname: 'Otte', givenNames: 'W M' },
      { name: 'The Trial Group', surname: null, givenNames: null },
    ]);
  });

  it('takes the earliest year of the epub, ppub and collection dates; other dates only without those', () => {
    const year = (dates: string) => meta('', dates).year;
    const d = (attrs: string, y: number) => `<pub-date ${attrs}><year>${y}</year></pub-date>`;
    expect(year(d('pub-type="epub"', 2020) + d('pub-type="ppub"', 2019))).toBe(2019);
    expect(year(d('pub-type="ppub"', 2021) + d('pub-type="epub"', 2020) + d('pub-type="collection"', 2018))).toBe(2018);
    expect(year(d('date-type="pub" publication-format="electronic"', 2017) + d('date-type="pub" publication-format="print"', 2016))).toBe(2016);
    // A received or a pmc-release date is not a publication date: used only when nothing else has a year.
    expect(year(d('pub-type="pmc-release"', 2010) + d('pub-type="epub"', 2012))).toBe(2012);
    expect(year(d('pub-type="pmc-release"', 2011) + d('pub-type="nihms-submitted"', 2010))).toBe(2010);
    expect(year(d('pub-type="epub"', 0) + '<pub-date pub-type="ppub"><month>3</month></pub-date>')).toBeNull();
  });
});

describe('gzip', () => {
  it('reads .gz files and gzip buffers', async () => {
    const xml = article({ meta: '<article-id pub-id-type="pmc">77</article-id>', body: '<p>Zipped text.</p>' });
    const path = join(tmp.path, 'PMC77.nxml.gz');
    writeFileSync(path, gzipSync(xml));
    const a = await readArticleFile(path);
    expect(a.meta.pmcid).toBe('PMC77');
    expect(a.blocks[0]!.text).toBe('Zipped text.');
    expect(parseArticle(gzipSync(Buffer.from(xml))).blocks[0]!.text).toBe('Zipped text.');
  });
});

describe.skipIf(!haveJats)('real articles (shared/reference/hedged/jats)', () => {
  const read = (f: string, peer = false) => readArticleFile(join(JATS, f), { includePeerReview: peer });

  /** Asserts that `sentence` is exactly one split sentence of a block of the given section; returns the blocks. */
  function expectSentence(a: ParsedArticle, sentence: string, section: string) {
    const hits = sentencesOf(a).filter((s) => s.text === sentence);
    expect(hits.length, sentence).toBeGreaterThan(0);
    expect(hits.map((h) => h.block.section)).toContain(section);
    return hits.map((h) => h.block);
  }

  it('1471-2180-11-174.nxml: PMC OA ids without prefix, neutral non-significant sentence intact', async () => {
    const a = await read('1471-2180-11-174.nxml');
    expect(a.meta).toMatchObject({
      pmcid: 'PMC3166277',
      pmid: '21810267',
      doi: '10.1186/1471-2180-11-174',
      title: 'Factors influencing lysis time stochasticity in bacteriophage λ',
      journal: 'BMC Microbiology',
      year: 2011,
      licence: { url: 'http://creativecommons.org/licenses/by/2.0', type: 'open-access' },
    });
    expect(a.meta.authors[0]).toEqual({ name: 'Dennehy John J', surname: 'Dennehy', givenNames: 'John J' });
    const [block] = expectSentence(
      a,
      'However, because of the case of the LB medium, in which the higher growth rate actually resulted in a slightly longer MLT, the observed negative relationship was not significant (F[1,2] = 6.44, p = 0.1265).',
      'body',
    );
    expect(block!.sectionTitle).toBe('Results > Effect of Host Growth Rates');
  });

  it('pntd.0002065.nxml: "p = 0.05" sentence and ids', async () => {
    const a = await read('pntd.0002065.nxml');
    expect(a.meta).toMatchObject({ pmcid: 'PMC3585041', pmid: '23469300', doi: '10.1371/journal.pntd.0002065', year: 2013 });
    expectSentence(a, 'Seroprevalence in sheep was higher in Mopeia (22.8%) than in Nicoadala (4.3%) (p = 0.05).', 'body');
  });

  it('ehp-116-1694.nxml: DOI differs from the publisher id; floats-group captions are read', async () => {
    const a = await read('ehp-116-1694.nxml');
    expect(a.meta).toMatchObject({ pmcid: 'PMC2599765', pmid: '19079722', doi: '10.1289/ehp.11570', year: 2008 });
    expect(a.meta.licence?.type).toBe('public-domain');
    const captions = a.blocks.filter((b) => b.section === 'caption');
    expect(
      captions.some(
        (b) => b.label === 'Figure 1' && b.text.startsWith('Exposure to PBDE-47 depressed circulating concentrations of total T4 in males and females'),
      ),
    ).toBe(true);
  });

  it('captions and table footnotes read the same from body, back-matter display objects and floats-group', async () => {
    const floats = /<fig[\s>][\s\S]*?<\/fig>|<table-wrap[\s>][\s\S]*?<\/table-wrap>/g;
    const floatBlocks = (a: ParsedArticle) =>
      a.blocks.filter((b) => b.section === 'caption' || b.section === 'table-footnote').map((b) => `${b.section}|${b.label}|${b.text}`);
    let moved = 0;
    for (const file of readdirSync(JATS)) {
      const xml = readFileSync(join(JATS, file), 'utf8');
      const frontEnd = xml.indexOf('</front>') + '</front>'.length;
      const bodyEnd = xml.indexOf('</body>', frontEnd);
      const [head, body, tail] = [xml.slice(0, frontEnd), xml.slice(frontEnd, bodyEnd), xml.slice(bodyEnd + '</body>'.length)];
      const found = body.match(floats) ?? [];
      if (!found.length) continue;
      moved += found.length;
      const stripped = body.replace(floats, '');
      const displayObjects = `<sec sec-type="display-objects"><title>Figures and Tables</title>${found.join('')}</sec>`;
      const inBack = tail.includes('<back>') ? tail.replace('<back>', `<back>${displayObjects}`) : `<back>${displayObjects}</back>${tail}`;
      const inFloatsGroup = tail.replace('</article>', `<floats-group>${found.join('')}</floats-group></article>`);
      const expected = floatBlocks(parseArticle(xml));
      expect(expected.length, file).toBeGreaterThan(0);
      for (const variant of [`${head}${stripped}</body>${inBack}`, `${head}${stripped}</body>${inFloatsGroup}`]) {
        const got = parseArticle(variant);
        expect(floatBlocks(got), file).toEqual(expected);
        expect(
          got.blocks.every((b) => b.section !== 'caption' || b.sectionPath.length === 0),
          file,
        ).toBe(true);
      }
    }
    expect(moved).toBeGreaterThan(50);
  });

  it('elife-46472-v3.xml: article DOI (not a sub-article DOI), the hedged sentence, no peer review by default', async () => {
    const a = await read('elife-46472-v3.xml');
    expect(a.meta).toMatchObject({ pmcid: null, doi: '10.7554/eLife.46472', journal: 'eLife', year: 2019 });
    expect(a.meta.title).toBe('Taar1 gene variants have a causal role in methamphetamine intake and response and interact with Oprm1');
    expect(a.meta.licence?.url).toBe('http://creativecommons.org/publicdomain/zero/1.0/');
    const [block] = expectSentence(
      a,
      'There was a strong statistical trend for an increase in the chromosome 10 logarithm of the odds (LOD) score for MA intake (from 8.2 to 8.8; p=0.07), and a significant increase for the chromosome 10 LOD score for temperature response (from 3.7 to 4.2; p=0.01), when results were compared for interval mapping and composite interval mapping.',
      'body',
    );
    expect(block!.sectionPath[0]).toBe('Results');
    const review = 'We have now used a Bonferroni correction to account for multiple tests in the revised manuscript';
    expect(allText(a)).not.toContain(review);
    expect(a.blocks.some((b) => b.section === 'peer-review')).toBe(false);
    // SOURCES.md's "a strong trend for the MA consumption traits" is in the author response, so only there.
    const responseHedge = 'that was significant for the thermal trait and a strong trend for the MA consumption traits.';
    expect(allText(a)).not.toContain(responseHedge);
    const withReview = await read('elife-46472-v3.xml', true);
    const review2 = withReview.blocks.filter((b) => b.section === 'peer-review');
    expect(review2.map((b) => b.text).join('\n')).toContain(review);
    expect(review2.find((b) => b.text.includes(responseHedge))?.sectionTitle).toBe('Author response');
    expect(withReview.blocks.filter((b) => b.section !== 'peer-review')).toEqual(a.blocks);
  });

  it('journal.pone.0080518.xml: hyphenated hedge without a p-value', async () => {
    const a = await read('journal.pone.0080518.xml');
    const [b] = expectSentence(
      a,
      'Repeating the analysis with the growing season broken into successive two-week periods suggested that cotton’s sensitive period may extend very weakly into the first half of July; thereafter, a non-significant trend towards increasing yield with increasing L. hesperus densities was observed (Table S1, Figure S1).',
      'body',
    );
    expect(b!.sectionTitle).toBe('Results > Lygus hesperus densities and Gossypium yield');
  });

  it('elife00007.xml: "spp." does not split; the sentence appears in the body and the figure legend; a nested table is cut out', async () => {
    const a = await read('elife00007.xml');
    const body = expectSentence(
      a,
      "Geocoris spp. tended to predate more larvae from GLV-supplemented plants (Fisher's exact tests, 35–37% vs 22–27% May 5–6, N=59–60 larvae, p=0.066; 17–21% vs 12% May 13–15, N=92–100 larvae, p=0.069; combined trials, Bonferroni-corrected p=0.0063) (Figure 5).",
      'body',
    );
    expect(body[0]!.text).not.toContain('GLV mix used to externally supplement');
    const legend = expectSentence(
      a,
      "Geocoris spp. tended to predate more larvae from GLV-supplemented plants (Fisher's exact tests, 35–37% vs 22–27% May 5–6, p=0.066; 17–21% vs 12% May 13–15, p=0.069; combined trials, Bonferroni-corrected p=0.0063).",
      'caption',
    );
    expect(legend[0]!.label).toBe('Figure 5.');
    expect(a.blocks.some((b) => b.section === 'caption' && b.label === 'Table 1.' && b.text.startsWith('GLV mix used to externally supplement'))).toBe(true);
  });

  it('journal.pone.0067227.xml: p-values before the phrase, in the abstract and the results', async () => {
    const a = await read('journal.pone.0067227.xml');
    const s =
      'Age (r=-0.15, p=0.09), waist circumference (r=-0.16, p=0.07), and serum ferritin level (r=-0.13, p=0.07) tended to be inversely correlated with leukocyte mtDNA copy number.';
    const blocks = expectSentence(a, s, 'abstract');
    expect(blocks[0]!.sectionTitle).toBe('Results');
    expect(allText(a)).toContain(s.slice(0, -1) + ', although the relationship was not statistically significant.');
  });

  it('journal.pone.0068090.xml: hedged table footnotes with the operator missing', async () => {
    const a = await read('journal.pone.0068090.xml');
    const [b] = expectSentence(
      a,
      'There was a marginally significant difference in gender distribution between patients and healthy controls following Yates’s and Bonferroni corrections, Χ2 (1) = 5.37, p 0.06.',
      'table-footnote',
    );
    expect(b!.label).toBe('Table 1');
    expectSentence(
      a,
      'There was a marginally significant difference between the Estimated IQ scores for patients and healthy controls, Tukey’s HSD, p 0.05.',
      'table-footnote',
    );
  });

  it('journal.pgen.1000052.xml: hedge with a significant p; exponent rendering', async () => {
    const a = await read('journal.pgen.1000052.xml');
    const text = allText(a);
    expect(text).toContain('was only marginally significant (P = 0.0167).');
    expect(text).toContain('the top two axes having P<10^-12');
  });

  it('journal.pmed.0030520.xml: subscripted p label and ISO named entities decoded', async () => {
    const a = await read('journal.pmed.0030520.xml');
    const text = allText(a);
    expect(text).toMatch(/studies conducted in Asian populations tended to have a larger ORs \(χ52 = 14\.4, pHet = 0\.007\)/);
    expect(text).not.toMatch(/&(?:rsqb|lsqb|percnt|ndash);/);
  });

  it('every file: blocks are normalised and no reference-list or sub-article text is extracted', async () => {
    for (const f of readdirSync(JATS)) {
      const raw = readFileSync(join(JATS, f), 'utf8');
      const a = await read(f);
      expect(a.blocks.length, f).toBeGreaterThan(10);
      for (const b of a.blocks) {
        expect(b.text, f).toBe(b.text.replace(/\s+/g, ' ').trim());
        expect(b.text.length, f).toBeGreaterThan(0);
        expect(b.text, f).not.toContain('\uFFFF');
      }
      const text = allText(a);
      const refList = raw.slice(raw.indexOf('<ref-list'), raw.indexOf('</ref-list>'));
      const titles = [...refList.matchAll(/<article-title>([^<]{40,})<\/article-title>/g)].map((m) => m[1]!.replace(/\s+/g, ' ').trim());
      expect(titles.length, f).toBeGreaterThan(0);
      for (const t of titles.filter((x) => !x.includes('&'))) expect(text, `${f}: ${t}`).not.toContain(t);
      for (const sub of raw.matchAll(/<sub-article[\s\S]*?<\/sub-article>/g)) {
        const sentences = [...sub[0].matchAll(/<p>([^<]{60,})<\/p>/g)].map((m) => m[1]!.trim()).filter((x) => !x.includes('&'));
        for (const s of sentences) expect(text, f).not.toContain(s);
      }
    }
  });
});

describe('normaliseText', () => {
  // The rule as first written (one replacement per whitespace run, single spaces included): the oracle for
  // the cheaper expression that skips runs that are one space already.
  const oracle = (s: string) =>
    s
      .replace(/\u00AD|\u200B|\u200C|\u200D|\u2060|\u180E/g, '')
      .replace(/\s+/g, ' ')
      .trim();
  it('collapses whitespace exactly as /\\s+/ → " " on every string of up to 5 characters over spaces, breaks and ignorables', () => {
    const alphabet = [
      ' ',
      '\n',
      '\t',
      '\r',
      '\u00a0',
      '\u2009',
      '\u3000',
      '\u2028',
      '\ufeff',
      '\u0085',
      '\u00ad',
      '\u200b',
      '\u200d',
      '\u2060',
      '\u180e',
      'a',
      '.',
    ];
    let compared = 0;
    const grow = (s: string, depth: number): void => {
      if (normaliseText(s) !== oracle(s)) expect(JSON.stringify(normaliseText(s))).toBe(JSON.stringify(oracle(s)));
      compared++;
      if (depth > 0) for (const c of alphabet) grow(s + c, depth - 1);
    };
    grow('', 5);
    expect(compared).toBe(1 + 17 + 17 ** 2 + 17 ** 3 + 17 ** 4 + 17 ** 5);
  });
});
