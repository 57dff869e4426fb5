import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { CorrectionHistory } from '../../src/search/correction.js';

describe('correction history', () => {
  const fen = 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4';

  it('starts at no correction and moves towards the search results', () => {
    const pos = new Position(fen);
    const correction = new CorrectionHistory();
    expect(correction.correct(pos, 30)).toBe(30);
    for (let i = 0; i < 200; i++) correction.update(pos, 8, 70, 30);
    // Converges on the error of +40 (from below, in whole centipawns).
    expect(correction.correct(pos, 30)).toBeGreaterThanOrEqual(68);
    expect(correction.correct(pos, 30)).toBeLessThanOrEqual(70);
  });

  it('keeps each correction within 64 centipawns', () => {
    const pos = new Position(fen);
    const correction = new CorrectionHistory();
    for (let i = 0; i < 500; i++) {
      correction.update(pos, 20, 2000, 0);
      expect(correction.correct(pos, 0)).toBeLessThanOrEqual(64);
    }
    expect(correction.correct(pos, 0)).toBeGreaterThanOrEqual(60);
    for (let i = 0; i < 500; i++) {
      correction.update(pos, 20, -2000, 0);
      expect(correction.correct(pos, 0)).toBeGreaterThanOrEqual(-64);
    }
    expect(correction.correct(pos, 0)).toBeLessThanOrEqual(-60);
  });

  it('learns per side to move and pawn structure, and forgets on clear', () => {
    const pos = new Position(fen);
    const otherSide = new Position(fen.replace(' w ', ' b '));
    const otherPawns = new Position('r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R b KQkq - 0 4');
    const correction = new CorrectionHistory();
    for (let i = 0; i < 100; i++) correction.update(pos, 10, 100, 0);
    expect(correction.correct(pos, 0)).toBeGreaterThan(50);
    expect(correction.correct(otherSide, 0)).toBe(0);
    expect(correction.correct(otherPawns, 0)).toBe(0);
    correction.clear();
    expect(correction.correct(pos, 0)).toBe(0);
  });
});
