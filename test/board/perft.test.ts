// The perft suites: exact node counts prove move generation and make/unmake.
// Depths are capped by node count so the whole file runs in seconds.

import { describe, expect, it } from 'vitest';
import { Perft } from '../../src/board/perft.js';
import { Position } from '../../src/board/position.js';
import { parsePerftSuite } from '../../src/cli/perft-suite.js';
import { readTestData } from '../data.js';

const SUITE = 'perftsuite.epd';
const FRC_SUITE = 'frcperftsuite.epd';

/** Largest count checked per position: every depth whose count is at most this. */
const MAX_NODES = 2_000_000;

const perft = new Perft();
const pos = new Position();

describe('perftsuite.epd, every position, all depths up to 2M nodes', () => {
  const entries = parsePerftSuite(readTestData(SUITE), false);

  it('has all 126 positions', () => {
    expect(entries.length).toBe(126);
  });

  it.each(entries.map((e) => [e.line, e] as const))('line %i', (_line, entry) => {
    pos.setFen(entry.fen);
    for (const { depth, nodes } of entry.counts) {
      if (nodes > MAX_NODES) break;
      expect({ depth, nodes: perft.count(pos, depth) }).toEqual({ depth, nodes });
    }
  });
});

describe('frcperftsuite.epd, every 10th position to depth 4', () => {
  const entries = parsePerftSuite(readTestData(FRC_SUITE), true).filter((_, i) => i % 10 === 0);

  it.each(entries.map((e) => [e.line, e] as const))('line %i', (_line, entry) => {
    pos.setFen(entry.fen);
    for (const { depth, nodes } of entry.counts) {
      if (depth > 4) break;
      expect({ depth, nodes: perft.count(pos, depth) }).toEqual({ depth, nodes });
    }
  });
});

describe('divide', () => {
  it('sums to the count and lists every root move once', () => {
    pos.setFen('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1');
    const rows = perft.divide(pos, 3);
    expect(rows.length).toBe(48);
    expect(new Set(rows.map((r) => r.move)).size).toBe(48);
    expect(rows.reduce((sum, r) => sum + r.nodes, 0)).toBe(97862);
  });
});
