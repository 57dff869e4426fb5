// Drawish endgames: how much of the endgame score the stronger side keeps.
// The evaluation multiplies its endgame part by scale / SCALE_NORMAL.

import type { Position } from '../board/position.js';
import { BISHOP, KNIGHT, PAWN, QUEEN, ROOK } from '../board/types.js';
import { LIGHT_HI, LIGHT_LO } from './tables.js';

export const SCALE_NORMAL = 128;
/** Opposite-coloured bishops and pawns only: the defender blockades the passers on the other colour. */
const SCALE_OCB = 64;
/** The stronger side has no pawns and at most a minor piece more: usually a fortress. */
const SCALE_MINOR_UP = 16;

/** Non-pawn material in rough points (N, B 3; R 5; Q 9), for deciding drawishness only. */
function pieces(pos: Position, c: number): number {
  const p = c << 3;
  return 3 * (pos.count(p | KNIGHT) + pos.count(p | BISHOP)) + 5 * pos.count(p | ROOK) + 9 * pos.count(p | QUEEN);
}

/** Scale (0..SCALE_NORMAL) for the endgame score of `strong`, the side the endgame score favours. */
export function endgameScale(pos: Position, phase: number, strong: number): number {
  if (phase === 2) {
    // Only a bishop each (and pawns), on squares of opposite colours.
    const wb = pos.lo(BISHOP) | pos.hi(BISHOP);
    const bbish = pos.lo(8 | BISHOP) | pos.hi(8 | BISHOP);
    if (wb !== 0 && bbish !== 0 && pos.count(BISHOP) === 1 && pos.count(8 | BISHOP) === 1) {
      const wLight = ((pos.lo(BISHOP) & LIGHT_LO) | (pos.hi(BISHOP) & LIGHT_HI)) !== 0;
      const bLight = ((pos.lo(8 | BISHOP) & LIGHT_LO) | (pos.hi(8 | BISHOP) & LIGHT_HI)) !== 0;
      if (wLight !== bLight) return SCALE_OCB;
    }
  }
  const sp = (strong << 3) | PAWN;
  if ((pos.lo(sp) | pos.hi(sp)) !== 0) return SCALE_NORMAL;
  // The stronger side has no pawns left.
  const strongPieces = pieces(pos, strong);
  const weakPieces = pieces(pos, strong ^ 1);
  // A lone king or king and minor cannot force mate at all.
  if (strongPieces <= 3) return 0;
  // Two knights cannot force mate against a bare king (with enemy pawns they sometimes can).
  const wp = ((strong ^ 1) << 3) | PAWN;
  if (strongPieces === 6 && weakPieces === 0 && (pos.lo(wp) | pos.hi(wp)) === 0 && pos.count((strong << 3) | KNIGHT) === 2) {
    return 0;
  }
  if (strongPieces - weakPieces <= 3) return SCALE_MINOR_UP;
  return SCALE_NORMAL;
}
