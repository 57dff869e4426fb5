// Synthetic tuning data for the tuner tests: positions labelled by a hidden
// "true" evaluation that the tuner should find.

import { MATERIAL } from '../../src/eval/layout.js';
import { EG, MG } from '../../src/eval/params.js';
import type { TraceSet } from '../../src/tune/dataset.js';
import { evaluateAll } from '../../src/tune/tuner.js';

/** The knight's material parameter. */
export const KNIGHT = MATERIAL + 1;

/**
 * Sets every result of `set` to the win chance sigmoid(k * eval) under the
 * hidden truth: the current weights with the knight worth `bonus` more in
 * midgame and endgame. Returns those true evaluations.
 */
export function labelByKnightBonus(set: TraceSet, bonus: number, k: number): Float64Array {
  const mg = Float64Array.from(MG);
  const eg = Float64Array.from(EG);
  mg[KNIGHT] += bonus;
  eg[KNIGHT] += bonus;
  const evals = new Float64Array(set.count);
  evaluateAll(set, mg, eg, evals);
  for (let p = 0; p < set.count; p++) set.result[p] = 1 / (1 + Math.exp(-k * evals[p]));
  return evals;
}
