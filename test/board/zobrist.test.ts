// The position key is the Polyglot key: checked against the positions the
// Polyglot book format specification publishes.

import { describe, expect, it } from 'vitest';
import { parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';

const POLYGLOT_KEYS: Array<[string, string]> = [
  ['', '463b96181691fc9c'],
  ['e2e4', '823c9b50fd114196'],
  ['e2e4 d7d5', '0756b94461c50fb0'],
  ['e2e4 d7d5 e4e5', '662fafb965db29d4'],
  ['e2e4 d7d5 e4e5 f7f5', '22a48b5a8e47ff78'],
  ['e2e4 d7d5 e4e5 f7f5 e1e2', '652a607ca3f242c1'],
  ['e2e4 d7d5 e4e5 f7f5 e1e2 e8f7', '00fdd303c946bdd9'],
  ['a2a4 b7b5 h2h4 b5b4 c2c4', '3c8123ea7b067637'],
  ['a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3', '5c3f9b829b279560'],
];

describe('Polyglot keys', () => {
  it.each(POLYGLOT_KEYS)('after "%s" the key is %s', (line, key) => {
    const pos = new Position();
    for (const uci of line.split(' ').filter((m) => m !== '')) pos.makeMove(parseUciMove(pos, uci));
    expect(pos.keyHex()).toBe(key);
    const [lo, hi] = pos.computeKey();
    expect([lo, hi]).toEqual([pos.keyLo, pos.keyHi]);
    // The same position set from its FEN has the same key.
    expect(new Position(pos.fen()).keyHex()).toBe(key);
  });
});
