// Which evaluation the search calls: the built-in network by default, the
// hand-crafted one inside withHandCraftedEval (the strength levels).

import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { evaluate as evaluateHce } from '../../src/eval/evaluate.js';
import { USE_NNUE_DEFAULT, embeddedNetwork, evaluate, useNetwork, withHandCraftedEval } from '../../src/eval/index.js';
import { NnueEvaluator } from '../../src/eval/nnue/evaluator.js';

describe('the evaluation in use', () => {
  const pos = new Position('r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4');

  it('is the built-in network by default, and the hand-crafted one inside withHandCraftedEval', () => {
    expect(USE_NNUE_DEFAULT).toBe(true);
    const network = new NnueEvaluator(embeddedNetwork().net).evaluate(pos);
    expect(evaluate(pos)).toBe(network);
    expect(withHandCraftedEval(() => evaluate(pos))).toBe(evaluateHce(pos));
    expect(evaluate(pos)).toBe(network);
  });

  it('goes back to the network when the function throws', () => {
    expect(() =>
      withHandCraftedEval(() => {
        throw new Error('x');
      }),
    ).toThrow('x');
    expect(evaluate(pos)).toBe(new NnueEvaluator(embeddedNetwork().net).evaluate(pos));
    useNetwork(null);
    expect(evaluate(pos)).toBe(evaluateHce(pos));
  });
});
