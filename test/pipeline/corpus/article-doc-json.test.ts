/**
 * An article document written as text from its extraction's JSON (documents.ts: `articleDocJson`): the meta
 * goes last, and the check refuses a document the schema would refuse or write differently.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { articleDocSchema } from '../../../contracts/corpus/documents.ts';
import { extractArticle } from '../../../pipeline/corpus/extract.ts';
import { parseArticle } from '../../../pipeline/corpus/jats.ts';
import { compileLexicon, loadLexicon } from '../../../pipeline/corpus/lexicon.ts';
import { articleDocJson } from '../../../pipeline/steps/corpus/documents.ts';
import { needShared, sharedPath } from '../../helpers/needs.ts';

const REAL = sharedPath('reference/hedged/jats');
const haveReal = needShared('reference/hedged/jats', 'the tests on the real reference articles');
const meta = { snapshot: 's', lexicon_version: 'v', synthetic: false };
const metaJson = JSON.stringify(meta);

describe.skipIf(!haveReal)('articleDocJson on the real reference articles', () => {
  it('is the text of the schema-checked document', () => {
    const matcher = compileLexicon(loadLexicon());
    const names = readdirSync(REAL).filter((n) => /\.n?xml$/.test(n));
    for (const n of names) {
      const a = extractArticle(parseArticle(readFileSync(join(REAL, n))), matcher);
      const json = articleDocJson(JSON.stringify(a), metaJson, true);
      expect(json, n).toBe(JSON.stringify(articleDocSchema.parse({ ...a, meta })));
    }
  });
});

describe('articleDocJson check', () => {
  const article = {
    pmcid: 'PMC1',
    id_kind: 'pmcid',
    pmid: null,
    doi: null,
    title: 'T',
    journal: null,
    year: 2020,
    authors: [],
    article_type: null,
    licence: null,
    links: { pmc: null, doi: null },
    sentences_scanned: 1,
    excerpt_count: 0,
    occurrences: { verified: 0, rejected: 0, unverified: 0, indeterminate: 0 },
    excerpts: [],
  };
  it('passes a document in the schema form, and appends the meta last', () => {
    expect(articleDocJson(JSON.stringify(article), metaJson, true)).toBe(JSON.stringify({ ...article, meta }));
  });
  it('refuses a value the schema refuses, and members in another order, when checking', () => {
    expect(() => articleDocJson(JSON.stringify({ ...article, year: 2020.5 }), metaJson, true)).toThrow(/does not match its schema/);
    const { pmcid, ...rest } = article;
    expect(() => articleDocJson(JSON.stringify({ ...rest, pmcid }), metaJson, true)).toThrow(/not in its schema's form/);
    // Not checked: written as given (the step checks one article in ARTICLE_CHECK_EVERY).
    expect(articleDocJson(JSON.stringify({ ...article, year: 2020.5 }), metaJson, false)).toContain('2020.5');
  });
});
