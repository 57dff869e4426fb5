// Which positions are quiet enough to label with a game result: the static
// evaluation cannot see captures in flight, so the tuner must not learn from
// positions where the side to move can win material at once. A small
// material-only capture search decides: quiet when no sequence of captures
// (and promotions) gains anything over standing pat.

import { generateMoves } from '../board/movegen.js';
import type { Position } from '../board/position.js';
import { MAX_MOVES } from '../board/types.js';

const VALUE = [0, 100, 300, 300, 500, 900, 0, 0];
const MAX_DEPTH = 8;
const moves = new Int32Array((MAX_DEPTH + 1) * MAX_MOVES);

/** Material balance from the side to move's point of view. */
function material(pos: Position): number {
  let score = 0;
  for (let type = 1; type <= 5; type++) score += VALUE[type] * (pos.count(type) - pos.count(8 | type));
  return pos.side === 0 ? score : -score;
}

/** Fail-hard capture search on material only. */
function qsearch(pos: Position, alpha: number, beta: number, depth: number): number {
  const standPat = material(pos);
  if (standPat >= beta) return beta;
  if (standPat > alpha) alpha = standPat;
  if (depth >= MAX_DEPTH) return alpha;
  const start = depth * MAX_MOVES;
  const end = generateMoves(pos, moves, start, true);
  for (let i = start; i < end; i++) {
    pos.makeMove(moves[i]);
    const score = -qsearch(pos, -beta, -alpha, depth + 1);
    pos.unmakeMove();
    if (score >= beta) return beta;
    if (score > alpha) alpha = score;
  }
  return alpha;
}

/** True when the side to move is not in check and no capture sequence wins material. */
export function isQuiet(pos: Position): boolean {
  if (pos.inCheck()) return false;
  const standPat = material(pos);
  return qsearch(pos, standPat, standPat + 1, 0) <= standPat;
}
