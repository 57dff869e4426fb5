// Long random walks of make/unmake (with null moves): the incremental key
// always equals a key computed from scratch, and taking moves back restores
// the exact earlier position.

import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { mulberry32, unitInterval } from '../../src/util/random.js';

/** Everything make/unmake must restore. */
function snapshot(pos: Position): string {
  return [pos.fen(), pos.keyHex(), pos.psqMg, pos.psqEg, pos.phase, pos.kingSq[0], pos.kingSq[1], Array.from(pos.bb).join(',')].join(' | ');
}

const STARTS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
  'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1',
  'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9',
  '2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1',
];
const STEPS = 4000;

describe.each(STARTS)('random walk from %s', (fen) => {
  it('keeps the key equal to computeKey() and unmake restores every earlier position', () => {
    const pos = new Position(fen);
    const random = unitInterval(mulberry32(fen.length));
    const moves = new Int32Array(MAX_MOVES);
    const history = [snapshot(pos)]; // history[i] = position with i plies on the board
    const isNull: boolean[] = [];
    let nulls = 0;
    let takeBacks = 0;

    const takeBack = (): void => {
      if (isNull.pop()) pos.unmakeNullMove();
      else pos.unmakeMove();
      history.pop();
      takeBacks++;
      expect(snapshot(pos)).toBe(history[history.length - 1]);
    };

    for (let step = 0; step < STEPS; step++) {
      const end = generateMoves(pos, moves, 0, false);
      const r = random();
      if (isNull.length > 0 && (end === 0 || r < 0.1 || isNull.length > 300)) {
        takeBack();
        continue;
      }
      if (r < 0.15 && !pos.inCheck()) {
        pos.makeNullMove();
        isNull.push(true);
        nulls++;
      } else if (end > 0) {
        pos.makeMove(moves[Math.floor(random() * end)]);
        isNull.push(false);
      } else {
        continue;
      }
      const [lo, hi] = pos.computeKey();
      expect([pos.keyLo, pos.keyHi]).toEqual([lo, hi]);
      history.push(snapshot(pos));
    }
    while (isNull.length > 0) takeBack();

    expect(snapshot(pos)).toBe(history[0]);
    expect(nulls).toBeGreaterThan(50);
    expect(takeBacks).toBeGreaterThan(300);
  });
});
