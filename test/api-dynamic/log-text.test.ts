/**
 * LOG_FORMAT: readable lines on a terminal, JSON otherwise. A real Fastify with pino writes through
 * textLogStream; the lines are compared with the requests that were sent.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../api-dynamic/src/config.ts';
import { logsAsText, textLogStream } from '../../api-dynamic/src/log-text.ts';

async function appWritingTo(lines: string[]) {
  const app = Fastify({
    logger: { level: 'info', stream: textLogStream({ write: (s: string) => lines.push(...s.split(/\n(?=\S)/).map((l) => l.replace(/\n$/, ''))) }) },
  });
  app.get('/ok', async () => ({ ok: true }));
  app.get('/boom', async () => {
    throw new Error('it broke');
  });
  app.get('/note', async (request) => {
    request.log.warn({ snapshot: 'sample-1', rows: 3, words: 'two words' }, 'a note');
    return 'noted';
  });
  await app.ready();
  return app;
}

const TIME = String.raw`\d\d:\d\d:\d\d\.\d{3}`;

describe('text logs', () => {
  it('one line a request: method, path, status and time, at the level Fastify gave it', async () => {
    const lines: string[] = [];
    const app = await appWritingTo(lines);
    await app.inject('/ok?x=1');
    await app.inject({ method: 'POST', url: '/ok' });
    await app.inject('/note');
    await app.close();
    expect(lines[0]).toMatch(new RegExp(`^${TIME} INFO  GET /ok\\?x=1 200 \\d+\\.\\d ms$`));
    // A line logged inside a request names it; the other fields follow as key=value, quoted when they must be.
    expect(lines[1]).toMatch(new RegExp(`^${TIME} INFO  \\[POST /ok\\] Route POST:/ok not found$`));
    expect(lines[2]).toMatch(new RegExp(`^${TIME} INFO  POST /ok 404 \\d+\\.\\d ms$`));
    expect(lines[3]).toMatch(new RegExp(`^${TIME} WARN  \\[GET /note\\] a note snapshot=sample-1 rows=3 words="two words"$`));
    expect(lines[4]).toMatch(new RegExp(`^${TIME} INFO  GET /note 200 \\d+\\.\\d ms$`));
    expect(lines).toHaveLength(5);
    expect(lines.some((l) => l.includes('incoming request'))).toBe(false);
  });

  it('an error shows its message and its stack on indented lines', async () => {
    const lines: string[] = [];
    const app = await appWritingTo(lines);
    await app.inject('/boom');
    await app.close();
    const error = lines.find((l) => l.includes('it broke'))!;
    expect(error).toMatch(new RegExp(`^${TIME} ERROR \\[GET /boom\\] it broke\\n  Error: it broke\\n {6}at `));
    expect(lines.at(-1)).toMatch(new RegExp(`^${TIME} INFO  GET /boom 500 \\d+\\.\\d ms$`));
  });

  it('passes a line that is not JSON through unchanged', () => {
    const out: string[] = [];
    textLogStream({ write: (s: string) => out.push(s) }).write('plain words\n');
    expect(out).toEqual(['plain words\n']);
  });

  it('LOG_FORMAT: auto follows the terminal, json and text always; anything else is refused', () => {
    expect(logsAsText('auto', true)).toBe(true);
    expect(logsAsText('auto', false)).toBe(false);
    expect(logsAsText('json', true)).toBe(false);
    expect(logsAsText('text', false)).toBe(true);
    const base = { BUILD_OUTPUT: '/nonexistent', SITE_DIR: '/nonexistent' };
    expect(loadConfig(base).LOG_FORMAT).toBe('auto');
    expect(loadConfig({ ...base, LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
    expect(() => loadConfig({ ...base, LOG_FORMAT: 'pretty' })).toThrow(/LOG_FORMAT/);
  });
});
