import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { evaluate } from '../../src/eval/evaluate.js';
import { ALL_FENS, PERFT_FENS, UHO_FENS, WAC_FENS, WALK_FENS, mirrorFen } from './fixtures.js';

describe('evaluation symmetry', () => {
  it('mirrorFen flips ranks, colours, side, castling and en passant', () => {
    expect(mirrorFen('r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 0 1')).toBe('r3k2r/8/8/8/3Pp3/8/8/R3K2R b Qk d3 0 1');
    expect(mirrorFen(mirrorFen(UHO_FENS[0]))).toBe(UHO_FENS[0]);
  });

  it('has hundreds of positions to test', () => {
    expect(PERFT_FENS.length).toBe(126);
    expect(UHO_FENS.length).toBe(300);
    expect(WAC_FENS.length).toBe(300);
    expect(WALK_FENS.length).toBeGreaterThan(2000);
  });

  it('a position and its colour-flipped mirror evaluate the same for the side to move', () => {
    const pos = new Position();
    const mirror = new Position();
    const failures: string[] = [];
    for (const fen of ALL_FENS) {
      pos.setFen(fen);
      mirror.setFen(mirrorFen(fen));
      const a = evaluate(pos);
      const b = evaluate(mirror);
      if (a !== b) failures.push(`${fen}: ${a} vs mirror ${b}`);
    }
    expect(failures.slice(0, 5)).toEqual([]);
  });

  it('scores are sane: start position near zero, big material edges count', () => {
    expect(Math.abs(evaluate(new Position()))).toBeLessThan(40);
    // White is a queen up.
    expect(evaluate(new Position('rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'))).toBeGreaterThan(700);
    expect(evaluate(new Position('rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1'))).toBeLessThan(-700);
  });
});
