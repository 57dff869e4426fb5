// The transposition table shared between threads: views over one buffer see
// each other's entries, and an entry whose words come from two different
// stores (what a concurrent write leaves behind) is never returned by probe().

import { describe, expect, it } from 'vitest';
import { platform } from '../../src/platform/node.js';
import { BOUND_EXACT, BOUND_LOWER, MAX_HASH_MB, TranspositionTable } from '../../src/search/tt.js';

const WORDS = 3; // words per entry (tt.ts)

describe('shared transposition table', () => {
  it('a second view over the buffer sees the first one’s entries, and its age', () => {
    const a = new TranspositionTable(1);
    a.newSearch();
    a.store(0x12345678, 0x0badf00d, 0x1234, 7, BOUND_EXACT, 55, -20);
    const b = new TranspositionTable(a.memory);
    b.generation = a.generation;
    expect(b.probe(0x12345678, 0x0badf00d)).toBe(true);
    expect([b.move, b.depth, b.bound, b.score, b.eval]).toEqual([0x1234, 7, BOUND_EXACT, 55, -20]);
    expect(b.hashfull()).toBe(a.hashfull());
    a.clear();
    expect(b.probe(0x12345678, 0x0badf00d)).toBe(false);
  });

  it('never returns an entry mixing the words of two stores', () => {
    const tt = new TranspositionTable(1);
    const raw = new Int32Array(tt.memory.buckets[0]);
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
    const view = new TranspositionTable(tt.memory);
    const keys = [0x00000001, 0x40000000, 0x7fffffff, 0x80000000 | 0, 0xfffffff0 | 0];
    keys.forEach((k, i) => {
      (i % 2 === 0 ? tt : view).store(k, k ^ 0x5555, 0x0101, 3, BOUND_EXACT, 10, 0);
    });
    for (const k of keys) expect(tt.probe(k, k ^ 0x5555)).toBe(true);
    tt.clear();
    for (const k of keys) expect(tt.probe(k, k ^ 0x5555)).toBe(false);
    expect(new Int32Array(tt.memory.buckets[0], 0, (64 * 1024 * 1024) / 4).some((w) => w !== 0)).toBe(false);
  });

  it('empties a bucket whose entries were replaced, and pages written again after a clear', () => {
    const tt = new TranspositionTable(1);
    for (let round = 0; round < 2; round++) {
      // Eight keys of one bucket: the last three replace entries of the first five.
      for (let k = 1; k <= 8; k++) tt.store(0x12345678, k, 0x0101, k, BOUND_EXACT, k, 0);
      tt.clear();
      for (let k = 1; k <= 8; k++) expect(tt.probe(0x12345678, k)).toBe(false);
      expect(new Int32Array(tt.memory.buckets[0], 0, (1024 * 1024) / 4).some((w) => w !== 0)).toBe(false);
    }
  });
});

describe('a table in segments', () => {
  it('the Hash option offers no more than a table can be', () => {
    expect(platform.maxHashMb).toBeGreaterThanOrEqual(65536);
    expect(platform.maxHashMb).toBeLessThanOrEqual(MAX_HASH_MB);
  });

  /** Keys spread over the whole table (multiplicative hashing of 1, 2, 3, ...). */
  const keys = Array.from({ length: 5000 }, (_, i) => [Math.imul(i + 1, 0x9e3779b1), Math.imul(i + 7, 0x85ebca77)] as const);

  it('stores and finds what one buffer does, entry for entry, over every segment', () => {
    // 4 MiB: 65536 buckets, in segments of 2^12 buckets (16 of them), and in one buffer.
    const segmented = new TranspositionTable(4, 12);
    const whole = new TranspositionTable(4);
    expect(segmented.memory.buckets).toHaveLength(16);
    expect(whole.memory.buckets).toHaveLength(1);
    for (const t of [segmented, whole]) t.newSearch();
    // Enough stores that buckets fill and entries are replaced.
    for (let round = 0; round < 3; round++) {
      keys.forEach(([lo, hi], i) => {
        for (const t of [segmented, whole]) t.store(lo, hi ^ round, i & 0xffff, (i + round) % 20, BOUND_LOWER, i % 500, -i % 300);
      });
    }
    let hits = 0;
    for (let round = 0; round < 3; round++) {
      for (const [lo, hi] of keys) {
        const found = segmented.probe(lo, hi ^ round);
        expect(whole.probe(lo, hi ^ round)).toBe(found);
        if (!found) continue;
        hits++;
        expect([segmented.move, segmented.depth, segmented.bound, segmented.score, segmented.eval]).toEqual([
          whole.move,
          whole.depth,
          whole.bound,
          whole.score,
          whole.eval,
        ]);
      }
    }
    expect(hits).toBeGreaterThan(keys.length);
    expect(segmented.hashfull()).toBe(whole.hashfull());
    // Every segment got entries.
    for (const buffer of segmented.memory.buckets) expect(new Int32Array(buffer).some((w) => w !== 0)).toBe(true);
  });

  it('a view over the segments (a helper thread) sees the entries, and clear() empties every segment', () => {
    const tt = new TranspositionTable(2, 10);
    const view = new TranspositionTable(tt.memory);
    expect(view.memory.buckets).toEqual(tt.memory.buckets);
    keys.forEach(([lo, hi], i) => {
      (i % 2 === 0 ? tt : view).store(lo, hi, 0x0101, 3, BOUND_EXACT, 10, 0);
    });
    let seen = 0;
    for (const [lo, hi] of keys) if (view.probe(lo, hi) && tt.probe(lo, hi)) seen++;
    expect(seen).toBeGreaterThan(keys.length / 2);
    tt.clear();
    for (const [lo, hi] of keys) expect(view.probe(lo, hi)).toBe(false);
    for (const buffer of tt.memory.buckets) expect(new Int32Array(buffer).some((w) => w !== 0)).toBe(false);
  });
});
