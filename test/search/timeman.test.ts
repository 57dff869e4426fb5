import { describe, expect, it } from 'vitest';
import type { GoParams } from '../../src/search/limits.js';
import { TIME_RESERVE_INCREMENTS, TIME_RESERVE_MS } from '../../src/search/params.js';
import { TimeManager, computeTimeBudget } from '../../src/search/timeman.js';

const go = (extra: Partial<GoParams>): GoParams => ({ infinite: false, ponder: false, searchmoves: [], ...extra });

describe('time budget', () => {
  it('uses a fixed move time in full, less the overhead, and sets no limit for infinite or depth searches', () => {
    expect(computeTimeBudget(go({ movetime: 1000 }), 0, 100)).toEqual({ softMs: 0, hardMs: 900 });
    expect(computeTimeBudget(go({ infinite: true, wtime: 1000 }), 0, 100)).toEqual({ softMs: 0, hardMs: 0 });
    expect(computeTimeBudget(go({ depth: 8 }), 0, 100)).toEqual({ softMs: 0, hardMs: 0 });
  });

  it("reads the side to move's clock", () => {
    const white = computeTimeBudget(go({ wtime: 60000, btime: 1000 }), 0, 100);
    const black = computeTimeBudget(go({ wtime: 60000, btime: 1000 }), 1, 100);
    expect(white.softMs).toBeGreaterThan(black.softMs * 10);
  });

  it('never plans past the hard limit, and keeps the hard limit within 40% of the clock', () => {
    for (const time of [1, 50, 150, 400, 1000, 5000, 60000]) {
      for (const inc of [0, 10, 50, 100, 1000]) {
        const { softMs, hardMs } = computeTimeBudget(go({ wtime: time, winc: inc }), 0, 100);
        expect(softMs).toBeGreaterThanOrEqual(1);
        expect(softMs).toBeLessThanOrEqual(hardMs);
        expect(hardMs).toBeLessThanOrEqual(Math.max(1, (time - 100) * 0.4));
      }
    }
  });

  // A game of 200 moves in which every move spends its whole hard budget (the
  // most a search can take, save a stall of the machine): the clock settles
  // where the increment pays for each move, with the overhead and the reserve
  // still on it, so that a stall does not lose on time.
  it('keeps the reserve when the clock runs down', () => {
    for (const [base, inc] of [
      [5000, 50],
      [10000, 100],
      [1000, 10],
      [60000, 600],
    ]) {
      let clock = base;
      let lowest = clock;
      for (let move = 0; move < 200; move++) {
        clock += inc - computeTimeBudget(go({ wtime: clock, winc: inc }), 0, 100).hardMs;
        lowest = Math.min(lowest, clock);
      }
      expect(lowest).toBeGreaterThanOrEqual(100 + TIME_RESERVE_MS + TIME_RESERVE_INCREMENTS * inc);
    }
  });
});

describe('when to stop', () => {
  // After an iteration at the same point of the budget: a best move that took
  // nearly every node is clear, one that shared them with others gets more time.
  it('stops sooner when the best move took most of the nodes', () => {
    const stopsAt = (share: number): number => {
      for (let elapsed = 1; ; elapsed++) {
        const tm = new TimeManager();
        tm.start(go({ wtime: 10000, winc: 100 }), 0, 100);
        if (tm.stopAfterIteration(10, 0, false, false, 0, elapsed, false, share)) return elapsed;
      }
    };
    expect(stopsAt(0.95)).toBeLessThan(stopsAt(0.7));
    expect(stopsAt(0.7)).toBeLessThan(stopsAt(0.4));
  });
});
