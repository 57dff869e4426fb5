// How a game ends by the rules: checkmate, stalemate, threefold repetition,
// the fifty-move rule and material with which neither side can mate.

import { popcount64 } from './bitboard.js';
import { generateMoves } from './movegen.js';
import type { Position } from './position.js';
import { BISHOP, KNIGHT, MAX_MOVES, PAWN, QUEEN, ROOK, WHITE } from './types.js';

type GameResult = '1-0' | '0-1' | '1/2-1/2';

export interface Outcome {
  result: GameResult;
  reason: 'checkmate' | 'stalemate' | 'threefold repetition' | 'fifty-move rule' | 'insufficient material';
}

const LIGHT_LO = 0x55aa55aa;
const LIGHT_HI = 0x55aa55aa;

/** Scratch list for counting legal moves (single-threaded, never re-entered). */
const scratch = new Int32Array(MAX_MOVES);

/** How often the current position has occurred since the last irreversible move (1: only now). */
export function repetitions(pos: Position): number {
  let count = 1;
  const stop = Math.max(0, pos.ply - pos.halfmove);
  for (let i = pos.ply - 4; i >= stop; i -= 2) {
    if (pos.stackKeyLo[i] === pos.keyLo && pos.stackKeyHi[i] === pos.keyHi) count++;
  }
  return count;
}

/** No pawns, rooks or queens, and at most one minor piece on the board: nobody can mate. */
export function cannotMate(pos: Position): boolean {
  const c = pos.pieceCount;
  // Pawns first: nearly every position has one, and the search and evaluation ask at every node.
  if (c[PAWN] !== 0 || c[8 | PAWN] !== 0) return false;
  if (c[ROOK] + c[8 | ROOK] + c[QUEEN] + c[8 | QUEEN] !== 0) return false;
  return c[KNIGHT] + c[8 | KNIGHT] + c[BISHOP] + c[8 | BISHOP] <= 1;
}

/** Neither side can ever mate: cannotMate, or only bishops besides the kings, all on squares of one colour. */
export function insufficientMaterial(pos: Position): boolean {
  if (cannotMate(pos)) return true;
  const c = pos.pieceCount;
  if (c[KNIGHT] + c[8 | KNIGHT] + c[PAWN] + c[8 | PAWN] + c[ROOK] + c[8 | ROOK] + c[QUEEN] + c[8 | QUEEN] !== 0) return false;
  const bishops = c[BISHOP] + c[8 | BISHOP];
  const light = popcount64((pos.lo(BISHOP) | pos.lo(8 | BISHOP)) & LIGHT_LO, (pos.hi(BISHOP) | pos.hi(8 | BISHOP)) & LIGHT_HI);
  return light === 0 || light === bishops;
}

/** How the game stands ended in pos, or null while it goes on. */
export function gameOutcome(pos: Position): Outcome | null {
  if (generateMoves(pos, scratch, 0, false) === 0) {
    if (!pos.inCheck()) return { result: '1/2-1/2', reason: 'stalemate' };
    return { result: pos.side === WHITE ? '0-1' : '1-0', reason: 'checkmate' };
  }
  if (pos.halfmove >= 100) return { result: '1/2-1/2', reason: 'fifty-move rule' };
  if (repetitions(pos) >= 3) return { result: '1/2-1/2', reason: 'threefold repetition' };
  if (insufficientMaterial(pos)) return { result: '1/2-1/2', reason: 'insufficient material' };
  return null;
}

/**
 * `side` can never mate, whatever the moves (the rule for a flag fall: the
 * game is drawn when the side whose opponent ran out of time cannot mate).
 * True for a bare king, a king and one minor piece against a bare king, and
 * whenever neither side can (insufficientMaterial); false otherwise, also
 * where only a helpmate is possible (a knight against a pawn).
 */
export function cannotMateBy(pos: Position, side: number): boolean {
  const c = pos.pieceCount;
  const own = side === WHITE ? 0 : 8;
  const them = own ^ 8;
  if (c[own | PAWN] + c[own | ROOK] + c[own | QUEEN] !== 0) return false;
  const minors = c[own | KNIGHT] + c[own | BISHOP];
  if (minors === 0) return true;
  const theyHaveOnlyKing = c[them | PAWN] + c[them | KNIGHT] + c[them | BISHOP] + c[them | ROOK] + c[them | QUEEN] === 0;
  if (minors === 1 && theyHaveOnlyKing) return true;
  return insufficientMaterial(pos);
}
