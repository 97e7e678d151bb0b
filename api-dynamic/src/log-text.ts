/**
 * Readable log lines for a person at a terminal (LOG_FORMAT, docs/configuration.md). pino writes one JSON
 * object a line; this stream rewrites each as `time LEVEL message key=value…`, and folds Fastify's two lines a
 * request ("incoming request", then "request completed" or "request errored") into one:
 * `time INFO GET /frame/stats 200 1.2 ms`. An error's stack follows on indented lines. A line that is not
 * pino's JSON passes through unchanged.
 */
import type { DestinationStream } from 'pino';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** pino's own fields and Fastify's request and reply objects: shown in the line's head or folded, not as key=value. */
const HEAD = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime', 'err']);
/** Requests in flight whose "incoming" line waits for its "completed" line; the oldest go past this many. */
const PENDING_MAX = 10_000;

type Entry = Record<string, unknown> & { level?: number; time?: number; msg?: string; reqId?: string };

const value = (v: unknown) => (typeof v === 'string' && /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v));

/** A formatter with its own memory of the requests in flight: each JSON line in, a readable line (or nothing) out. */
export function textLines(): (entry: Entry) => string | null {
  const pending = new Map<string, string>();
  return (o) => {
    const req = o.req as { method?: string; url?: string } | undefined;
    if (o.msg === 'incoming request' && o.reqId && req) {
      if (pending.size >= PENDING_MAX) pending.delete(pending.keys().next().value!);
      pending.set(o.reqId, `${req.method} ${req.url}`);
      return null;
    }
    const time = typeof o.time === 'number' ? new Date(o.time).toISOString().slice(11, 23) : '';
    const level = LEVELS[o.level ?? 30] ?? String(o.level);
    const request = o.reqId ? pending.get(o.reqId) : undefined;
    const res = o.res as { statusCode?: number } | undefined;
    let head: string;
    if ((o.msg === 'request completed' || o.msg === 'request errored') && o.reqId) {
      pending.delete(o.reqId);
      const ms = typeof o.responseTime === 'number' ? ` ${o.responseTime.toFixed(1)} ms` : '';
      head = `${request ?? `request ${o.reqId}`} ${res?.statusCode ?? ''}${ms}${o.msg === 'request errored' ? ' (errored)' : ''}`;
    } else head = `${request ? `[${request}] ` : ''}${o.msg ?? ''}`;
    const rest = Object.entries(o)
      .filter(([k, v]) => !HEAD.has(k) && v !== undefined)
      .map(([k, v]) => ` ${k}=${value(v)}`)
      .join('');
    const err = o.err as { message?: string; stack?: string } | undefined;
    const stack = err ? `\n  ${(err.stack ?? err.message ?? JSON.stringify(err)).split('\n').join('\n  ')}` : '';
    return `${time} ${level.padEnd(5)} ${head}${rest}${stack}`;
  };
}

/** A pino destination writing readable lines to `out` (standard output by default). */
export function textLogStream(out: { write(s: string): unknown } = process.stdout): DestinationStream {
  const format = textLines();
  return {
    write(line: string) {
      let entry: Entry;
      try {
        entry = JSON.parse(line) as Entry;
      } catch {
        out.write(line);
        return;
      }
      const text = format(entry);
      if (text !== null) out.write(`${text}\n`);
    },
  };
}

/** Whether the logs are text: LOG_FORMAT=text, or auto with standard output a terminal. */
export function logsAsText(format: 'auto' | 'json' | 'text', stdoutIsTty = process.stdout.isTTY === true): boolean {
  return format === 'text' || (format === 'auto' && stdoutIsTty);
}
