// The live parameter vector the evaluation reads: MG[i] and EG[i] are the
// midgame and endgame values of parameter i (offsets in layout.ts), and
// PACKED[i] both in one int32, mg + eg * 65536, which evaluate.ts sums. Filled
// from weights.ts when this module loads.

import { NUM_PARAMS, packWeights } from './layout.js';
import { WEIGHTS } from './weights.js';

export const MG = new Int32Array(NUM_PARAMS);
export const EG = new Int32Array(NUM_PARAMS);
export const PACKED = new Int32Array(NUM_PARAMS);

/** Rebuilds PACKED from MG and EG. */
function refreshPacked(): void {
  for (let i = 0; i < NUM_PARAMS; i++) PACKED[i] = MG[i] + EG[i] * 65536;
}

/**
 * The halves of a packed sum mg + eg * 65536 (each within ±32767): the low
 * half is read as signed, and the high half rounds to absorb its borrow.
 */
export function unpackMg(packed: number): number {
  return (packed << 16) >> 16;
}

export function unpackEg(packed: number): number {
  return (packed + 32768) >> 16;
}

packWeights(WEIGHTS, MG, EG);
refreshPacked();
