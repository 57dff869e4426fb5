// The helpers of a parallel search (Threads > 1, Lazy SMP): Threads - 1
// worker threads, each owning a Searcher over the main searcher's
// transposition table (its SharedArrayBuffer travels with every job). The
// pool belongs to the thread of the main searcher: the search worker, or the
// CLI's `bench --threads`. See src/search/threads.ts for what is shared.
//
// The main searcher's thread blocks while it searches, so nothing here
// waits on messages: helpers report through shared memory (the boot count,
// and each search's ThreadState: node counts, results). Nothing waits for a
// helper to stop either: the next search has a ThreadState of its own, and
// a helper takes its job up when done with the last one (within 256
// nodes of the stop: the search's poll interval). Helpers are re-created (never reused across a change
// of Threads or Hash), and the old ones terminated.

import { type EngineWorker, platform } from '../platform/index.js';
import type { GoParams, SearchOptions } from '../search/limits.js';
import { MAX_THREADS, ThreadState, waitUntil, type HelperThreads } from '../search/threads.js';
import { HAS_SHARED_MEMORY, sharedMemory } from '../util/shared-memory.js';
import type { TranspositionTable } from '../search/tt.js';
import type { SearchParameterValues } from '../search/tuning.js';
import { type ThreadEvaluation, evaluationForThreads } from '../eval/index.js';
import type { FromHelper, ToHelper } from './helper.js';
import type { PositionSpec, SearchWorkerData } from './messages.js';
import { errorText } from '../util/errors.js';

/** How long new helpers may take to boot: this, plus BOOT_EACH_MS per helper. */
const BOOT_LIMIT_MS = 10000;
const BOOT_EACH_MS = 250;
/**
 * Helpers that boot at the same time, per core. Starting them all at once is
 * no faster (they share the cores), and a process cannot end before the
 * threads it is starting have started: with a few at a time, `quit` while
 * dozens boot ends the process at once.
 */
const BOOTING_PER_CORE = 2;
/** The niceness of helpers when there are more threads than cores (see SearchWorkerData.helper.nice). */
const OVERSUBSCRIBED_NICE = 19;

export class ThreadPool {
  private workers: EngineWorker[] = [];
  /** How many of the current helpers have booted (each adds 1). */
  private booted = new Int32Array(sharedMemory(4));
  /** A helper ended without being asked to: replace them all before the next search. */
  private broken = false;
  /** The search parameters set (a tuning build; new helpers too); undefined: params.ts's. */
  private params: SearchParameterValues | undefined;

  constructor(
    /** Starts a worker running this engine's code (search-worker.ts's startSearchWorker). */
    private readonly spawn: (data: SearchWorkerData) => EngineWorker,
    /** Reports problems (an info string). */
    private readonly note: (text: string) => void = () => {},
  ) {}

  /** Number of helpers (Threads - 1). */
  get helpers(): number {
    return this.workers.length;
  }

  /** Re-creates the helpers for `threads` threads in all (the caller's being the first), and waits until they are up. */
  setThreads(threads: number): void {
    this.terminate();
    const count = Math.max(1, Math.min(MAX_THREADS, Math.floor(threads))) - 1;
    this.booted = new Int32Array(sharedMemory(4));
    if (count === 0) return;
    if (!HAS_SHARED_MEMORY) {
      this.note('Threads: this host has no shared memory (a page that is not cross-origin isolated); searching with 1 thread');
      return;
    }
    // A browser starts a worker's nested workers only once it returns to its
    // event loop: there they all start now, and join the searches as they come up.
    const wait = platform.canWaitForWorkers;
    const limit = BOOT_LIMIT_MS + BOOT_EACH_MS * count;
    const deadline = performance.now() + limit;
    const atOnce = wait ? Math.max(2, BOOTING_PER_CORE * platform.cores) : count;
    const nice = count + 1 > platform.cores ? OVERSUBSCRIBED_NICE : 0;
    try {
      // The helpers evaluate as this thread does, sharing its network's weights.
      const evaluation = evaluationForThreads(count);
      for (let index = 1; index <= count; index++) {
        if (index > atOnce && !waitUntil(this.booted, 0, (n) => n > index - 1 - atOnce, deadline - performance.now())) break;
        this.workers.push(this.startHelper(index, evaluation, nice));
      }
    } catch (e) {
      this.note(`error: could not start ${count} helper threads (${errorText(e)}); searching with 1 thread`);
      this.terminate();
      return;
    }
    if (!wait) return;
    if (this.workers.length < count || !waitUntil(this.booted, 0, (n) => n >= count, deadline - performance.now())) {
      this.note(`error: the helper threads did not start within ${limit} ms; searching with 1 thread`);
      this.terminate();
    }
  }

  private startHelper(index: number, evaluation: ThreadEvaluation, nice: number): EngineWorker {
    const booted = this.booted.buffer as SharedArrayBuffer;
    const worker = this.spawn({
      kestrelRole: 'search-worker',
      hashMb: 0,
      threads: 1,
      bootSeq: 0,
      helper: { index, booted, evaluation, nice },
      params: this.params,
    });
    worker.on('message', (m: FromHelper) => {
      if (this.workers.includes(worker) && m.type === 'note') this.note(m.text);
    });
    worker.on('error', (e: unknown) => {
      if (this.workers.includes(worker)) this.note(`error: helper thread ${index} failed: ${errorText(e)}`);
    });
    worker.on('exit', () => {
      if (this.workers.includes(worker)) this.broken = true;
    });
    worker.unref();
    return worker;
  }

  /** Ends every helper (they stop at once: terminate() interrupts a search). */
  terminate(): void {
    const workers = this.workers;
    this.workers = [];
    this.broken = false;
    for (const w of workers) void w.terminate().catch(() => undefined);
  }

  /** `ucinewgame`: the helpers forget their move-ordering statistics (the main searcher clears the shared table). */
  clear(): void {
    this.post({ type: 'clear' });
  }

  /** This thread's evaluation has changed (UseNNUE, EvalFile): the helpers evaluate as it does from now on. */
  networkChanged(): void {
    if (this.workers.length > 0) this.post({ type: 'network', evaluation: evaluationForThreads(this.workers.length) });
  }

  /** The helpers search with these parameters from their next search on. */
  setParams(values: SearchParameterValues): void {
    this.params = values;
    this.post({ type: 'params', values });
  }

  private post(message: ToHelper): void {
    for (const w of this.workers) w.postMessage(message);
  }

  /** The helpers for a search of `position`, or null without helpers. Helpers that have died are replaced first. */
  forSearch(position: PositionSpec): HelperThreads | null {
    if (this.workers.length === 0) return null;
    if (this.broken) {
      this.note('error: a helper thread stopped; restarting the helper threads');
      this.setThreads(this.workers.length + 1);
      if (this.workers.length === 0) return null;
    }
    const count = this.workers.length;
    const state = new ThreadState(count + 1);
    let started = false;
    return {
      count,
      state,
      start: (table: TranspositionTable, params: GoParams, options: SearchOptions): void => {
        if (started) return;
        started = true;
        this.post({
          type: 'go',
          state: state.buffers,
          table: table.memory,
          generation: table.generation,
          position,
          // Helpers have no limits of their own: they search until the main searcher stops them.
          params: { depth: params.depth, infinite: false, ponder: false, searchmoves: params.searchmoves },
          options: { ...options, multiPv: 1 },
        });
      },
      finish: (): void => state.stop(),
    };
  }
}
