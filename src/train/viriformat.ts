// viriformat: the game format of the Viridithas engine, which the bullet
// trainer also reads (public repository cosmobobak/viriformat). A file is a
// sequence of games; a game is
//   - a marlinformat PackedBoard (32 bytes): the starting position and the result,
//   - a (move, score) pair of 16-bit little-endian words per ply played,
//   - four zero bytes.
// PackedBoard: occupancy as a little-endian u64; then 32 four-bit pieces
// (the i-th for the i-th set bit of the occupancy, low nibble first), each
// type 0..5 for pawn..king, 6 for a rook that still carries a castling right,
// plus 8 for Black; then a byte side-to-move (bit 7, set for Black) and
// en-passant square (64 for none); the halfmove clock (u8); the fullmove
// number (u16); a score (i16, 0 here); the result (0 Black won, 1 draw, 2
// White won) and a spare byte.
// A move: from (bits 0-5), to (6-11), promotion piece (12-13: knight 0 ..
// queen 3), kind (14-15: 1 en passant, 2 castling, 3 promotion); castling is
// written king-takes-rook, as Kestrel stores it. A score is the search's
// score of the position the move was played in, from White's point of view.

import type { Position } from '../board/position.js';
import {
  BLACK,
  CASTLE,
  DOUBLE_PUSH,
  EN_PASSANT,
  KING,
  NORMAL,
  PAWN,
  ROOK,
  WHITE,
  isPromotion,
  makeMove,
  moveFrom,
  moveKind,
  moveTo,
  pieceChar,
} from '../board/types.js';

const PACKED_BOARD_BYTES = 32;
/** Bytes of one (move, score) pair, and of the terminator. */
const PLY_BYTES = 4;

export const RESULT_BLACK_WIN = 0;
export const RESULT_DRAW = 1;
export const RESULT_WHITE_WIN = 2;

const UNMOVED_ROOK = 6;
const FLAG_EN_PASSANT = 1;
const FLAG_CASTLE = 2;
const FLAG_PROMOTION = 3;

/** Writes pos as a PackedBoard into out at offset, with the game's result. */
export function packBoard(pos: Position, result: number, out: Uint8Array, offset: number): void {
  out.fill(0, offset, offset + PACKED_BOARD_BYTES);
  let nibble = 0;
  for (let sq = 0; sq < 64; sq++) {
    const piece = pos.board[sq];
    if (piece === 0) continue;
    out[offset + (sq >> 3)] |= 1 << (sq & 7);
    let code = (piece & 7) - 1;
    if ((piece & 7) === ROOK) {
      for (let r = 0; r < 4; r++) {
        if ((pos.castling & (1 << r)) !== 0 && pos.castleRookSq[r] === sq) code = UNMOVED_ROOK;
      }
    }
    code |= piece & 8;
    out[offset + 8 + (nibble >> 1)] |= code << ((nibble & 1) * 4);
    nibble++;
  }
  out[offset + 24] = (pos.side === BLACK ? 0x80 : 0) | (pos.ep >= 0 ? pos.ep : 64);
  out[offset + 25] = Math.min(255, pos.halfmove);
  out[offset + 26] = pos.fullmove & 0xff;
  out[offset + 27] = (pos.fullmove >> 8) & 0xff;
  // Bytes 28-29: the position's score, left at zero; 30: result; 31: spare.
  out[offset + 30] = result;
}

/**
 * Why the 32 bytes at offset are not a PackedBoard, or null when they could
 * be one: 2 to 32 pieces of valid codes, an en-passant square or none, a result.
 */
function packedBoardError(bytes: Uint8Array, offset: number): string | null {
  let pieces = 0;
  for (let i = 0; i < 8; i++) for (let b = bytes[offset + i]; b !== 0; b &= b - 1) pieces++;
  if (pieces < 2 || pieces > 32) return `${pieces} pieces`;
  for (let i = 0; i < pieces; i++) {
    const code = (bytes[offset + 8 + (i >> 1)] >> ((i & 1) * 4)) & 15;
    if ((code & 7) === 7) return `piece code ${code}`;
  }
  if ((bytes[offset + 24] & 0x7f) > 64) return `en-passant byte ${bytes[offset + 24] & 0x7f}`;
  if (bytes[offset + 30] > RESULT_WHITE_WIN) return `result byte ${bytes[offset + 30]}`;
  return null;
}

/** A PackedBoard read back: its FEN (castling in Shredder-FEN file letters) and result. */
export function unpackBoard(bytes: Uint8Array, offset: number): { fen: string; result: number } {
  const error = packedBoardError(bytes, offset);
  if (error !== null) throw new Error(`packed board: ${error}`);
  const board: number[] = new Array(64).fill(0);
  const castleFiles: string[] = [];
  let nibble = 0;
  const kingSeen = [false, false];
  for (let sq = 0; sq < 64; sq++) {
    if ((bytes[offset + (sq >> 3)] & (1 << (sq & 7))) === 0) continue;
    const code = (bytes[offset + 8 + (nibble >> 1)] >> ((nibble & 1) * 4)) & 15;
    nibble++;
    const color = code >> 3;
    let type = (code & 7) + 1;
    if ((code & 7) === UNMOVED_ROOK) {
      type = ROOK;
      const file = String.fromCharCode(65 + (sq & 7));
      castleFiles.push(color === WHITE ? file : file.toLowerCase());
    }
    if (type === KING) kingSeen[color] = true;
    board[sq] = (color << 3) | type;
  }
  let placement = '';
  for (let rank = 7; rank >= 0; rank--) {
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const p = board[rank * 8 + file];
      if (p === 0) {
        empty++;
        continue;
      }
      if (empty > 0) placement += empty;
      empty = 0;
      placement += pieceChar(p);
    }
    if (empty > 0) placement += empty;
    if (rank > 0) placement += '/';
  }
  const stmEp = bytes[offset + 24];
  const ep = stmEp & 0x7f;
  const epText = ep >= 64 ? '-' : String.fromCharCode(97 + (ep & 7)) + String(1 + (ep >> 3));
  // White's rights first, as FEN writes them.
  const castling = [...castleFiles.filter((c) => c < 'a'), ...castleFiles.filter((c) => c >= 'a')].join('') || '-';
  const halfmove = bytes[offset + 25];
  const fullmove = Math.max(1, bytes[offset + 26] | (bytes[offset + 27] << 8));
  const result = bytes[offset + 30];
  return { fen: `${placement} ${stmEp & 0x80 ? 'b' : 'w'} ${castling} ${epText} ${halfmove} ${fullmove}`, result };
}

/** A Kestrel move as a viriformat move. */
export function packMove(move: number): number {
  const kind = moveKind(move);
  let packed = moveFrom(move) | (moveTo(move) << 6);
  if (kind === EN_PASSANT) packed |= FLAG_EN_PASSANT << 14;
  else if (kind === CASTLE) packed |= FLAG_CASTLE << 14;
  else if (isPromotion(move)) packed |= ((kind - 4) << 12) | (FLAG_PROMOTION << 14);
  return packed;
}

/** A viriformat move as a Kestrel move of pos (the position it is played in); the moving piece tells a double push. */
export function unpackMove(pos: Position, packed: number): number {
  const from = packed & 63;
  const to = (packed >> 6) & 63;
  const flag = packed >> 14;
  if (flag === FLAG_EN_PASSANT) return makeMove(from, to, EN_PASSANT);
  if (flag === FLAG_CASTLE) return makeMove(from, to, CASTLE);
  if (flag === FLAG_PROMOTION) return makeMove(from, to, 4 + ((packed >> 12) & 3));
  const double = (pos.board[from] & 7) === PAWN && Math.abs(to - from) === 16;
  return makeMove(from, to, double ? DOUBLE_PUSH : NORMAL);
}

/** One game as viriformat bytes: start position, result, and per ply the move and White's score. */
export function encodeGame(
  start: Position,
  result: number,
  moves: ArrayLike<number>,
  whiteScores: ArrayLike<number>,
  plies: number,
): Uint8Array {
  const out = new Uint8Array(PACKED_BOARD_BYTES + (plies + 1) * PLY_BYTES);
  packBoard(start, result, out, 0);
  const view = new DataView(out.buffer);
  for (let i = 0; i < plies; i++) {
    const at = PACKED_BOARD_BYTES + i * PLY_BYTES;
    view.setUint16(at, packMove(moves[i]), true);
    view.setInt16(at + 2, Math.max(-32767, Math.min(32767, Math.round(whiteScores[i]))), true);
  }
  return out; // the terminator's four bytes are already zero
}

/** Where each complete game of a viriformat byte stream starts and how many plies it has. */
export interface GameIndex {
  /** Byte offset of each complete game. */
  offsets: number[];
  /** Plies (moves) of each complete game. */
  plies: number[];
  /** Bytes of complete games: a half-written last game (an interrupted run) starts here. */
  completeBytes: number;
}

/** Finds the complete games in bytes; a half-written game at the end is left out (see completeBytes). */
export function indexGames(bytes: Uint8Array): GameIndex {
  const offsets: number[] = [];
  const plies: number[] = [];
  let at = 0;
  for (;;) {
    if (at + PACKED_BOARD_BYTES > bytes.length) break;
    let p = at + PACKED_BOARD_BYTES;
    let n = 0;
    let complete = false;
    while (p + PLY_BYTES <= bytes.length) {
      const zero = (bytes[p] | bytes[p + 1] | bytes[p + 2] | bytes[p + 3]) === 0;
      p += PLY_BYTES;
      if (zero) {
        complete = true;
        break;
      }
      n++;
    }
    if (!complete) break;
    offsets.push(at);
    plies.push(n);
    at = p;
  }
  return { offsets, plies, completeBytes: at };
}

/** The most bytes a half-written last game can hold (a whole game's record is a few kilobytes). */
const MAX_TORN_BYTES = 65536;

/**
 * Why bytes are not viriformat games with at most a half-written game at
 * the end (a file named by mistake), or null when they could be.
 */
export function notGames(bytes: Uint8Array, index: GameIndex): string | null {
  const torn = bytes.length - index.completeBytes;
  if (torn > MAX_TORN_BYTES) return `${torn} bytes after the last complete game, more than a half-written game holds`;
  const starts = torn >= PACKED_BOARD_BYTES ? [...index.offsets, index.completeBytes] : index.offsets;
  for (const at of starts) {
    const error = packedBoardError(bytes, at);
    if (error !== null) return `no valid starting position at byte ${at} (${error})`;
  }
  return null;
}

/** The size of a file's first complete games: what a data manifest records. */
export interface GamesSummary {
  games: number;
  /** Recorded positions: one per ply. */
  positions: number;
  /** Bytes up to the end of the last game counted. */
  bytes: number;
}

/** Counts the first `firstGames` complete games of an index (all of them by default). */
export function summariseGames(index: GameIndex, firstGames = index.offsets.length): GamesSummary {
  const games = Math.min(Math.max(0, firstGames), index.offsets.length);
  let positions = 0;
  for (let g = 0; g < games; g++) positions += index.plies[g];
  const bytes = games < index.offsets.length ? index.offsets[games] : index.completeBytes;
  return { games, positions, bytes };
}

/** One game read back: its start, result, and per ply the packed move and White's score. */
export interface DecodedGame {
  fen: string;
  result: number;
  moves: number[];
  scores: number[];
}

/** Decodes the game at offset (one of indexGames' offsets). */
export function decodeGame(bytes: Uint8Array, offset: number, plies: number): DecodedGame {
  const { fen, result } = unpackBoard(bytes, offset);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const moves: number[] = [];
  const scores: number[] = [];
  for (let i = 0; i < plies; i++) {
    const at = offset + PACKED_BOARD_BYTES + i * PLY_BYTES;
    moves.push(view.getUint16(at, true));
    scores.push(view.getInt16(at + 2, true));
  }
  return { fen, result, moves, scores };
}
