// The incremental sums Position keeps for the evaluation: as a piece lands
// on a square, Position adds its entries of these tables (index piece * 64 +
// square, and piece for the phase) to psqMg, psqEg and phase, and subtracts
// them when it leaves. The board gives the numbers no meaning: the
// evaluation fills the tables when its module loads (eval/psqt.ts), and a
// program that evaluates positions imports the evaluation before it builds
// any. Until then the sums are zero.

/** Midgame piece-square value of each piece on each square (index piece * 64 + square). */
export const PSQ_MG = new Int32Array(16 * 64);
/** Endgame piece-square value of each piece on each square. */
export const PSQ_EG = new Int32Array(16 * 64);
/** Game-phase weight of each piece code. */
export const PHASE_WEIGHT = new Int32Array(16);
