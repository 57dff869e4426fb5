// Correction history: how far the static evaluation has been from what the
// search then found, remembered per pawn structure and side to move.
//
// An evaluation misjudges some pawn structures the same way in every
// position that has them (a weak pawn it does not see, a blocked centre it
// overrates). After each node whose result says something about that error,
// the table moves the structure's entry a little towards (search score -
// static eval); the search adds the entry to the static evaluation it prunes
// by (reverse futility, null move, futility, stand pat). Entries are in
// 1/GRAIN centipawns and bounded, so a correction stays within ±CORRECTION_MAX.

import type { Position } from '../board/position.js';
import { PAWN } from '../board/types.js';
import { pawnHash } from '../eval/pawn-cache.js';
import { CORRECTION_MAX, CORRECTION_WEIGHT_MAX } from './params.js';
import { onSearchParametersChanged } from './tuning.js';

const BITS = 14;
const SIZE = 1 << BITS;
const GRAIN = 256;
let LIMIT = CORRECTION_MAX * GRAIN;
onSearchParametersChanged(() => {
  LIMIT = CORRECTION_MAX * GRAIN;
});
/** The weight of a new result is min(depth + 1, CORRECTION_WEIGHT_MAX) / WEIGHT_SCALE. */
const WEIGHT_SCALE = 256;

export class CorrectionHistory {
  /** Entry of (side to move, pawn structure): side * SIZE + hash. */
  private readonly table = new Int32Array(2 * SIZE);

  clear(): void {
    this.table.fill(0);
  }

  /** The static evaluation `raw` of pos with its structure's correction. */
  correct(pos: Position, raw: number): number {
    return raw + ((this.table[slot(pos)] / GRAIN) | 0);
  }

  /**
   * A node searched to `depth` scored `score` where the evaluation said
   * `raw`: the entry moves towards the error, the more for a deeper search.
   */
  update(pos: Position, depth: number, score: number, raw: number): void {
    const i = slot(pos);
    const weight = Math.min(depth + 1, CORRECTION_WEIGHT_MAX);
    const target = Math.max(-LIMIT, Math.min(LIMIT, (score - raw) * GRAIN));
    const entry = ((this.table[i] * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE) | 0;
    this.table[i] = Math.max(-LIMIT, Math.min(LIMIT, entry));
  }
}

/** Table index of pos: side to move and a hash of both sides' pawns. */
function slot(pos: Position): number {
  const h = pawnHash(pos.lo(PAWN), pos.hi(PAWN), pos.lo(8 | PAWN), pos.hi(8 | PAWN));
  return pos.side * SIZE + (h & (SIZE - 1));
}
