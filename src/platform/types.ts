// What the engine needs from the host it runs on, in one interface with an
// implementation per host: Node.js (node.ts, which also serves the single
// executable) and the browser (browser.ts). The engine imports `platform`
// from index.ts; the browser build swaps node.ts for browser.ts, so nothing
// above this layer knows where it runs.

/** A worker running this engine's code (the subset of Node's Worker the engine uses). */
export interface EngineWorker {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: never) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  /** The worker has ended (in a browser: it failed, since a Web Worker has no exit event). */
  on(event: 'exit', listener: (code: number) => void): unknown;
  terminate(): Promise<unknown>;
  /** The worker does not keep the process alive (no-op in a browser). */
  unref(): void;
  /** The worker keeps the process alive again (no-op in a browser). */
  ref(): void;
}

/** Inside a worker: the way to its parent. */
export interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: never) => void): unknown;
}

/** A file opened for positioned reads (opening books). */
export interface RandomAccessFile {
  readonly size: number;
  readonly isFile: boolean;
  /** Reads up to length bytes at position into into[offset..]; returns the count read. */
  read(into: Uint8Array, offset: number, length: number, position: number): number;
  close(): void;
}

/** The UCI stream: lines in, chunks of lines out. */
export interface UciStream {
  /** Writes a chunk of whole lines (each ending in a newline); done is called once it has left the process. */
  write(chunk: string, done: (error?: Error | null) => void): void;
  /** Starts reading input. */
  start(handlers: {
    line(text: string): void;
    /** End of input. */
    end(): void;
    /** Output can no longer be written (the GUI has gone). */
    broken(): void;
    /** An error nobody caught, reported and survived. */
    fault(error: unknown): void;
    /** Resolves once every answer asked for so far is written (a search's bestmove, a perft's total). */
    idle?(): Promise<void>;
  }): void;
  exit(code: number): void;
}

export interface Platform {
  readonly name: 'node' | 'sea' | 'browser';
  /**
   * Starts a worker running this engine's code in the role data.kestrelRole
   * (the worker reads data with workerData()). moduleUrl is the caller's
   * import.meta.url: under tsx the worker runs that module; elsewhere the
   * host knows the engine's code (the bundle, the embedded source, the
   * worker script). source: code of its own for the worker to run instead
   * (Node.js: the helper threads' bundle); a browser ignores it.
   */
  startWorker(moduleUrl: string, data: { kestrelRole: string }, source?: string): EngineWorker;
  /** The role this thread was started in, or null on the main thread. */
  workerRole(): string | null;
  /** The data this worker was started with (undefined on the main thread). */
  workerData(): unknown;
  /** The port to the parent, or null on the main thread. */
  parentPort(): ParentPort | null;
  /** The cores the engine's threads can run on at once. */
  readonly cores: number;
  /** Whether a worker may block (Atomics.wait) until the workers it starts are up. */
  readonly canWaitForWorkers: boolean;
  /** Largest transposition table in MB (a browser tab holds less than a process). */
  readonly maxHashMb: number;
  /**
   * The machine's memory in MB (null where unknown): a larger table is
   * refused, since the system would promise it (a table is allocated in
   * pieces) and the engine be killed once the search filled it.
   */
  readonly memoryMb: number | null;
  /** Runs fn soon, after pending messages. */
  soon(fn: () => void): void;
  /** Opens a file for positioned reads; throws an Error with a `code` (ENOENT, ...) like Node's. */
  openFile(path: string): RandomAccessFile;
  /** A whole file's bytes; throws like openFile. */
  readFile(path: string): Uint8Array;
  /** The names of a folder's entries; throws like openFile (a browser has no folders: it throws). */
  listFolder(path: string): string[];
  /** What separates the folders of a list of them (':', or ';' on Windows), as in PATH. */
  readonly pathListSeparator: string;
  /**
   * The book shipped with the engine: the name shown for it (BookFile's
   * default), and where it is: a file at that path, or (embedded) bytes
   * built into the program or fetched, read when asked.
   */
  shippedBook(): { name: string; embedded: boolean; bytes(): Uint8Array; load(): Promise<Uint8Array> };
  /** A file's bytes, read without blocking: a path (Node.js) or a URL (a browser fetches it). */
  loadFile(pathOrUrl: string): Promise<Uint8Array>;
  /** The UCI stream of this host: stdin/stdout, or a Web Worker's messages. */
  uciStream(): UciStream;
  /** Compiler settings for the search, set once before the first worker starts (V8 flags in Node.js; nothing in a browser). */
  tuneCompiler(): void;
  /** A browser page: the URL of the worker script that workers start from (the library's workerUrl option). */
  setWorkerUrl?(url: string | URL): void;
}
