import { describe, expect, it } from 'vitest';
import { lsb32, popcount64 } from '../../src/board/bitboard.js';
import { xorshift32 } from '../../src/util/random.js';

/** Set bits counted one at a time. */
function slowCount(x: number): number {
  let n = 0;
  for (let i = 0; i < 32; i++) if ((x >>> i) & 1) n++;
  return n;
}

describe('bit counting', () => {
  // A fixed pseudo-random sequence (xorshift), plus the edge cases.
  const values = [0, 1, -1, 0x80000000 | 0, 0x7fffffff, 0x55555555, 0xaaaaaaaa | 0];
  const random = xorshift32(0x2545f491);
  for (let i = 0; i < 2000; i++) values.push(random() | 0);

  it('popcount64 counts the set bits of either half alone', () => {
    for (const v of values) {
      expect(popcount64(v, 0)).toBe(slowCount(v));
      expect(popcount64(0, v)).toBe(slowCount(v));
    }
  });

  it('popcount64 counts the set bits of a (lo, hi) pair', () => {
    for (let i = 0; i + 1 < values.length; i++) {
      expect(popcount64(values[i], values[i + 1])).toBe(slowCount(values[i]) + slowCount(values[i + 1]));
    }
    expect(popcount64(-1, -1)).toBe(64);
  });

  it('lsb32 finds the lowest set bit', () => {
    for (const v of values) {
      if (v === 0) continue;
      let i = 0;
      while (((v >>> i) & 1) === 0) i++;
      expect(lsb32(v)).toBe(i);
    }
  });
});
