import { describe, expect, it } from 'vitest';
import { givesCheck } from '../../src/board/gives-check.js';
import { Position } from '../../src/board/position.js';
import { moveToUci } from '../../src/board/notation.js';
import { suiteFens } from '../data.js';
import { legalMoves } from './helpers.js';

/** givesCheck must say exactly what playing the move and asking inCheck says. */
function checkAll(pos: Position, depth: number): number {
  let moves = 0;
  for (const move of legalMoves(pos)) {
    const predicted = givesCheck(pos, move);
    const before = `${pos.fen()} ${moveToUci(pos, move)}`;
    pos.makeMove(move);
    const actual = pos.inCheck();
    if (predicted !== actual) expect.fail(`${before}: givesCheck ${predicted}, inCheck ${actual}`);
    moves++;
    if (depth > 1) moves += checkAll(pos, depth - 1);
    pos.unmakeMove();
  }
  return moves;
}

describe('givesCheck', () => {
  it('agrees with make + inCheck on every legal move three plies deep from the perft suite (castling, en passant, promotions, discoveries)', () => {
    let moves = 0;
    for (const fen of suiteFens('perftsuite.epd')) moves += checkAll(new Position(fen), 3);
    expect(moves).toBeGreaterThan(500000);
    // Half a million moves: a few seconds on a slow machine, more when it is busy.
  }, 60000);

  it('sees discovered checks, checks by promotion and checks along a line the moving piece opens', () => {
    // Bishop moves off the e-file: the rook behind it checks (discovery).
    const discovery = new Position('4k3/8/8/8/4B3/8/8/4R1K1 w - - 0 1');
    expect(givesCheck(discovery, legalMoves(discovery).find((m) => moveToUci(discovery, m) === 'e4d5')!)).toBe(true);
    // Promotion to a queen on the king's rank checks; to a knight it does not.
    const promo = new Position('7k/1P6/8/8/8/8/8/K7 w - - 0 1');
    const byUci = (uci: string): number => legalMoves(promo).find((m) => moveToUci(promo, m) === uci)!;
    expect(givesCheck(promo, byUci('b7b8q'))).toBe(true);
    expect(givesCheck(promo, byUci('b7b8n'))).toBe(false);
  });
});
