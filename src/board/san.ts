// Standard Algebraic Notation (SAN): 'Nbd7', 'exd6', 'e8=Q+', 'O-O-O#'.
// The parser is tolerant of what PGN files and humans write: '0-0', '+'/'#'
// and '!?' marks, 'e8Q' without '=', 'exd6 e.p.', and long forms such as
// 'Ng1f3' or 'e2e4'; a capture mark is not checked against the board.

import { parseSquare, squareName } from './bitboard.js';
import { generateMoves } from './movegen.js';
import { MoveError, moveToUci } from './notation.js';
import type { Position } from './position.js';
import {
  CASTLE,
  EN_PASSANT,
  MAX_MOVES,
  PAWN,
  isPromotion,
  moveFrom,
  moveKind,
  moveTo,
  pieceChar,
  pieceFromChar,
  promotionType,
} from './types.js';

/** Scratch move lists: [0, MAX_MOVES) for pos, [MAX_MOVES, 2 * MAX_MOVES) for the position after the move. */
const scratch = new Int32Array(2 * MAX_MOVES);

function isCastlingKingSide(move: number): boolean {
  return moveTo(move) > moveFrom(move); // castling is stored king-takes-rook
}

/** The legal move `move` of pos in SAN, with '+' or '#' when it gives check or mate. */
export function moveToSan(pos: Position, move: number): string {
  const end = generateMoves(pos, scratch, 0, false);
  let legal = false;
  for (let i = 0; i < end && !legal; i++) legal = scratch[i] === move;
  if (!legal) throw new MoveError(`illegal move ${moveToUci(pos, move)} in ${pos.fen()}`);
  const from = moveFrom(move);
  const to = moveTo(move);
  const type = pos.board[from] & 7;
  let san: string;

  if (moveKind(move) === CASTLE) {
    san = isCastlingKingSide(move) ? 'O-O' : 'O-O-O';
  } else if (type === PAWN) {
    const capture = pos.board[to] !== 0 || moveKind(move) === EN_PASSANT;
    san = (capture ? `${squareName(from)[0]}x` : '') + squareName(to);
    if (isPromotion(move)) san += `=${pieceChar(promotionType(move))}`;
  } else {
    // A white piece's code is its type, so pieceChar(type) is the SAN letter.
    san = pieceChar(type) + disambiguation(pos, move, end) + (pos.board[to] !== 0 ? 'x' : '') + squareName(to);
  }

  pos.makeMove(move);
  if (pos.inCheck()) san += generateMoves(pos, scratch, MAX_MOVES, false) === MAX_MOVES ? '#' : '+';
  pos.unmakeMove();
  return san;
}

/**
 * What must follow the piece letter so no other legal move of the same piece
 * type reaches the same square: nothing, the file, the rank, or both.
 */
function disambiguation(pos: Position, move: number, end: number): string {
  const from = moveFrom(move);
  const to = moveTo(move);
  let rivals = false;
  let sameFile = false;
  let sameRank = false;
  for (let i = 0; i < end; i++) {
    const other = scratch[i];
    const otherFrom = moveFrom(other);
    if (otherFrom === from || moveTo(other) !== to || moveKind(other) === CASTLE) continue;
    if (pos.board[otherFrom] !== pos.board[from]) continue;
    rivals = true;
    if ((otherFrom & 7) === (from & 7)) sameFile = true;
    if (otherFrom >> 3 === from >> 3) sameRank = true;
  }
  if (!rivals) return '';
  const name = squareName(from);
  if (!sameFile) return name[0];
  if (!sameRank) return name[1];
  return name;
}

// Piece letter, origin file, origin rank, capture or hyphen, destination, promotion.
const SAN_PATTERN = /^([PNBRQK])?([a-h])?([1-8])?[x:-]?([a-h][1-8])(?:=?([NBRQnbrq]))?$/;

/**
 * The legal move of pos written `text` in SAN. Throws MoveError: "malformed
 * move ..." for text that is not SAN, "illegal move ..." or "ambiguous move
 * ..." otherwise.
 */
export function parseSan(pos: Position, text: string): number {
  const core = text
    .trim()
    .replace(/[+#!?]+$/, '')
    .replace(/(?<=[1-8])\s*e\.?p\.?$/i, '');
  const end = generateMoves(pos, scratch, 0, false);

  const castling = /^([O0o])-\1(-\1)?$/.exec(core);
  if (castling !== null) {
    const kingSide = castling[2] === undefined;
    for (let i = 0; i < end; i++) {
      const move = scratch[i];
      if (moveKind(move) === CASTLE && isCastlingKingSide(move) === kingSide) return move;
    }
    throw new MoveError(`illegal move ${text}`);
  }

  const m = SAN_PATTERN.exec(core);
  if (m === null) throw new MoveError(`malformed move '${text}'`);
  const type = m[1] === undefined ? PAWN : pieceFromChar(m[1]);
  const fromFile = m[2] === undefined ? -1 : m[2].charCodeAt(0) - 97;
  const fromRank = m[3] === undefined ? -1 : m[3].charCodeAt(0) - 49;
  const to = parseSquare(m[4]);
  const promotion = m[5] === undefined ? 0 : pieceFromChar(m[5].toUpperCase());

  let found = 0;
  let count = 0;
  let promotionMissing = false;
  for (let i = 0; i < end; i++) {
    const move = scratch[i];
    const from = moveFrom(move);
    if (moveTo(move) !== to || moveKind(move) === CASTLE || (pos.board[from] & 7) !== type) continue;
    if ((fromFile >= 0 && (from & 7) !== fromFile) || (fromRank >= 0 && from >> 3 !== fromRank)) continue;
    if (isPromotion(move) && promotion === 0) {
      promotionMissing = true;
      continue;
    }
    if ((isPromotion(move) ? promotionType(move) : 0) !== promotion) continue;
    found = move;
    count++;
  }
  if (count === 1) return found;
  if (count > 1) throw new MoveError(`ambiguous move ${text}: ${candidates(pos, type, to, end).join(' or ')}`);
  if (promotionMissing) throw new MoveError(`illegal move ${text}: a promotion needs a piece (${core}=Q)`);
  throw new MoveError(`illegal move ${text}`);
}

/** SAN of every legal move of a piece type to a square (for ambiguity messages). */
function candidates(pos: Position, type: number, to: number, end: number): string[] {
  const moves: number[] = [];
  for (let i = 0; i < end; i++) {
    const move = scratch[i];
    if (moveTo(move) === to && moveKind(move) !== CASTLE && (pos.board[moveFrom(move)] & 7) === type) moves.push(move);
  }
  return moves.map((move) => moveToSan(pos, move));
}
