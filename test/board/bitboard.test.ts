import { describe, expect, it } from 'vitest';
import { PAWN_ATTACKS, lsb32, pawnAttacks, popcount64 } from '../../src/board/bitboard.js';
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

describe('pawnAttacks', () => {
  it("equals the union of each pawn's own attacks (PAWN_ATTACKS), for both colours and random sets with edge files", () => {
    const next = xorshift32(7);
    const out = new Int32Array(2);
    for (let n = 0; n < 500; n++) {
      const lo = next() | 0;
      const hi = next() | 0;
      for (const colour of [0, 1]) {
        let wantLo = 0;
        let wantHi = 0;
        for (let sq = 0; sq < 64; sq++) {
          if ((((sq < 32 ? lo : hi) >>> (sq & 31)) & 1) === 0) continue;
          wantLo |= PAWN_ATTACKS[(colour * 64 + sq) * 2];
          wantHi |= PAWN_ATTACKS[(colour * 64 + sq) * 2 + 1];
        }
        pawnAttacks(lo, hi, colour, out, 0);
        expect([out[0], out[1]]).toEqual([wantLo, wantHi]);
      }
    }
  });
});
