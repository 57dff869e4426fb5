// Upcoming repetitions, by Marcel van Kervinck's cuckoo tables: whether the
// side to move has a reversible move that leads back to a position of the
// game or of the search since the last irreversible move.
//
// The key of a position after a reversible move differs from the key before
// it by exactly that move's part: the moving piece's key on both squares and
// the side to move. The table holds that part for every move a knight,
// bishop, rook, queen or king of either colour can make on an empty board
// (3668 of them), under two hash functions (cuckoo hashing: each entry sits
// in one of its two slots). If the key of the position now XOR the key of an
// earlier one (with the other side to move) is such a part, one move of
// that piece turns the one into the other: it is playable when the squares
// between are empty, and it is legal since the position it leads to occurred
// with the other side to move (so our king was not in check there).
//
// A quick filter first: the opponent's moves since that earlier position
// must cancel out (their pieces stand where they stood), else our moves
// alone cannot undo the difference.

import { BETWEEN, BISHOP_RAYS, KING_ATTACKS, KNIGHT_ATTACKS, ROOK_RAYS, hasSquare } from './bitboard.js';
import type { Position } from './position.js';
import { BISHOP, KING, KNIGHT, ROOK, makePiece } from './types.js';
import { ZOBRIST_PIECE, ZOBRIST_WHITE_TO_MOVE_HI, ZOBRIST_WHITE_TO_MOVE_LO } from './zobrist.js';

/** Slots of the table (a power of two: the hash functions take 13 bits of the key's low half). */
const CUCKOO_SIZE = 8192;
/** Moves an insertion may displace before the table is declared full (never reached with these keys). */
const MAX_DISPLACEMENTS = 1000;

/** Each slot's key part as a [lo, hi] pair (index slot * 2); 0, 0 in an empty slot. */
const CUCKOO_KEYS = new Int32Array(CUCKOO_SIZE * 2);
/** Each slot's move as square1 | square2 << 6 (square1 < square2; 0 in an empty slot). */
const CUCKOO_MOVES = new Int32Array(CUCKOO_SIZE);

function slot1(lo: number): number {
  return lo & (CUCKOO_SIZE - 1);
}

function slot2(lo: number): number {
  return (lo >>> 16) & (CUCKOO_SIZE - 1);
}

/** Whether a piece of this type on an empty board moves from square a to square b (the board's own attack tables). */
function reaches(type: number, a: number, b: number): boolean {
  const i = a * 2;
  if (type === KNIGHT) return hasSquare(KNIGHT_ATTACKS[i], KNIGHT_ATTACKS[i + 1], b);
  if (type === KING) return hasSquare(KING_ATTACKS[i], KING_ATTACKS[i + 1], b);
  const straight = hasSquare(ROOK_RAYS[i], ROOK_RAYS[i + 1], b);
  const diagonal = hasSquare(BISHOP_RAYS[i], BISHOP_RAYS[i + 1], b);
  if (type === ROOK) return straight;
  if (type === BISHOP) return diagonal;
  return straight || diagonal; // queen
}

/** Puts a move's key part in the table, displacing entries to their other slot as cuckoo hashing does. */
function insert(lo: number, hi: number, move: number): void {
  let slot = slot1(lo);
  for (let n = 0; n < MAX_DISPLACEMENTS; n++) {
    const oldLo = CUCKOO_KEYS[slot * 2];
    const oldHi = CUCKOO_KEYS[slot * 2 + 1];
    const oldMove = CUCKOO_MOVES[slot];
    CUCKOO_KEYS[slot * 2] = lo;
    CUCKOO_KEYS[slot * 2 + 1] = hi;
    CUCKOO_MOVES[slot] = move;
    if (oldMove === 0) return;
    lo = oldLo;
    hi = oldHi;
    move = oldMove;
    slot = slot === slot1(lo) ? slot2(lo) : slot1(lo);
  }
  throw new Error('cuckoo table: no free slot');
}

function fill(): void {
  for (let color = 0; color < 2; color++) {
    for (let type = KNIGHT; type <= KING; type++) {
      const piece = makePiece(color, type);
      for (let a = 0; a < 64; a++) {
        for (let b = a + 1; b < 64; b++) {
          if (!reaches(type, a, b)) continue;
          const za = (piece * 64 + a) * 2;
          const zb = (piece * 64 + b) * 2;
          const lo = ZOBRIST_PIECE[za] ^ ZOBRIST_PIECE[zb] ^ ZOBRIST_WHITE_TO_MOVE_LO;
          const hi = ZOBRIST_PIECE[za + 1] ^ ZOBRIST_PIECE[zb + 1] ^ ZOBRIST_WHITE_TO_MOVE_HI;
          insert(lo, hi, a | (b << 6));
        }
      }
    }
  }
}
fill();

/** The slot that holds this key part, or -1. */
function find(lo: number, hi: number): number {
  let slot = slot1(lo);
  if (CUCKOO_KEYS[slot * 2] === lo && CUCKOO_KEYS[slot * 2 + 1] === hi) return slot;
  slot = slot2(lo);
  return CUCKOO_KEYS[slot * 2] === lo && CUCKOO_KEYS[slot * 2 + 1] === hi ? slot : -1;
}

/**
 * Whether the side to move can play a reversible move to a position that
 * occurred before (in the game or the search, since the last irreversible
 * move and the last null move): a repetition it may choose, so that it can
 * score at least a draw. Allocates nothing.
 */
export function upcomingRepetition(pos: Position): boolean {
  const n = pos.ply;
  const end = Math.min(pos.halfmove, n);
  if (end < 3) return false;
  const keyLo = pos.stackKeyLo;
  const keyHi = pos.stackKeyHi;
  const moves = pos.stackMove;
  if (moves[n - 1] === 0) return false;
  // The opponent's moves' parts, without the side to move: zero when they cancel out.
  let otherLo = pos.keyLo ^ keyLo[n - 1] ^ ZOBRIST_WHITE_TO_MOVE_LO;
  let otherHi = pos.keyHi ^ keyHi[n - 1] ^ ZOBRIST_WHITE_TO_MOVE_HI;
  for (let i = 3; i <= end; i += 2) {
    // Our move from ply n - i + 1, and the opponent's from n - i before it.
    const before = n - i;
    if (moves[before + 1] === 0 || moves[before] === 0) return false;
    otherLo ^= keyLo[before + 1] ^ keyLo[before] ^ ZOBRIST_WHITE_TO_MOVE_LO;
    otherHi ^= keyHi[before + 1] ^ keyHi[before] ^ ZOBRIST_WHITE_TO_MOVE_HI;
    if ((otherLo | otherHi) !== 0) continue;
    const slot = find(pos.keyLo ^ keyLo[before], pos.keyHi ^ keyHi[before]);
    if (slot < 0) continue;
    const move = CUCKOO_MOVES[slot];
    const a = move & 63;
    const b = move >> 6;
    const between = (a * 64 + b) * 2;
    if (((BETWEEN[between] & pos.occLo()) | (BETWEEN[between + 1] & pos.occHi())) !== 0) continue;
    // The piece stands on one of the two squares; it must be ours (a key collision aside, it is).
    const piece = pos.board[a] !== 0 ? pos.board[a] : pos.board[b];
    if (piece !== 0 && piece >> 3 === pos.side) return true;
  }
  return false;
}

/** Entries in the table (3668 when complete: tests). */
export function cuckooEntries(): number {
  let count = 0;
  for (let i = 0; i < CUCKOO_SIZE; i++) if (CUCKOO_MOVES[i] !== 0) count++;
  return count;
}
