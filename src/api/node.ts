// The library's entry for Node.js (dist/node/index.js). Its search workers
// run a bundle of their own (dist/node/worker.js); a bundle of this entry
// built without that file runs them from itself, so importing the search
// worker module starts the worker body when this thread is one
// (engine/search-worker.ts).

import '../engine/search-worker.js';

export * from './index.js';
