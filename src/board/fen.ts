// FEN, read and written: parseFen checks a FEN (or X-FEN / Shredder-FEN
// castling) and says what it describes, which Position.setFen loads;
// formatFen writes a position's FEN. A FEN that cannot describe a legal
// position is refused with a one-line reason (FenError).

import { parseSquare, squareName } from './bitboard.js';
import type { Position } from './position.js';
import { BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE, makePiece, pieceChar, pieceFromChar } from './types.js';

/** A FEN the parser refused, with the reason in the message. */
export class FenError extends Error {}

/** What a FEN says, checked: Position.setFen loads it. */
export interface ParsedFen {
  board: Uint8Array;
  side: number;
  /** Castling rook square per right (WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO), or -1. */
  castleRooks: number[];
  ep: number;
  halfmove: number;
  fullmove: number;
}

/**
 * The largest move counter a FEN may give: the counters stay small integers
 * through any game played from it (the undo stack keeps the halfmove clock in
 * an Int32Array), and fen() prints them as read (not as 1e+21).
 */
const MAX_FEN_COUNTER = 2 ** 30;

/** Parses and validates FEN; throws FenError with a one-line reason. */
export function parseFen(fen: string): ParsedFen {
  const fields = fen.trim().split(/\s+/);
  if (fields.length < 4 || fields.length > 6 || fields[0] === '') {
    throw new FenError(
      `expected 4 to 6 fields (placement, side, castling, en passant, counters), got ${fields[0] === '' ? 0 : fields.length}`,
    );
  }
  const board = new Uint8Array(64);
  const ranks = fields[0].split('/');
  if (ranks.length !== 8) throw new FenError(`piece placement has ${ranks.length} ranks, expected 8`);
  for (let i = 0; i < 8; i++) {
    const rank = 7 - i;
    let file = 0;
    for (const ch of ranks[i]) {
      if (ch >= '1' && ch <= '8') {
        file += ch.charCodeAt(0) - 48;
      } else {
        const piece = pieceFromChar(ch);
        if (piece < 0) throw new FenError(`unknown piece letter '${ch}' in rank ${rank + 1}`);
        if (file < 8) board[rank * 8 + file] = piece;
        file++;
      }
      if (file > 8) break;
    }
    if (file !== 8) throw new FenError(`rank ${rank + 1} ('${ranks[i]}') does not add up to 8 squares`);
  }
  for (const color of [WHITE, BLACK]) {
    let kings = 0;
    for (let sq = 0; sq < 64; sq++) if (board[sq] === makePiece(color, KING)) kings++;
    if (kings !== 1) throw new FenError(`${color === WHITE ? 'white' : 'black'} has ${kings} kings, expected exactly 1`);
  }
  for (const color of [WHITE, BLACK]) {
    // More pieces than promotions could have made: no game reaches it (and move lists are sized for games' positions).
    const count = [0, 0, 0, 0, 0, 0, 0];
    for (let sq = 0; sq < 64; sq++) if (board[sq] !== 0 && board[sq] >> 3 === color) count[board[sq] & 7]++;
    const promoted =
      Math.max(0, count[KNIGHT] - 2) + Math.max(0, count[BISHOP] - 2) + Math.max(0, count[ROOK] - 2) + Math.max(0, count[QUEEN] - 1);
    if (count[PAWN] + promoted > 8) {
      throw new FenError(
        `${color === WHITE ? 'white' : 'black'} has ${count[PAWN]} pawns and ${promoted} pieces beyond the initial set: more than 8 pawns could give`,
      );
    }
  }
  for (let f = 0; f < 8; f++) {
    if ((board[f] & 7) === PAWN || (board[56 + f] & 7) === PAWN) {
      throw new FenError('a pawn stands on the first or last rank');
    }
  }

  let side: number;
  if (fields[1] === 'w') side = WHITE;
  else if (fields[1] === 'b') side = BLACK;
  else throw new FenError(`side to move must be 'w' or 'b', got '${fields[1]}'`);

  const castleRooks = [-1, -1, -1, -1];
  if (fields[2] !== '-') {
    for (const ch of fields[2]) {
      const color = ch >= 'a' && ch <= 'z' ? BLACK : WHITE;
      const backRank = color === WHITE ? 0 : 56;
      const rook = makePiece(color, ROOK);
      let kingFile = -1;
      for (let f = 0; f < 8; f++) if (board[backRank + f] === makePiece(color, KING)) kingFile = f;
      const who = color === WHITE ? 'white' : 'black';
      if (kingFile < 0) throw new FenError(`castling right '${ch}' but the ${who} king is not on its first rank`);
      const up = ch.toUpperCase();
      let rookFile = -1;
      if (up === 'K') {
        for (let f = 7; f > kingFile && rookFile < 0; f--) if (board[backRank + f] === rook) rookFile = f;
      } else if (up === 'Q') {
        for (let f = 0; f < kingFile && rookFile < 0; f++) if (board[backRank + f] === rook) rookFile = f;
      } else if (up >= 'A' && up <= 'H') {
        rookFile = up.charCodeAt(0) - 65;
        if (board[backRank + rookFile] !== rook || rookFile === kingFile) rookFile = -1;
      } else {
        throw new FenError(`unknown castling letter '${ch}'`);
      }
      if (rookFile < 0) throw new FenError(`castling right '${ch}' does not match the pieces: no ${who} rook to castle with`);
      const r = color * 2 + (rookFile > kingFile ? 0 : 1);
      if (castleRooks[r] >= 0 && castleRooks[r] !== backRank + rookFile) {
        throw new FenError(`castling field '${fields[2]}' gives two rooks to one side`);
      }
      castleRooks[r] = backRank + rookFile;
    }
  }

  let ep = -1;
  if (fields[3] !== '-') {
    ep = parseSquare(fields[3]);
    if (ep < 0) throw new FenError(`en-passant square '${fields[3]}' is not a square`);
    const them = side ^ 1;
    const expectedRank = side === WHITE ? 5 : 2;
    const pawnSq = side === WHITE ? ep - 8 : ep + 8;
    const originSq = side === WHITE ? ep + 8 : ep - 8;
    if (ep >> 3 !== expectedRank || board[pawnSq] !== makePiece(them, PAWN) || board[ep] !== 0 || board[originSq] !== 0) {
      throw new FenError(`impossible en-passant square '${fields[3]}': no pawn just made a double step there`);
    }
  }

  const counter = (text: string | undefined, name: string, fallback: number): number => {
    if (text === undefined) return fallback;
    if (!/^\d+$/.test(text)) throw new FenError(`${name} '${text}' is not a non-negative integer`);
    const n = Number(text);
    if (n > MAX_FEN_COUNTER) throw new FenError(`${name} '${text}' is above ${MAX_FEN_COUNTER}`);
    return n;
  };
  const halfmove = counter(fields[4], 'halfmove clock', 0);
  const fullmove = Math.max(1, counter(fields[5], 'fullmove number', 1));
  return { board, side, castleRooks, ep, halfmove, fullmove };
}

/** The position as FEN; castling in X-FEN style (KQkq unless a rook is not the outermost). */
export function formatFen(pos: Position): string {
  let out = '';
  for (let rank = 7; rank >= 0; rank--) {
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const piece = pos.board[rank * 8 + file];
      if (piece === 0) {
        empty++;
      } else {
        if (empty > 0) out += empty;
        empty = 0;
        out += pieceChar(piece);
      }
    }
    if (empty > 0) out += empty;
    if (rank > 0) out += '/';
  }
  out += pos.side === WHITE ? ' w ' : ' b ';
  out += castlingField(pos);
  out += ` ${pos.ep >= 0 ? squareName(pos.ep) : '-'}`;
  out += ` ${pos.halfmove} ${pos.fullmove}`;
  return out;
}

function castlingField(pos: Position): string {
  let s = '';
  for (let r = 0; r < 4; r++) {
    if (!(pos.castling & (1 << r))) continue;
    const color = r >> 1;
    const rookSq = pos.castleRookSq[r];
    // Is there another rook of ours further out on the same side? Then name the file.
    const rook = makePiece(color, ROOK);
    const step = (r & 1) === 0 ? 1 : -1;
    let outermost = true;
    for (let f = (rookSq & 7) + step; f >= 0 && f < 8; f += step) {
      if (pos.board[(rookSq & 56) + f] === rook) outermost = false;
    }
    const ch = outermost ? ((r & 1) === 0 ? 'K' : 'Q') : String.fromCharCode(65 + (rookSq & 7));
    s += color === WHITE ? ch : ch.toLowerCase();
  }
  return s === '' ? '-' : s;
}
