// The JIT warm-up: its positions are legal and varied, and it stays small.

import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { SearchControl } from '../../src/search/control.js';
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

  it('primes with a search of a few hundred nodes, once', () => {
    const warm = new WarmUp();
    warm.prime();
    expect(warm.nodes).toBeGreaterThan(100);
    expect(warm.nodes).toBeLessThanOrEqual(300);
    const primed = warm.nodes;
    warm.prime();
    expect(warm.nodes).toBe(primed);
    expect(warm.step()).toBe(true);
  });

  it('ends when its stop flag is raised, also in the middle of a search', () => {
    const control = new SearchControl();
    const warm = new WarmUp(control);
    expect(warm.step()).toBe(true);
    control.stop();
    const before = warm.nodes;
    expect(warm.step()).toBe(false);
    expect(warm.nodes).toBe(before);
    // A step already running stops at the next poll (every 256 nodes), well before its 1000.
    const running = new WarmUp(control);
    running.prime();
    expect(running.nodes).toBeLessThanOrEqual(256);
  });
});
