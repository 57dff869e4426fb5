// Piece-square tables that Position keeps summed incrementally in make/unmake.
// Indexed by piece * 64 + square; black entries hold negated values so that
// the running sums are always White minus Black. The evaluation module fills
// them (see src/eval/evaluate.ts); until then they are zero.

/** Midgame piece-square value (material included) of piece on square. */
export const PSQ_MG = new Int32Array(16 * 64);
/** Endgame piece-square value (material included) of piece on square. */
export const PSQ_EG = new Int32Array(16 * 64);
/** Game-phase weight of each piece code (0 for pawns and kings). */
export const PHASE_WEIGHT = new Int32Array(16);
