// A media worker's first module: registers the TypeScript loader the server runs under (`node --import tsx`), which a
// worker thread does not inherit, then loads the worker itself.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
