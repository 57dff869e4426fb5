// Entry of the helper threads' bundle: scripts/build.mjs bundles it (without
// the built-in network, which helpers are given, and without the command
// line) and builds its text into each Node.js bundle as KESTREL_HELPER_SOURCE,
// which the search's thread pool starts helpers from. A helper then loads
// about a fifth of the engine's code: a search may start dozens of them.

import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { runSearchHelper } from '../engine/helper.js';
import type { SearchWorkerData } from '../engine/messages.js';
import type { ParentPort } from '../platform/types.js';

const data = workerData as SearchWorkerData;
runSearchHelper(data, parentPort as unknown as ParentPort | null);
// More threads than cores: this one yields to the main searcher and the UCI
// loop. (On Linux a thread's niceness is its own: pid 0 is this thread.)
const nice = data.helper?.nice ?? 0;
if (nice > 0) {
  try {
    setPriority(0, nice);
  } catch {
    // Not allowed here: the helper keeps the process's priority.
  }
}
