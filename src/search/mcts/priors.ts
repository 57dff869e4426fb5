// The priors of the Monte Carlo tree search: how likely each legal move of a
// new node is to be the best, from what the engine already knows about move
// ordering, as a softmax over logits (temperature MCTS_PRIOR_TEMPERATURE):
//   - the transposition table's move: MCTS_PRIOR_TT;
//   - captures and promotions that do not lose material by static exchange:
//     MCTS_PRIOR_GOOD_NOISY plus the victim's value (most valuable victim
//     first); those that lose it: MCTS_PRIOR_BAD_NOISY; under-promotions:
//     MCTS_PRIOR_UNDERPROMOTION;
//   - quiet moves: their history (butterfly plus the continuation of the
//     last move), one logit per MCTS_PRIOR_HISTORY_DIVISOR;
//   - a move that gives check: MCTS_PRIOR_CHECK more.
// The table and the histories are filled by the short PVS that runs before
// the tree grows (mcts.ts) and by the quiescence searches at the leaves
// (table only); the tree itself teaches them nothing. Uniform priors (the
// `-uniform` drivers) give every move the same prior, for the ablation.

import { givesCheck } from '../../board/gives-check.js';
import type { Position } from '../../board/position.js';
import { SEE_VALUE, seeGE } from '../../board/see.js';
import { CASTLE, EN_PASSANT, PAWN, PROMO_KNIGHT, PROMO_QUEEN, moveTo } from '../../board/types.js';
import { type MoveHistory, NO_CONT, contKey } from '../history.js';
import {
  MCTS_PRIOR_BAD_NOISY,
  MCTS_PRIOR_CHECK,
  MCTS_PRIOR_GOOD_NOISY,
  MCTS_PRIOR_HISTORY_DIVISOR,
  MCTS_PRIOR_MVV_DIVISOR,
  MCTS_PRIOR_TEMPERATURE,
  MCTS_PRIOR_TT,
  MCTS_PRIOR_UNDERPROMOTION,
} from '../params.js';

/**
 * Writes the priors of moves[0..count) in pos to out[outStart..outStart +
 * count), summing to 1. ttMove: the table's move here (0: none); logits:
 * scratch of at least count entries.
 */
export function computePriors(
  pos: Position,
  history: MoveHistory,
  ttMove: number,
  moves: Int32Array,
  count: number,
  out: Float32Array,
  outStart: number,
  uniform: boolean,
  logits: Float64Array,
): void {
  if (uniform) {
    for (let i = 0; i < count; i++) out[outStart + i] = 1 / count;
    return;
  }
  const board = pos.board;
  const side = pos.side;
  const cont1 = lastMoveKey(pos);
  // Each logit is written into logits[] branch by branch: a variable that
  // took both integer and fractional values would be boxed on the heap.
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < count; i++) {
    const m = moves[i];
    const kind = m >> 12;
    const to = moveTo(m);
    const victim = kind === EN_PASSANT ? PAWN : kind === CASTLE ? 0 : board[to] & 7;
    if (kind >= PROMO_KNIGHT && kind !== PROMO_QUEEN) logits[i] = MCTS_PRIOR_UNDERPROMOTION;
    else if (victim === 0 && kind !== PROMO_QUEEN)
      logits[i] = history.historyOf(side, m, contKey(pos, m), cont1, NO_CONT) / MCTS_PRIOR_HISTORY_DIVISOR;
    else if (seeGE(pos, m, 0)) logits[i] = MCTS_PRIOR_GOOD_NOISY + SEE_VALUE[victim] / MCTS_PRIOR_MVV_DIVISOR;
    else logits[i] = MCTS_PRIOR_BAD_NOISY;
    if ((m & 0xffff) === ttMove) logits[i] += MCTS_PRIOR_TT;
    if (givesCheck(pos, m)) logits[i] += MCTS_PRIOR_CHECK;
    const logit = logits[i] / MCTS_PRIOR_TEMPERATURE;
    logits[i] = logit;
    if (logit > max) max = logit;
  }
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const e = Math.exp(logits[i] - max);
    logits[i] = e;
    sum += e;
  }
  for (let i = 0; i < count; i++) out[outStart + i] = logits[i] / sum;
}

/**
 * The continuation key (../history.ts) of the move that led to pos, read from
 * the board after it: the piece now on its destination. NO_CONT at the
 * start of the game's record or after a null move.
 */
function lastMoveKey(pos: Position): number {
  if (pos.ply === 0) return NO_CONT;
  const move = pos.stackMove[pos.ply - 1];
  if (move === 0) return NO_CONT;
  const to = moveTo(move);
  return pos.board[to] * 64 + to;
}
