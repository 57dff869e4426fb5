import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { Perft } from '../../src/board/perft.js';

describe('perft', () => {
  it('start position depth 4', () => {
    expect(new Perft().count(new Position(), 4)).toBe(197281);
  });
});
