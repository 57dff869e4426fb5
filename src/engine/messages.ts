// Messages between the host (main thread) and the search worker. Everything
// the worker reports travels as a message, so the main thread alone decides
// what is shown and in which order.

import { parseUciMove } from '../board/notation.js';
import { Position } from '../board/position.js';
import type { NetworkChoice, ThreadEvaluation } from '../eval/index.js';

export { type NetworkChoice, applyNetworkChoice } from '../eval/index.js';
import type { GoParams, SearchOptions } from '../search/limits.js';
import type { SearchParameterValues } from '../search/tuning.js';
import type { CurrentMove, EngineLine } from './search-lines.js';
import type { SyzygySettings } from './tablebase-files.js';

/** What the worker receives in workerData when it is created. */
export interface SearchWorkerData {
  kestrelRole: 'search-worker';
  hashMb: number;
  /** The Threads option: the worker starts threads - 1 helpers. */
  threads: number;
  /** Acknowledged (like a maintenance message) once the worker is ready to search. */
  bootSeq: number;
  /** The warm-up's stop flags (a SearchControl buffer): the host raises them when it posts a job, so the job does not wait for the warm-up. */
  warmUpControl?: SharedArrayBuffer;
  /** The evaluation to use (UseNNUE, EvalFile); absent: the engine's default. */
  network?: NetworkChoice;
  /** Search parameters set by UCI options (a tuning build); absent: params.ts's. */
  params?: SearchParameterValues;
  /** Tablebases (SyzygyPath); absent: none. */
  syzygy?: SyzygySettings;
  /**
   * Set for a helper of a parallel search (started by the search worker's
   * ThreadPool, not by the engine host): its index (1 up), the count of
   * helpers booted, and the main searcher's evaluation (the network's
   * weights shared, region index - 1 of its WebAssembly memory this helper's).
   * nice: when the search has more threads than the machine has cores, the
   * helper lowers its scheduling priority to this niceness once booted (where
   * the host can), so that the threads that answer the GUI (the main
   * searcher's, checking its clock; the UCI loop's) still get the cores in
   * time. 0: it keeps the process's.
   */
  helper?: { index: number; booted: SharedArrayBuffer; evaluation: ThreadEvaluation; nice: number };
}

/** A position as the worker rebuilds it: a FEN, then moves in UCI notation. */
export interface PositionSpec {
  fen: string;
  moves: string[];
  /** Castling notation for the search's output (UCI_Chess960 when `go` was sent). */
  chess960: boolean;
}

/** Moves the worker replays before the last irreversible one: the Monte Carlo tree search reuses its tree one or two plies on. */
const REPLAY_KEEP = 2;
/** At most this many moves are replayed (reversible ones: the fifty-move rule has long ended such a game). */
const MAX_REPLAY = 1000;
/** Game length (plies) at which a front end's own Position drops its undo history (Position's stack holds 8192). */
export const MAX_HISTORY = 4096;

/**
 * Adds the move just played in pos to spec, the position as the worker
 * rebuilds it. Positions before an irreversible move cannot repeat, so
 * the spec starts again near it: REPLAY_KEEP moves before, so that the
 * tree search still finds the root of its last search (search/mcts/root.ts).
 */
export function appendSpecMove(spec: PositionSpec, pos: Position, uci: string): void {
  spec.moves.push(uci);
  if (pos.halfmove === 0 || spec.moves.length > MAX_REPLAY) {
    const keep = Math.min(REPLAY_KEEP, pos.ply);
    for (let j = 0; j < keep; j++) pos.unmakeMove();
    spec.fen = pos.fen();
    for (let j = keep; j > 0; j--) pos.makeMove(pos.stackMove[pos.ply]);
    spec.moves = spec.moves.slice(spec.moves.length - keep);
  }
}

/** The spec of the position after `moves` (UCI, legal) from `fen`, rebased as appendSpecMove says. */
export function positionSpec(fen: string, moves: readonly string[], chess960: boolean): PositionSpec {
  const pos = new Position(fen);
  const spec: PositionSpec = { fen, moves: [], chess960 };
  for (const uci of moves) {
    pos.makeMove(parseUciMove(pos, uci));
    appendSpecMove(spec, pos, uci);
    if (pos.ply >= MAX_HISTORY) pos.clearHistory();
  }
  return spec;
}

/**
 * Sets pos to spec. The moves are read in standard mode, which accepts
 * castling both as king-takes-rook and as the king's two-square step, so a
 * change of UCI_Chess960 after `position` cannot make them unreadable.
 */
export function loadPosition(pos: Position, spec: PositionSpec): void {
  pos.chess960 = false;
  pos.setFen(spec.fen);
  for (const text of spec.moves) pos.makeMove(parseUciMove(pos, text));
  pos.chess960 = spec.chess960;
}

/** A change of the worker's state, applied in order with the jobs and acknowledged by seq. */
export type Maintenance =
  | { type: 'hash'; mb: number }
  | { type: 'threads'; threads: number }
  | { type: 'clear' }
  | { type: 'network'; choice: NetworkChoice }
  /** SyzygyPath or how tablebases are used changed. */
  | { type: 'syzygy'; settings: SyzygySettings }
  /** Search parameters (a tuning build: src/search/tuning.ts), every one set so far. */
  | { type: 'params'; values: SearchParameterValues };

/** Main thread -> worker. Jobs (go, perft, bench) carry an id echoed in their replies. */
export type ToWorker =
  | (Maintenance & { seq: number })
  | {
      type: 'go';
      id: number;
      position: PositionSpec;
      params: GoParams;
      options: SearchOptions;
      /** Stop and ponderhit flags of this search only (a fresh buffer per search). */
      control: SharedArrayBuffer;
      /** Date.now() when the clock started (a GUI's `go` read): the worker takes the time since off the limits. */
      receivedAt: number;
      /** Report each line's moves in SAN too. */
      san: boolean;
    }
  | { type: 'perft'; id: number; position: PositionSpec; depth: number; control: SharedArrayBuffer }
  | { type: 'bench'; id: number; depth: number | null; control: SharedArrayBuffer };

/** Worker -> main thread. */
export type FromWorker =
  /** A search line of job `id`. */
  | { type: 'line'; id: number; line: EngineLine }
  /** The root move job `id` starts on. */
  | { type: 'currmove'; id: number; move: CurrentMove }
  /** A line of output of job `id` (perft, bench). */
  | { type: 'text'; id: number; text: string }
  /** Something to report (a problem, a remark): of job `id`, or of none. */
  | { type: 'note'; id?: number; text: string }
  /** Job `id` is over; for `go`, bestMove is set (UCI notation, '0000' if none). */
  /** lines: the job's last output lines, shown before the job counts as finished. */
  | { type: 'done'; id: number; bestMove: string | null; ponderMove: string | null; lines?: string[] }
  /** Maintenance message `seq` has been applied. */
  | { type: 'ack'; seq: number };
