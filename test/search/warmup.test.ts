// The JIT warm-up: its positions are legal and varied, and it stays small.

import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { WARM_UP_POSITIONS, WarmUp } from '../../src/search/warmup.js';

describe('warm-up', () => {
  it('has legal positions, with each side to move', () => {
    const sides = WARM_UP_POSITIONS.map((fen) => new Position(fen).side);
    expect(new Set(sides).size).toBe(2);
  });

  it('searches every position, a few thousand nodes in all', () => {
    const warm = new WarmUp();
    let steps = 1;
    while (warm.step()) steps++;
    expect(steps).toBe(WARM_UP_POSITIONS.length);
    expect(warm.step()).toBe(false);
    expect(warm.nodes).toBeGreaterThan(WARM_UP_POSITIONS.length * 100);
    expect(warm.nodes).toBeLessThan(WARM_UP_POSITIONS.length * 1100);
  });
});
