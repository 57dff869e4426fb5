// Time management: how long to think on this move.
//
// The soft limit is the time after which no new iteration is started (the
// search may scale it up when the best move is unstable or the score drops,
// and down when only one move is legal). The hard limit aborts the search
// mid-iteration; it is kept well inside the remaining clock so that the
// engine never loses on time.

import type { GoParams } from './limits.js';

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
  const movesToGo = params.movestogo !== undefined && params.movestogo > 0 ? Math.min(params.movestogo, 40) : 30;
  // A reserve the plan does not spend: when the clock has run down to what
  // the increment pays for, about ten increments (and 100 ms) are still left,
  // so that a stall of the machine (other processes, a garbage collection)
  // cannot run the clock out.
  const reserve = 100 + 10 * inc;
  let soft = Math.max(0, available - reserve) / movesToGo + inc * 0.75;
  // The hard limit: a few soft budgets, but never more than a fraction of what is left.
  const cap = params.movestogo === 1 ? available * 0.8 : available * 0.4;
  let hard = Math.min(soft * 4, cap);
  soft = Math.min(soft, hard);
  hard = Math.max(1, Math.floor(hard));
  soft = Math.max(1, Math.floor(soft));
  return { softMs: soft, hardMs: hard };
}
