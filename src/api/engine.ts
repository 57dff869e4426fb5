// The library's engine: searches run on the engine host (src/engine/), the
// same host and search worker the UCI loop uses, reported as structured
// lines (no UCI text). One search runs at a time; later ones wait in the
// host's queue.
//
// Guarantees: every search's promise settles (resolves with what was found,
// or rejects with a KestrelError); nothing rejects without a handler the
// caller could have attached; a search that does not answer its stop within
// its stop grace (engine/settings.ts) is given up on (the host answers with its lines so far and
// replaces a worker that stays stuck).

import type { Position } from '../board/position.js';
import { EngineHost, type Job, type JobOutcome } from '../engine/host.js';
import { DEFAULT_TABLEBASE_USE, SETTINGS, defaultIn, rangeText } from '../engine/settings.js';
import { type EngineLine, scoreValue, shownScore, wdlOf } from '../engine/search-lines.js';
import type { NetworkChoice } from '../engine/messages.js';
import { NetworkFileError, loadNetwork } from '../engine/network-file.js';
import { platform } from '../platform/index.js';
import { isSearchDriver } from '../search/driver-list.js';
import type { GoParams, SearchOptions } from '../search/limits.js';
import { HAS_SHARED_MEMORY } from '../util/shared-memory.js';
import { openTablebases } from '../engine/tablebase-files.js';
import type { TablebaseUse } from '../syzygy/root.js';
import type { Tablebases } from '../syzygy/tablebases.js';
import { WHITE } from '../board/types.js';
import { Book } from './book.js';
import { AbortError, EngineClosedError, EngineFailedError, InvalidNetworkError, type KestrelError } from './errors.js';
import { type ReadPosition, describeMove, describeUci, readMove, readPosition } from './position.js';
import { probeTables } from './probe.js';
import type {
  AnalyseOptions,
  AnalysisResult,
  BestMove,
  EngineOptions,
  PositionInput,
  SearchDriver,
  SearchLimits,
  SearchLine,
  TablebaseProbe,
} from './types.js';
import { errorText } from '../util/errors.js';

/** A running search, handed out by Engine.search(): its lines as an async iterator, and its result. */
export interface Search extends AsyncIterable<SearchLine> {
  /** Settles when the search ends (see Engine.analyse). */
  readonly result: Promise<AnalysisResult>;
  /** Stops the search (like aborting its signal); the result then holds what was found. */
  stop(): void;
}

/** A search's arguments, checked and in the host's terms. */
interface Prepared {
  read: ReadPosition;
  params: GoParams;
  searchOptions: SearchOptions;
}

/** A search of the library: its job on the host, and what it has reported. */
interface Pending {
  read: ReadPosition;
  job: Job | null;
  onInfo: ((line: SearchLine) => void) | undefined;
  /** Every line reported, in order (iterators read from here). */
  history: SearchLine[];
  /** Wakes iterators waiting for a line or the end. */
  wake: Array<() => void>;
  /** The latest line of each multiPv rank (exact ones preferred). */
  lines: Map<number, SearchLine>;
  done: boolean;
  failure: KestrelError | null;
  settle: { resolve(result: AnalysisResult): void; reject(error: unknown): void };
  submittedAt: number;
  cleanup: () => void;
}

/** A wrong argument as an error shows it: strings quoted (so that '3' is not taken for 3), objects by kind. */
function shown(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'function') return 'a function';
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

function nonNegative(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new RangeError(`${name} must be a number >= 0, not ${shown(value)}`);
  return Math.floor(value);
}

function positive(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!isPositiveInteger(value)) throw new RangeError(`${name} must be an integer > 0, not ${shown(value)}`);
  return value;
}

/** limits.searchMoves in UCI notation: an array of moves (UCI or SAN strings) legal in pos; none when absent. */
function readSearchMoves(pos: Position, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw new TypeError(`searchMoves must be an array of moves as UCI or SAN strings, such as ['e2e4', 'Nf3'], not ${shown(value)}`);
  return value.map((m: unknown, i) => {
    if (typeof m !== 'string')
      throw new TypeError(`searchMoves[${i}] must be a move as a UCI or SAN string, such as 'e2e4', not ${shown(m)}`);
    return describeMove(pos, readMove(pos, m)).uci;
  });
}

/** Whether value can stop a search: an AbortSignal (or one of another realm: anything that has its shape). */
function isAbortSignal(value: unknown): value is AbortSignal {
  const v = value as AbortSignal;
  return typeof value === 'object' && value !== null && typeof v.aborted === 'boolean' && typeof v.addEventListener === 'function';
}

function toLine(line: EngineLine): SearchLine {
  const score = shownScore(line);
  const shown = scoreValue(score);
  const [win, draw, loss] = wdlOf(score);
  return {
    multiPv: line.multipv,
    depth: line.depth,
    seldepth: line.seldepth,
    score: { type: shown.unit, value: shown.value },
    bound: line.bound,
    wdl: { win, draw, loss },
    pv: line.pv,
    pvSan: line.pvSan,
    nodes: line.nodes,
    timeMs: line.timeMs,
    nps: Math.round((line.nodes * 1000) / Math.max(1, line.timeMs)),
    hashfull: line.hashfull,
    tbHits: line.tbhits,
  };
}

export class Engine {
  /** Threads in use (1 where threads cannot share memory). */
  readonly threads: number;
  /** Hash in MB, after the host's cap. */
  readonly hash: number;
  readonly chess960: boolean;
  /** The search driver of every search. */
  readonly driver: SearchDriver;
  private readonly bookOption: boolean | Book;
  private book: Promise<Book> | null = null;
  private loadedBook: Book | null = null;
  private readonly onLog: (text: string) => void;
  private readonly host: EngineHost;
  private isClosed = false;
  /** The tablebases for probe() (the search worker has its own); null without syzygyPath. */
  private readonly tablebases: Tablebases | null = null;

  constructor(options: EngineOptions = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
    const threads = options.threads ?? SETTINGS.threads.default;
    if (!isPositiveInteger(threads)) throw new RangeError(`threads must be an integer > 0, not ${shown(threads)}`);
    this.threads = HAS_SHARED_MEMORY ? Math.min(threads, SETTINGS.threads.max) : 1;
    const hash = options.hash ?? defaultIn(SETTINGS.hash, 'api');
    if (!isPositiveInteger(hash)) throw new RangeError(`hash must be an integer > 0 (MB), not ${shown(hash)}`);
    this.hash = Math.min(hash, SETTINGS.hash.max);
    this.chess960 = (options.chess960 ?? SETTINGS.chess960.default) === true;
    const driver = options.driver ?? SETTINGS.driver.default;
    if (typeof driver !== 'string' || !isSearchDriver(driver))
      throw new RangeError(`driver must be one of ${SETTINGS.driver.values.join(', ')}, not ${shown(driver)}`);
    this.driver = driver;
    const book = options.book ?? SETTINGS.ownBook.default;
    if (typeof book !== 'boolean' && !(book instanceof Book))
      throw new TypeError(`book must be true, false or a Book (await Book.load(path) reads a file), not ${shown(book)}`);
    this.bookOption = book;
    const log = options.onLog;
    if (log !== undefined && typeof log !== 'function') throw new TypeError('onLog must be a function');
    // A listener that throws must not break the engine (it is called from the worker's message handler).
    const onLog = (text: string): void => {
      try {
        log?.(text);
      } catch {
        // ignored: nowhere left to report it
      }
    };
    this.onLog = onLog;
    const network = networkChoice(options);
    if (options.workerUrl !== undefined) platform.setWorkerUrl?.(options.workerUrl);
    platform.tuneCompiler();
    this.host = new EngineHost({
      hashMb: this.hash,
      threads: this.threads,
      network,
      // The worker keeps a Node.js process alive only while a search is running or waiting.
      keepAlive: 'busy',
      stopGraceMs: defaultIn(SETTINGS.stopGraceMs, 'api'),
      onNote: (text) => onLog(text),
    });
    if (options.syzygyPath !== undefined && options.syzygyPath !== '') {
      if (typeof options.syzygyPath !== 'string') throw new TypeError('syzygyPath must be a string of folders');
      const given = options.syzygy ?? {};
      const use: TablebaseUse = {
        probeDepth: given.probeDepth ?? DEFAULT_TABLEBASE_USE.probeDepth,
        rule50: given.rule50 ?? DEFAULT_TABLEBASE_USE.rule50,
        probeLimit: given.probeLimit ?? DEFAULT_TABLEBASE_USE.probeLimit,
      };
      for (const [setting, v] of [
        [SETTINGS.syzygyProbeDepth, use.probeDepth],
        [SETTINGS.syzygyProbeLimit, use.probeLimit],
      ] as const) {
        if (!Number.isInteger(v) || v < setting.min || v > setting.max)
          throw new RangeError(`${setting.api} must be an integer in ${rangeText(setting)}, not ${shown(v)}`);
      }
      const opened = openTablebases(options.syzygyPath);
      this.tablebases = opened.tb;
      for (const line of opened.note.split('\n')) onLog(line);
      this.host.configure({
        type: 'syzygy',
        settings: { path: options.syzygyPath, use },
      });
    }
    // Start the worker now, so that the first search does not wait for it.
    try {
      this.host.warm();
    } catch (e) {
      throw new EngineFailedError(`could not start the search worker: ${errorText(e)}`);
    }
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
    let settle!: Pending['settle'];
    const result = new Promise<AnalysisResult>((resolve, reject) => {
      settle = { resolve, reject };
    });
    // The caller may only iterate: a rejection must not count as unhandled.
    result.catch(() => undefined);
    let pending: Pending | null = null;
    try {
      pending = this.start(position, limits, options, settle);
    } catch (e) {
      settle.reject(e);
    }
    return this.handle(pending, result);
  }

  /**
   * The move to play: from the opening book when the engine's `book` option
   * is on and the position is in it, else from a search (like analyse()).
   * Its arguments are checked as analyse() checks them, in or out of book.
   */
  bestMove(position: PositionInput, limits: SearchLimits, options: AnalyseOptions = {}): Promise<BestMove | null> {
    let result: Promise<BestMove | null>;
    try {
      const request = this.prepare(position, limits, options);
      const book = this.bookOption === false ? null : this.openBook();
      if (book instanceof Book) result = this.fromBookOrSearch(book, request, options);
      else if (book === null) result = this.searchBest(request, options);
      // A book still loading (a browser's first call): this search takes its turn when it has.
      else result = book.then((loaded) => this.fromBookOrSearch(loaded, request, options));
    } catch (e) {
      result = Promise.reject(e);
    }
    // The caller may never await it (closing the engine first): a rejection must not count as unhandled.
    result.catch(() => undefined);
    return result;
  }

  /**
   * What the tablebases (syzygyPath) say of a position: its WDL (the
   * fifty-move counter of the position counted when the DTZ file is there),
   * its DTZ, and a move that keeps the result. Null when there are no
   * tablebases, the position is not in them (too many pieces, castling
   * rights) or a file fails; what the tables cannot answer is never guessed
   * (dtz null without a readable DTZ file, bestMove null when some move
   * leads to a table that is missing or damaged). Files found damaged are
   * named through onLog. Throws InvalidFenError or IllegalMoveError for a
   * bad position.
   */
  probe(position: PositionInput): TablebaseProbe | null {
    if (this.isClosed) throw new EngineClosedError();
    const tb = this.tablebases;
    const { pos } = readPosition(position, this.chess960);
    if (tb === null || pos.castling !== 0) return null;
    try {
      return probeTables(tb, pos);
    } finally {
      for (const problem of tb.takeProblems()) this.onLog(`SyzygyPath: ${problem}`);
    }
  }

  /** A new game: the hash table and the move-ordering statistics are cleared (after the search running now, if any). */
  newGame(): void {
    if (this.isClosed) throw new EngineClosedError();
    this.host.configure({ type: 'clear' });
  }

  /** Ends the engine: searches running or queued reject with EngineClosedError, and the worker ends. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.tablebases?.close();
    await this.host.close();
  }

  // ---------------------------------------------------------------------------

  /** The book, at once where it can be read synchronously (a Book given, or the shipped book in Node.js), else a promise. */
  private openBook(): Book | Promise<Book> {
    const option = this.bookOption;
    if (option instanceof Book) return option;
    if (this.loadedBook !== null) return this.loadedBook;
    try {
      this.loadedBook = Book.shipped();
      return this.loadedBook;
    } catch {
      // Not readable synchronously here (a browser): loaded once, retried after a failure.
    }
    if (this.book === null) {
      this.book = Book.load().then((book) => {
        this.loadedBook = book;
        return book;
      });
      this.book.catch(() => {
        this.book = null;
      });
    }
    return this.book;
  }

  /** The book's move for a prepared search (one searchMoves allows), else the search's. */
  private fromBookOrSearch(book: Book, request: Prepared, options: AnalyseOptions): Promise<BestMove | null> {
    if (this.isClosed) return Promise.reject(new EngineClosedError());
    const { spec } = request.read;
    const only = request.params.searchmoves.length > 0 ? request.params.searchmoves : undefined;
    const move = book.pick({ fen: spec.fen, moves: spec.moves }, { chess960: this.chess960, only });
    if (move !== null) return Promise.resolve({ ...move, ponder: null, fromBook: true, analysis: null });
    return this.searchBest(request, options);
  }

  private async searchBest(request: Prepared, options: AnalyseOptions): Promise<BestMove | null> {
    const analysis = await new Promise<AnalysisResult>((resolve, reject) => this.submit(request, options, { resolve, reject }));
    if (analysis.bestMove === null) return null;
    return { ...analysis.bestMove, ponder: analysis.ponder, fromBook: false, analysis };
  }

  private start(position: PositionInput, limits: SearchLimits, options: AnalyseOptions, settle: Pending['settle']): Pending {
    return this.submit(this.prepare(position, limits, options), options, settle);
  }

  /** Checks a search's arguments (throws as analyse() rejects) and turns them into the host's terms. */
  private prepare(position: PositionInput, limits: SearchLimits, options: AnalyseOptions): Prepared {
    if (this.isClosed) throw new EngineClosedError();
    if (limits === null || typeof limits !== 'object')
      throw new TypeError('limits must be an object, e.g. { depth: 12 } or { movetime: 1000 }');
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
    const read = readPosition(position, this.chess960);
    const multiPv = options.multiPv ?? SETTINGS.multiPv.default;
    if (!isPositiveInteger(multiPv) || multiPv > SETTINGS.multiPv.max)
      throw new RangeError(`multiPv must be an integer in ${rangeText(SETTINGS.multiPv)}, not ${shown(multiPv)}`);
    const searchmoves = readSearchMoves(read.pos, limits.searchMoves);
    if (limits.infinite !== undefined && typeof limits.infinite !== 'boolean')
      throw new TypeError(`infinite must be true or false, not ${shown(limits.infinite)}`);
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
    if (params.depth !== undefined) params.depth = Math.min(params.depth, SETTINGS.depth.max);
    // Only the clock of the side to move limits the search.
    const clock = read.pos.side === WHITE ? params.wtime : params.btime;
    const limited = [params.depth, params.nodes, params.movetime, params.mate, clock].some((v) => v !== undefined);
    if (!limited && limits.infinite !== true) {
      const other = params.wtime !== undefined || params.btime !== undefined;
      throw new TypeError(
        other
          ? `limits give no clock for ${read.pos.side === WHITE ? 'White (wtime)' : 'Black (btime)'}, the side to move, and no other limit`
          : 'limits give no limit: set depth, nodes, movetime, mate or a clock, or infinite: true with an AbortSignal',
      );
    }
    if (options.onInfo !== undefined && typeof options.onInfo !== 'function') throw new TypeError('onInfo must be a function');
    if (options.signal !== undefined && !isAbortSignal(options.signal))
      throw new TypeError(`signal must be an AbortSignal (from an AbortController), not ${shown(options.signal)}`);
    if (options.signal?.aborted) throw new AbortError();
    const searchOptions: SearchOptions = {
      multiPv,
      moveOverhead: defaultIn(SETTINGS.moveOverhead, 'api'),
      chess960: this.chess960,
      showWdl: true,
      driver: this.driver,
    };
    return { read, params, searchOptions };
  }

  /** Queues a prepared search on the host. */
  private submit(request: Prepared, options: AnalyseOptions, settle: Pending['settle']): Pending {
    if (this.isClosed) throw new EngineClosedError();
    if (options.signal?.aborted) throw new AbortError();
    const { read, params, searchOptions } = request;
    const pending: Pending = {
      read,
      job: null,
      onInfo: options.onInfo,
      history: [],
      wake: [],
      lines: new Map(),
      done: false,
      failure: null,
      settle,
      submittedAt: Date.now(),
      cleanup: () => {},
    };
    const signal = options.signal;
    if (signal !== undefined) {
      const onAbort = (): void => pending.job?.stop();
      signal.addEventListener('abort', onAbort, { once: true });
      pending.cleanup = () => signal.removeEventListener('abort', onAbort);
    }
    pending.job = this.host.submit(
      // The clock starts when the search does (not while it waits in the queue).
      { kind: 'go', position: read.spec, params, options: searchOptions, san: true },
      {
        line: (line) => this.onLine(pending, toLine(line)),
        note: (text) => this.onLog(text),
        done: (outcome) => this.onDone(pending, outcome),
      },
    );
    return pending;
  }

  /** The Search handed to the caller. */
  private handle(pending: Pending | null, result: Promise<AnalysisResult>): Search {
    return {
      result,
      stop: () => pending?.job?.stop(),
      [Symbol.asyncIterator](): AsyncIterator<SearchLine> {
        let next = 0;
        return {
          async next(): Promise<IteratorResult<SearchLine>> {
            if (pending === null) {
              await result; // rethrows the reason the search could not start
              return { done: true, value: undefined };
            }
            for (;;) {
              if (next < pending.history.length) return { done: false, value: pending.history[next++] };
              if (pending.done) {
                if (pending.failure !== null) throw pending.failure;
                return { done: true, value: undefined };
              }
              await new Promise<void>((resolve) => pending.wake.push(resolve));
            }
          },
          async return(): Promise<IteratorResult<SearchLine>> {
            // Leaving the loop early stops the search.
            pending?.job?.stop();
            next = Number.MAX_SAFE_INTEGER;
            return { done: true, value: undefined };
          },
        };
      },
    };
  }

  private onLine(pending: Pending, line: SearchLine): void {
    const held = pending.lines.get(line.multiPv);
    if (line.bound === 'exact' || held === undefined || held.bound !== 'exact' || held.depth < line.depth)
      pending.lines.set(line.multiPv, line);
    pending.history.push(line);
    this.wakeAll(pending);
    if (pending.onInfo !== undefined) {
      try {
        pending.onInfo(line);
      } catch (e) {
        this.onLog(`onInfo threw: ${errorText(e)}`);
      }
    }
  }

  private onDone(pending: Pending, outcome: JobOutcome): void {
    if (outcome.closed) this.fail(pending, new EngineClosedError());
    else if (outcome.cancelled) this.fail(pending, new AbortError());
    else if (outcome.failure !== null) this.fail(pending, new EngineFailedError(outcome.failure));
    // A search the host answered for (it did not answer stop in time, its worker died after stop): its lines are the answer.
    else this.finish(pending, outcome.fallback !== null ? null : outcome.bestMove, outcome.fallback !== null ? null : outcome.ponderMove);
  }

  /** Settles a search with its result; bestUci null: the best line's first move. */
  private finish(pending: Pending, bestUci: string | null, ponderUci: string | null): void {
    if (pending.done) return;
    const pos = pending.read.pos;
    // Each root move once, at its best rank (a stopped search may re-report rank 1 with a move a lower rank holds).
    const lines: SearchLine[] = [];
    for (const line of [...pending.lines.values()].sort((a, b) => a.multiPv - b.multiPv)) {
      if (!lines.some((l) => l.pv[0] === line.pv[0])) lines.push(line);
    }
    const top = lines[0] ?? null;
    const best = describeUci(pos, bestUci ?? top?.pv[0] ?? null);
    // The best line, when it starts with the best move, gives the reply: ponder and pv agree.
    const agrees = best !== null && top !== null && top.pv[0] === best.uci;
    const ponder = best === null ? null : replyAfter(pos, best.uci, agrees && top.pv.length > 1 ? top.pv[1] : ponderUci);
    let pv = top?.pv ?? [];
    let pvSan = top?.pvSan ?? [];
    if (best !== null && (!agrees || (pv.length === 1 && ponder !== null))) {
      pv = ponder === null ? [best.uci] : [best.uci, ponder.uci];
      pvSan = ponder === null ? [best.san] : [best.san, ponder.san];
    }
    const startedAt = pending.job !== null && pending.job.startedAt > 0 ? pending.job.startedAt : pending.submittedAt;
    const result: AnalysisResult = {
      bestMove: best,
      ponder,
      score: top?.score ?? { type: 'cp', value: 0 },
      wdl: top?.wdl ?? { win: 0, draw: 1000, loss: 0 },
      depth: top?.depth ?? 0,
      seldepth: top?.seldepth ?? 0,
      pv,
      pvSan,
      lines,
      nodes: pending.history.at(-1)?.nodes ?? 0,
      timeMs: Date.now() - startedAt,
      stopped: pending.job?.stopRequested ?? false,
    };
    this.end(pending);
    pending.settle.resolve(result);
  }

  private fail(pending: Pending, error: KestrelError): void {
    if (pending.done) return;
    pending.failure = error;
    this.end(pending);
    pending.settle.reject(error);
  }

  private end(pending: Pending): void {
    pending.done = true;
    pending.cleanup();
    this.wakeAll(pending);
  }

  private wakeAll(pending: Pending): void {
    const wake = pending.wake;
    pending.wake = [];
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

/** The evaluation the engine's threads use, from the options (a network file implies nnue unless nnue is false); throws InvalidNetworkError. */
function networkChoice(options: EngineOptions): NetworkChoice | undefined {
  const file = options.networkFile;
  if (file === undefined) return options.nnue === undefined ? undefined : { use: options.nnue, net: null };
  try {
    return { use: options.nnue !== false, net: loadNetwork(file).net };
  } catch (e) {
    if (e instanceof NetworkFileError)
      throw new InvalidNetworkError(`network file ${typeof file === 'string' ? file : '(bytes)'}: ${e.message}`);
    throw e;
  }
}
