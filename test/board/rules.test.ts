import { describe, expect, it } from 'vitest';
import { parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { cannotMateBy, gameOutcome, insufficientMaterial, repetitions } from '../../src/board/rules.js';
import { BLACK, WHITE } from '../../src/board/types.js';

const play = (pos: Position, moves: string): Position => {
  for (const m of moves.split(' ')) pos.makeMove(parseUciMove(pos, m));
  return pos;
};

describe('game end by the rules', () => {
  it('checkmate and stalemate', () => {
    const mate = play(new Position(), 'f2f3 e7e5 g2g4 d8h4');
    expect(gameOutcome(mate)).toEqual({ result: '0-1', reason: 'checkmate' });
    expect(gameOutcome(new Position('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'))).toEqual({ result: '1/2-1/2', reason: 'stalemate' });
    expect(gameOutcome(new Position())).toBeNull();
  });

  it('threefold repetition counts the same position with the same side to move and rights', () => {
    const pos = new Position();
    play(pos, 'g1f3 g8f6 f3g1 f6g8');
    expect(repetitions(pos)).toBe(2);
    expect(gameOutcome(pos)).toBeNull();
    play(pos, 'g1f3 g8f6 f3g1 f6g8');
    expect(repetitions(pos)).toBe(3);
    expect(gameOutcome(pos)).toEqual({ result: '1/2-1/2', reason: 'threefold repetition' });
  });

  it('the fifty-move rule, unless the hundredth half-move mates', () => {
    expect(gameOutcome(new Position('8/8/8/3k4/8/8/4R3/4K3 w - - 100 80'))?.reason).toBe('fifty-move rule');
    expect(gameOutcome(new Position('R3k3/8/4K3/8/8/8/8/8 b - - 100 80'))?.reason).toBe('checkmate');
  });

  it('insufficient material: bare kings, a lone minor, bishops all on one colour', () => {
    for (const fen of ['8/8/4k3/8/8/4K3/8/8 w - - 0 1', '8/8/4k3/8/8/4KN2/8/8 w - - 0 1', '8/8/4k3/8/3b4/4K3/1B6/8 w - - 0 1']) {
      expect(insufficientMaterial(new Position(fen)), fen).toBe(true);
    }
    // Two knights, bishops of both colours, a pawn: mate is possible.
    for (const fen of ['8/8/4k3/8/8/4KNN1/8/8 w - - 0 1', '8/8/4k3/8/2b5/4K3/1B6/8 w - - 0 1', '8/8/4k3/8/8/4K3/4P3/8 w - - 0 1']) {
      expect(insufficientMaterial(new Position(fen)), fen).toBe(false);
    }
  });

  it('who can still mate, for a flag fall: a bare king or a lone minor against a bare king cannot', () => {
    const cannot: Array<[string, number]> = [
      ['8/8/4k3/8/8/4K3/8/7R w - - 0 1', BLACK],
      ['8/8/4k3/8/8/4K3/8/7N w - - 0 1', WHITE],
      ['8/8/4k3/8/3b4/4K3/1B6/8 w - - 0 1', WHITE],
    ];
    const can: Array<[string, number]> = [
      ['8/8/4k3/8/8/4K3/8/7R w - - 0 1', WHITE],
      ['8/8/4k3/8/8/4KNN1/8/8 w - - 0 1', WHITE],
      // A knight against a pawn: only a helpmate, but a mate.
      ['8/p7/4k3/8/8/4K3/8/7N w - - 0 1', WHITE],
      ['8/8/4k3/8/8/4K3/4P3/8 w - - 0 1', WHITE],
    ];
    for (const [fen, side] of cannot) expect(cannotMateBy(new Position(fen), side), `${fen} ${side}`).toBe(true);
    for (const [fen, side] of can) expect(cannotMateBy(new Position(fen), side), `${fen} ${side}`).toBe(false);
  });
});
