// Colours, pieces and the integer move encoding shared by every module.

export const WHITE = 0;
export const BLACK = 1;

export const PAWN = 1;
export const KNIGHT = 2;
export const BISHOP = 3;
export const ROOK = 4;
export const QUEEN = 5;
export const KING = 6;

/** A piece is colour * 8 + type: white 1..6, black 9..14; 0 is an empty square. */
export function makePiece(color: number, type: number): number {
  return (color << 3) | type;
}

const PIECE_CHARS = ' PNBRQK  pnbrqk';

export function pieceChar(piece: number): string {
  return PIECE_CHARS[piece];
}

/** Piece code of a FEN letter, or -1. */
export function pieceFromChar(ch: string): number {
  const i = PIECE_CHARS.indexOf(ch);
  return ch === ' ' || i < 0 ? -1 : i;
}

// A move is one integer: from (bits 0-5), to (bits 6-11), kind (bits 12-15).
// Castling is stored king-takes-rook (to = the castling rook's square), which
// covers standard chess and Chess960 with one rule.
export const MOVE_NONE = 0;
export const NORMAL = 0;
export const DOUBLE_PUSH = 1;
export const CASTLE = 2;
export const EN_PASSANT = 3;
export const PROMO_KNIGHT = 4;
export const PROMO_BISHOP = 5;
export const PROMO_ROOK = 6;
export const PROMO_QUEEN = 7;

export function makeMove(from: number, to: number, kind: number): number {
  return from | (to << 6) | (kind << 12);
}

export function moveFrom(move: number): number {
  return move & 63;
}

export function moveTo(move: number): number {
  return (move >> 6) & 63;
}

export function moveKind(move: number): number {
  return move >> 12;
}

export function isPromotion(move: number): boolean {
  return move >> 12 >= PROMO_KNIGHT;
}

/** Piece type a promotion creates (KNIGHT..QUEEN); only for promotions. */
export function promotionType(move: number): number {
  return (move >> 12) - 2;
}

export const MAX_PLY = 128;
export const MAX_MOVES = 256;
