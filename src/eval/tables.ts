// Precomputed square sets and distances for the evaluation. Sets are stored
// as (lo, hi) int32 pairs like every bitboard table (see board/bitboard.ts).
// Computed once per process, in one block of memory its threads share
// (util/thread-tables.ts).

import { KING_ATTACKS } from '../board/bitboard.js';
import { threadTable } from '../util/thread-tables.js';

/** Int32 words of the square sets, then the distances' bytes. */
const SET_WORDS = 16 + 16 + 4 * 256 + 128 + 32;
const tables = threadTable('eval-tables', SET_WORDS * 4 + 64 * 64);
let tableWords = 0;

/** The next `words` of the block. */
function table(words: number): Int32Array {
  const t = new Int32Array(tables.buffer, tableWords * 4, words);
  tableWords += words;
  return t;
}

function setBit(table: Int32Array, index: number, sq: number): void {
  table[index * 2 + (sq >> 5)] |= 1 << (sq & 31);
}

/** FILE_MASK[f * 2 + half]: every square of file f. */
export const FILE_MASK = table(16);
/** ADJACENT_FILES[f * 2 + half]: the files beside f. */
export const ADJACENT_FILES = table(16);
/** FORWARD_FILE[(c * 64 + sq) * 2 + half]: squares ahead of sq on its file, from colour c's side. */
export const FORWARD_FILE = table(2 * 64 * 2);
/** PASSED_SPAN[(c * 64 + sq) * 2 + half]: squares ahead of sq on its own and adjacent files (where enemy pawns stop a passer). */
export const PASSED_SPAN = table(2 * 64 * 2);
/** SUPPORT_SPAN[(c * 64 + sq) * 2 + half]: adjacent-file squares level with or behind sq (where pawns that could support it stand). */
export const SUPPORT_SPAN = table(2 * 64 * 2);
/** BESIDE[sq * 2 + half]: the squares left and right of sq on its rank. */
export const BESIDE = table(64 * 2);
/** KING_ZONE[(c * 64 + sq) * 2 + half]: a king of colour c on sq, its neighbours, and one more rank towards the enemy. */
export const KING_ZONE = table(2 * 64 * 2);
/** AHEAD_RANKS[(c * 8 + r) * 2 + half]: every square on ranks strictly ahead of rank r, from colour c's side. */
export const AHEAD_RANKS = table(2 * 8 * 2);
/** DISTANCE[a * 64 + b]: king moves from a to b (Chebyshev distance). */
export const DISTANCE = new Uint8Array(tables.buffer, SET_WORDS * 4, 64 * 64);
/** LIGHT_SQUARES as a (lo, hi) pair: b1, d1, ... (for bishop colours). */
export const LIGHT_LO = 0x55aa55aa | 0;
export const LIGHT_HI = 0x55aa55aa | 0;

if (tables.fresh) fill();

function fill(): void {
  for (let sq = 0; sq < 64; sq++) {
    const f = sq & 7;
    const r = sq >> 3;
    setBit(FILE_MASK, f, sq);
    if (f > 0) setBit(ADJACENT_FILES, f - 1, sq);
    if (f < 7) setBit(ADJACENT_FILES, f + 1, sq);
    if (f > 0) setBit(BESIDE, sq, sq - 1);
    if (f < 7) setBit(BESIDE, sq, sq + 1);
    for (let c = 0; c < 2; c++) {
      for (let t = 0; t < 64; t++) {
        const tf = t & 7;
        const tr = t >> 3;
        const ahead = c === 0 ? tr > r : tr < r;
        const levelOrBehind = c === 0 ? tr <= r : tr >= r;
        if (ahead && tf === f) setBit(FORWARD_FILE, c * 64 + sq, t);
        if (ahead && Math.abs(tf - f) <= 1) setBit(PASSED_SPAN, c * 64 + sq, t);
        if (levelOrBehind && Math.abs(tf - f) === 1) setBit(SUPPORT_SPAN, c * 64 + sq, t);
      }
      // King zone: the king's square and neighbours, plus the rank beyond the front neighbours.
      const zone = c * 64 + sq;
      setBit(KING_ZONE, zone, sq);
      KING_ZONE[zone * 2] |= KING_ATTACKS[sq * 2];
      KING_ZONE[zone * 2 + 1] |= KING_ATTACKS[sq * 2 + 1];
      const fr = c === 0 ? r + 2 : r - 2;
      if (fr >= 0 && fr < 8) {
        for (let df = -1; df <= 1; df++) if (f + df >= 0 && f + df < 8) setBit(KING_ZONE, zone, fr * 8 + f + df);
      }
    }
    for (let t = 0; t < 64; t++) {
      DISTANCE[sq * 64 + t] = Math.max(Math.abs((t & 7) - f), Math.abs((t >> 3) - r));
    }
  }
  for (let c = 0; c < 2; c++) {
    for (let r = 0; r < 8; r++) {
      for (let sq = 0; sq < 64; sq++) {
        if (c === 0 ? sq >> 3 > r : sq >> 3 < r) setBit(AHEAD_RANKS, c * 8 + r, sq);
      }
    }
  }
}
