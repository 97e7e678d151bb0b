/** Network helpers for tests that start servers on loopback. */
import { createServer } from 'node:net';

/** A port nothing listens on right now (the OS picks it; the probe is closed before the caller binds it). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
