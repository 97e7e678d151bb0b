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

/** The server's event-loop delay since the previous reading (perf_hooks.monitorEventLoopDelay), ms. */
export interface LoopReading {
  p50: number;
  p99: number;
  max: number;
}

export interface Inspector {
  /** Full collection (HeapProfiler.collectGarbage), then the process's own process.memoryUsage(). */
  collectedMemory(): Promise<MemoryReading>;
  /** Starts an event-loop delay histogram inside the process (10 ms resolution). */
  watchLoop(): Promise<void>;
  /** The histogram's figures since the last call, then resets it. */
  loop(): Promise<LoopReading>;
  /** Starts V8's sampling CPU profiler in the process. */
  startProfile(): Promise<void>;
  /** Stops it and returns the profile (the .cpuprofile JSON Chrome DevTools opens). */
  stopProfile(): Promise<unknown>;
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
    async watchLoop() {
      await call('Runtime.evaluate', {
        expression:
          "globalThis.__benchLoop = process.getBuiltinModule('node:perf_hooks').monitorEventLoopDelay({ resolution: 10 }); globalThis.__benchLoop.enable(); 1",
      });
    },
    async loop() {
      const r = (await call('Runtime.evaluate', {
        expression:
          '(() => { const h = globalThis.__benchLoop; const v = JSON.stringify({ p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 }); h.reset(); return v; })()',
        returnByValue: true,
      })) as { result: { value: string } };
      return JSON.parse(r.result.value) as LoopReading;
    },
    async startProfile() {
      await call('Profiler.enable');
      await call('Profiler.setSamplingInterval', { interval: 1000 });
      await call('Profiler.start');
    },
    async stopProfile() {
      return ((await call('Profiler.stop')) as { profile: unknown }).profile;
    },
    close: () => socket.close(),
  };
}
