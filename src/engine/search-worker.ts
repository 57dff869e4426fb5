// The search worker: a worker_threads Worker that owns the search (a Driver,
// and so its transposition table) and runs the long jobs — go, go perft, bench — so
// that the main thread stays free to answer isready, stop and quit at once.
//
// The worker runs from the same file as the engine: in the bundle
// (dist/kestrel.js) import.meta.url is the bundle itself, whose entry must
// call runSearchWorker() instead of the CLI when isSearchWorker() is true.
// This module also starts the worker body itself when it is evaluated inside
// a search worker, so that under tsx (where the worker loads this very file)
// it works without any entry point; runSearchWorker() is idempotent.
//
// With Threads > 1 this worker's Searcher is the main one of a parallel
// search and the worker owns the helper threads (thread-pool.ts); the same
// entry serves the helpers, which workerData.helper tells apart.
//
// Everything the worker reports goes to the main thread as a message (search
// lines structured, see search-lines.ts); the worker never writes to stdout. Each job
// ends with exactly one `done` message, even when the search throws: then
// the worker reports a note `error: ...` and answers with a legal fallback
// move.

import { type EngineWorker, platform } from '../platform/index.js';
import { generateMoves } from '../board/movegen.js';
import { moveToUci, NO_MOVE_UCI, parseUciMove } from '../board/notation.js';
import { Perft } from '../board/perft.js';
import { Position } from '../board/position.js';
import { MAX_MOVES } from '../board/types.js';
import { DEFAULT_BENCH_DEPTH, runBench } from '../search/bench.js';
import { SearchControl } from '../search/control.js';
import type { GoParams, SearchEvent, SearchOptions } from '../search/limits.js';
import { engineLine } from './search-lines.js';
import { ShownMove, emergencyMove } from './fallback.js';
import { Driver } from '../search/driver.js';
import { allocateHash } from '../search/tt.js';
import type { Tablebases } from '../syzygy/tablebases.js';
import { type SyzygySettings, openTablebases } from './tablebase-files.js';
import { WarmUp } from '../search/warmup.js';
import { type SearchParameterValues, setSearchParameters } from '../search/tuning.js';
import type { HelperThreads } from '../search/threads.js';
import { applyNetworkChoice, loadPosition, type FromWorker, type PositionSpec, type SearchWorkerData, type ToWorker } from './messages.js';
import { ThreadPool } from './thread-pool.js';
import { runSearchHelper } from './helper.js';
import { errorText } from '../util/errors.js';

/** True in a thread started by startSearchWorker(). */
export function isSearchWorker(): boolean {
  return platform.workerRole() === 'search-worker';
}

/** Starts the search worker running the code this module was loaded from. */
export function startSearchWorker(data: SearchWorkerData): EngineWorker {
  return platform.startWorker(workerFile(), data);
}

/**
 * Set by a Node.js build: the helper threads' own bundle (src/cli/helper-main.ts),
 * a fifth of the engine's code, which starts in a fraction of the time.
 */
declare const KESTREL_HELPER_SOURCE: string | undefined;

/** Starts a helper thread of a parallel search (data.helper set): from the helpers' bundle where the build has one, else like the search worker. */
function startHelperWorker(data: SearchWorkerData): EngineWorker {
  return platform.startWorker(workerFile(), data, typeof KESTREL_HELPER_SOURCE === 'string' ? KESTREL_HELPER_SOURCE : undefined);
}

/**
 * Set by a build whose search workers run a bundle of their own beside it:
 * the library's dist/node/worker.js (scripts/build.mjs says why).
 */
declare const KESTREL_WORKER_FILE: string | undefined;

/** The module a new search worker runs: this one, or the build's worker bundle. */
function workerFile(): string {
  return typeof KESTREL_WORKER_FILE === 'string' ? new URL(KESTREL_WORKER_FILE, import.meta.url).href : import.meta.url;
}

/** Helper threads for a parallel search run on this thread (the CLI's `bench --threads`); `note` hears their problems. */
export function helperPool(note: (text: string) => void): ThreadPool {
  return new ThreadPool(startHelperWorker, note);
}

let started = false;

/** The worker body: serves job and maintenance messages until terminated. No-op outside a search worker. */
export function runSearchWorker(): void {
  const port = platform.parentPort();
  if (started || !isSearchWorker() || port === null) return;
  started = true;
  const data = platform.workerData() as SearchWorkerData;
  if (data.helper !== undefined) {
    runSearchHelper(data, port);
    return;
  }
  if (data.network !== undefined) applyNetworkChoice(data.network);
  const worker = new SearchWorker((message) => port.postMessage(message), data.hashMb, data.threads ?? 1);
  if (data.params !== undefined) worker.setParams(data.params);
  // (A worker restarted after a failure: the tables again, without a note.)
  if (data.syzygy !== undefined) worker.setSyzygy(data.syzygy, false);
  port.on('message', (message: ToWorker) => worker.handle(message));
  const warm = worker.prime(data.warmUpControl);
  port.postMessage({ type: 'ack', seq: data.bootSeq } satisfies FromWorker);
  worker.warmUp(warm);
}

class SearchWorker {
  private readonly driver: Driver;
  /** Tablebases (SyzygyPath) and the path they were read from. */
  private tablebases: Tablebases | null = null;
  private syzygyPath = '';
  private readonly pos = new Position();
  private readonly moves = new Int32Array(MAX_MOVES);
  /** The helper threads (none with Threads 1). */
  private readonly pool: ThreadPool;
  /** Set by the first job: the warm-up, if still running, ends. */
  private jobSeen = false;

  constructor(
    private readonly send: (message: FromWorker) => void,
    hashMb: number,
    threads: number,
  ) {
    const note = (text: string): void => this.send({ type: 'note', text });
    this.driver = allocateHash(
      hashMb,
      'of hash',
      (mb) => {
        checkHashFits(mb);
        return new Driver(mb);
      },
      note,
    );
    this.pool = new ThreadPool(startHelperWorker, note);
    this.setThreads(threads);
  }

  /**
   * Starts the JIT warm-up (warmup.ts) with its first, compiling search
   * (WarmUp.prime), run before the worker reports ready. `control` holds the
   * flags the engine host raises when it posts a job. Null if it failed.
   */
  prime(control: SharedArrayBuffer | undefined): WarmUp | null {
    let warm: WarmUp | null = null;
    this.guard('the warm-up', () => {
      warm = new WarmUp(control !== undefined ? new SearchControl(control) : undefined);
      warm.prime();
    });
    return warm;
  }

  /**
   * The rest of the warm-up, one position at a time so that messages are
   * served in between (each takes up to a few tens of milliseconds). The first job
   * ends it: its stop flags are raised when the job is posted, and the
   * warm-up's search notices within a few hundred nodes.
   */
  warmUp(warm: WarmUp | null): void {
    if (warm === null) return;
    const step = (): void => {
      if (this.jobSeen) return;
      let more = false;
      this.guard('the warm-up', () => {
        more = warm.step();
      });
      if (more) platform.soon(step);
    };
    platform.soon(step);
  }

  handle(message: ToWorker): void {
    if (message.type === 'go' || message.type === 'perft' || message.type === 'bench') this.jobSeen = true;
    try {
      switch (message.type) {
        case 'hash':
          this.resize(message.mb);
          this.send({ type: 'ack', seq: message.seq });
          break;
        case 'threads':
          if (message.threads !== this.pool.helpers + 1) this.setThreads(message.threads);
          this.send({ type: 'ack', seq: message.seq });
          break;
        case 'network':
          this.guard('changing the evaluation', () => applyNetworkChoice(message.choice));
          this.guard('changing the evaluation of the helpers', () => this.pool.networkChanged());
          this.send({ type: 'ack', seq: message.seq });
          break;
        case 'params':
          this.setParams(message.values);
          this.send({ type: 'ack', seq: message.seq });
          break;
        case 'syzygy':
          this.setSyzygy(message.settings, true);
          this.send({ type: 'ack', seq: message.seq });
          break;
        case 'clear':
          this.guard('clearing the hash', () => this.driver.clear());
          this.pool.clear();
          this.send({ type: 'ack', seq: message.seq });
          break;
        case 'go':
          this.go(
            message.id,
            message.position,
            withLag(message.params, Date.now() - message.receivedAt),
            message.options,
            new SearchControl(message.control),
            message.san,
          );
          break;
        case 'perft':
          this.perft(message.id, message.position, message.depth, new SearchControl(message.control));
          break;
        case 'bench':
          this.bench(message.id, message.depth);
          break;
      }
    } catch (e) {
      // Only reached through a bug in this file: report it, end the job, keep serving.
      this.send({ type: 'note', text: `error: ${errorText(e)}` });
      if (message.type === 'go' || message.type === 'perft' || message.type === 'bench') {
        this.send({ type: 'done', id: message.id, bestMove: null, ponderMove: null });
      }
    }
  }

  /** Tablebases: opens the folders of a new path (saying what it found when `tell`), and sets how the search uses them. */
  setSyzygy(settings: SyzygySettings, tell: boolean): void {
    if (settings.path !== this.syzygyPath) {
      this.syzygyPath = settings.path;
      // (The searcher is told below; no search runs while a setting is applied.)
      this.tablebases?.close();
      this.tablebases = null;
      if (settings.path.trim() !== '') {
        const { tb, note } = openTablebases(settings.path);
        this.tablebases = tb;
        if (tell) for (const line of note.split('\n')) this.send({ type: 'note', text: line });
      }
    }
    this.driver.searcher.setTablebases(this.tablebases, settings.use);
  }

  /** Search parameters (a tuning build), here and in the helpers. */
  setParams(values: SearchParameterValues): void {
    this.guard('setting search parameters', () => setSearchParameters(values));
    this.pool.setParams(values);
  }

  /** Runs fn; an exception becomes a note. */
  private guard(what: string, fn: () => void): boolean {
    try {
      fn();
      return true;
    } catch (e) {
      this.send({ type: 'note', text: `error: ${what} failed: ${errorText(e)}` });
      return false;
    }
  }

  private resize(mb: number): void {
    if (mb === this.driver.hashMb) return;
    // A table that cannot be had (the memory is not there) leaves the one in
    // use as it was, entries and all (TranspositionTable.resize).
    if (
      !this.guard(`resizing the hash to ${mb} MB`, () => {
        checkHashFits(mb);
        this.driver.setHashSize(mb);
      })
    ) {
      this.send({ type: 'note', text: `Hash: keeping the table of ${this.driver.hashMb} MB and its entries` });
      return;
    }
    // New helpers, so that none keeps the old table alive.
    if (this.pool.helpers > 0) this.setThreads(this.pool.helpers + 1);
  }

  /** Re-creates the helper threads: threads - 1 of them. */
  private setThreads(threads: number): void {
    this.guard(`starting ${threads} threads`, () => this.pool.setThreads(threads));
  }

  /** Sets this.pos to spec (the main thread has checked the moves). */
  private load(spec: PositionSpec): void {
    loadPosition(this.pos, spec);
  }

  /** Legal moves of this.pos in UCI notation. */
  private legalMoves(): string[] {
    const n = generateMoves(this.pos, this.moves, 0, false);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(moveToUci(this.pos, this.moves[i]));
    return out;
  }

  private go(id: number, spec: PositionSpec, params: GoParams, options: SearchOptions, control: SearchControl, san: boolean): void {
    const note = (text: string): void => this.send({ type: 'note', id, text });
    // The moves the search may play (searchmoves, else all), and the best of them its lines show.
    let legal: string[] = [];
    let allowed: string[] = [];
    const shown = new ShownMove();
    const report = (event: SearchEvent): void => {
      if (event.type === 'line') {
        shown.see(event, event.pv.length > 0 ? moveToUci(this.pos, event.pv[0]) : undefined, allowed);
        this.send({ type: 'line', id, line: engineLine(this.pos, event, san) });
      } else if (event.type === 'currmove') {
        this.send({ type: 'currmove', id, move: { depth: event.depth, move: moveToUci(this.pos, event.move), number: event.number } });
      } else note(event.text);
    };

    let bestMove: string | null = null;
    let ponderMove: string | null = null;
    let helpers: HelperThreads | null = null;
    try {
      this.load(spec);
      legal = this.legalMoves();
      const named = params.searchmoves.filter((m) => legal.includes(m));
      allowed = named.length > 0 ? named : legal;
      helpers = this.pool.forSearch(spec);
      const role = helpers === null ? undefined : ({ kind: 'main', helpers } as const);
      const result = this.driver.go({ pos: this.pos, params, options, control, report, role });
      bestMove = moveToUci(this.pos, result.move);
      if (result.ponder !== 0 && result.move !== 0) {
        this.pos.makeMove(result.move);
        ponderMove = moveToUci(this.pos, result.ponder);
        this.pos.unmakeMove();
      }
    } catch (e) {
      note(`error: the search failed: ${errorText(e)}`);
    } finally {
      // Normally done by the search already; a search that failed must not leave its helpers running.
      helpers?.finish();
    }
    // Table files found damaged during this search (the search went on without them).
    for (const problem of this.tablebases?.takeProblems() ?? []) note(`SyzygyPath: ${problem}`);

    // The protocol: no bestmove before `stop` in infinite mode, or before
    // ponderhit/stop while pondering, even if the search ended early.
    holdWhileRequired(control, params);

    // Check the answer against a fresh copy of the position. In its place: the
    // best allowed move the lines showed, else a quick look at the allowed moves.
    try {
      this.load(spec);
    } catch (e) {
      note(`error: ${errorText(e)}`);
    }
    const replacement = (): string => shown.move ?? emergencyMove(spec, allowed).move;
    if (bestMove === null) {
      bestMove = replacement();
      ponderMove = null;
    } else if (legal.length === 0 ? bestMove !== NO_MOVE_UCI : !allowed.includes(bestMove)) {
      const played = replacement();
      note(`error: the search returned ${bestMove}, not a move it may play here; playing ${played}`);
      bestMove = played;
      ponderMove = null;
    }
    if (ponderMove !== null && bestMove !== NO_MOVE_UCI) {
      try {
        this.pos.makeMove(parseUciMove(this.pos, bestMove));
        parseUciMove(this.pos, ponderMove);
      } catch {
        note(`error: the search returned ponder move ${ponderMove}, not legal after ${bestMove}; dropped`);
        ponderMove = null;
      }
    } else {
      ponderMove = null;
    }
    this.send({ type: 'done', id, bestMove, ponderMove });
  }

  /** `go perft <depth>`: leaf counts per root move, then the total (Stockfish's layout). */
  private perft(id: number, spec: PositionSpec, depth: number, control: SearchControl): void {
    const emit = (text: string): void => this.send({ type: 'text', id, text });
    const summary: string[] = [];
    try {
      this.load(spec);
      const n = generateMoves(this.pos, this.moves, 0, false);
      const root = Array.from(this.moves.subarray(0, n));
      const counter = new Perft(depth);
      let total = 0;
      let stopped = false;
      const t0 = performance.now();
      for (const move of root) {
        if (control.stopped) {
          stopped = true;
          break;
        }
        const name = moveToUci(this.pos, move);
        this.pos.makeMove(move);
        const count = counter.count(this.pos, depth - 1);
        this.pos.unmakeMove();
        total += count;
        emit(`${name}: ${count}`);
      }
      const ms = performance.now() - t0;
      // The summary travels with 'done', so that the job is over when a client reads it.
      summary.push(
        stopped
          ? 'info string perft stopped before the last root move; the total is partial'
          : `info string perft depth ${depth} time ${Math.round(ms)} ms nps ${ms > 0 ? Math.round((total / ms) * 1000) : 0}`,
        '',
        `Nodes searched: ${total}`,
      );
    } catch (e) {
      this.send({ type: 'note', id, text: `error: perft failed: ${errorText(e)}` });
    }
    this.send({ type: 'done', id, bestMove: null, ponderMove: null, lines: summary });
  }

  /** `bench [depth]`. */
  private bench(id: number, depth: number | null): void {
    // The totals (from the separator line on) travel with 'done', so that the job is over when a client reads them.
    const summary: string[] = [];
    const emit = (text: string): void => {
      if (summary.length > 0 || text.startsWith('=====')) summary.push(text);
      else this.send({ type: 'text', id, text });
    };
    try {
      runBench(depth ?? DEFAULT_BENCH_DEPTH, emit);
    } catch (e) {
      emit(`info string error: bench failed: ${errorText(e)}`);
    }
    this.send({ type: 'done', id, bestMove: null, ponderMove: null, lines: summary });
  }
}

/**
 * Throws when a table of `mb` MB is more than the machine's memory: the
 * system would grant it (a table is allocated in segments, each of which it
 * grants), and the engine be killed once the search had filled it.
 */
function checkHashFits(mb: number): void {
  const memory = platform.memoryMb;
  if (memory !== null && mb > memory) throw new Error(`${mb} MB is more than this machine's memory (${memory} MB)`);
}

/**
 * The limits as they stand now: the clocks and movetime less the time since
 * the main thread read `go` (a queued Hash resize, or the worker starting up).
 */
function withLag(params: GoParams, lagMs: number): GoParams {
  // Pondering: the clock starts at ponderhit, so the lag costs nothing.
  if (!(lagMs >= 2) || params.ponder || params.infinite) return params;
  const less = (ms: number | undefined, floor: number): number | undefined => (ms === undefined ? undefined : Math.max(floor, ms - lagMs));
  return { ...params, wtime: less(params.wtime, 0), btime: less(params.btime, 0), movetime: less(params.movetime, 1) };
}

/** Blocks (this is a worker) while `infinite`, or `ponder` without ponderhit, holds and stop has not come. */
function holdWhileRequired(control: SearchControl, params: GoParams): void {
  // Without shared memory no flag can arrive: the main thread holds the answer instead.
  if (!control.shared) return;
  const flags = control.flags;
  while (!control.stopped && (params.infinite || (params.ponder && !control.ponderhitReceived))) {
    // The main thread notifies index 0 after raising any flag; the timeout is a safety net.
    Atomics.wait(flags, 0, Atomics.load(flags, 0), 50);
  }
}

// In a browser the worker learns its role from its first message, after this module has run: its entry starts it then.
if (isSearchWorker()) runSearchWorker();
