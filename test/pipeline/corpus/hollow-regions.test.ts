/**
 * Cutting hollow elements' content before parsing (pipeline/corpus/hollow-regions.ts) must give the same tree
 * as parsing the whole text, whatever the input: checked on the real reference articles, on generated ones, and
 * on mutations of both that break the strict subset the cut relies on (comments, CDATA, quotes, unbalanced and
 * stray tags, truncation), against buildTree without the cut (the tree htmlparser2 builds from the whole text).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTree, hollowCuts } from '../../../pipeline/corpus/jats-tree.ts';
import { generateArticle } from '../../../pipeline/generate/corpus/article.ts';
import { mulberry32 } from '../../helpers/random.ts';

const JATS = join(import.meta.dirname, '../../../../shared/reference/hedged/jats');
const haveJats = existsSync(JATS);
if (!haveJats) console.warn(`skipping the real-article cut tests: ${JATS} is absent`);

const HOLLOW = new Set(['ref-list', 'table', 'annotation', 'annotation-xml', 'sub-article', 'response']);
const HOLLOW_PEER_REVIEW = new Set(['ref-list', 'table', 'annotation', 'annotation-xml']);

/** The tree with and without the cut, as JSON (attributes and child order included). */
function trees(xml: string, hollow: ReadonlySet<string>): [string, string] {
  return [JSON.stringify(buildTree(xml, hollow, false)), JSON.stringify(buildTree(xml, hollow, true))];
}

/** Asserts the same tree; returns how many characters were cut. */
function expectSameTree(xml: string, hollow: ReadonlySet<string> = HOLLOW, what = xml.slice(0, 80)): number {
  const before = hollowCuts.chars;
  const [whole, cut] = trees(xml, hollow);
  expect(cut, what).toBe(whole);
  return hollowCuts.chars - before;
}

describe('buildTree with hollow elements cut before tokenising', () => {
  it('removes a hollow element’s content, keeping its open tag (attributes) as a self-closing tag', () => {
    const xml = '<article><body><p>a</p></body><back><ref-list id="r1"><ref><mixed-citation>x p = 0.06</mixed-citation></ref></ref-list><app>b</app></back></article>';
    expect(expectSameTree(xml)).toBe('<ref-list id="r1"><ref><mixed-citation>x p = 0.06</mixed-citation></ref></ref-list>'.length);
    const tree = buildTree(xml, HOLLOW);
    expect(JSON.stringify(tree)).toContain('{"name":"ref-list","local":"ref-list","attrs":{"id":"r1"},"children":[]}');
  });

  it('cuts prefixed and nested hollow elements, handling comments, CDATA, PIs and declarations around them', () => {
    const xml =
      '<?xml version="1.0"?><!DOCTYPE article PUBLIC "-//NLM//DTD" "x.dtd"><article><!-- <ref-list> in a comment --><body><p a=\'<table>\'>t<![CDATA[<table>]]></p>' +
      '<mml:math><mml:annotation encoding="TeX"><mml:mi>x</mml:mi></mml:annotation></mml:math>' +
      '<table-wrap><table><tr><td><table><tr/></table></td></tr></table></table-wrap></body><back><ref-list><ref-list/><ref-list><ref/></ref-list><!-- c --><?pi x?></ref-list></back></article>';
    // Cut: the annotation, and the inner table and inner reference list: an element holding one of its own
    // name is parsed as before, the one inside it is cut. The candidates in the comment, the attribute value and
    // the CDATA section are not elements.
    const cuts = hollowCuts.elements;
    expect(expectSameTree(xml)).toBe(['<mml:annotation encoding="TeX"><mml:mi>x</mml:mi></mml:annotation>', '<table><tr/></table>', '<ref-list><ref/></ref-list>'].join('').length);
    expect(hollowCuts.elements - cuts).toBe(3);
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
    // A close tag of an element open around the hollow one ends it there: not cut.
    expect(expectSameTree('<article><sec><table><tr></sec><p>x</p></table></article>')).toBe(0);
    // A space before the close tag's `>` is in the subset; the element's unclosed child is closed with it.
    expect(expectSameTree('<article><ref-list><ref></ref-list ></ref></article>')).toBe('<ref-list><ref></ref-list >'.length);
  });

  it.skipIf(!haveJats)('gives the same tree as the whole text on every real reference article, cut or not by the peer-review option', () => {
    const files = readdirSync(JATS).filter((f) => /\.n?xml$/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(10);
    let cut = 0;
    for (const f of files) {
      const xml = readFileSync(join(JATS, f), 'utf8');
      if (expectSameTree(xml, HOLLOW, f) > 0) cut++;
      expectSameTree(xml, HOLLOW_PEER_REVIEW, f);
    }
    // The real files are in the strict subset: the cut is made (all have a reference list).
    expect(cut).toBe(files.length);
  });

  it('gives the same tree on generated articles and on random mutations of real and generated ones', () => {
    const sources: string[] = [];
    for (let i = 0; i < 60; i++) sources.push(generateArticle(7, i, 0).xml);
    if (haveJats) for (const f of readdirSync(JATS).filter((n) => /\.n?xml$/.test(n))) sources.push(readFileSync(join(JATS, f), 'utf8'));
    for (const xml of sources.slice(0, 60)) expect(expectSameTree(xml)).toBeGreaterThan(xml.length / 5);
    // Mutations: snippets that leave the subset or change the structure, inserted around and inside the cut regions.
    const snippets = ['<!--', '-->', '<![CDATA[', ']]>', '"', "'", '<', '>', '</ref>', '</back>', '</ref-list>', '<ref-list>', '<table>', '</table>', '<x a=b>', '<?', '<!-->', '</ >', '<p/>', '&amp;'];
    const random = mulberry32(21);
    let mutated = 0;
    for (let n = 0; n < 400; n++) {
      const xml = sources[Math.floor(random() * sources.length)]!;
      const anchor = xml.indexOf('<ref-list');
      // Half of the mutations land in or just before the reference list, where the cut is decided.
      const at = anchor >= 0 && random() < 0.5 ? anchor + Math.floor(random() * Math.min(4000, xml.length - anchor)) : Math.floor(random() * xml.length);
      const snippet = snippets[Math.floor(random() * snippets.length)]!;
      const m = random() < 0.1 ? xml.slice(0, at) : xml.slice(0, at) + snippet + xml.slice(at);
      expectSameTree(m, random() < 0.5 ? HOLLOW : HOLLOW_PEER_REVIEW, `mutation ${n}: ${JSON.stringify(snippet)} at ${at}`);
      mutated++;
    }
    expect(mutated).toBe(400);
  });
});
