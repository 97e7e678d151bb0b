/**
 * A DevTools-protocol client for a server started with `--inspect=127.0.0.1:<port>`, for the soak's memory
 * readings: a full garbage collection first, so a reading is the memory the process keeps, not where V8's
 * sawtooth of not-yet-collected garbage happens to be (on a busy server that swings by hundreds of MiB).
 */
import WebSocket from 'ws';

export interface MemoryReading {
  /** From /proc and process.memoryUsage(), MiB. */
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

export interface Inspector {
  /** Full collection (HeapProfiler.collectGarbage), then the process's own process.memoryUsage(). */
  collectedMemory(): Promise<MemoryReading>;
  close(): void;
}

export async function connectInspector(port: number): Promise<Inspector> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise<void>((ok, fail) => {
    socket.once('open', () => ok());
    socket.once('error', fail);
  });
  let nextId = 1;
  const pending = new Map<number, { ok: (v: unknown) => void; fail: (e: Error) => void }>();
  socket.on('message', (data) => {
    const msg = JSON.parse(String(data)) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
    };
    const waiter = msg.id === undefined ? undefined : pending.get(msg.id);
    if (!waiter) return;
    pending.delete(msg.id!);
    if (msg.error) waiter.fail(new Error(msg.error.message));
    else waiter.ok(msg.result);
  });
  const call = (method: string, params: object = {}) =>
    new Promise<unknown>((ok, fail) => {
      const id = nextId++;
      pending.set(id, { ok, fail });
      socket.send(JSON.stringify({ id, method, params }));
    });
  const mib = (n: number) => n / 2 ** 20;
  return {
    async collectedMemory() {
      await call('HeapProfiler.collectGarbage');
      const r = (await call('Runtime.evaluate', {
        expression: 'JSON.stringify(process.memoryUsage())',
        returnByValue: true,
      })) as { result: { value: string } };
      const m = JSON.parse(r.result.value) as NodeJS.MemoryUsage;
      return {
        rss: mib(m.rss),
        heapUsed: mib(m.heapUsed),
        heapTotal: mib(m.heapTotal),
        external: mib(m.external),
        arrayBuffers: mib(m.arrayBuffers),
      };
    },
    close: () => socket.close(),
  };
}
