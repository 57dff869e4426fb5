// The evaluation's public face: what the search, UCI and tuner use.

import { NUM_PARAMS } from './layout.js';
import { EG, MG, refreshPacked } from './params.js';
import { clearPawnCache } from './pawn-cache.js';
import { refreshPsqt } from './psqt.js';

export { evaluate, traceEvaluate, TRACE, TRACE_INFO } from './evaluate.js';
export { explainEval } from './explain.js';
export { NUM_PARAMS } from './layout.js';

/**
 * Replaces the live weights (vectors in layout.ts order) and rebuilds the
 * piece-square tables. Positions set up before keep stale psqMg/psqEg sums:
 * call setFen on them again.
 */
export function setWeights(mg: ArrayLike<number>, eg: ArrayLike<number>): void {
  if (mg.length !== NUM_PARAMS || eg.length !== NUM_PARAMS) throw new Error(`setWeights: expected ${NUM_PARAMS} values`);
  for (let i = 0; i < NUM_PARAMS; i++) {
    MG[i] = Math.round(mg[i]);
    EG[i] = Math.round(eg[i]);
  }
  refreshPacked();
  refreshPsqt();
  clearPawnCache();
}
