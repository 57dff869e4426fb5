// The library's entry for browsers (dist/browser/index.js): the same API as
// in Node.js. The engine runs in Web Workers started from kestrel-worker.js,
// found beside this file; bundlers (Vite, webpack) follow the
// `new Worker(new URL(...))` below and emit the worker (docs/browser.md).

import { setBookUrl, setWorkerFactory } from '../platform/browser.js';

setWorkerFactory(() => new Worker(new URL('./kestrel-worker.js', import.meta.url)));
setBookUrl(new URL('../../books/kestrel.bin', import.meta.url));

export * from '../api/index.js';
