// Messages between the UCI thread (main) and the search worker. Everything
// the worker wants printed travels as a message, so the main thread is the
// only writer of stdout and decides the order of all output.

import { parseUciMove } from '../board/notation.js';
import type { Position } from '../board/position.js';
import type { NetworkChoice } from '../eval/index.js';

export { type NetworkChoice, applyNetworkChoice } from '../eval/index.js';
import type { GoParams, SearchOptions } from '../search/limits.js';
import type { LineInfo } from './info.js';

/** What the worker receives in workerData when it is created. */
export interface SearchWorkerData {
  kestrelRole: 'search-worker';
  hashMb: number;
  /** The Threads option: the worker starts threads - 1 helpers. */
  threads: number;
  /** Acknowledged (like a maintenance message) once the worker is ready to search. */
  bootSeq: number;
  /** The warm-up's stop flags (a SearchControl buffer): the UCI thread raises them when it posts a job, so the job does not wait for the warm-up. */
  warmUpControl?: SharedArrayBuffer;
  /** The evaluation to use (UseNNUE, EvalFile); absent: the engine's default. */
  network?: NetworkChoice;
  /** Set for a helper of a parallel search (started by the search worker's ThreadPool, not by the UCI thread). */
  helper?: { index: number; booted: SharedArrayBuffer };
}

/** A position as the worker rebuilds it: a FEN, then moves in UCI notation. */
export interface PositionSpec {
  fen: string;
  moves: string[];
  /** Castling notation for the search's output (UCI_Chess960 when `go` was sent). */
  chess960: boolean;
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

/** Main thread -> worker. Jobs (go, perft, bench) carry an id echoed in their replies. */
export type ToWorker =
  | { type: 'hash'; seq: number; mb: number }
  | { type: 'threads'; seq: number; threads: number }
  | { type: 'clear'; seq: number }
  | { type: 'network'; seq: number; choice: NetworkChoice }
  | {
      type: 'go';
      id: number;
      position: PositionSpec;
      params: GoParams;
      options: SearchOptions;
      /** Stop and ponderhit flags of this search only (a fresh buffer per search). */
      control: SharedArrayBuffer;
      /** Date.now() when the main thread read `go`: the clock runs from then, not from when the worker starts. */
      receivedAt: number;
      /** Report lines as `info` messages (LineInfo) instead of UCI text: the library's searches. */
      structured?: boolean;
    }
  | { type: 'perft'; id: number; position: PositionSpec; depth: number; control: SharedArrayBuffer }
  | { type: 'bench'; id: number; depth: number | null; control: SharedArrayBuffer };

/** Worker -> main thread. */
export type FromWorker =
  /** A line of output of job `id` (info lines, perft lines). */
  | { type: 'line'; id: number; text: string }
  /** A search line of a structured job `id`. */
  | { type: 'info'; id: number; info: LineInfo }
  /** Job `id` is over; for `go`, bestMove is set (UCI notation, '0000' if none). */
  /** lines: the job's last output lines, printed before the job counts as finished. */
  | { type: 'done'; id: number; bestMove: string | null; ponderMove: string | null; lines?: string[] }
  /** Maintenance message `seq` (hash, clear) has been applied. */
  | { type: 'ack'; seq: number }
  /** Something to report that belongs to no job (printed as an info string). */
  | { type: 'note'; text: string };

/** The first move of the pv of an info line about the best line (no multipv, or multipv 1); else null. */
export function firstPvMove(line: string): string | null {
  if (!line.startsWith('info ')) return null;
  const tokens = line.split(' ');
  if (tokens[1] === 'string') return null;
  const pv = tokens.indexOf('pv');
  if (pv < 0 || pv + 1 >= tokens.length) return null;
  const multipv = tokens.indexOf('multipv');
  if (multipv >= 0 && multipv < pv && tokens[multipv + 1] !== '1') return null;
  return tokens[pv + 1];
}

/** The message of a thrown value, for an `info string`. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
