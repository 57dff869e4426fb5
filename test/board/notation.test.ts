// UCI move notation: printing and parsing, castling in both modes,
// promotions, and the two kinds of error.

import { describe, expect, it } from 'vitest';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { CASTLE, EN_PASSANT, MOVE_NONE, QUEEN, KNIGHT, moveKind, moveTo, promotionType } from '../../src/board/types.js';
import { errorOf, legalMoves } from './helpers.js';

const CASTLING_FEN = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1';
// Chess960: king b1, rooks a1 and h1; O-O-O puts the king on c1, one step.
const FRC_FEN = 'rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1';

describe('moveToUci and parseUciMove', () => {
  it('round-trip every legal move of several positions, in both modes', () => {
    const fens = [
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
      'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
      'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1',
      FRC_FEN,
    ];
    const pos = new Position();
    for (const chess960 of [false, true]) {
      for (const fen of fens) {
        pos.setFen(fen);
        pos.chess960 = chess960;
        const moves = legalMoves(pos);
        const texts = moves.map((m) => moveToUci(pos, m));
        expect(new Set(texts).size).toBe(moves.length);
        for (let i = 0; i < moves.length; i++) expect(parseUciMove(pos, texts[i])).toBe(moves[i]);
      }
    }
  });

  it('writes standard castling as the king step, and king-takes-rook in Chess960', () => {
    const pos = new Position(CASTLING_FEN);
    const castles = legalMoves(pos).filter((m) => moveKind(m) === CASTLE);
    expect(castles.map((m) => moveToUci(pos, m)).sort()).toEqual(['e1c1', 'e1g1']);
    pos.chess960 = true;
    expect(castles.map((m) => moveToUci(pos, m)).sort()).toEqual(['e1a1', 'e1h1']);
  });

  it('accepts both castling forms in standard mode, only king-takes-rook in Chess960', () => {
    const pos = new Position(CASTLING_FEN);
    for (const [king, rook] of [
      ['e1g1', 'e1h1'],
      ['e1c1', 'e1a1'],
    ]) {
      const move = parseUciMove(pos, king);
      expect(moveKind(move)).toBe(CASTLE);
      expect(parseUciMove(pos, rook)).toBe(move);
    }
    pos.chess960 = true;
    expect(moveKind(parseUciMove(pos, 'e1h1'))).toBe(CASTLE);
    expect(errorOf(() => parseUciMove(pos, 'e1g1'))).toBe('illegal move e1g1');
  });

  it('never confuses a Chess960 castling with a one-square king move', () => {
    const pos = new Position(FRC_FEN);
    // b1c1 is a plain king move; castling queen-side is b1a1.
    expect(moveKind(parseUciMove(pos, 'b1c1'))).not.toBe(CASTLE);
    const castle = parseUciMove(pos, 'b1a1');
    expect(moveKind(castle)).toBe(CASTLE);
    expect(moveToUci(pos, castle)).toBe('b1a1');
    expect(moveKind(parseUciMove(pos, 'b1h1'))).toBe(CASTLE);
  });

  it('parses promotions, with the piece letter in either case', () => {
    const pos = new Position('n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1');
    expect(promotionType(parseUciMove(pos, 'b7b8q'))).toBe(QUEEN);
    expect(promotionType(parseUciMove(pos, 'b7a8N'))).toBe(KNIGHT);
    expect(moveToUci(pos, parseUciMove(pos, 'b7c8r'))).toBe('b7c8r');
    expect(errorOf(() => parseUciMove(pos, 'b7b8'))).toBe('illegal move b7b8: a promotion needs a piece letter (b7b8q)');
    expect(errorOf(() => parseUciMove(pos, 'b7b8k'))).toBe("malformed move 'b7b8k'");
  });

  it('parses en passant', () => {
    const pos = new Position('rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3');
    const move = parseUciMove(pos, 'e5f6');
    expect(moveKind(move)).toBe(EN_PASSANT);
    expect(moveTo(move)).toBe(45);
  });

  it('tells illegal moves from malformed ones', () => {
    const pos = new Position();
    expect(errorOf(() => parseUciMove(pos, 'e2e5'))).toBe('illegal move e2e5');
    expect(errorOf(() => parseUciMove(pos, 'e7e5'))).toBe('illegal move e7e5');
    expect(errorOf(() => parseUciMove(pos, 'e2e4q'))).toBe('illegal move e2e4q');
    expect(errorOf(() => parseUciMove(pos, 'e1g1'))).toBe('illegal move e1g1');
    for (const text of ['xyz', '', 'e2e', 'e2e44', 'i2i4', 'E2E4', 'e2-e4', ' e2e4', '0000']) {
      expect(errorOf(() => parseUciMove(pos, text))).toBe(`malformed move '${text}'`);
    }
  });

  it('writes no move as 0000', () => {
    expect(moveToUci(new Position(), MOVE_NONE)).toBe('0000');
  });
});
