// Synthetic tuning data for the tuner tests: positions labelled by a hidden
// "true" evaluation that the tuner should find. The truth is built on a fixed
// weight set of its own, not on the shipped weights, so that retuning
// src/eval/weights.ts never moves these tests' numbers.

import { MATERIAL, NUM_PARAMS } from '../../src/eval/layout.js';
import type { TraceSet } from '../../src/tune/dataset.js';
import { evaluateAll } from '../../src/tune/objective.js';
import { lcg32 } from '../../src/util/random.js';

/** The knight's material parameter. */
export const KNIGHT = MATERIAL + 1;

/**
 * The tests' fixed starting weights: plain material values (P N B R Q) and,
 * for every other parameter, a small value in -15..15 from a fixed
 * pseudo-random sequence, so that all terms take part in the evaluation.
 */
function fixedWeights(): { mg: Float64Array; eg: Float64Array } {
  const mg = new Float64Array(NUM_PARAMS);
  const eg = new Float64Array(NUM_PARAMS);
  const random = lcg32(12345);
  const small = (): number => ((random() >>> 16) % 31) - 15;
  for (let i = 0; i < NUM_PARAMS; i++) {
    mg[i] = small();
    eg[i] = small();
  }
  const material = [
    [80, 100],
    [320, 320],
    [330, 340],
    [460, 600],
    [980, 1000],
  ];
  for (let t = 0; t < 5; t++) [mg[MATERIAL + t], eg[MATERIAL + t]] = material[t];
  return { mg, eg };
}

const FIXED = fixedWeights();
/** Midgame and endgame values of the fixed starting weights (read-only by convention). */
export const BASE_MG: Float64Array = FIXED.mg;
export const BASE_EG: Float64Array = FIXED.eg;

/**
 * Sets every result of `set` to the win chance sigmoid(k * eval) under the
 * hidden truth: the fixed weights (BASE_MG, BASE_EG) with the knight worth `bonus` more in
 * midgame and endgame. Returns those true evaluations.
 */
export function labelByKnightBonus(set: TraceSet, bonus: number, k: number): Float64Array {
  const mg = Float64Array.from(BASE_MG);
  const eg = Float64Array.from(BASE_EG);
  mg[KNIGHT] += bonus;
  eg[KNIGHT] += bonus;
  const evals = new Float64Array(set.count);
  evaluateAll(set, mg, eg, evals);
  for (let p = 0; p < set.count; p++) set.result[p] = 1 / (1 + Math.exp(-k * evals[p]));
  return evals;
}
