// The library's engine: searches in the search worker (the same worker the
// UCI engine uses, see src/uci/search-worker.ts), reported as structured
// lines (no UCI text). One search runs at a time; later ones wait in a queue.
//
// Guarantees: every search's promise settles (resolves with what was found,
// or rejects with a KestrelError); nothing rejects without a handler the
// caller could have attached; a search that does not answer its stop within
// STOP_GRACE_MS is given up on (its worker replaced).

import type { Position } from '../board/position.js';
import { MAX_PLY } from '../board/types.js';
import { NetworkError, decodeNetwork } from '../eval/index.js';
import { type EngineWorker, platform } from '../platform/index.js';
import { SearchControl } from '../search/control.js';
import type { GoParams, SearchOptions } from '../search/limits.js';
import { HAS_SHARED_MEMORY } from '../search/shared-memory.js';
import { MAX_THREADS } from '../search/threads.js';
import type { LineInfo } from '../uci/info.js';
import type { FromWorker, NetworkChoice, SearchWorkerData, ToWorker } from '../uci/messages.js';
import { startSearchWorker } from '../uci/search-worker.js';
import { Book } from './book.js';
import { AbortError, EngineClosedError, EngineFailedError, InvalidNetworkError, KestrelError } from './errors.js';
import { type ReadPosition, describeMove, describeUci, readMove, readPosition } from './position.js';
import type {
  AnalyseOptions,
  AnalysisResult,
  BestMove,
  EngineOptions,
  PositionInput,
  Score,
  SearchLimits,
  SearchLine,
  Wdl,
} from './types.js';

/** How long a stopped search may take to answer before its worker is replaced. */
const STOP_GRACE_MS = 2000;
const DEFAULT_HASH_MB = 16;
const MAX_MULTI_PV = 256;
/** Move Overhead: the library's callers get their answer in-process, so little is kept in reserve. */
const MOVE_OVERHEAD_MS = 10;

/** A running search, handed out by Engine.search(): its lines as an async iterator, and its result. */
export interface Search extends AsyncIterable<SearchLine> {
  /** Settles when the search ends (see Engine.analyse). */
  readonly result: Promise<AnalysisResult>;
  /** Stops the search (like aborting its signal); the result then holds what was found. */
  stop(): void;
}

interface Job {
  id: number;
  read: ReadPosition;
  params: GoParams;
  options: SearchOptions;
  control: SearchControl | null;
  onInfo: ((line: SearchLine) => void) | undefined;
  /** Every line reported, in order (iterators read from here). */
  history: SearchLine[];
  /** Wakes iterators waiting for a line or the end. */
  wake: Array<() => void>;
  /** The latest line of each multiPv rank (exact ones preferred). */
  lines: Map<number, SearchLine>;
  state: 'queued' | 'running' | 'done';
  stopped: boolean;
  failure: KestrelError | null;
  settle: { resolve(result: AnalysisResult): void; reject(error: unknown): void };
  startedAt: number;
  graceTimer: ReturnType<typeof setTimeout> | null;
  cleanup: () => void;
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

function nonNegative(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new RangeError(`${name} must be a number >= 0, not ${String(value)}`);
  return Math.floor(value);
}

function positive(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!isPositiveInteger(value)) throw new RangeError(`${name} must be an integer > 0, not ${String(value)}`);
  return value;
}

function toScore(info: LineInfo): Score {
  return { type: info.score.unit, value: info.score.value };
}

function toWdl(w: [number, number, number]): Wdl {
  return { win: w[0], draw: w[1], loss: w[2] };
}

function toLine(info: LineInfo): SearchLine {
  return {
    multiPv: info.multipv,
    depth: info.depth,
    seldepth: info.seldepth,
    score: toScore(info),
    bound: info.bound,
    wdl: toWdl(info.wdl),
    pv: info.pv,
    pvSan: info.pvSan,
    nodes: info.nodes,
    timeMs: info.timeMs,
    nps: info.nps,
    hashfull: info.hashfull,
  };
}

export class Engine {
  /** Threads in use (1 where threads cannot share memory). */
  readonly threads: number;
  /** Hash in MB, after the host's cap. */
  readonly hash: number;
  readonly chess960: boolean;
  private readonly network: NetworkChoice | undefined;
  private readonly bookOption: boolean | Book;
  private book: Promise<Book> | null = null;
  private readonly onLog: (text: string) => void;
  private worker: EngineWorker | null = null;
  private readonly queue: Job[] = [];
  private current: Job | null = null;
  private nextId = 1;
  private seq = 0;
  private isClosed = false;

  constructor(options: EngineOptions = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
    const threads = options.threads ?? 1;
    if (!isPositiveInteger(threads)) throw new RangeError(`threads must be an integer > 0, not ${String(threads)}`);
    this.threads = HAS_SHARED_MEMORY ? Math.min(threads, MAX_THREADS) : 1;
    const hash = options.hash ?? DEFAULT_HASH_MB;
    if (!isPositiveInteger(hash)) throw new RangeError(`hash must be an integer > 0 (MB), not ${String(hash)}`);
    this.hash = Math.min(hash, platform.maxHashMb);
    this.chess960 = options.chess960 === true;
    this.bookOption = options.book ?? false;
    this.onLog = options.onLog ?? (() => {});
    this.network = networkChoice(options);
    if (options.workerUrl !== undefined) platform.setWorkerUrl?.(options.workerUrl);
    platform.tuneCompiler();
    // Start the worker now, so that the first search does not wait for it.
    this.ensureWorker();
  }

  /** Whether close() has been called. */
  get closed(): boolean {
    return this.isClosed;
  }

  /**
   * Analyses a position. Resolves when the search ends by its limits or is
   * stopped through `signal` (then with what it found so far). A call made
   * while another search runs waits for it (searches run one at a time, in
   * the order called). Rejects with InvalidFenError, IllegalMoveError,
   * EngineClosedError, AbortError (aborted before it started) or
   * EngineFailedError.
   */
  analyse(position: PositionInput, limits: SearchLimits, options: AnalyseOptions = {}): Promise<AnalysisResult> {
    return this.search(position, limits, options).result;
  }

  /**
   * Starts a search and returns it: iterate it (`for await (const line of
   * search)`) for its lines as they come, await `search.result` for the end.
   * Leaving the loop early stops the search.
   */
  search(position: PositionInput, limits: SearchLimits, options: AnalyseOptions = {}): Search {
    let settle!: Job['settle'];
    const result = new Promise<AnalysisResult>((resolve, reject) => {
      settle = { resolve, reject };
    });
    // The caller may only iterate: a rejection must not count as unhandled.
    result.catch(() => undefined);
    let job: Job | null = null;
    try {
      job = this.createJob(position, limits, options, settle);
    } catch (e) {
      settle.reject(e);
    }
    return this.handle(job, result);
  }

  /**
   * The move to play: from the opening book when the engine's `book` option
   * is on and the position is in it, else from a search (like analyse()).
   */
  async bestMove(position: PositionInput, limits: SearchLimits, options: AnalyseOptions = {}): Promise<BestMove | null> {
    if (this.isClosed) throw new EngineClosedError();
    if (this.bookOption !== false) {
      const { pos, spec } = readPosition(position, this.chess960);
      const book = await this.openBook();
      const move = book.pick({ fen: spec.fen, moves: spec.moves }, { chess960: this.chess960 });
      if (move !== null && (limits.searchMoves === undefined || limits.searchMoves.some((m) => sameMove(pos, m, move.uci)))) {
        return { ...move, ponder: null, fromBook: true, analysis: null };
      }
    }
    const analysis = await this.analyse(position, limits, options);
    if (analysis.bestMove === null) return null;
    return { ...analysis.bestMove, ponder: analysis.ponder, fromBook: false, analysis };
  }

  /** A new game: the hash table and the move-ordering statistics are cleared (after the search running now, if any). */
  newGame(): void {
    if (this.isClosed) throw new EngineClosedError();
    this.post({ type: 'clear', seq: ++this.seq });
  }

  /** Ends the engine: searches running or queued reject with EngineClosedError, and the worker ends. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    const jobs = [...this.queue, ...(this.current !== null ? [this.current] : [])];
    this.queue.length = 0;
    this.current = null;
    for (const job of jobs) this.fail(job, new EngineClosedError());
    const worker = this.worker;
    this.worker = null;
    if (worker !== null) await worker.terminate().catch(() => undefined);
  }

  // ---------------------------------------------------------------------------

  private openBook(): Promise<Book> {
    if (this.book === null) {
      const option = this.bookOption;
      this.book = option instanceof Book ? Promise.resolve(option) : Book.load();
      // A failure is reported to the caller that waits, and retried on the next call.
      this.book.catch(() => {
        this.book = null;
      });
    }
    return this.book;
  }

  private createJob(position: PositionInput, limits: SearchLimits, options: AnalyseOptions, settle: Job['settle']): Job {
    if (this.isClosed) throw new EngineClosedError();
    if (limits === null || typeof limits !== 'object')
      throw new TypeError('limits must be an object, e.g. { depth: 12 } or { movetime: 1000 }');
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
    const read = readPosition(position, this.chess960);
    const multiPv = options.multiPv ?? 1;
    if (!isPositiveInteger(multiPv) || multiPv > MAX_MULTI_PV)
      throw new RangeError(`multiPv must be an integer in 1..${MAX_MULTI_PV}, not ${String(multiPv)}`);
    const searchmoves = (limits.searchMoves ?? []).map((m) => describeMove(read.pos, readMove(read.pos, m)).uci);
    const params: GoParams = {
      depth: positive('depth', limits.depth),
      nodes: positive('nodes', limits.nodes),
      movetime: positive('movetime', limits.movetime),
      mate: positive('mate', limits.mate),
      wtime: nonNegative('wtime', limits.wtime),
      btime: nonNegative('btime', limits.btime),
      winc: nonNegative('winc', limits.winc),
      binc: nonNegative('binc', limits.binc),
      movestogo: positive('movestogo', limits.movestogo),
      // `infinite` is a search without limits (to the deepest depth, or until stopped):
      // unlike UCI's, it answers when it has nothing more to find.
      infinite: false,
      ponder: false,
      searchmoves,
    };
    if (params.depth !== undefined) params.depth = Math.min(params.depth, MAX_PLY - 4);
    const limited = [params.depth, params.nodes, params.movetime, params.mate, params.wtime, params.btime].some((v) => v !== undefined);
    if (!limited && limits.infinite !== true) {
      throw new TypeError('limits give no limit: set depth, nodes, movetime, mate or a clock, or infinite: true with an AbortSignal');
    }
    if (options.onInfo !== undefined && typeof options.onInfo !== 'function') throw new TypeError('onInfo must be a function');
    if (options.signal?.aborted) throw new AbortError();
    const job: Job = {
      id: this.nextId++,
      read,
      params,
      options: { multiPv, moveOverhead: MOVE_OVERHEAD_MS, chess960: this.chess960, showWdl: true, driver: 'pvs' },
      control: null,
      onInfo: options.onInfo,
      history: [],
      wake: [],
      lines: new Map(),
      state: 'queued',
      stopped: false,
      failure: null,
      settle,
      startedAt: 0,
      graceTimer: null,
      cleanup: () => {},
    };
    const signal = options.signal;
    if (signal !== undefined) {
      const onAbort = (): void => this.stop(job);
      signal.addEventListener('abort', onAbort, { once: true });
      job.cleanup = () => signal.removeEventListener('abort', onAbort);
    }
    this.queue.push(job);
    this.startNext();
    return job;
  }

  /** The Search handed to the caller. */
  private handle(job: Job | null, result: Promise<AnalysisResult>): Search {
    const engine = this;
    return {
      result,
      stop: () => {
        if (job !== null) engine.stop(job);
      },
      [Symbol.asyncIterator](): AsyncIterator<SearchLine> {
        let next = 0;
        return {
          async next(): Promise<IteratorResult<SearchLine>> {
            if (job === null) {
              await result; // rethrows the reason the search could not start
              return { done: true, value: undefined };
            }
            for (;;) {
              if (next < job.history.length) return { done: false, value: job.history[next++] };
              if (job.state === 'done') {
                if (job.failure !== null) throw job.failure;
                return { done: true, value: undefined };
              }
              await new Promise<void>((resolve) => job.wake.push(resolve));
            }
          },
          async return(): Promise<IteratorResult<SearchLine>> {
            // Leaving the loop early stops the search.
            if (job !== null) engine.stop(job);
            next = Number.MAX_SAFE_INTEGER;
            return { done: true, value: undefined };
          },
        };
      },
    };
  }

  private ensureWorker(): EngineWorker {
    if (this.worker !== null) return this.worker;
    const data: SearchWorkerData = {
      kestrelRole: 'search-worker',
      hashMb: this.hash,
      threads: this.threads,
      bootSeq: ++this.seq,
      network: this.network,
    };
    let worker: EngineWorker;
    try {
      worker = startSearchWorker(data);
    } catch (e) {
      throw new EngineFailedError(`could not start the search worker: ${e instanceof Error ? e.message : String(e)}`);
    }
    let lastError = '';
    worker.on('message', (message: FromWorker) => {
      if (this.worker === worker) this.onMessage(message);
    });
    worker.on('error', (e: unknown) => {
      lastError = e instanceof Error ? e.message : String(e);
    });
    worker.on('exit', (code: number) => {
      if (this.worker !== worker) return; // replaced or closed on purpose
      this.worker = null;
      this.onWorkerGone(`the search worker stopped (${lastError !== '' ? lastError : `exit code ${code}`})`);
    });
    this.worker = worker;
    this.updateRef();
    return worker;
  }

  /** The worker keeps a Node.js process alive only while a search is running or waiting. */
  private updateRef(): void {
    const worker = this.worker;
    if (worker === null) return;
    if (this.current !== null || this.queue.length > 0) worker.ref();
    else worker.unref();
  }

  private post(message: ToWorker): void {
    this.ensureWorker().postMessage(message);
  }

  private startNext(): void {
    if (this.current !== null || this.isClosed) return;
    const job = this.queue.shift();
    if (job === undefined) {
      this.updateRef();
      return;
    }
    this.current = job;
    job.state = 'running';
    job.control = new SearchControl();
    job.startedAt = Date.now();
    try {
      this.post({
        type: 'go',
        id: job.id,
        position: job.read.spec,
        params: job.params,
        options: job.options,
        control: job.control.buffer,
        receivedAt: job.startedAt,
        structured: true,
      });
      this.updateRef();
    } catch (e) {
      this.current = null;
      this.fail(job, e instanceof KestrelError ? e : new EngineFailedError(String(e)));
      this.startNext();
    }
  }

  /** Stops a search: a queued one is dropped (AbortError), a running one answers with what it has. */
  private stop(job: Job): void {
    if (job.state === 'done' || job.stopped) return;
    job.stopped = true;
    if (job.state === 'queued') {
      const at = this.queue.indexOf(job);
      if (at >= 0) this.queue.splice(at, 1);
      this.fail(job, new AbortError());
      this.updateRef();
      return;
    }
    const control = job.control!;
    control.stop();
    if (!control.shared) {
      // No shared memory: the flag cannot reach the search. End its worker; the lines so far are the answer.
      this.replaceWorker();
      this.finish(job, null, null);
      return;
    }
    Atomics.notify(control.flags, 0);
    job.graceTimer = setTimeout(() => {
      if (this.current !== job) return;
      this.onLog(`the search did not answer stop within ${STOP_GRACE_MS} ms; its worker was replaced`);
      this.replaceWorker();
      this.finish(job, null, null);
    }, STOP_GRACE_MS);
  }

  /** Ends the worker; the next search starts a new one. */
  private replaceWorker(): void {
    const worker = this.worker;
    this.worker = null;
    if (worker !== null) void worker.terminate().catch(() => undefined);
  }

  private onMessage(message: FromWorker): void {
    const job = this.current;
    switch (message.type) {
      case 'info': {
        if (job === null || job.id !== message.id) return;
        const line = toLine(message.info);
        const held = job.lines.get(line.multiPv);
        if (line.bound === 'exact' || held === undefined || held.bound !== 'exact' || held.depth < line.depth)
          job.lines.set(line.multiPv, line);
        job.history.push(line);
        this.wakeAll(job);
        if (job.onInfo !== undefined) {
          try {
            job.onInfo(line);
          } catch (e) {
            this.onLog(`onInfo threw: ${e instanceof Error ? e.message : String(e)}`);
          }
        }
        break;
      }
      case 'done':
        if (job !== null && job.id === message.id) this.finish(job, message.bestMove, message.ponderMove);
        break;
      case 'note':
        this.onLog(message.text);
        break;
      case 'line':
      case 'ack':
        break;
    }
  }

  private onWorkerGone(reason: string): void {
    const job = this.current;
    if (job === null) return;
    // A stopped search has its answer in its lines; any other has failed.
    if (job.stopped) this.finish(job, null, null);
    else {
      this.current = null;
      this.fail(job, new EngineFailedError(reason));
      this.startNext();
    }
  }

  /** Settles a running search with its result; bestUci null: the best line's first move. */
  private finish(job: Job, bestUci: string | null, ponderUci: string | null): void {
    if (job.state === 'done') return;
    if (this.current === job) this.current = null;
    const pos = job.read.pos;
    const lines = [...job.lines.values()].sort((a, b) => a.multiPv - b.multiPv);
    const top = lines[0] ?? null;
    const best = describeUci(pos, bestUci ?? top?.pv[0] ?? null);
    let ponder: ReturnType<typeof describeUci> = null;
    if (best !== null) {
      const replyUci = ponderUci ?? (top !== null && top.pv[0] === best.uci ? (top.pv[1] ?? null) : null);
      ponder = replyAfter(pos, best.uci, replyUci);
    }
    const result: AnalysisResult = {
      bestMove: best,
      ponder,
      score: top?.score ?? { type: 'cp', value: 0 },
      wdl: top?.wdl ?? { win: 0, draw: 1000, loss: 0 },
      depth: top?.depth ?? 0,
      seldepth: top?.seldepth ?? 0,
      pv: top?.pv ?? (best !== null ? [best.uci] : []),
      pvSan: top?.pvSan ?? (best !== null ? [best.san] : []),
      lines,
      nodes: job.history.at(-1)?.nodes ?? 0,
      timeMs: Date.now() - job.startedAt,
      stopped: job.stopped,
    };
    this.end(job);
    job.settle.resolve(result);
    this.startNext();
  }

  private fail(job: Job, error: KestrelError): void {
    if (job.state === 'done') return;
    job.failure = error;
    this.end(job);
    job.settle.reject(error);
  }

  private end(job: Job): void {
    job.state = 'done';
    if (job.graceTimer !== null) clearTimeout(job.graceTimer);
    job.graceTimer = null;
    job.cleanup();
    this.wakeAll(job);
  }

  private wakeAll(job: Job): void {
    const wake = job.wake;
    job.wake = [];
    for (const resolve of wake) resolve();
  }
}

/** The reply in both notations after best, or null. */
function replyAfter(pos: Position, bestUci: string, replyUci: string | null): ReturnType<typeof describeUci> {
  if (replyUci === null) return null;
  const best = readMove(pos, bestUci);
  pos.makeMove(best);
  try {
    return describeUci(pos, replyUci);
  } finally {
    pos.unmakeMove();
  }
}

/** Whether text (UCI or SAN) names the move uci in pos. */
function sameMove(pos: Position, text: string, uci: string): boolean {
  try {
    return describeMove(pos, readMove(pos, text)).uci === uci;
  } catch {
    return false;
  }
}

/** The evaluation the engine's threads use, from the options; throws InvalidNetworkError. */
function networkChoice(options: EngineOptions): NetworkChoice | undefined {
  const file = options.networkFile;
  if (file === undefined) return options.nnue === undefined ? undefined : { use: options.nnue, bytes: null };
  let bytes: Uint8Array;
  try {
    bytes = typeof file === 'string' ? platform.readFile(file) : file;
  } catch (e) {
    throw new InvalidNetworkError(`cannot read network file ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    decodeNetwork(bytes);
  } catch (e) {
    if (e instanceof NetworkError)
      throw new InvalidNetworkError(`network file ${typeof file === 'string' ? file : '(bytes)'}: ${e.message}`);
    throw e;
  }
  return { use: options.nnue ?? true, bytes };
}
