/**
 * Our own strict reader (pipeline/corpus/strict-xml-tree.ts), with hollow elements' content skipped in one step
 * (pipeline/corpus/hollow-regions.ts), must give the tree htmlparser2 builds from the whole text, whatever the
 * input: where it reads the text itself and where it leaves it to htmlparser2. Checked on the real reference
 * articles, on generated ones, and on mutations of both that break the strict subsets they rely on (comments,
 * CDATA, quotes, unbalanced and stray tags, truncation).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTree } from '../../../pipeline/corpus/jats-tree.ts';
import { hollowSkips, strictTrees } from '../../../pipeline/corpus/strict-xml-tree.ts';
import { generateArticle } from '../../../pipeline/generate/corpus/article.ts';
import { mulberry32 } from '../../helpers/random.ts';
import { needShared, sharedPath } from '../../helpers/needs.ts';

const JATS = sharedPath('reference/hedged/jats');
const haveJats = needShared('reference/hedged/jats', 'the real-article tests of the strict reader');

const HOLLOW = new Set(['ref-list', 'table', 'annotation', 'annotation-xml', 'sub-article', 'response']);
const HOLLOW_PEER_REVIEW = new Set(['ref-list', 'table', 'annotation', 'annotation-xml']);

/**
 * Asserts the same tree (as JSON: attributes and child order included) from the strict reader as from
 * htmlparser2 over the whole text; returns how many characters of hollow content the strict reader skipped in
 * one step.
 */
function expectSameTree(xml: string, hollow: ReadonlySet<string> = HOLLOW, what = xml.slice(0, 80)): number {
  const whole = JSON.stringify(buildTree(xml, hollow, 'whole'));
  const before = hollowSkips.chars;
  expect(JSON.stringify(buildTree(xml, hollow, 'strict')), what).toBe(whole);
  return hollowSkips.chars - before;
}

/** Runs `f`; how many trees the strict reader built and declined meanwhile. */
function strictCounts(f: () => void): { built: number; declined: number } {
  const { built, declined } = strictTrees;
  f();
  return { built: strictTrees.built - built, declined: strictTrees.declined - declined };
}

describe('buildTree: the strict reader, hollow elements skipped in one step', () => {
  it('removes a hollow element’s content, keeping its open tag (attributes) as a self-closing tag', () => {
    const xml =
      '<article><body><p>a</p></body><back><ref-list id="r1"><ref><mixed-citation>x p = 0.06</mixed-citation></ref></ref-list><app>b</app></back></article>';
    expect(expectSameTree(xml)).toBe('<ref-list id="r1"><ref><mixed-citation>x p = 0.06</mixed-citation></ref></ref-list>'.length);
    const tree = buildTree(xml, HOLLOW);
    expect(JSON.stringify(tree)).toContain('{"name":"ref-list","local":"ref-list","attrs":{"id":"r1"},"children":[]}');
  });

  it('skips prefixed and nested hollow elements, handling comments, CDATA, PIs and declarations around them', () => {
    const xml =
      '<?xml version="1.0"?><!DOCTYPE article PUBLIC "-//NLM//DTD" "x.dtd"><article><!-- <ref-list> in a comment --><body><p a=\'<table>\'>t<![CDATA[<table>]]></p>' +
      '<mml:math><mml:annotation encoding="TeX"><mml:mi>x</mml:mi></mml:annotation></mml:math>' +
      '<table-wrap><table><tr><td><table><tr/></table></td></tr></table></table-wrap></body><back><ref-list><ref-list/><ref-list><ref/></ref-list><!-- c --><?pi x?></ref-list></back></article>';
    // Skipped in one step: the annotation, and the inner table and inner reference list: an element holding one
    // of its own name is read a tag at a time, the one inside it is skipped. The names in the comment, the
    // attribute value and the CDATA section are not elements.
    const cuts = hollowSkips.elements;
    expect(expectSameTree(xml)).toBe(
      ['<mml:annotation encoding="TeX"><mml:mi>x</mml:mi></mml:annotation>', '<table><tr/></table>', '<ref-list><ref/></ref-list>'].join('').length,
    );
    expect(hollowSkips.elements - cuts).toBe(3);
  });

  it('leaves the text as it is where the tokenizer could read it otherwise', () => {
    for (const xml of [
      '<article><ref-list><ref a=b></ref></ref-list></article>', // an unquoted attribute
      '<article><ref-list><!--->--></ref-list><p>x</p></article>', // a comment the tokenizer ends early
      '<article><back><ref-list><ref></back><p>x</p></article>', // closes an element opened outside
      '<article><ref-list><ref>', // never closed
      '<article><ref-list></ x></ref-list></article>', // a close tag with a space
    ]) {
      expect(expectSameTree(xml), xml).toBe(0);
    }
  });

  it('closes the innermost open element of a name, as htmlparser2 does (unclosed children are closed with it)', () => {
    const xml = '<article><back><ref-list><ref><b><i>x</b></ref></ref-list><app><p>y</p></app></back></article>';
    expect(expectSameTree(xml)).toBeGreaterThan(0);
    // A close tag of an element open around the hollow one ends it there: not skipped (and left to htmlparser2).
    expect(expectSameTree('<article><sec><table><tr></sec><p>x</p></table></article>')).toBe(0);
    // A space before the close tag's `>` is in the subset; the element's unclosed child is closed with it.
    expect(expectSameTree('<article><ref-list><ref></ref-list ></article>')).toBe('<ref-list><ref></ref-list >'.length);
    // Then a close tag of the child, no longer open: htmlparser2 ignores it, the strict reader leaves it that.
    const stray = '<article><ref-list><ref></ref-list ></ref></article>';
    expect(strictCounts(() => expect(expectSameTree(stray)).toBe(0))).toEqual({ built: 0, declined: 1 });
  });

  it.skipIf(!haveJats)('gives the same tree as the whole text on every real reference article, with or without the peer-review option', () => {
    const files = readdirSync(JATS).filter((f) => /\.n?xml$/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(10);
    let cut = 0;
    const counts = strictCounts(() => {
      for (const f of files) {
        const xml = readFileSync(join(JATS, f), 'utf8');
        if (expectSameTree(xml, HOLLOW, f) > 0) cut++;
        expectSameTree(xml, HOLLOW_PEER_REVIEW, f);
      }
    });
    // The real files are in the strict subset: a reference list is skipped in one step in each, and the strict
    // reader reads every one of them.
    expect(cut).toBe(files.length);
    expect(counts).toEqual({ built: 2 * files.length, declined: 0 });
  });

  it('gives the same tree on generated articles and on random mutations of real and generated ones', () => {
    const sources: string[] = [];
    for (let i = 0; i < 60; i++) sources.push(generateArticle(7, i, 0).xml);
    if (haveJats) for (const f of readdirSync(JATS).filter((n) => /\.n?xml$/.test(n))) sources.push(readFileSync(join(JATS, f), 'utf8'));
    const generated = strictCounts(() => sources.slice(0, 60).forEach((xml) => expect(expectSameTree(xml)).toBeGreaterThan(xml.length / 5)));
    expect(generated).toEqual({ built: 60, declined: 0 });
    // Mutations: snippets that leave the subset or change the structure, inserted around and inside the hollow regions.
    const snippets = [
      '<!--',
      '-->',
      '<![CDATA[',
      ']]>',
      '"',
      "'",
      '<',
      '>',
      '</ref>',
      '</back>',
      '</ref-list>',
      '<ref-list>',
      '<table>',
      '</table>',
      '<x a=b>',
      '<?',
      '<!-->',
      '</ >',
      '<p/>',
      '&amp;',
      // What the strict reader decides on its own: declarations, attributes, names, empty CDATA, U+FFFF.
      '<!->',
      '<!>',
      '<!x>',
      '<![CDATA[]]>',
      '<![CDAT>',
      '<?x>',
      '<i a="1" a="2">',
      '<i a = "1">',
      "<i a='&amp;'>",
      '</ i>',
      '<1>',
      '<i/ >',
      '<i\u00e9>',
      '&#xFFFF;',
      '\uFFFF',
      '< ',
      '<>',
      '</>',
      '<i a>',
      '<i __proto__="x">',
      '<b/>',
      '</p >',
      '<!-- -- -->',
      '&lt;',
    ];
    const random = mulberry32(21);
    let mutated = 0;
    const before = { ...strictTrees };
    for (let n = 0; n < 800; n++) {
      const xml = sources[Math.floor(random() * sources.length)]!;
      const anchor = xml.indexOf('<ref-list');
      // Half of the mutations land in or just before the reference list, where the skip is decided.
      const at = anchor >= 0 && random() < 0.5 ? anchor + Math.floor(random() * Math.min(4000, xml.length - anchor)) : Math.floor(random() * xml.length);
      const snippet = snippets[Math.floor(random() * snippets.length)]!;
      const m = random() < 0.1 ? xml.slice(0, at) : xml.slice(0, at) + snippet + xml.slice(at);
      expectSameTree(m, random() < 0.5 ? HOLLOW : HOLLOW_PEER_REVIEW, `mutation ${n}: ${JSON.stringify(snippet)} at ${at}`);
      mutated++;
    }
    expect(mutated).toBe(800);
    // Both ways were taken: mutations the strict reader reads, and mutations it leaves to htmlparser2.
    expect(strictTrees.built - before.built).toBeGreaterThan(100);
    expect(strictTrees.declined - before.declined).toBeGreaterThan(100);
  });

  it('skips a hollow element of millions of tags in one step (a 9 MB table overflowed the regular expression once)', () => {
    const rows = '<tr><td>1</td><td>2</td></tr>\n'.repeat(300_000);
    const xml = `<article><body><p>a</p><table-wrap><table>${rows}</table></table-wrap><p>b</p></body></article>`;
    const counts = strictCounts(() => expect(expectSameTree(xml)).toBe(`<table>${rows}</table>`.length));
    expect(counts).toEqual({ built: 1, declined: 0 });
  });

  it('reads the strict subset itself and leaves the rest to htmlparser2, with the same tree either way', () => {
    const read = [
      '<?xml version="1.0"?><!DOCTYPE article PUBLIC "-//NLM//DTD" "x.dtd"><article a="1" a="2" b = \'&amp;\'><p>x &lt; y<!-- c --><![CDATA[]]>z</p></article>',
      '<article><p>a < b and c <> d</p><p>e</p></article>e<',
      '<article><!-->t<!--->u<!->v>w<!>x>y<![CDAT>z</article>',
      '<article><p>&#xFFFF;\uFFFF<![CDATA[\uFFFF]]></p><ref-list><ref>x</ref></ref-list><table a="&gt;"><tr/></table ></article>',
      '<article><p>x', // never closed: htmlparser2 closes it at the end, as the strict reader does
    ];
    const declined = [
      '<article><p a=b>x</p></article>', // an unquoted value
      '<article><p a>x</p></article>', // an attribute without a value
      '<article><p>x</i></p></article>', // a close tag of an element not open
      '<article><sec><p>x</sec></article>', // a close tag of an element open further out
      '<article><p>x</ p></article>',
      '<article><1>x</1></article>',
      '<article><p __proto__="x">y</p></article>',
      '<article><p', // a tag cut off by the end
      '<article><!-- x',
    ];
    for (const xml of read)
      expect(
        strictCounts(() => expectSameTree(xml)),
        xml,
      ).toEqual({ built: 1, declined: 0 });
    for (const xml of declined)
      expect(
        strictCounts(() => expectSameTree(xml)),
        xml,
      ).toEqual({ built: 0, declined: 1 });
  });
});
