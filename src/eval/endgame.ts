// Drawish endgames: how much of the endgame score the stronger side keeps.
// The evaluation multiplies its endgame part by scale / SCALE_NORMAL.

import { popcount64 } from '../board/bitboard.js';
import { BISHOP, KNIGHT, PAWN, QUEEN, ROOK } from '../board/types.js';
import { LIGHT_HI, LIGHT_LO } from './tables.js';

export const SCALE_NORMAL = 128;
/** Opposite-coloured bishops and pawns only: the defender blockades the passers on the other colour. */
export const SCALE_OCB = 64;
/** The stronger side has no pawns and at most a minor piece more: usually a fortress. */
export const SCALE_MINOR_UP = 16;

function count(bb: Int32Array, piece: number): number {
  return popcount64(bb[piece * 2], bb[piece * 2 + 1]);
}

/** Non-pawn material in rough points (N, B 3; R 5; Q 9), for deciding drawishness only. */
function pieces(bb: Int32Array, c: number): number {
  const p = c << 3;
  return 3 * (count(bb, p | KNIGHT) + count(bb, p | BISHOP)) + 5 * count(bb, p | ROOK) + 9 * count(bb, p | QUEEN);
}

/**
 * True when neither side can possibly mate: no pawns, no rooks or queens and
 * at most one minor piece on the board (phase is the sum of PHASE_WEIGHT).
 */
export function insufficientMaterial(bb: Int32Array, phase: number): boolean {
  return phase <= 1 && (bb[PAWN * 2] | bb[PAWN * 2 + 1] | bb[(8 | PAWN) * 2] | bb[(8 | PAWN) * 2 + 1]) === 0;
}

/** Scale (0..SCALE_NORMAL) for the endgame score of `strong`, the side the endgame score favours. */
export function endgameScale(bb: Int32Array, phase: number, strong: number): number {
  if (phase === 2) {
    // Only a bishop each (and pawns), on squares of opposite colours.
    const wb = bb[BISHOP * 2] | bb[BISHOP * 2 + 1];
    const bbish = bb[(8 | BISHOP) * 2] | bb[(8 | BISHOP) * 2 + 1];
    if (wb !== 0 && bbish !== 0 && count(bb, BISHOP) === 1 && count(bb, 8 | BISHOP) === 1) {
      const wLight = ((bb[BISHOP * 2] & LIGHT_LO) | (bb[BISHOP * 2 + 1] & LIGHT_HI)) !== 0;
      const bLight = ((bb[(8 | BISHOP) * 2] & LIGHT_LO) | (bb[(8 | BISHOP) * 2 + 1] & LIGHT_HI)) !== 0;
      if (wLight !== bLight) return SCALE_OCB;
    }
  }
  const sp = (strong << 3) | PAWN;
  if ((bb[sp * 2] | bb[sp * 2 + 1]) !== 0) return SCALE_NORMAL;
  // The stronger side has no pawns left.
  const strongPieces = pieces(bb, strong);
  const weakPieces = pieces(bb, strong ^ 1);
  // A lone king or king and minor cannot force mate at all.
  if (strongPieces <= 3) return 0;
  // Two knights cannot force mate against a bare king (with enemy pawns they sometimes can).
  const wp = ((strong ^ 1) << 3) | PAWN;
  if (strongPieces === 6 && weakPieces === 0 && (bb[wp * 2] | bb[wp * 2 + 1]) === 0 && count(bb, (strong << 3) | KNIGHT) === 2) {
    return 0;
  }
  if (strongPieces - weakPieces <= 3) return SCALE_MINOR_UP;
  return SCALE_NORMAL;
}
