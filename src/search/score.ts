// The scale of the search's scores: centipawns from the side to move's view,
// with mates at the ends. A mate in n plies from the root scores MATE - n
// (the mated side -(MATE - n)); every score beyond MATE_BOUND is a mate.

import { MAX_PLY } from '../board/types.js';

/** Beyond every score: the window's ends. */
export const INFINITE = 31000;
export const MATE = 30000;
/** Scores beyond this are mates (in at most MAX_PLY plies). */
export const MATE_BOUND = MATE - MAX_PLY;

/** 1 for a winning mate score, -1 for a losing one, else 0. */
function mateSign(score: number): number {
  return (score >= MATE_BOUND ? 1 : 0) - (score <= -MATE_BOUND ? 1 : 0);
}

/**
 * Mate scores are stored in the transposition table relative to the node,
 * not the root, so they stay true in other paths. The same arithmetic runs
 * on every path: a branch that only mate scores reach would have no type
 * feedback when V8 optimizes the search, and would deoptimize it whenever
 * the first mate score came by.
 */
export function scoreToTT(score: number, ply: number): number {
  return score + mateSign(score) * ply;
}

export function scoreFromTT(score: number, ply: number): number {
  return score - mateSign(score) * ply;
}
