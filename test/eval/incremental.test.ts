import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { Position } from '../../src/board/position.js';
import { PHASE_WEIGHT, PSQ_EG, PSQ_MG } from '../../src/board/piece-square.js';
import '../../src/eval/psqt.js';
import { PERFT_FENS, UHO_FENS, rng } from './fixtures.js';

function fromScratch(pos: Position): [number, number, number] {
  let mg = 0;
  let eg = 0;
  let phase = 0;
  for (let sq = 0; sq < 64; sq++) {
    const p = pos.board[sq];
    if (p === 0) continue;
    mg += PSQ_MG[p * 64 + sq];
    eg += PSQ_EG[p * 64 + sq];
    phase += PHASE_WEIGHT[p];
  }
  return [mg, eg, phase];
}

describe('incremental piece-square sums', () => {
  it('tables are filled once psqt.ts is imported', () => {
    // White pawn and black pawn on mirrored squares cancel; material is non-zero.
    expect(PSQ_MG[1 * 64 + 12]).toBeGreaterThan(50);
    expect(PSQ_MG[9 * 64 + (12 ^ 56)]).toBe(-PSQ_MG[1 * 64 + 12]);
    expect(PHASE_WEIGHT[2] + PHASE_WEIGHT[3] + PHASE_WEIGHT[4] + PHASE_WEIGHT[5]).toBe(8);
    expect(new Position().phase).toBe(24);
  });

  it('psqMg, psqEg and phase equal a recount after make/unmake walks', () => {
    const next = rng(777);
    const moves = new Int32Array(256);
    let checked = 0;
    for (const fen of [...PERFT_FENS, ...UHO_FENS.slice(0, 100)]) {
      const pos = new Position(fen);
      const start = fromScratch(pos);
      expect([pos.psqMg, pos.psqEg, pos.phase]).toEqual(start);
      let played = 0;
      for (let ply = 0; ply < 80; ply++) {
        const n = generateMoves(pos, moves, 0, false);
        if (n === 0) break;
        pos.makeMove(moves[next(n)]);
        played++;
        const [mg, eg, phase] = fromScratch(pos);
        if (pos.psqMg !== mg || pos.psqEg !== eg || pos.phase !== phase) {
          throw new Error(`mismatch after ${pos.fen()}: ${pos.psqMg}/${pos.psqEg}/${pos.phase} vs ${mg}/${eg}/${phase}`);
        }
        checked++;
      }
      for (let i = 0; i < played; i++) pos.unmakeMove();
      expect([pos.psqMg, pos.psqEg, pos.phase]).toEqual(start);
    }
    expect(checked).toBeGreaterThan(10000);
  });
});
