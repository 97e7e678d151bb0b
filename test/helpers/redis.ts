/**
 * A real redis-server for the tests that need one: started per test file on a free local port, without
 * persistence, and stopped by the file. A file's Redis tests run when `needProgram('redis-server', …)`
 * (needs.ts) says so: skipped with the reason in the run's summary when it is missing, a failure on CI.
 */
export { freePort } from './net.ts';
export { onCi } from './needs.ts';
export { type RunningRedis, startRedis } from './redis-server.ts';
