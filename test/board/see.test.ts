// Static exchange evaluation, against a slow reference written another way:
// the attackers of the target square are found from scratch at every step by
// walking rays over the board (no magics, no x-ray bookkeeping), the exchange
// is kept as a list of gains, and the list is resolved backwards, each side
// free to stop capturing. Pins are ignored by both, and a king may capture
// only when the other side has no attacker left on the square.

import { describe, expect, it } from 'vitest';
import { parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { SEE_VALUE, seeGE } from '../../src/board/see.js';
import {
  CASTLE,
  EN_PASSANT,
  KING,
  KNIGHT,
  PAWN,
  WHITE,
  isPromotion,
  moveFrom,
  moveKind,
  moveTo,
  promotionType,
} from '../../src/board/types.js';
import { ALL_FENS } from '../eval/fixtures.js';
import { legalMoves } from './helpers.js';

const KNIGHT_STEPS = [
  [1, 2],
  [2, 1],
  [2, -1],
  [1, -2],
  [-1, -2],
  [-2, -1],
  [-2, 1],
  [-1, 2],
];
const KING_STEPS = [
  [1, 0],
  [1, 1],
  [0, 1],
  [-1, 1],
  [-1, 0],
  [-1, -1],
  [0, -1],
  [1, -1],
];
const DIAGONALS = [
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
];
const STRAIGHTS = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];

/** Squares holding a piece of `side` that attacks `to` over the board `board` (0 = empty). */
function attackersOf(board: number[], to: number, side: number): number[] {
  const found: number[] = [];
  const file = to & 7;
  const rank = to >> 3;
  const at = (f: number, r: number): number => (f >= 0 && f < 8 && r >= 0 && r < 8 ? r * 8 + f : -1);
  const mine = (sq: number, type: number): boolean => sq >= 0 && board[sq] !== 0 && board[sq] >> 3 === side && (board[sq] & 7) === type;
  // A pawn of `side` attacks `to` from one rank behind it (as seen from that side).
  const behind = side === WHITE ? -1 : 1;
  for (const df of [-1, 1]) if (mine(at(file + df, rank + behind), PAWN)) found.push(at(file + df, rank + behind));
  for (const [df, dr] of KNIGHT_STEPS) if (mine(at(file + df, rank + dr), KNIGHT)) found.push(at(file + df, rank + dr));
  for (const [df, dr] of KING_STEPS) if (mine(at(file + df, rank + dr), KING)) found.push(at(file + df, rank + dr));
  const walk = (dirs: number[][], types: number[]): void => {
    for (const [df, dr] of dirs) {
      for (let f = file + df, r = rank + dr; at(f, r) >= 0; f += df, r += dr) {
        const sq = at(f, r);
        if (board[sq] === 0) continue;
        if (board[sq] >> 3 === side && types.includes(board[sq] & 7)) found.push(sq);
        break;
      }
    }
  };
  walk(DIAGONALS, [3, 5]); // bishop, queen
  walk(STRAIGHTS, [4, 5]); // rook, queen
  return found;
}

/** The material the side to move wins by the exchange that `move` starts, best play by both. */
function referenceSee(pos: Position, move: number): number {
  const board = Array.from(pos.board);
  const from = moveFrom(move);
  const to = moveTo(move);
  const kind = moveKind(move);
  let side = pos.side;
  const gains: number[] = [];
  let victim = kind === EN_PASSANT ? PAWN : board[to] & 7;
  let onSquare = board[from] & 7;
  if (kind === EN_PASSANT) board[to ^ 8] = 0;
  gains.push(SEE_VALUE[victim]);
  if (isPromotion(move)) {
    gains[0] += SEE_VALUE[promotionType(move)] - SEE_VALUE[PAWN];
    onSquare = promotionType(move);
  }
  board[to] = (side << 3) | onSquare;
  board[from] = 0;
  for (;;) {
    side ^= 1;
    const attackers = attackersOf(board, to, side);
    if (attackers.length === 0) break;
    let best = attackers[0];
    for (const sq of attackers) if ((board[sq] & 7) < (board[best] & 7)) best = sq;
    if ((board[best] & 7) === KING && attackersOf(board, to, side ^ 1).length > 0) break;
    victim = onSquare;
    onSquare = board[best] & 7;
    gains.push(SEE_VALUE[victim] - gains[gains.length - 1]);
    board[to] = board[best];
    board[best] = 0;
  }
  // Backwards: each side takes only when taking is better than stopping.
  for (let d = gains.length - 1; d > 0; d--) gains[d - 1] = -Math.max(-gains[d - 1], gains[d]);
  return gains[0];
}

describe('static exchange evaluation', () => {
  it('agrees with the reference on every move of the test positions, at thresholds around the result', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (let i = 0; i < ALL_FENS.length; i++) {
      const pos = new Position(ALL_FENS[i]);
      for (const move of legalMoves(pos)) {
        if (moveKind(move) === CASTLE) continue;
        const value = referenceSee(pos, move);
        for (const threshold of [value - 101, value - 1, value, value + 1, value + 101, -60, 0, 100]) {
          if (seeGE(pos, move, threshold) !== value >= threshold) wrong.push(`${ALL_FENS[i]} ${move} ${threshold} (reference ${value})`);
          checked++;
        }
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(checked).toBeGreaterThan(100000);
  });

  it('scores simple exchanges by hand', () => {
    const value = (fen: string, uci: string): number => {
      const pos = new Position(fen);
      const move = parseUciMove(pos, uci);
      let lo = -2000;
      let hi = 2000;
      // The largest threshold seeGE accepts is the exchange's value.
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (seeGE(pos, move, mid)) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    // A pawn defended by a pawn, taken by a rook: rook for pawn.
    expect(value('4k3/8/3p4/4p3/8/8/8/4R1K1 w - - 0 1', 'e1e5')).toBe(100 - 500);
    // An undefended knight.
    expect(value('4k3/8/8/4n3/8/8/8/4R1K1 w - - 0 1', 'e1e5')).toBe(320);
    // Rook behind rook (x-ray) against a defending rook: the pawn is won.
    expect(value('4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1', 'e2e5')).toBe(100);
    // A quiet move onto a square a pawn guards loses the piece.
    expect(value('4k3/8/8/8/3p4/8/8/2B3K1 w - - 0 1', 'c1e3')).toBe(-330);
    // The king recaptures when nothing else attacks the square, and may not when something does.
    expect(value('8/8/2k5/3p4/8/8/8/3R2K1 w - - 0 1', 'd1d5')).toBe(100 - 500);
    expect(value('8/8/2k5/3p4/8/5B2/8/3R2K1 w - - 0 1', 'd1d5')).toBe(100);
  });
});
