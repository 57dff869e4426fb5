// A small cache of pawn-structure scores keyed by the exact pawn placement:
// pawns move rarely, so most positions of a search share a few structures.
// Each entry holds both colours' pawn sets (compared in full, so a hit is
// never a collision), the structure's score (packed midgame and endgame, as
// evaluate.ts sums them), the passed pawns found, and per colour the king
// square its pawn shelter was last scored for with that score. Lives as long
// as the module; cleared when the weights change.

// white lo, white hi, black lo, black hi, score, passed lo, passed hi,
// king square per colour, shelter score per colour, 5 unused.
const ENTRY = 16;
const BITS = 13;
const MASK = (1 << BITS) - 1;

/** The entries, ENTRY int32s each. */
export const PAWN_CACHE = new Int32Array((1 << BITS) * ENTRY);

/** The pawn structure's score of both colours, packed. */
export const PC_PAWNS = 4;
export const PC_PASSED_LO = 5;
export const PC_PASSED_HI = 6;
/** King square of colour c whose shelter is stored: slot + PC_KING + c (-1 when none). */
export const PC_KING = 7;
/** Shelter score of colour c, packed: slot + PC_SHELTER + c. */
export const PC_SHELTER = 9;

/** A 32-bit hash of a pawn placement (white lo, hi, black lo, hi); its low bits are well mixed. */
export function pawnHash(wLo: number, wHi: number, bLo: number, bHi: number): number {
  let h = Math.imul(wLo, 0x9e3779b1) ^ Math.imul(wHi, 0x85ebca77) ^ Math.imul(bLo, 0xc2b2ae3d) ^ Math.imul(bHi, 0x27d4eb2f);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 13;
  return h;
}

/** Index of the entry for these pawns (where it is, or where to store it). */
export function pawnCacheSlot(wLo: number, wHi: number, bLo: number, bHi: number): number {
  return (pawnHash(wLo, wHi, bLo, bHi) & MASK) * ENTRY;
}

/** True when the entry at slot holds exactly these pawns. */
export function pawnCacheHit(slot: number, wLo: number, wHi: number, bLo: number, bHi: number): boolean {
  return PAWN_CACHE[slot] === wLo && PAWN_CACHE[slot + 1] === wHi && PAWN_CACHE[slot + 2] === bLo && PAWN_CACHE[slot + 3] === bHi;
}

/** Forgets every entry (an empty entry's zero pawns match only pawnless positions, whose structure scores 0). */
function clearPawnCache(): void {
  PAWN_CACHE.fill(0);
  for (let slot = 0; slot < PAWN_CACHE.length; slot += ENTRY) {
    PAWN_CACHE[slot + PC_KING] = -1;
    PAWN_CACHE[slot + PC_KING + 1] = -1;
  }
}

clearPawnCache();
