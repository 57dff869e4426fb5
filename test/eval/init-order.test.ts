// Only the board is imported here (vitest gives each test file its own module
// graph): the piece-square tables must already be filled, since Position
// imports psqt.ts, which fills itself when first loaded.
import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';

describe('piece-square tables without importing the evaluation', () => {
  it('are filled before the first Position is built', () => {
    const queenOdds = new Position('rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    expect(queenOdds.psqMg).toBeGreaterThan(800);
    expect(queenOdds.psqEg).toBeGreaterThan(800);
    expect(queenOdds.phase).toBe(20);
  });
});
