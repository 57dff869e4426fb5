// The engine as a Web Worker script (dist/browser/kestrel-worker.js). Its
// first message decides what it is:
//   - a string: UCI over postMessage, as stockfish.js and Lozza do (each
//     message one or more command lines, each output line one message);
//   - { kestrelBoot: data }: the search worker (for the library's Engine or
//     a UCI worker) or one of its helper threads.

import { isBootMessage, setBootData, workerUciStream } from '../platform/browser.js';
import { runUci } from '../uci/uci.js';
import { runSearchWorker } from '../engine/search-worker.js';

const scope = globalThis as unknown as {
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
};

const first = (event: { data: unknown }): void => {
  scope.removeEventListener('message', first);
  if (isBootMessage(event.data)) {
    setBootData(event.data.kestrelBoot);
    runSearchWorker();
  } else {
    runUci(workerUciStream([event.data as string]));
  }
};
scope.addEventListener('message', first);
