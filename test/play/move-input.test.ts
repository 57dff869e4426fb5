// Typed moves: SAN and UCI, forgiving about decoration, strict about the
// case of piece letters, and helpful when a move cannot be played.

import { describe, expect, it } from 'vitest';
import { moveToUci } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { readMove } from '../../src/play/move-input.js';

function uciOf(fen: string, typed: string): string {
  const pos = new Position(fen);
  const r = readMove(pos, typed);
  if (!('move' in r)) throw new Error(`${typed}: ${r.error}`);
  return moveToUci(pos, r.move);
}

function refusal(fen: string, typed: string): { error: string; close: string[] } {
  const r = readMove(new Position(fen), typed);
  if ('move' in r) throw new Error(`${typed} was accepted`);
  return r;
}

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
/** White can take on c6 with the b-pawn or the bishop. */
const BXC6 = 'r1bqkbnr/pppp1ppp/2n5/1P2p3/4B3/8/P1PP1PPP/RNBQK1NR w KQkq - 0 4';
const CASTLE = 'r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 8';
const PROMOTE = '8/4P1k1/8/8/8/8/6K1/8 w - - 0 1';

describe('reading typed moves', () => {
  it('reads SAN and UCI', () => {
    expect(uciOf(START, 'Nf3')).toBe('g1f3');
    expect(uciOf(START, 'g1f3')).toBe('g1f3');
    expect(uciOf(START, 'e4')).toBe('e2e4');
    expect(uciOf(START, 'e2-e4')).toBe('e2e4');
    expect(uciOf(START, 'Ng1f3')).toBe('g1f3');
  });

  it('forgives check marks, annotations, zeros in castling and a missing =', () => {
    expect(uciOf(START, 'Nf3+')).toBe('g1f3');
    expect(uciOf(START, 'e4!?')).toBe('e2e4');
    expect(uciOf(START, '  e4?? ')).toBe('e2e4');
    expect(uciOf(CASTLE, '0-0')).toBe('e1g1');
    expect(uciOf(CASTLE, 'O-O-O')).toBe('e1c1');
    expect(uciOf(CASTLE, '0-0-0+')).toBe('e1c1');
    expect(uciOf(CASTLE, 'o-o')).toBe('e1g1');
    expect(uciOf(PROMOTE, 'e8Q')).toBe('e7e8q');
    expect(uciOf(PROMOTE, 'e8=N+')).toBe('e7e8n');
    expect(uciOf(PROMOTE, 'e7e8=q')).toBe('e7e8q');
  });

  it('keeps the case of piece letters: bxc6 is the pawn, Bxc6 the bishop', () => {
    expect(uciOf(BXC6, 'bxc6')).toBe('b5c6');
    expect(uciOf(BXC6, 'Bxc6')).toBe('e4c6');
    // n, r, q and k cannot be files: lower case is read as the piece.
    expect(uciOf(START, 'nf3')).toBe('g1f3');
  });

  it('says why a move is refused, with the close legal moves', () => {
    const knight = refusal(START, 'Nf4');
    expect(knight.error).toBe('Nf4 is not legal: no knight can go to f4');
    expect(knight.close).toContain('Nf3');
    expect(refusal(START, 'Qh5').error).toMatch(/no queen can go to h5/);
    expect(refusal(START, 'e2e5').error).toBe('e2e5 is not legal: the pawn on e2 cannot go to e5');
    expect(refusal(START, 'e3e4').error).toBe('e3e4 is not legal: there is no piece on e3');
    expect(refusal(START, 'e7e5').error).toBe('e7e5 is not legal: the piece on e7 is not yours');
    expect(refusal(START, 'hello').error).toMatch(/'hello' is not a move/);
    expect(refusal(PROMOTE, 'e8').error).toMatch(/promotes: say to what/);
    expect(refusal(PROMOTE, 'e8').close).toContain('e8=Q');
  });

  it('explains pins, checks and castling', () => {
    // The knight on d2 is pinned by the bishop on b4.
    const pinned = refusal('rnbqk1nr/pppp1ppp/8/4p3/1b1P4/8/PPPNPPPP/R1BQKBNR w KQkq - 2 3', 'Nb3');
    expect(pinned.error).toBe('Nb3 is not legal: it would leave your king in check');
    expect(uciOf('rnbqk1nr/pppp1ppp/8/4p3/1b1P4/8/PPPNPPPP/R1BQKBNR w KQkq - 2 3', 'Nf3')).toBe('g1f3');
    const check = refusal('rnb1kbnr/pppp1ppp/8/4p3/5P1q/8/PPPPP1PP/RNBQKBNR w KQkq - 1 3', 'a3');
    expect(check.error).toMatch(/you are in check/);
    expect(check.close).toContain('g3');
    expect(refusal('rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2', 'O-O').error).toMatch(/castling kingside is not possible/);
    expect(refusal('4k3/8/8/8/8/8/r7/4K3 w - - 0 1', 'Ke2').error).toBe('Ke2 is not legal: your king would be in check on e2');
  });

  it('names the moves an ambiguous one could be', () => {
    const r = refusal('4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1', 'Nd2');
    expect(r.error).toBe('Nd2 is ambiguous: Nbd2 or Nfd2');
    expect(r.close).toEqual(['Nbd2', 'Nfd2']);
  });

  it('says why a promotion piece does not fit, and that a pinned en-passant capture would leave the king in check', () => {
    expect(refusal(START, 'e4=Q').error).toBe('e4=Q is not legal: only a pawn reaching the last rank promotes');
    expect(refusal(START, 'Nf3=Q').error).toBe('Nf3=Q is not legal: only a pawn reaching the last rank promotes');
    expect(refusal(START, 'e2e4q').error).toBe('e2e4q is not legal: only a pawn reaching the last rank promotes');
    // Taking on d6 would open the fifth rank to the rook on h5.
    const pinned = '8/8/8/K2pP2r/8/8/8/7k w - d6 0 1';
    expect(refusal(pinned, 'exd6').error).toBe('exd6 is not legal: it would leave your king in check');
    expect(refusal(pinned, 'e5d6').error).toBe('e5d6 is not legal: it would leave your king in check');
  });
});
