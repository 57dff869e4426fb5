// The seeded generators give the sequences their users were written with:
// the first outputs are pinned as the generators the code had before
// util/random.ts gave them (the book's and the trainer's xorshift32, the
// strength levels' and self-play's mulberry32, the tuner's LCG). Changing
// one would change self-play games, trained networks, book picks and the
// moves of the strength levels.

import { describe, expect, it } from 'vitest';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { pickEntry } from '../../src/book/reader.js';
import { chooseCandidate } from '../../src/search/strength.js';
import { initParams, layoutOf } from '../../src/train/nnue-model.js';
import { lcg32, mixSeed, mulberry32, unitInterval, xorshift32 } from '../../src/util/random.js';

const first = <T>(next: () => T, n = 4): T[] => Array.from({ length: n }, next);

describe('seeded generators', () => {
  it('xorshift32 (13, 17, 5) returns its state; 0 stays 0', () => {
    expect(first(xorshift32(0x2545f491))).toEqual([3777279546, 2342155435, 1692513196, 1525286]);
    expect(first(xorshift32(1))).toEqual([270369, 67634689, 2647435461, 307599695]);
    expect(first(xorshift32(5))).toEqual([1351845, 336141829, 3472693697, 3580160835]);
    expect(first(xorshift32(42))).toEqual([11355432, 2836018348, 476557059, 3648046016]);
    expect(first(xorshift32(0))).toEqual([0, 0, 0, 0]);
  });

  it('mulberry32, any seed', () => {
    expect(first(mulberry32(0))).toEqual([1144304738, 1416247, 958946056, 627933444]);
    expect(first(mulberry32(1))).toEqual([2693262067, 11749833, 2265367787, 4213581821]);
    expect(first(mulberry32(7))).toEqual([50271532, 266108690, 4195786334, 3002305430]);
    expect(first(mulberry32(-3))).toEqual([2202431144, 1998219081, 429257462, 1891013616]);
  });

  it('lcg32 (1103515245, 12345) returns its state', () => {
    expect(first(lcg32(12345))).toEqual([3554416254, 2802067423, 3596950572, 229283573]);
  });

  it('unitInterval divides by 2^32', () => {
    expect(first(unitInterval(xorshift32(1)), 2)).toEqual([270369 / 2 ** 32, 67634689 / 2 ** 32]);
  });

  it('self-play: game i of a run seed draws from mulberry32(mixSeed(seed, i))', () => {
    expect(mixSeed(9, 0)).toBe(3326468880);
    expect(mixSeed(9, 5)).toBe(2849563325);
    const draws = (seed: number): number[] => first(mulberry32(seed), 6).map((u) => u % 1000);
    expect(draws(mixSeed(9, 0))).toEqual([374, 431, 930, 356, 626, 954]);
    expect(draws(mixSeed(9, 5))).toEqual([450, 970, 183, 844, 777, 437]);
  });
});

describe('what the generators choose', () => {
  it('a weighted book pick with a fixed seed', () => {
    const pos = new Position();
    const entry = (uci: string, weight: number) => ({ move: parseUciMove(pos, uci), raw: 0, weight, learn: 0, index: 0 });
    const entries = [entry('e2e4', 60), entry('d2d4', 30), entry('b2b3', 0), entry('c2c4', 10)];
    const random = unitInterval(xorshift32(42));
    const picks = first(() => moveToUci(pos, pickEntry(entries, 'weighted', random)!.move), 12);
    expect(picks.join(' ')).toBe('e2e4 d2d4 e2e4 d2d4 d2d4 e2e4 d2d4 e2e4 d2d4 e2e4 d2d4 d2d4');
  });

  it("a strength level's choices among candidate moves", () => {
    const candidates = [
      { score: 50, pv: [1] },
      { score: 30, pv: [2] },
      { score: 0, pv: [3] },
      { score: -400, pv: [4] },
    ];
    const random = unitInterval(mulberry32(7));
    const picks = first(() => chooseCandidate(candidates, { temperature: 40, margin: 100 }, random), 16);
    expect(picks.join('')).toBe('0021000011001000');
  });

  it("the trainer's first weights", () => {
    const shape = { hidden: 4, buckets: 1 };
    const l = layoutOf(shape);
    const params = new Float32Array(l.size);
    initParams(shape, params, 1);
    expect([params[l.w1], params[l.w1 + 1], params[l.w1 + 2], params[l.w2], params[l.w2 + 1]]).toEqual([
      -0.09998741000890732, -0.09685051441192627, 0.02328081987798214, 0.11511208117008209, -0.186255544424057,
    ]);
    initParams(shape, params, 0); // seed 0 counts as 1
    expect(params[l.w1]).toBe(-0.09998741000890732);
  });
});
