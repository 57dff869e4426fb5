// The board keeps the piece-square sums, the evaluation gives them values
// (board/piece-square.ts). Vitest gives each test file its own module graph:
// here the evaluation is imported, so the tables must be filled before the
// first Position is built.
import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { evaluate } from '../../src/eval/evaluate.js';

describe('piece-square tables', () => {
  it('are filled by the evaluation before the first Position is built', () => {
    const queenOdds = new Position('rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    expect(queenOdds.psqMg).toBeGreaterThan(800);
    expect(queenOdds.psqEg).toBeGreaterThan(800);
    expect(queenOdds.phase).toBe(20);
    expect(evaluate(queenOdds)).toBeGreaterThan(600);
  });
});
