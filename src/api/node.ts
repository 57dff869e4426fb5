// The library's entry for Node.js (dist/node/index.js). The engine's search
// worker runs this same file: importing the search worker module starts the
// worker body when this thread is one (engine/search-worker.ts).

import '../engine/search-worker.js';

export * from './index.js';
