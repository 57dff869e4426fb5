// Whether a move gives check, without playing it (the search's futility
// pruning asks before it plays a quiet move).

import { BISHOP_RAYS, KNIGHT_ATTACKS, PAWN_ATTACKS, ROOK_RAYS, SLIDER_ATTACKS, bishopIndex, hasSquare, rookIndex } from './bitboard.js';
import type { Position } from './position.js';
import { BISHOP, CASTLE, EN_PASSANT, KING, KNIGHT, PAWN, ROOK, moveFrom, moveKind, moveTo, promotionType } from './types.js';

/**
 * True when the legal move `move` would put the opponent in check, without
 * playing it: a direct check by the piece that lands on `to`, or a
 * discovered check by one of our sliders along a line `from` opens.
 * Castling and en passant (rare) are played and taken back instead.
 */
export function givesCheck(pos: Position, move: number): boolean {
  const kind = moveKind(move);
  if (kind === CASTLE || kind === EN_PASSANT) {
    pos.makeMove(move);
    const check = pos.inCheck();
    pos.unmakeMove();
    return check;
  }
  const us = pos.side;
  const from = moveFrom(move);
  const to = moveTo(move);
  const king = pos.kingSq[us ^ 1];
  // Occupancy after the move: `from` empties, `to` is taken whether or not it held a piece.
  let occLo = pos.occLo();
  let occHi = pos.occHi();
  if (from < 32) occLo &= ~(1 << from);
  else occHi &= ~(1 << (from - 32));
  if (to < 32) occLo |= 1 << to;
  else occHi |= 1 << (to - 32);

  // Direct check by the piece that lands on `to` (a king gives none).
  const t2 = to * 2;
  const type = kind >= 4 ? promotionType(move) : pos.board[from] & 7;
  if (type === PAWN) {
    const p = (us * 64 + to) * 2;
    if (hasSquare(PAWN_ATTACKS[p], PAWN_ATTACKS[p + 1], king)) return true;
  } else if (type === KNIGHT) {
    if (hasSquare(KNIGHT_ATTACKS[t2], KNIGHT_ATTACKS[t2 + 1], king)) return true;
  } else if (type !== KING) {
    if (type !== ROOK && hasSquare(BISHOP_RAYS[t2], BISHOP_RAYS[t2 + 1], king)) {
      const b = bishopIndex(to, occLo, occHi);
      if (hasSquare(SLIDER_ATTACKS[b], SLIDER_ATTACKS[b + 1], king)) return true;
    }
    if (type !== BISHOP && hasSquare(ROOK_RAYS[t2], ROOK_RAYS[t2 + 1], king)) {
      const r = rookIndex(to, occLo, occHi);
      if (hasSquare(SLIDER_ATTACKS[r], SLIDER_ATTACKS[r + 1], king)) return true;
    }
  }

  // Discovered check, only possible when `from` lies on a line through the
  // enemy king. Before the move none of our pieces attacked that king (the
  // position is legal), and the move only opened `from`: so with the new
  // occupancy the king is attacked by our pieces, as the bitboards still
  // hold them, exactly when a slider now sees it through `from`.
  const k2 = king * 2;
  return (
    hasSquare(ROOK_RAYS[k2] | BISHOP_RAYS[k2], ROOK_RAYS[k2 + 1] | BISHOP_RAYS[k2 + 1], from) && pos.isAttackedWith(king, us, occLo, occHi)
  );
}
