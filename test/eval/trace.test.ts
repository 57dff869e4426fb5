import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { TRACE, TRACE_INFO, evaluate, lastSums, traceEvaluate } from '../../src/eval/evaluate.js';
import { NUM_PARAMS } from '../../src/eval/layout.js';
import { EG, MG } from '../../src/eval/live-weights.js';
import { ALL_FENS } from './fixtures.js';

describe('evaluation trace', () => {
  it('the trace, multiplied out with the weights, gives exactly the fast score', () => {
    const pos = new Position();
    let checked = 0;
    for (const fen of ALL_FENS) {
      pos.setFen(fen);
      const fast = evaluate(pos);
      const [fastMg, fastEg] = lastSums();
      // Twice: the second fast call is served by the pawn cache.
      expect(evaluate(pos)).toBe(fast);
      const traced = traceEvaluate(pos);
      let mg = 0;
      let eg = 0;
      for (let i = 0; i < NUM_PARAMS; i++) {
        const n = TRACE[i] - TRACE[NUM_PARAMS + i];
        mg += n * MG[i];
        eg += n * EG[i];
      }
      const [phase, scale, drawn] = TRACE_INFO;
      const white = drawn ? 0 : Math.trunc((mg * phase * 128 + eg * (24 - phase) * scale) / 3072);
      const stm = pos.side === 0 ? white : -white;
      if (traced !== fast || stm !== fast || mg !== fastMg || eg !== fastEg) {
        throw new Error(`${fen}: fast ${fast} (${fastMg}/${fastEg}), traced ${traced}, from trace ${stm} (${mg}/${eg})`);
      }
      checked++;
    }
    expect(checked).toBe(ALL_FENS.length);
    // Thousands of positions, traced and not: seconds on a busy machine.
  }, 30_000);
});
