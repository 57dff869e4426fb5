// Fills the piece-square tables that Position sums incrementally in
// make/unmake (board/piece-square.ts). Indexed by piece * 64 + square; black
// entries hold negated values so that the running sums are always White
// minus Black. They are built from the material and piece-square terms of
// the parameter vector (live-weights.ts) when this module first loads, so any
// Position constructed afterwards sums the real values. Phase weights (0 for pawns and kings): N, B
// 1, R 2, Q 4; 24 in the start position.

import { PHASE_WEIGHT, PSQ_EG, PSQ_MG } from '../board/piece-square.js';
import { KING, PAWN } from '../board/types.js';
import { MATERIAL, pstOffset } from './layout.js';
import { EG, MG } from './live-weights.js';
/** Phase of the full set of pieces; pos.phase is clamped to it. */
export const MAX_PHASE = 24;

/** Rebuilds PSQ_MG/PSQ_EG from MG/EG. Positions set up before keep stale sums: set them up again. */
function refreshPsqt(): void {
  PSQ_MG.fill(0);
  PSQ_EG.fill(0);
  for (let type = PAWN; type <= KING; type++) {
    const pst = pstOffset(type);
    const matMg = type === KING ? 0 : MG[MATERIAL + type - 1];
    const matEg = type === KING ? 0 : EG[MATERIAL + type - 1];
    for (let sq = 0; sq < 64; sq++) {
      // Black reads the table from its own side: rank flipped.
      PSQ_MG[type * 64 + sq] = matMg + MG[pst + sq];
      PSQ_EG[type * 64 + sq] = matEg + EG[pst + sq];
      PSQ_MG[(8 + type) * 64 + sq] = -(matMg + MG[pst + (sq ^ 56)]);
      PSQ_EG[(8 + type) * 64 + sq] = -(matEg + EG[pst + (sq ^ 56)]);
    }
  }
}

// By piece type: -, P, N, B, R, Q, K.
const PHASE_BY_TYPE = [0, 0, 1, 1, 2, 4, 0, 0];
for (let piece = 0; piece < 16; piece++) PHASE_WEIGHT[piece] = PHASE_BY_TYPE[piece & 7];

refreshPsqt();
