// The Polyglot opening-book format: a file of 16-byte big-endian records
//   key u64 | move u16 | weight u16 | learn u32
// sorted by key (unsigned), several records per key for several moves.
// The key is the Polyglot Zobrist key, which Position keeps as keyHi/keyLo.
//
// A Polyglot move packs to-file (bits 0-2), to-row (3-5), from-file (6-8),
// from-row (9-11) and the promotion piece (12-14: none, n, b, r, q). Castling
// is written king-takes-rook (e1h1, e1a1, e8h8, e8a8 in standard chess), which
// is also how Kestrel stores a castling move, so from/to match one to one.

import { squareName } from '../board/bitboard.js';
import { generateMoves } from '../board/movegen.js';
import type { Position } from '../board/position.js';
import { MAX_MOVES, isPromotion, moveFrom, moveTo, promotionType } from '../board/types.js';

export const RECORD_SIZE = 16;

/** The Polyglot encoding of a (legal) Kestrel move. */
export function encodeMove(move: number): number {
  const promo = isPromotion(move) ? promotionType(move) - 1 : 0; // KNIGHT (2) -> 1 ... QUEEN (5) -> 4
  return moveTo(move) | (moveFrom(move) << 6) | (promo << 12);
}

/** A Polyglot move as text, for messages about moves that are not legal: from, to and promotion letter. */
export function rawMoveText(raw: number): string {
  const promo = (raw >> 12) & 7;
  const letter = promo === 0 ? '' : promo <= 4 ? 'nbrq'[promo - 1] : `?${promo}`;
  const high = raw >> 15 !== 0 ? ' (bit 15 set)' : '';
  return squareName((raw >> 6) & 63) + squareName(raw & 63) + letter + high;
}

/**
 * The legal move of pos that the Polyglot move `raw` stands for, or 0 when it
 * stands for none (an illegal move, a castling move written as the king's
 * two-square step, an unknown promotion code). `legal` holds pos's legal
 * moves in [0, end).
 */
export function decodeMove(raw: number, legal: Int32Array, end: number): number {
  if (raw >> 15 !== 0) return 0;
  const to = raw & 63;
  const from = (raw >> 6) & 63;
  const promo = (raw >> 12) & 7;
  for (let i = 0; i < end; i++) {
    const move = legal[i];
    if (moveFrom(move) !== from || moveTo(move) !== to) continue;
    // Castling is stored king-takes-rook by both, so from/to already single it out.
    if ((isPromotion(move) ? promotionType(move) - 1 : 0) === promo) return move;
  }
  return 0;
}

/** Scratch list for decoding outside the reader (single-threaded, never re-entered). */
const scratch = new Int32Array(MAX_MOVES);

/** decodeMove against pos's legal moves. */
export function decodeMoveIn(pos: Position, raw: number): number {
  return decodeMove(raw, scratch, generateMoves(pos, scratch, 0, false));
}

/** Sign of (aHi:aLo) - (bHi:bLo) for unsigned 32-bit halves. */
export function compareKeys(aHi: number, aLo: number, bHi: number, bLo: number): number {
  if (aHi !== bHi) return aHi < bHi ? -1 : 1;
  if (aLo !== bLo) return aLo < bLo ? -1 : 1;
  return 0;
}

export function keyToHex(hi: number, lo: number): string {
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}
