// Zobrist keys: Polyglot's random numbers (polyglot-random.ts) arranged by
// piece code and square, castling rights, en-passant file and side to move,
// as [lo, hi] int32 pairs, so that a position's key is its Polyglot book key.
// Position keeps its key incrementally; computeKey recomputes it.

import type { Position } from './position.js';
import { POLYGLOT_RANDOM } from './polyglot-random.js';
import { KING, PAWN, WHITE, makePiece } from './types.js';

/** Key of each piece code on each square: index (piece * 64 + square) * 2, then + 1 for the high half. */
export const ZOBRIST_PIECE = new Int32Array(16 * 64 * 2);
/** Key of each set of castling rights (0..15, Position.castling). */
export const ZOBRIST_CASTLING = new Int32Array(16 * 2);
/** Key of an en-passant square's file. */
export const ZOBRIST_EP_FILE = new Int32Array(8 * 2);
/** Key of white to move (Polyglot's "turn" number). */
export const ZOBRIST_WHITE_TO_MOVE_LO = POLYGLOT_RANDOM[780 * 2 + 1] | 0;
export const ZOBRIST_WHITE_TO_MOVE_HI = POLYGLOT_RANDOM[780 * 2] | 0;

// Polyglot's piece kind: black pawn 0, white pawn 1, black knight 2, ...
for (let color = 0; color < 2; color++) {
  for (let type = PAWN; type <= KING; type++) {
    const kind = (type - 1) * 2 + (color === WHITE ? 1 : 0);
    const piece = makePiece(color, type);
    for (let sq = 0; sq < 64; sq++) {
      const r = 64 * kind + sq;
      ZOBRIST_PIECE[(piece * 64 + sq) * 2] = POLYGLOT_RANDOM[r * 2 + 1] | 0;
      ZOBRIST_PIECE[(piece * 64 + sq) * 2 + 1] = POLYGLOT_RANDOM[r * 2] | 0;
    }
  }
}
for (let rights = 0; rights < 16; rights++) {
  for (let bit = 0; bit < 4; bit++) {
    if (rights & (1 << bit)) {
      ZOBRIST_CASTLING[rights * 2] ^= POLYGLOT_RANDOM[(768 + bit) * 2 + 1] | 0;
      ZOBRIST_CASTLING[rights * 2 + 1] ^= POLYGLOT_RANDOM[(768 + bit) * 2] | 0;
    }
  }
}
for (let file = 0; file < 8; file++) {
  ZOBRIST_EP_FILE[file * 2] = POLYGLOT_RANDOM[(772 + file) * 2 + 1] | 0;
  ZOBRIST_EP_FILE[file * 2 + 1] = POLYGLOT_RANDOM[(772 + file) * 2] | 0;
}

/** The key of pos computed from scratch, [lo, hi] (tests check the incremental key against it). */
export function computeKey(pos: Position): [number, number] {
  let lo = 0;
  let hi = 0;
  for (let sq = 0; sq < 64; sq++) {
    const p = pos.board[sq];
    if (p !== 0) {
      lo ^= ZOBRIST_PIECE[(p * 64 + sq) * 2];
      hi ^= ZOBRIST_PIECE[(p * 64 + sq) * 2 + 1];
    }
  }
  lo ^= ZOBRIST_CASTLING[pos.castling * 2];
  hi ^= ZOBRIST_CASTLING[pos.castling * 2 + 1];
  if (pos.ep >= 0) {
    lo ^= ZOBRIST_EP_FILE[(pos.ep & 7) * 2];
    hi ^= ZOBRIST_EP_FILE[(pos.ep & 7) * 2 + 1];
  }
  if (pos.side === WHITE) {
    lo ^= ZOBRIST_WHITE_TO_MOVE_LO;
    hi ^= ZOBRIST_WHITE_TO_MOVE_HI;
  }
  return [lo, hi];
}
