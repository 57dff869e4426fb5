// Time management: how long to think on this move, and when to stop.
//
// The soft limit is the time after which no new iteration is started. The
// search scales it up when the best move is unstable or the score drops, and
// by the share of its nodes spent on moves other than the best (a best move
// that took nearly all of them is clear); it stops at once when only one
// move is legal or a mate is proven. The hard limit aborts the search
// mid-iteration; it is kept well inside the remaining clock so that the
// engine never loses on time.

import type { GoParams } from './limits.js';
import {
  TIME_HARD_CLOCK_SHARE,
  TIME_HARD_LAST_MOVE_SHARE,
  TIME_HARD_SOFT_RATIO,
  TIME_INCREMENT_SHARE,
  TIME_INSTABILITY_DECAY,
  TIME_INSTABILITY_SCALE,
  TIME_ITERATION_SHARE,
  TIME_MOVES_TO_GO,
  TIME_MOVES_TO_GO_MAX,
  TIME_NODES_BASE,
  TIME_NODES_SLOPE,
  TIME_RESERVE_INCREMENTS,
  TIME_RESERVE_MS,
  TIME_SCORE_DROP,
  TIME_SCORE_DROP_SCALE,
} from './params.js';

export interface TimeBudget {
  /** Milliseconds; 0 means no limit. */
  softMs: number;
  hardMs: number;
}

export function computeTimeBudget(params: GoParams, side: number, moveOverhead: number): TimeBudget {
  if (params.infinite) return { softMs: 0, hardMs: 0 };
  if (params.movetime !== undefined) {
    // A fixed time per move is used in full: no soft limit, only the hard one.
    return { softMs: 0, hardMs: Math.max(1, params.movetime - moveOverhead) };
  }
  const time = side === 0 ? params.wtime : params.btime;
  if (time === undefined) return { softMs: 0, hardMs: 0 };
  const inc = Math.max(0, (side === 0 ? params.winc : params.binc) ?? 0);
  // Keep the overhead in reserve, and never plan on the last few milliseconds.
  const available = Math.max(1, time - moveOverhead);
  const movesToGo =
    params.movestogo !== undefined && params.movestogo > 0 ? Math.min(params.movestogo, TIME_MOVES_TO_GO_MAX) : TIME_MOVES_TO_GO;
  // A reserve the plan does not spend: when the clock has run down to what
  // the increment pays for, TIME_RESERVE_INCREMENTS increments and
  // TIME_RESERVE_MS (besides the Move Overhead) are still left,
  // so that a stall of the machine (other processes, a garbage collection)
  // cannot run the clock out.
  const reserve = TIME_RESERVE_MS + TIME_RESERVE_INCREMENTS * inc;
  const aboveReserve = Math.max(0, available - reserve);
  let soft = aboveReserve / movesToGo + inc * TIME_INCREMENT_SHARE;
  // The hard limit: a few soft budgets, but never more than a fraction of what
  // is left, nor more than what is above the reserve plus the increment this
  // move earns back: searches that run to the hard limit move after move
  // (unstable best moves late in a game) then leave the clock at the reserve
  // instead of draining it to where one stall loses.
  const cap = params.movestogo === 1 ? available * TIME_HARD_LAST_MOVE_SHARE : available * TIME_HARD_CLOCK_SHARE;
  let hard = Math.min(soft * TIME_HARD_SOFT_RATIO, cap, aboveReserve + inc);
  soft = Math.min(soft, hard);
  hard = Math.max(1, Math.floor(hard));
  soft = Math.max(1, Math.floor(soft));
  return { softMs: soft, hardMs: hard };
}

/** The time decisions of one search: its budget, and after each iteration whether to start another. */
export class TimeManager {
  private budget: TimeBudget = { softMs: 0, hardMs: 0 };
  /** Changes of best move, decaying from iteration to iteration. */
  private instability = 0;
  private previousScore = 0;
  /** Whether a soft budget applies (a clock, and neither a fixed depth nor pondering). */
  private timed = false;

  /** The hard limit in milliseconds (0: none). */
  get hardMs(): number {
    return this.budget.hardMs;
  }

  start(params: GoParams, side: number, moveOverhead: number): void {
    this.budget = computeTimeBudget(params, side, moveOverhead);
    this.timed = this.budget.softMs > 0 && params.depth === undefined;
    this.instability = 0;
    this.previousScore = 0;
  }

  /**
   * An iteration of `depth` completed with bestScore, after elapsedMs (of the
   * clock that runs: pondering has none); bestMoveChanged if its best move
   * differs from the last iteration's; bestMoveShare the share of the
   * search's nodes spent under its best move. True when the search should
   * stop: the next iteration would rarely finish in time, or the move is
   * forced.
   */
  stopAfterIteration(
    depth: number,
    bestScore: number,
    bestMoveChanged: boolean,
    onlyMove: boolean,
    mateIn: number,
    elapsedMs: number,
    pondering: boolean,
    bestMoveShare: number,
  ): boolean {
    if (bestMoveChanged && depth > 1) this.instability += 1;
    if (this.timed && !pondering) {
      if (onlyMove && depth >= 2) return true;
      // A mate found (mateIn plies) and confirmed a few plies deeper.
      if (mateIn > 0 && depth >= mateIn + 4) return true;
      let scale = 1 + this.instability * TIME_INSTABILITY_SCALE;
      if (depth > 1 && bestScore < this.previousScore - TIME_SCORE_DROP) scale *= TIME_SCORE_DROP_SCALE;
      scale *= TIME_NODES_SLOPE * (1 - bestMoveShare) + TIME_NODES_BASE;
      if (elapsedMs > Math.min(this.budget.softMs * scale, this.budget.hardMs) * TIME_ITERATION_SHARE) return true;
    }
    this.instability *= TIME_INSTABILITY_DECAY;
    this.previousScore = bestScore;
    return false;
  }
}
