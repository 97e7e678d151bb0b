/** Identifier recognition (fair.md §2.1): forms, schemes, persistence, the URL to resolve, and refusals. */
import { describe, expect, it } from 'vitest';
import { ResolutionFailedError } from '../../../../api-dynamic/src/services/fair/engine/errors.ts';
import { extractDoi, fetchableUrl, parseIdentifier, tryParseIdentifier } from '../../../../api-dynamic/src/services/fair/engine/identifier.ts';

describe('DOIs', () => {
  it.each([
    '10.5281/zenodo.8347772',
    'doi:10.5281/zenodo.8347772',
    'https://doi.org/10.5281/zenodo.8347772',
    'http://dx.doi.org/10.5281/zenodo.8347772',
    'urn:doi:10.5281/zenodo.8347772',
    '  DOI: 10.5281/zenodo.8347772 ',
  ])('%s normalises to the doi.org URL', (input) => {
    const id = parseIdentifier(input);
    expect(id.normalized).toBe('https://doi.org/10.5281/zenodo.8347772');
    expect(id.scheme).toBe('doi');
    expect(id.persistent).toBe(true);
    expect(id.url).toBe('https://doi.org/10.5281/zenodo.8347772');
    expect(id.input).toBe(input.trim());
  });

  it('resolves through the configured resolver and decodes a percent-encoded DOI URL', () => {
    const id = parseIdentifier('https://doi.org/10.1594%2FPANGAEA.902845', {
      doi: 'http://127.0.0.1:1/doi.org',
      handle: 'x',
      ark: 'x',
      nbn: 'x',
      identifiersOrg: 'x',
    });
    expect(id.url).toBe('http://127.0.0.1:1/doi.org/10.1594/PANGAEA.902845');
    expect(id.schemes).toEqual(['doi', 'handle', 'url']);
  });

  it('extracts DOIs from DOI strings only', () => {
    expect(extractDoi('doi:10.1000/xyz')).toBe('10.1000/xyz');
    expect(extractDoi('https://example.org/10.1000/xyz')).toBeNull();
  });
});

describe('other PIDs', () => {
  it.each([
    ['hdl:11858/00-1734-0000-0003-EE73-2', 'handle', 'https://hdl.handle.net/11858/00-1734-0000-0003-EE73-2'],
    ['https://hdl.handle.net/11858/00-1734-0000-0003-EE73-2', 'handle', 'https://hdl.handle.net/11858/00-1734-0000-0003-EE73-2'],
    ['11858/00-1734-0000-0003-EE73-2', 'handle', 'https://hdl.handle.net/11858/00-1734-0000-0003-EE73-2'],
    ['ark:/13030/tf5p30086k', 'ark', 'https://n2t.net/ark:/13030/tf5p30086k'],
    ['ark:13030/tf5p30086k', 'ark', 'https://n2t.net/ark:/13030/tf5p30086k'],
    ['ark://13030/tf5p30086k', 'ark', 'https://n2t.net/ark:/13030/tf5p30086k'],
    ['https://n2t.net/ark:/13030/tf5p30086k', 'ark', 'https://n2t.net/ark:/13030/tf5p30086k'],
    ['urn:nbn:de:kobv:83-opus-12345', 'urn', 'https://nbn-resolving.org/urn:nbn:de:kobv:83-opus-12345'],
    ['https://nbn-resolving.org/urn:nbn:de:kobv:83-opus-12345', 'urn', 'https://nbn-resolving.org/urn:nbn:de:kobv:83-opus-12345'],
    ['https://w3id.org/example/thing', 'w3id', 'https://w3id.org/example/thing'],
    ['http://purl.org/example/x', 'purl', 'http://purl.org/example/x'],
    ['https://identifiers.org/chebi/CHEBI:36927', 'chebi', 'https://identifiers.org/chebi:CHEBI:36927'],
    ['https://identifiers.org/taxonomy:9606', 'taxonomy', 'https://identifiers.org/taxonomy:9606'],
    ['pubmed:12345', 'pubmed', 'https://identifiers.org/pubmed:12345'],
  ])('%s is a persistent %s resolved at %s', (input, scheme, url) => {
    const id = parseIdentifier(input);
    expect(id.scheme).toBe(scheme);
    expect(id.persistent).toBe(true);
    expect(id.url).toBe(url);
  });

  it('rewrites purl.archive.org to purl.org', () => {
    expect(parseIdentifier('https://purl.archive.org/x/y').url).toBe('https://purl.org/x/y');
  });

  it('normalises ARKs to ark:/', () => {
    expect(parseIdentifier('ark:13030/tf5p30086k').normalized).toBe('ark:/13030/tf5p30086k');
  });
});

describe('unique but not persistent', () => {
  it('a plain URL is unique, not persistent', () => {
    const id = parseIdentifier('https://example.org/dataset/42');
    expect(id).toMatchObject({ scheme: 'url', persistent: false, url: 'https://example.org/dataset/42' });
  });

  it.each([
    ['550e8400-e29b-41d4-a716-446655440000', 'uuid'],
    ['d41d8cd98f00b204e9800998ecf8427e', 'hash'],
  ])('%s is a %s: recognised, but has no resolver (422)', (input, scheme) => {
    expect(tryParseIdentifier(input)).toMatchObject({ scheme, persistent: false, url: null });
    expect(() => parseIdentifier(input)).toThrow(ResolutionFailedError);
    try {
      parseIdentifier(input);
    } catch (error) {
      expect(error).toMatchObject({ reason: 'no_resolver', code: 'RESOLUTION_FAILED', identifier: input });
    }
  });

  it('a URN outside urn:nbn has no resolver', () => {
    expect(() => parseIdentifier('urn:isbn:0451450523')).toThrow(/no web resolver/);
  });
});

describe('refusals', () => {
  it.each(['', '   ', 'not an identifier', 'ftp://example.org/data.csv', 'file:///etc/passwd'])('%j is unparseable and the message names it', (input) => {
    expect(tryParseIdentifier(input)).toBeNull();
    expect(() => parseIdentifier(input)).toThrow(ResolutionFailedError);
    try {
      parseIdentifier(input);
    } catch (error) {
      expect((error as ResolutionFailedError).reason).toBe('unparseable');
      expect((error as ResolutionFailedError).message).toContain(`"${input}"`);
    }
  });
});

describe('fetchableUrl', () => {
  const resolvers = { doi: 'http://mock/doi.org', handle: 'http://mock/hdl', ark: 'x', nbn: 'x', identifiersOrg: 'x' };
  it('sends DOI and Handle URLs through the configured resolvers, leaves others alone', () => {
    expect(fetchableUrl('https://doi.org/10.1/x', resolvers)).toBe('http://mock/doi.org/10.1/x');
    expect(fetchableUrl('https://hdl.handle.net/11858/x', resolvers)).toBe('http://mock/hdl/11858/x');
    expect(fetchableUrl('https://example.org/10.1/x', resolvers)).toBe('https://example.org/10.1/x');
  });
});
