import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { README, renderReadme } from '../../scripts/snapshot-docs.ts';

describe('snapshots/README.md', () => {
  it('documents every column of every table as the specs declare them (run `npm run docs:snapshot` to update)', () => {
    const current = readFileSync(README, 'utf8');
    expect(renderReadme(current)).toBe(current);
  });
});
