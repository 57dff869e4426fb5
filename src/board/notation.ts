// UCI long algebraic notation: 'e2e4', 'e7e8q'. Castling is written as the
// king's two-square step (e1g1) in standard chess and king-takes-rook (e1h1)
// in Chess960, where a king step can be ambiguous or not move at all.

import { parseSquare, squareName } from './bitboard.js';
import { generateMoves } from './movegen.js';
import type { Position } from './position.js';
import { CASTLE, MAX_MOVES, MOVE_NONE, isPromotion, moveFrom, moveKind, moveTo, promotionType } from './types.js';

/** A move the notation parsers refused; the message says why ("illegal move e2e5"). */
export class MoveError extends Error {}

const PROMOTION_LETTERS = 'nbrq'; // indexed by promotion type - KNIGHT

/** Legal-move scratch list for parsing (single-threaded, never re-entered). */
const scratch = new Int32Array(MAX_MOVES);

/**
 * The square a castling move is written to in UCI: the king's destination when
 * that is a plain two-square step in standard mode, else the rook's square.
 */
function castlingTarget(pos: Position, move: number): number {
  const from = moveFrom(move);
  // Right index 0..3 as in Position: the king-side right has the rook above the king.
  const kingTo = pos.castleKingTo[pos.side * 2 + (moveTo(move) > from ? 0 : 1)];
  return !pos.chess960 && Math.abs(kingTo - from) === 2 ? kingTo : moveTo(move);
}

/** UCI's null move: what `bestmove` says when there is no legal move. */
export const NO_MOVE_UCI = '0000';

/** A legal move of pos in UCI notation; MOVE_NONE is NO_MOVE_UCI. */
export function moveToUci(pos: Position, move: number): string {
  if (move === MOVE_NONE) return NO_MOVE_UCI;
  const to = moveKind(move) === CASTLE ? castlingTarget(pos, move) : moveTo(move);
  const promotion = isPromotion(move) ? PROMOTION_LETTERS[promotionType(move) - 2] : '';
  return squareName(moveFrom(move)) + squareName(to) + promotion;
}

/**
 * The legal move written `text` in UCI notation. Throws MoveError: "malformed
 * move ..." when the text is not a UCI move, "illegal move ..." when it is not
 * legal here. Castling is accepted king-takes-rook always, and as the king's
 * two-square step unless pos.chess960.
 */
export function parseUciMove(pos: Position, text: string): number {
  const m = /^([a-h][1-8])([a-h][1-8])([nbrqNBRQ]?)$/.exec(text);
  if (m === null) throw new MoveError(`malformed move '${text}'`);
  const from = parseSquare(m[1]);
  const to = parseSquare(m[2]);
  const promotion = m[3].toLowerCase();

  const end = generateMoves(pos, scratch, 0, false);
  let promotionMissing = false;
  for (let i = 0; i < end; i++) {
    const move = scratch[i];
    if (moveFrom(move) !== from) continue;
    if (moveKind(move) === CASTLE) {
      if (to === moveTo(move) || to === castlingTarget(pos, move)) return move;
    } else if (moveTo(move) === to) {
      if (!isPromotion(move)) {
        if (promotion === '') return move;
      } else if (promotion === '') {
        promotionMissing = true;
      } else if (PROMOTION_LETTERS[promotionType(move) - 2] === promotion) {
        return move;
      }
    }
  }
  if (promotionMissing) throw new MoveError(`illegal move ${text}: a promotion needs a piece letter (${text}q)`);
  throw new MoveError(`illegal move ${text}`);
}
