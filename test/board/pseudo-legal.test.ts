import { describe, expect, it } from 'vitest';
import { generateMoves, isPseudoLegal } from '../../src/board/movegen.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { lcg32 } from '../../src/util/random.js';
import { suiteFens } from '../data.js';

const suite = suiteFens('perftsuite.epd');

/** A move passes isPseudoLegal and leaves our king safe exactly when it is in the legal list. */
function check(pos: Position, list: Int32Array): void {
  const end = generateMoves(pos, list, 0, false);
  const legal = new Set(Array.from(list.subarray(0, end)));
  for (let kind = 0; kind < 8; kind++) {
    for (let from = 0; from < 64; from++) {
      for (let to = 0; to < 64; to++) {
        const move = from | (to << 6) | (kind << 12);
        let ok = isPseudoLegal(pos, move);
        if (ok) {
          pos.makeMove(move);
          ok = !pos.isAttacked(pos.kingSq[pos.side ^ 1], pos.side);
          pos.unmakeMove();
        }
        if (ok !== legal.has(move))
          expect.fail(`${pos.fen()}: move ${move} (from ${from} to ${to} kind ${kind}) pseudo-legal check says ${ok}`);
      }
    }
  }
}

describe('isPseudoLegal', () => {
  it('agrees with the legal move list on every move code, over suite positions and random walks', () => {
    const list = new Int32Array(MAX_MOVES);
    const lcg = lcg32(12345);
    const random = (n: number): number => lcg() % n;
    for (const fen of suite) {
      const pos = new Position(fen);
      for (let step = 0; step < 6; step++) {
        check(pos, list);
        const end = generateMoves(pos, list, 0, false);
        if (end === 0) break;
        pos.makeMove(list[random(end)]);
      }
    }
    // Every move code over many positions: seconds on a slow machine, more when it is busy.
  }, 60000);
});
