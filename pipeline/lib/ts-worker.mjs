// Bootstrap for worker threads that run TypeScript modules: registers tsx's loader in this thread, then
// loads the entry module named in workerData. (`execArgv: ['--import', 'tsx']` does not reach workers on
// Node 20, so the loader is registered here instead.)
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
