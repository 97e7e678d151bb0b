/**
 * The extraction cache's own rules: entries survive between runs only once a run completes (`prune`), what a
 * dead run appended is dropped, a damaged entry is a miss, another lexicon is another key, and garbage is
 * compacted away once it outweighs the entries in use.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExtractedArticle } from '../../../pipeline/corpus/extract.ts';
import { ExtractionCache, readIndexLines } from '../../../pipeline/steps/corpus/extraction-cache.ts';
import type { FileListEntries } from '../../../pipeline/steps/corpus/file-lists.ts';
import { tempDir } from '../../helpers/fixture-build.ts';

const tmp = tempDir('extraction-cache');
afterAll(tmp.remove);

/** A stand-in extraction: the cache stores whatever JSON it is given. */
const article = (i: number) => ({ pmcid: `PMC${i}`, text: 'x'.repeat(200 + i) }) as unknown as ExtractedArticle;
const sha = (i: number) => String(i).padStart(64, '0');
const segments = (dir: string) => (existsSync(join(dir, 'segments')) ? readdirSync(join(dir, 'segments')).sort() : []);

describe('the extraction cache', () => {
  it('reads the lines of a segment index it wrote, and skips damaged ones', () => {
    const key = (c: string) => c.repeat(64);
    const text = [
      `${key('a')} 0 120 44`,
      `${key('b')} 121 7`, // an older index: no summary length
      `${key('c')} 9007199254740 1 0`,
      `${key('A')} 1 2 3`, // upper case: not written by the cache
      `${key('d').slice(2)} 1 2 3`, // short key
      `${key('e')} 1 2 3 4`, // a number too many
      `${key('f')} 1`, // too few
      `${key('0')} 1 x2 3`, // not digits
      `${key('1')}  1 2`, // two spaces
      '',
      `${key('9')} 5 6 7`, // the last line, without a line break
    ].join('\n');
    const got: [string, number, number, number][] = [];
    readIndexLines(Buffer.from(text), (k, o, l, s) => got.push([k.toString('hex'), o, l, s]));
    expect(got).toEqual([
      [key('a'), 0, 120, 44],
      [key('b'), 121, 7, 0],
      [key('c'), 9007199254740, 1, 0],
      [key('9'), 5, 6, 7],
    ]);
  });

  it('keeps entries of completed runs, drops a dead run, and keys by lexicon', () => {
    const dir = join(tmp.path, 'a');
    const run1 = new ExtractionCache(dir, 'lex-1');
    for (let i = 0; i < 5; i++) run1.putArticle(sha(i), article(i));
    expect(run1.getArticle(sha(2))).toEqual(article(2)); // readable within the run that wrote it
    run1.prune();

    const run2 = new ExtractionCache(dir, 'lex-1');
    expect(run2.getArticle(sha(4))).toEqual(article(4));
    expect(new ExtractionCache(dir, 'lex-2').getArticle(sha(4))).toBeNull();
    // A run that dies appends without an index: the next run ignores and removes what it wrote.
    run2.putArticle(sha(9), article(9));
    (run2 as unknown as { flush(): void }).flush();
    expect(segments(dir)).toHaveLength(3);
    const run3 = new ExtractionCache(dir, 'lex-1');
    expect(segments(dir)).toHaveLength(2);
    expect(run3.getArticle(sha(9))).toBeNull();
    expect(run3.getArticle(sha(0))).toEqual(article(0));
  });

  it('reads a summary alone where the index says its length, and the whole line from an older index', () => {
    const dir = join(tmp.path, 's');
    const run1 = new ExtractionCache(dir, 'lex');
    const summary = (i: number) => ({ pmcid: `PMC${i}`, summary: 'é'.repeat(i) }); // multi-byte: lengths are bytes
    for (let i = 0; i < 3; i++) run1.putArticle(sha(i), article(i), JSON.stringify(summary(i)));
    run1.putArticle(sha(3), { error: 'not an article' });
    run1.prune();
    const idx = join(
      dir,
      'segments',
      segments(dir).find((n) => n.endsWith('.idx'))!,
    );
    const lines = readFileSync(idx, 'utf8').trim().split('\n');
    expect(lines.map((l) => l.split(' ').length)).toEqual([4, 4, 4, 4]);
    const check = () => {
      const c = new ExtractionCache(dir, 'lex');
      for (let i = 0; i < 3; i++) {
        expect(c.getSummary(sha(i))).toEqual(summary(i));
        expect(c.loadArticle(sha(i))).toEqual(article(i));
      }
      expect(c.getSummary(sha(3))).toEqual({ error: 'not an article' });
      // Many at once, in the order asked (a miss is null).
      expect(c.getSummaries([sha(2), sha(9), sha(0), sha(3), sha(1)])).toEqual([summary(2), null, summary(0), { error: 'not an article' }, summary(1)]);
    };
    check();
    writeFileSync(idx, `${lines.map((l) => l.split(' ').slice(0, 3).join(' ')).join('\n')}\n`);
    check();
  });

  it("keeps a file list's rows under the list's hash, and drops those a run did not use", () => {
    const dir = join(tmp.path, 'f');
    let parsed = 0;
    const rows = (n: number): FileListEntries => [[`x/PMC${n}.nxml`, { pmcid: `PMC${n}`, pmid: null, licence: 'CC BY', updated: null }]];
    const parse = (n: number) => () => (parsed++, rows(n));
    const run1 = new ExtractionCache(dir, 'lex');
    expect(run1.fileList(sha(1), parse(1))).toEqual(rows(1));
    expect(run1.fileList(sha(2), parse(2))).toEqual(rows(2));
    expect(run1.fileList(undefined, parse(3))).toEqual(rows(3)); // no hash: parsed, not kept
    run1.prune();
    const run2 = new ExtractionCache(dir, 'lex');
    expect(run2.fileList(sha(1), parse(1))).toEqual(rows(1));
    expect(parsed).toBe(3);
    // What older code kept beside the cache for the next build goes at the end of a run.
    mkdirSync(join(dir, 'previous'));
    writeFileSync(join(dir, 'previous', 'corpus.sqlite'), 'a database');
    writeFileSync(join(dir, 'corpus-build.running-1'), '');
    run2.prune();
    expect(readdirSync(join(dir, 'filelists'))).toHaveLength(1);
    expect(readdirSync(dir).sort()).toEqual(['filelists']);
    expect(new ExtractionCache(null, 'lex').fileList(sha(1), parse(1))).toEqual(rows(1));
    expect(parsed).toBe(4);
  });

  it('gives every entry back whatever the order of the reads, within a run and after it (reads that follow each other are served from a window read ahead)', () => {
    const dir = join(tmp.path, 'order');
    // Entries of 0.2–6 KB, ~3 MB in all: several read-ahead windows, an entry across a window's end.
    const big = (i: number) => ({ pmcid: `PMC${i}`, text: `${i}:`.padEnd(200 + ((i * 7919) % 6000), 'é') }) as unknown as ExtractedArticle;
    const n = 900;
    const run1 = new ExtractionCache(dir, 'lex-1');
    for (let i = 0; i < n; i++) run1.putArticle(sha(i), big(i));
    // Within the run: part of the segment is still pending; reading flushes it.
    for (let i = 0; i < n; i += 3) expect(run1.loadArticle(sha(i)), `run 1, ${i}`).toEqual(big(i));
    run1.prune();
    const run2 = new ExtractionCache(dir, 'lex-1');
    const orders = [
      Array.from({ length: n }, (_, i) => i),
      Array.from({ length: n }, (_, i) => n - 1 - i),
      Array.from({ length: n }, (_, i) => (i * 389) % n),
      Array.from({ length: n }, (_, i) => i - (i % 2) * 1), // each entry twice in a row, then the next
    ];
    const window = () => (run2 as unknown as { window: { start: number; bytes: number } }).window;
    const starts = new Set<number>();
    for (const order of orders)
      for (const i of order) {
        expect(run2.loadArticleJson(sha(i)), `${i}`).toBe(JSON.stringify(big(i)));
        expect(run2.getSummary(sha(i))).toEqual(big(i));
        if (window().bytes > 0) starts.add(window().start);
      }
    // The reads in order were served from a few windows, not one read each.
    expect(starts.size).toBeGreaterThan(2);
    expect(starts.size).toBeLessThan(n / 10);
  });

  it('treats a damaged entry as a miss', () => {
    const dir = join(tmp.path, 'b');
    const run1 = new ExtractionCache(dir, 'lex');
    run1.putArticle(sha(1), article(1));
    run1.prune();
    const [jsonl] = segments(dir).filter((n) => n.endsWith('.jsonl'));
    writeFileSync(join(dir, 'segments', jsonl!), '{"broken');
    expect(new ExtractionCache(dir, 'lex').getArticle(sha(1))).toBeNull();
  });

  it('drops unused segments and compacts once garbage outweighs what is used', () => {
    const dir = join(tmp.path, 'c');
    const run1 = new ExtractionCache(dir, 'lex');
    for (let i = 0; i < 10; i++) run1.putArticle(sha(i), article(i));
    run1.prune();
    // Run 2 uses 2 of the 10 and adds 1: the old segment is mostly garbage, so it is rewritten.
    const run2 = new ExtractionCache(dir, 'lex');
    expect(run2.getArticle(sha(3))).toEqual(article(3));
    expect(run2.getArticle(sha(7))).toEqual(article(7));
    run2.putArticle(sha(10), article(10));
    run2.prune();
    expect(run2.stats.pruned).toBe(8);
    const run3 = new ExtractionCache(dir, 'lex');
    for (const i of [3, 7, 10]) expect(run3.getArticle(sha(i))).toEqual(article(i));
    for (const i of [0, 1, 9]) expect(run3.getArticle(sha(i))).toBeNull();
    expect(segments(dir)).toHaveLength(2); // one compacted segment and its index
    run3.prune();
    expect(new ExtractionCache(dir, 'lex').getArticle(sha(10))).toEqual(article(10));
    const run4 = new ExtractionCache(dir, 'lex');
    run4.prune(); // uses nothing: everything goes
    expect(segments(dir)).toEqual([]);
  });
});
