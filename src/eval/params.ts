// The live parameter vector the evaluation reads: MG[i] and EG[i] are the
// midgame and endgame values of parameter i (offsets in layout.ts). Filled
// from weights.ts when this module loads; setWeights in src/eval/index.ts
// replaces them (and refreshes the piece-square tables).

import { NUM_PARAMS, packWeights } from './layout.js';
import { WEIGHTS } from './weights.js';

export const MG = new Int32Array(NUM_PARAMS);
export const EG = new Int32Array(NUM_PARAMS);

packWeights(WEIGHTS, MG, EG);
