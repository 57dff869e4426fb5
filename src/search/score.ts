// The scale of the search's scores: centipawns from the side to move's view,
// with mates at the ends. A mate in n plies from the root scores MATE - n
// (the mated side -(MATE - n)); every score beyond MATE_BOUND is a mate.
// Below the mates lies the band of tablebase wins: a position the tables
// call won, n plies from the root, scores TB_WIN - n (a win, not a mate in
// so many moves). Every score beyond DECISIVE_BOUND is a mate or a
// tablebase result; evaluations stay far inside it (the network's at ±20000).

import { MAX_PLY } from '../board/types.js';

/** Beyond every score: the window's ends. */
export const INFINITE = 31000;
export const MATE = 30000;
/** Scores beyond this are mates (in at most MAX_PLY plies). */
export const MATE_BOUND = MATE - MAX_PLY;
/** A tablebase win found at the root; TB_WIN - ply at a ply below it. */
export const TB_WIN = MATE_BOUND - 1;
/** Scores beyond this are decisive: tablebase wins (and losses) and mates. */
export const DECISIVE_BOUND = TB_WIN - MAX_PLY;

/** 1 for a winning decisive score, -1 for a losing one, else 0. */
function decisiveSign(score: number): number {
  return (score >= DECISIVE_BOUND ? 1 : 0) - (score <= -DECISIVE_BOUND ? 1 : 0);
}

/**
 * Mate and tablebase scores are stored in the transposition table relative to the node,
 * not the root, so they stay true in other paths. The same arithmetic runs
 * on every path: a branch that only mate scores reach would have no type
 * feedback when V8 optimizes the search, and would deoptimize it whenever
 * the first mate score came by.
 */
export function scoreToTT(score: number, ply: number): number {
  return score + decisiveSign(score) * ply;
}

export function scoreFromTT(score: number, ply: number): number {
  return score - decisiveSign(score) * ply;
}
