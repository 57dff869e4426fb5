// Lazy SMP: what the searchers of one `go` share besides the transposition
// table. The main searcher runs the search the front end sees (time, limits,
// info lines, bestmove); helpers search the same position at the same time,
// each in its own worker, with their own history and killer tables, and only
// feed the shared transposition table. The main searcher starts them, raises
// their stop flag when it is done, and may then play a helper's move when a
// helper got deeper with a better score. It never waits for its helpers:
// they stop within a few hundred nodes, and what they published is read as it stands.
//
// ThreadState lives in SharedArrayBuffers, new for every search (so that a
// helper still finishing the last search disturbs nothing):
//   - control: a SearchControl whose stop flag is the helpers' (never the host's one);
//   - nodes: each searcher's node count (index 0 = main), published every few hundred nodes;
//   - results: each helper's last completed iteration (depth, score, pv),
//     written under a sequence number so that it is never read half-written.
// The worker plumbing (starting helpers, messages) is in src/engine/thread-pool.ts.

import { SearchControl } from './control.js';
import type { GoParams, SearchOptions } from './limits.js';
import { sharedMemory } from '../util/shared-memory.js';
import type { TranspositionTable } from './tt.js';

/** Threads option range. */
export const MAX_THREADS = 64;
/** Moves of a helper's pv kept in its result. */
const RESULT_PV = 64;

// Result words of one helper. R_SEQ is odd while the helper writes the others.
const R_SEQ = 0;
const R_DEPTH = 1;
const R_SCORE = 2;
const R_PV_LENGTH = 3;
const R_PV = 4;
const RESULT_WORDS = R_PV + RESULT_PV;
/** Longest wait for a helper halfway through writing its result. */
const RESULT_WAIT_MS = 100;

export interface ThreadStateBuffers {
  control: SharedArrayBuffer;
  nodes: SharedArrayBuffer;
  results: SharedArrayBuffer;
}

/** A helper's last completed iteration. */
export interface HelperResult {
  depth: number;
  score: number;
  pv: number[];
}

export class ThreadState {
  /** The helpers' stop flag (index 0 of its flags). */
  readonly control: SearchControl;
  private readonly nodeCounts: BigInt64Array;
  private readonly results: Int32Array;

  /** The state of a new search by `threads` searchers (the main one and threads - 1 helpers), or a view of one. */
  constructor(threadsOrBuffers: number | ThreadStateBuffers) {
    const b: ThreadStateBuffers =
      typeof threadsOrBuffers === 'number'
        ? {
            control: sharedMemory(16),
            nodes: sharedMemory(8 * threadsOrBuffers),
            results: sharedMemory(4 * RESULT_WORDS * threadsOrBuffers),
          }
        : threadsOrBuffers;
    this.control = new SearchControl(b.control);
    this.nodeCounts = new BigInt64Array(b.nodes);
    this.results = new Int32Array(b.results);
  }

  get buffers(): ThreadStateBuffers {
    return {
      control: this.control.buffer,
      nodes: this.nodeCounts.buffer as SharedArrayBuffer,
      results: this.results.buffer as SharedArrayBuffer,
    };
  }

  // Main side: stop, helperNodes, result. Helper side: publishNodes, publishResult.

  /** Raises the helpers' stop flag. */
  stop(): void {
    this.control.stop();
  }

  /** Publishes searcher `index`'s node count. */
  publishNodes(index: number, nodes: number): void {
    Atomics.store(this.nodeCounts, index, BigInt(nodes));
  }

  /** Nodes of all helpers (every searcher but the main one), as last published. */
  helperNodes(): number {
    let sum = 0;
    for (let i = 1; i < this.nodeCounts.length; i++) sum += Number(Atomics.load(this.nodeCounts, i));
    return sum;
  }

  /** Helper `index` completed an iteration. */
  publishResult(index: number, depth: number, score: number, pv: readonly number[]): void {
    const r = index * RESULT_WORDS;
    const n = Math.min(pv.length, RESULT_PV);
    Atomics.add(this.results, r + R_SEQ, 1); // odd: being written
    for (let i = 0; i < n; i++) this.results[r + R_PV + i] = pv[i];
    this.results[r + R_PV_LENGTH] = n;
    this.results[r + R_SCORE] = score;
    Atomics.store(this.results, r + R_DEPTH, depth);
    Atomics.add(this.results, r + R_SEQ, 1); // even: complete
    Atomics.notify(this.results, r + R_SEQ);
  }

  /** The deepest iteration any helper has completed and finished publishing (0 if none); reads no pv, allocates nothing. */
  deepestHelperDepth(): number {
    let deepest = 0;
    for (let r = RESULT_WORDS; r < this.results.length; r += RESULT_WORDS) {
      if (Atomics.load(this.results, r + R_SEQ) % 2 === 1) continue; // being written: not yet
      const depth = Atomics.load(this.results, r + R_DEPTH);
      if (depth > deepest) deepest = depth;
    }
    return deepest;
  }

  /** The last completed iteration of helper `index`, or null if it has none yet. */
  result(index: number): HelperResult | null {
    const r = index * RESULT_WORDS;
    // A helper may be writing right now (and may lose its core halfway, on a
    // loaded machine): read until the sequence number is even and unchanged,
    // waiting for the writer (RESULT_WAIT_MS at most) rather than spinning past it.
    const deadline = performance.now() + RESULT_WAIT_MS;
    for (;;) {
      const seq = Atomics.load(this.results, r + R_SEQ);
      if (seq === 0) return null;
      if (seq % 2 === 0) {
        const depth = this.results[r + R_DEPTH];
        const score = this.results[r + R_SCORE];
        const n = Math.min(this.results[r + R_PV_LENGTH], RESULT_PV);
        const pv: number[] = [];
        for (let i = 0; i < n; i++) pv.push(this.results[r + R_PV + i]);
        if (Atomics.load(this.results, r + R_SEQ) === seq) return { depth, score, pv };
      }
      const left = deadline - performance.now();
      if (left <= 0) break;
      if (seq % 2 === 1) waitUntil(this.results, r + R_SEQ, (v) => v !== seq, left);
    }
    return null;
  }
}

/**
 * The result of the helper that completed the deepest iteration with a
 * better score than `depth` / `score` (the main searcher's), if any, whose
 * move the search may play.
 */
export function bestHelperResult(
  helpers: HelperThreads,
  depth: number,
  score: number,
  playable: (move: number) => boolean,
): HelperResult | null {
  let best: HelperResult | null = null;
  for (let i = 1; i <= helpers.count; i++) {
    const r = helpers.state.result(i);
    if (r === null || r.pv.length === 0 || r.depth <= depth || r.score <= score || !playable(r.pv[0])) continue;
    best = r;
    depth = r.depth;
    score = r.score;
  }
  return best;
}

/** Waits (Atomics.wait, so also on a thread that must not return to its event loop) until done(array[index]) or timeoutMs. */
export function waitUntil(array: Int32Array, index: number, done: (value: number) => boolean, timeoutMs: number): boolean {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = Atomics.load(array, index);
    if (done(value)) return true;
    const left = deadline - performance.now();
    if (left <= 0) return false;
    Atomics.wait(array, index, value, Math.min(left, 50));
  }
}

/**
 * The main searcher's handle on its helpers for one `go`. The search calls
 * start() once its table is ready for the new search, and finish() when it
 * is done (before choosing the move).
 */
export interface HelperThreads {
  /** Number of helpers (Threads - 1). */
  readonly count: number;
  /** This search's shared state. */
  readonly state: ThreadState;
  /** Starts every helper on the position being searched, sharing `table` (already set to the new search's age). */
  start(table: TranspositionTable, params: GoParams, options: SearchOptions): void;
  /** Raises the helpers' stop flag (they stop within a few hundred nodes; nothing waits for them). */
  finish(): void;
}

/** How a searcher takes part in a parallel search (the argument of Searcher.go). */
export type ThreadRole = { kind: 'main'; helpers: HelperThreads } | { kind: 'helper'; index: number; state: ThreadState };

// Lazy SMP divergence: helpers skip some iterations, so that the threads
// are spread over neighbouring depths instead of all searching the same one.
// Helper i works in blocks of `block` depths, alternately searched and
// skipped, shifted by `shift`: helpers 1 and 2 take odd and even depths,
// 3 and 4 pairs of depths, 5 and 6 triples, and so on (a cycle of 8 helpers).

/** Whether helper `index` (1 and up) leaves iteration `depth` to the others. */
export function helperSkipsDepth(index: number, depth: number): boolean {
  if (index <= 0 || depth <= 1) return false;
  const block = 1 + (((index - 1) >> 1) % 4);
  const shift = index % 2 === 1 ? block : 0;
  return Math.floor((depth + shift) / block) % 2 === 0;
}
