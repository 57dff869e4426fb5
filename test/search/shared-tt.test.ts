// The transposition table shared between threads: views over one buffer see
// each other's entries, and an entry whose words come from two different
// stores (what a concurrent write leaves behind) is never returned by probe().

import { describe, expect, it } from 'vitest';
import { BOUND_EXACT, BOUND_LOWER, TranspositionTable } from '../../src/search/tt.js';

const WORDS = 3; // words per entry (tt.ts)

describe('shared transposition table', () => {
  it('a second view over the buffer sees the first one’s entries, and its age', () => {
    const a = new TranspositionTable(1);
    a.newSearch();
    a.store(0x12345678, 0x0badf00d, 0x1234, 7, BOUND_EXACT, 55, -20);
    const b = new TranspositionTable(a.buffer);
    b.generation = a.generation;
    expect(b.probe(0x12345678, 0x0badf00d)).toBe(true);
    expect([b.move, b.depth, b.bound, b.score, b.eval]).toEqual([0x1234, 7, BOUND_EXACT, 55, -20]);
    expect(b.hashfull()).toBe(a.hashfull());
    a.clear();
    expect(b.probe(0x12345678, 0x0badf00d)).toBe(false);
  });

  it('never returns an entry mixing the words of two stores', () => {
    const tt = new TranspositionTable(1);
    const raw = new Int32Array(tt.buffer);
    // Two stores to the same slot (same bucket, first entry) of different keys, or of the same key.
    const cases: Array<[number, number, number, number, number, number]> = [
      // keyHi, move, depth, bound, score, eval
      [0x11111111, 0x0101, 5, BOUND_EXACT, 30, 10],
      [0x22222222, 0x0202, 9, BOUND_LOWER, -400, 77],
      [0x11111111, 0x0303, 12, BOUND_LOWER, 1234, -5],
    ];
    // The test writes words behind the table's back: it empties the memory itself.
    const entryOf = (c: (typeof cases)[number]): Int32Array => {
      raw.fill(0);
      tt.store(0, c[0], c[1], c[2], c[3], c[4], c[5]);
      return raw.slice(0, WORDS);
    };
    let mixedSeen = 0;
    for (const x of cases) {
      for (const y of cases) {
        if (x === y) continue;
        const ex = entryOf(x);
        const ey = entryOf(y);
        // Every mix of the three words (2^3 - 2 of them are torn).
        for (let mask = 1; mask < 7; mask++) {
          raw.fill(0);
          for (let w = 0; w < WORDS; w++) raw[w] = (mask >> w) & 1 ? ey[w] : ex[w];
          for (const probeCase of cases) {
            if (tt.probe(0, probeCase[0])) {
              // A hit must be exactly one of the stores, for its own key.
              const got = [tt.move, tt.depth, tt.bound, tt.score, tt.eval];
              const whole = cases.filter((c) => c[0] === probeCase[0]).map((c) => [c[1], c[2], c[3], c[4], c[5]]);
              expect(whole).toContainEqual(got);
              mixedSeen++;
            }
          }
        }
      }
    }
    // None of the torn entries is a hit.
    expect(mixedSeen).toBe(0);
  });
});

describe('clearing the table', () => {
  it('empties every page that was written, however far apart, and the views over the buffer agree', () => {
    const tt = new TranspositionTable(64); // 1M buckets: 16384 pages
    const view = new TranspositionTable(tt.buffer);
    const keys = [0x00000001, 0x40000000, 0x7fffffff, 0x80000000 | 0, 0xfffffff0 | 0];
    keys.forEach((k, i) => {
      (i % 2 === 0 ? tt : view).store(k, k ^ 0x5555, 0x0101, 3, BOUND_EXACT, 10, 0);
    });
    for (const k of keys) expect(tt.probe(k, k ^ 0x5555)).toBe(true);
    tt.clear();
    for (const k of keys) expect(tt.probe(k, k ^ 0x5555)).toBe(false);
    expect(new Int32Array(tt.buffer, 0, (64 * 1024 * 1024) / 4).some((w) => w !== 0)).toBe(false);
  });

  it('empties a bucket whose entries were replaced, and pages written again after a clear', () => {
    const tt = new TranspositionTable(1);
    for (let round = 0; round < 2; round++) {
      // Eight keys of one bucket: the last three replace entries of the first five.
      for (let k = 1; k <= 8; k++) tt.store(0x12345678, k, 0x0101, k, BOUND_EXACT, k, 0);
      tt.clear();
      for (let k = 1; k <= 8; k++) expect(tt.probe(0x12345678, k)).toBe(false);
      expect(new Int32Array(tt.buffer, 0, (1024 * 1024) / 4).some((w) => w !== 0)).toBe(false);
    }
  });
});
