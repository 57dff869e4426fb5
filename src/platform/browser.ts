// The engine in a browser: Web Workers, files fetched by URL, UCI over
// postMessage. The build (scripts/build.mjs) puts this file in place of
// node.ts for the browser bundles.
//
// Every worker runs one script, dist/browser/kestrel-worker.js, and learns
// its job from its first message: a string is UCI (a page that talks UCI
// to the worker, as to stockfish.js), an object { kestrelBoot: data } makes
// it the search worker (or one of its helpers) with that data. Nested
// workers (the search worker's, started from the UCI worker, and the
// helpers) run the same script again (self.location).
//
// Threads share memory only where the page is cross-origin isolated (see
// docs/browser.md); elsewhere there is no SharedArrayBuffer and the engine
// uses one thread (src/search/shared-memory.ts).

import type { EngineWorker, ParentPort, Platform, RandomAccessFile, UciStream } from './types.js';

/** BookFile's value (and the name in messages) for the shipped book. */
const BUILT_IN = '<built-in>';
/** A browser tab holds less than a process: the hash is capped at this many MB. */
const MAX_HASH_MB = 256;

/** What a worker global scope offers (typed here: the project's types are Node's and the DOM's). */
interface WorkerScope {
  postMessage(message: unknown): void;
  addEventListener(type: string, listener: (event: { data?: unknown; reason?: unknown; error?: unknown }) => void): void;
  removeEventListener(type: string, listener: (event: { data?: unknown }) => void): void;
  close(): void;
  location: { href: string };
}

const scope = globalThis as unknown as WorkerScope;
const inWorker = typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === 'function';

/** The boot message that makes a worker the search worker (or a helper). */
export interface BootMessage {
  kestrelBoot: { kestrelRole: string };
}

export function isBootMessage(data: unknown): data is BootMessage {
  return data !== null && typeof data === 'object' && 'kestrelBoot' in data;
}

let bootData: { kestrelRole: string } | null = null;
/** The page's way to start a worker (the library's default, or workerUrl). */
let workerFactory: (() => Worker) | null = null;
let bookUrl: string | null = null;

/** A worker's first message was a boot message: it now has this role and data. */
export function setBootData(data: { kestrelRole: string }): void {
  bootData = data;
}

/** The page: workers start through factory (the library passes one that bundlers can follow). */
export function setWorkerFactory(factory: () => Worker): void {
  workerFactory = factory;
}

/** Where the shipped book is fetched from (default: books/kestrel.bin of the package, next to the worker). */
export function setBookUrl(url: string | URL): void {
  bookUrl = String(url);
}

function shippedBookUrl(): string {
  if (bookUrl !== null) return bookUrl;
  if (inWorker) return new URL('../../books/kestrel.bin', scope.location.href).href;
  throw new Error('the shipped book has no URL here: use Book.load(url)');
}

function newWorker(): Worker {
  if (inWorker) return new Worker(scope.location.href);
  if (workerFactory !== null) return workerFactory();
  throw new Error('no worker script: pass workerUrl (the URL of kestrel-worker.js)');
}

/** Node's Worker interface over a Web Worker. A Web Worker has no exit event: an uncaught error ends it here. */
function adapt(worker: Worker): EngineWorker {
  const listeners = {
    message: [] as Array<(m: never) => void>,
    error: [] as Array<(e: unknown) => void>,
    exit: [] as Array<(c: number) => void>,
  };
  let ended = false;
  worker.onmessage = (event) => {
    for (const l of listeners.message) l(event.data as never);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    if (ended) return;
    ended = true;
    const message = event.message || 'the worker script could not be loaded or failed';
    for (const l of listeners.error) l(new Error(message));
    worker.terminate();
    for (const l of listeners.exit) l(1);
  };
  const adapter: EngineWorker = {
    postMessage: (message) => worker.postMessage(message),
    on: (event: 'message' | 'error' | 'exit', listener: (arg: never) => void) => {
      (listeners[event] as Array<(arg: never) => void>).push(listener);
      return adapter;
    },
    terminate: () => {
      ended = true;
      worker.terminate();
      return Promise.resolve();
    },
    unref: () => {},
    ref: () => {},
  };
  return adapter;
}

/** Fetches a URL synchronously: only a worker may (the UCI options BookFile and EvalFile name URLs in a browser). */
function fetchSync(url: string): Uint8Array {
  if (!inWorker) throw new Error(`a page cannot read ${url} synchronously; load it with fetch() first`);
  const request = new XMLHttpRequest();
  request.open('GET', new URL(url, scope.location.href).href, false);
  request.responseType = 'arraybuffer';
  request.send();
  if (request.status !== 200 && request.status !== 0) {
    const error = new Error(`HTTP ${request.status} for ${url}`) as Error & { code?: string };
    if (request.status === 404) error.code = 'ENOENT';
    throw error;
  }
  return new Uint8Array(request.response as ArrayBuffer);
}

function fileOf(bytes: Uint8Array): RandomAccessFile {
  return {
    size: bytes.length,
    isFile: true,
    read: (into, offset, length, position) => {
      const part = bytes.subarray(position, Math.min(bytes.length, position + length));
      into.set(part, offset);
      return part.length;
    },
    close: () => {},
  };
}

async function loadFile(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** The UCI stream of a worker: each message in is one or more lines, each line out one message (as stockfish.js does). */
export function workerUciStream(pending: readonly string[] = []): UciStream {
  return {
    write: (chunk, done) => {
      const lines = chunk.split('\n');
      if (lines.at(-1) === '') lines.pop();
      for (const line of lines) scope.postMessage(line);
      done();
    },
    start: (handlers) => {
      const take = (data: unknown): void => {
        if (typeof data !== 'string') return;
        for (const line of data.split(/\r?\n/)) handlers.line(line);
      };
      for (const data of pending) take(data);
      scope.addEventListener('message', (event) => take(event.data));
      scope.addEventListener('error', (event) => handlers.fault(event.error ?? 'error'));
      scope.addEventListener('unhandledrejection', (event) => handlers.fault(event.reason));
    },
    exit: () => scope.close(),
  };
}

export const platform: Platform = {
  name: 'browser',
  startWorker: (_moduleUrl, data) => {
    const worker = adapt(newWorker());
    worker.postMessage({ kestrelBoot: data } satisfies BootMessage);
    return worker;
  },
  workerRole: () => (inWorker && bootData !== null ? bootData.kestrelRole : null),
  workerData: () => bootData ?? undefined,
  parentPort: (): ParentPort | null =>
    inWorker && bootData !== null
      ? {
          postMessage: (message) => scope.postMessage(message),
          on: (_event: 'message', listener: (message: never) => void) => {
            scope.addEventListener('message', (event) => {
              if (!isBootMessage(event.data)) listener(event.data as never);
            });
          },
        }
      : null,
  cores: typeof navigator === 'object' && navigator.hardwareConcurrency > 0 ? navigator.hardwareConcurrency : 1,
  canWaitForWorkers: false,
  maxHashMb: MAX_HASH_MB,
  memoryMb: null,
  soon: (fn) => {
    setTimeout(fn, 0);
  },
  openFile: (path) => fileOf(fetchSync(path)),
  readFile: fetchSync,
  listFolder: () => {
    throw new Error('a browser has no folders to read (tablebases are not offered there)');
  },
  pathListSeparator: ':',
  shippedBook: () => ({
    name: BUILT_IN,
    embedded: true,
    bytes: () => fetchSync(shippedBookUrl()),
    load: () => loadFile(shippedBookUrl()),
  }),
  loadFile,
  uciStream: () => workerUciStream(),
  tuneCompiler: () => {},
  setWorkerUrl: (url) => {
    const href = String(url);
    workerFactory = () => new Worker(href);
  },
};
