import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../api-dynamic/src/config.ts';
import { FROZEN_ROUTES } from '../../api-dynamic/src/routes/frame/index.ts';

const ROOT = join(import.meta.dirname, '../..');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

describe('docs cover what the code offers', () => {
  it('every frame route has a heading in docs/api-frame.md', () => {
    const doc = read('docs/api-frame.md');
    for (const path of [
      ...FROZEN_ROUTES,
      'works/{id}',
      'screened',
      'network',
      'cohort',
      'cohort/facets',
      'cohort/export',
      'permalink/{hash}',
      'permalink/{hash}/changes',
      'snapshots',
      'works',
      'facets/venue',
      'facets/topic',
      'facets/author',
      'recent',
      'recent/{id}',
    ])
      expect(doc, path).toContain(`## GET /${path}\n`);
    expect(doc).toContain('## POST /permalink\n');
  });

  it('every corpus route has a heading in docs/api-corpus.md', async () => {
    const { CORPUS_RESPONSES } = await import('../../contracts/corpus/responses.ts');
    const doc = read('docs/api-corpus.md');
    for (const path of Object.keys(CORPUS_RESPONSES)) expect(doc, path).toContain(`## GET ${path.replace('/api/v1', '')}\n`);
  });

  it('every configuration key has a heading in docs/configuration.md and a line in .env.example', () => {
    const doc = read('docs/configuration.md');
    const env = read('.env.example');
    for (const key of Object.keys(configSchema.shape)) {
      expect(doc, key).toMatch(new RegExp(`^## .*\\b${key}\\b`, 'm'));
      expect(env, key).toMatch(new RegExp(`^${key}=`, 'm'));
    }
  });
});
