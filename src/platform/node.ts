// The engine on Node.js: worker_threads, files, stdin/stdout. It also serves
// the single executable (src/cli/sea-main.ts), which has no JavaScript file
// on disk: there workers start from the embedded source and the shipped book
// is embedded too (useEmbedded()).
//
// A worker runs the same code as the process that starts it: in a bundle
// (dist/kestrel.js, dist/node/index.js) the bundle file itself, whose entry
// asks workerRole() what to run; under tsx (development) the module that
// asked, which starts its worker body when it sees its role.

import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { availableParallelism, totalmem } from 'node:os';
import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { THREAD_TABLES_GLOBAL, threadTables } from '../util/thread-tables.js';
import type { EngineWorker, ParentPort, Platform, RandomAccessFile, UciStream } from './types.js';

/** BookFile's value (and the name in messages) for a book built into the program. */
const BUILT_IN = '<built-in>';
const SHIPPED_BOOK_NAME = 'kestrel.bin';
/**
 * The UCI option's range: the transposition table's largest (128 GiB,
 * src/search/tt.ts), in segments of 4 GiB. Whether the memory is there is
 * found when it is asked for: a resize that cannot get it keeps the table.
 */
const MAX_HASH_MB = 131072;

/** What the single executable carries instead of files. */
interface Embedded {
  /** The engine's code, run by every worker. */
  workerSource: () => string;
  /** The shipped book. */
  book: () => Uint8Array;
}

let embedded: Embedded | null = null;

/** The single executable: workers run `workerSource`, and the shipped book is `book`. */
export function useEmbedded(source: Embedded): void {
  embedded = source;
}

/** The role a worker was started in (workerData.kestrelRole), or null on the main thread. */
export function workerRole(): string | null {
  if (isMainThread) return null;
  const data = workerData as { kestrelRole?: unknown } | null | undefined;
  return data !== null && typeof data === 'object' && typeof data.kestrelRole === 'string' ? data.kestrelRole : null;
}

/**
 * The first statement of a worker: hands the thread tables it was started
 * with (workerData) to the engine's modules before any of them loads
 * (src/util/thread-tables.ts).
 */
const TABLES_PROLOGUE = `globalThis[${JSON.stringify(THREAD_TABLES_GLOBAL)}] = require('node:worker_threads').workerData[${JSON.stringify(THREAD_TABLES_GLOBAL)}];`;

/** Source code to run in a worker: source with TABLES_PROLOGUE first (after a `#!` line, which must stay first). */
function withPrologue(source: string): string {
  if (!source.startsWith('#!')) return `${TABLES_PROLOGUE}\n${source}`;
  const end = source.indexOf('\n') + 1;
  return `${source.slice(0, end)}${TABLES_PROLOGUE}\n${source.slice(end)}`;
}

/** Where a worker started from a source finds it and its code cache in workerData. */
const SOURCE_KEY = 'kestrelSource';
const CODE_CACHE_KEY = 'kestrelCodeCache';

/**
 * A worker's first code when it runs a source of its own: the source
 * compiled with the code cache made from it once per process (its helpers
 * start by the dozen), then run as a script (CommonJS: `require` is global
 * in a worker's eval code).
 */
const SOURCE_BOOT = `${TABLES_PROLOGUE}
const { workerData: kestrelData } = require('node:worker_threads');
new (require('node:vm').Script)(kestrelData.${SOURCE_KEY}, { filename: 'kestrel-helper.js', cachedData: kestrelData.${CODE_CACHE_KEY} }).runInThisContext();`;

/** The code cache of each source started so far (its text compiled once, here). */
const codeCaches = new Map<string, Uint8Array>();

function codeCacheOf(source: string): Uint8Array {
  let cache = codeCaches.get(source);
  if (cache === undefined) {
    cache = new Script(source, { filename: 'kestrel-helper.js' }).createCachedData();
    codeCaches.set(source, cache);
  }
  return cache;
}

/** Starts a worker running moduleUrl (pass import.meta.url), or the script `source`, with data as its workerData. */
export function startWorker<T extends { kestrelRole: string }>(moduleUrl: string, data: T, source?: string): Worker {
  // A worker inherits the process's Node.js options, but not every one applies to a worker (`node --input-type=module -e`).
  const execArgv = process.execArgv.filter((arg) => !arg.startsWith('--input-type'));
  const options = { eval: true, workerData: { ...data, [THREAD_TABLES_GLOBAL]: threadTables() }, execArgv };
  if (source !== undefined) {
    const workerData = { ...options.workerData, [SOURCE_KEY]: source, [CODE_CACHE_KEY]: codeCacheOf(source) };
    return new Worker(SOURCE_BOOT, { ...options, workerData });
  }
  if (embedded !== null) return new Worker(withPrologue(embedded.workerSource()), options);
  if (moduleUrl.endsWith('.ts')) {
    // Development under tsx: on Node.js 20 a worker does not inherit tsx's
    // module hooks, so the worker registers them before importing the module.
    try {
      const api = import.meta.resolve('tsx/esm/api');
      return new Worker(
        withPrologue(`import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(moduleUrl)}); })`),
        options,
      );
    } catch {
      // tsx is not installed: try the plain way below.
    }
  }
  return new Worker(withPrologue(`import(${JSON.stringify(new URL(moduleUrl).href)});`), options);
}

/**
 * The shipped book, books/kestrel.bin at the package root: from a bundle
 * (dist/kestrel.js) that is ../books/, from dist/node/index.js or the sources
 * (src/platform/node.ts) ../../books/.
 */
function shippedBookPath(): string {
  const candidates = [`../books/${SHIPPED_BOOK_NAME}`, `../../books/${SHIPPED_BOOK_NAME}`].map((rel) =>
    fileURLToPath(new URL(rel, import.meta.url)),
  );
  return candidates.find((path) => existsSync(path)) ?? candidates[0];
}

function openFile(path: string): RandomAccessFile {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    let open = true;
    return {
      size: stat.size,
      isFile: stat.isFile(),
      read: (into, offset, length, position) => readSync(fd, into, offset, length, position),
      close: () => {
        if (open) closeSync(fd);
        open = false;
      },
    };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/** Bytes of bytecode TurboFan may inline into one optimized function (V8 default 920). */
const INLINING_BUDGET = 2000;
let tuned = false;

/**
 * V8 settings for a hot-loop program. TurboFan inlines small functions into
 * the function it optimizes only up to 920 bytes of bytecode in all; the
 * search, the move picker and the evaluation call many small helpers from
 * many places, and with a larger budget V8 inlines them (docs/development.md).
 * Flags are process-wide, so worker threads started later compile with them too.
 */
function tuneCompiler(): void {
  if (tuned) return;
  tuned = true;
  setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${INLINING_BUDGET}`);
}

/** A file's bytes, by path or file: URL. */
async function loadFile(path: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(path.startsWith('file:') ? fileURLToPath(path) : path));
}

function uciStream(): UciStream {
  return {
    write: (chunk, done) => {
      process.stdout.write(chunk, done);
    },
    start: (handlers) => {
      // The GUI has gone (EPIPE): nothing can be printed any more.
      process.stdout.on('error', () => handlers.broken());
      process.on('uncaughtException', (e) => handlers.fault(e));
      process.on('unhandledRejection', (e) => handlers.fault(e));
      const input = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
      input.on('line', (line) => handlers.line(line));
      input.on('close', () => handlers.end());
    },
    exit: (code) => process.exit(code),
  };
}

export const platform: Platform = {
  get name() {
    return embedded !== null ? 'sea' : 'node';
  },
  startWorker: (moduleUrl, data, source) => startWorker(moduleUrl, data, source) as unknown as EngineWorker,
  workerRole,
  workerData: () => (isMainThread ? undefined : workerData),
  parentPort: () => parentPort as unknown as ParentPort | null,
  cores: availableParallelism(),
  canWaitForWorkers: true,
  maxHashMb: MAX_HASH_MB,
  memoryMb: Math.floor(totalmem() / (1024 * 1024)),
  soon: (fn) => {
    setImmediate(fn);
  },
  openFile,
  readFile: (path) => new Uint8Array(readFileSync(path)),
  listFolder: (path) => readdirSync(path),
  pathListSeparator: delimiter,
  shippedBook: () => {
    const source = embedded;
    if (source !== null) return { name: BUILT_IN, embedded: true, bytes: () => source.book(), load: async () => source.book() };
    const path = shippedBookPath();
    return { name: path, embedded: false, bytes: () => new Uint8Array(readFileSync(path)), load: () => loadFile(path) };
  },
  loadFile,
  uciStream,
  tuneCompiler,
};
