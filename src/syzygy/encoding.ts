// How a Syzygy table numbers its positions: the squares of the pieces, in
// the table's order, folded by the board's symmetries (a horizontal mirror
// always; for pawnless tables also a vertical one and the a1-h8 diagonal)
// and counted as combinations of like pieces. The constants are the
// format's (facts of the file format, as every prober reads them).
//
// Indices pass 2^31 for six-piece tables and 2^32 for seven: every
// product and sum here is a plain Number (exact below 2^53), never a
// 32-bit integer operation.

/** Which files the leading pawn may stand on: table t of a pawnful set holds leading pawns on file t (a to d) after the mirror. */
const FILE_TO_FILE = [0, 1, 2, 3, 3, 2, 1, 0];

/** Below the a1-h8 diagonal -1, above 1, on it 0 (square a1 = 0). */
const OFF_DIAG = new Int8Array(64);
/** A square's number in the triangle a1-d1-d4 (the first piece of a pawnless table is folded into it). */
const TRIANGLE = Uint8Array.from([
  6, 0, 1, 2, 2, 1, 0, 6, 0, 7, 3, 4, 4, 3, 7, 0, 1, 3, 8, 5, 5, 8, 3, 1, 2, 4, 5, 9, 9, 5, 4, 2, 2, 4, 5, 9, 9, 5, 4, 2, 1, 3, 8, 5, 5, 8,
  3, 1, 0, 7, 3, 4, 4, 3, 7, 0, 6, 0, 1, 2, 2, 1, 0, 6,
]);
/** Squares below the diagonal, numbered 0..27, and the diagonal's 28..35. */
const LOWER = new Uint8Array(64);
/** The diagonal's squares a1..h8 numbered 0..7, and the anti-diagonal's h1..a8 8..15. */
const DIAG = new Uint8Array(64);
/** A square mirrored in the a1-h8 diagonal. */
const FLIP_DIAG = new Uint8Array(64);
/** Where a leading pawn may stand, numbered (ranks 2-7 of files a-d). */
const FLAP = new Uint8Array(64);
/** The other pawns of the leading colour, numbered so that the squares before the leading pawn come first. */
const PAWN_TWIST = Uint8Array.from([
  0, 0, 0, 0, 0, 0, 0, 0, 47, 35, 23, 11, 10, 22, 34, 46, 45, 33, 21, 9, 8, 20, 32, 44, 43, 31, 19, 7, 6, 18, 30, 42, 41, 29, 17, 5, 4, 16,
  28, 40, 39, 27, 15, 3, 2, 14, 26, 38, 37, 25, 13, 1, 0, 12, 24, 36, 0, 0, 0, 0, 0, 0, 0, 0,
]);

/** The two kings of a table with no other unique piece, as one number 0..461 (the first king in the triangle). */
const KK_INDEX = new Int16Array(10 * 64).fill(-1);

/** BINOMIAL[k * 64 + n] = n choose k, for k < 8. */
const BINOMIAL = new Float64Array(8 * 64);
/** PAWN_INDEX[(k - 1) * 24 + flap]: where the positions of k leading pawns with the first on `flap` start. */
const PAWN_INDEX = new Float64Array(6 * 24);
/** PAWN_FACTOR[(k - 1) * 4 + file]: how many placements k leading pawns have with the first on `file`. */
const PAWN_FACTOR = new Float64Array(6 * 4);

for (let sq = 0; sq < 64; sq++) {
  const r = sq >> 3;
  const f = sq & 7;
  OFF_DIAG[sq] = r > f ? 1 : r < f ? -1 : 0;
  FLIP_DIAG[sq] = f * 8 + r;
}
{
  // Below the diagonal, row by row of files: b1.. numbered in the order the format lists them.
  let n = 0;
  for (let f = 0; f < 8; f++) for (let r = f + 1; r < 8; r++) LOWER[f + 8 * r] = LOWER[r + 8 * f] = n++;
  for (let i = 0; i < 8; i++) LOWER[i * 9] = 28 + i;
  for (let i = 0; i < 8; i++) {
    DIAG[i * 9] = i;
    DIAG[7 + 7 * i] = 8 + i;
  }
  // FLAP: ranks 2-7 of files a-d, column by column; files e-h mirror them.
  for (let f = 0; f < 4; f++) {
    for (let r = 1; r < 7; r++) {
      FLAP[r * 8 + f] = FLAP[r * 8 + 7 - f] = f * 6 + (r - 1);
    }
  }
  // The kings: the first in the triangle (10 squares), the second anywhere it may legally be.
  let idx = 0;
  const adjacent = (a: number, b: number): boolean => Math.abs((a >> 3) - (b >> 3)) <= 1 && Math.abs((a & 7) - (b & 7)) <= 1;
  const triangle = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27]; // TRIANGLE values 0..9 in order
  for (let t = 0; t < 10; t++) {
    const s1 = triangle[t];
    for (let s2 = 0; s2 < 64; s2++) {
      if (adjacent(s1, s2)) continue;
      // With the first king on the diagonal, the second is kept on one side of it (or on it).
      if (OFF_DIAG[s1] === 0 && OFF_DIAG[s2] > 0) continue;
      KK_INDEX[t * 64 + s2] = -2;
    }
  }
  // Numbering: first every pair with the first king off the diagonal (6 squares), then those with it
  // on the diagonal and the second below it, then both on the diagonal.
  for (let t = 0; t < 6; t++) for (let s2 = 0; s2 < 64; s2++) if (KK_INDEX[t * 64 + s2] === -2) KK_INDEX[t * 64 + s2] = idx++;
  for (let t = 6; t < 10; t++) {
    for (let s2 = 0; s2 < 64; s2++) if (KK_INDEX[t * 64 + s2] === -2 && OFF_DIAG[s2] < 0) KK_INDEX[t * 64 + s2] = idx++;
  }
  for (let t = 6; t < 10; t++) {
    for (let s2 = 0; s2 < 64; s2++) if (KK_INDEX[t * 64 + s2] === -2 && OFF_DIAG[s2] === 0) KK_INDEX[t * 64 + s2] = idx++;
  }
  if (idx !== 462) throw new Error(`syzygy: ${idx} king pairs, 462 expected`);

  for (let k = 0; k < 8; k++) {
    for (let n = 0; n < 64; n++) {
      let f = 1;
      let l = 1;
      for (let i = 0; i < k; i++) {
        f *= n - i;
        l *= i + 1;
      }
      BINOMIAL[k * 64 + n] = f / l;
    }
  }
  for (let k = 0; k < 6; k++) {
    let s = 0;
    for (let j = 0; j < 24; j++) {
      PAWN_INDEX[k * 24 + j] = s;
      s += BINOMIAL[k * 64 + PAWN_TWIST[(1 + (j % 6)) * 8 + Math.floor(j / 6)]];
      if ((j + 1) % 6 === 0) {
        PAWN_FACTOR[k * 4 + Math.floor(j / 6)] = s;
        s = 0;
      }
    }
  }
}

/** n choose k. */
export function binomial(n: number, k: number): number {
  return BINOMIAL[k * 64 + n];
}

/** Placements of k like pieces on n free squares. */
export function subfactor(k: number, n: number): number {
  let f = n;
  let l = 1;
  for (let i = 1; i < k; i++) {
    f *= n - i;
    l *= i + 1;
  }
  return f / l;
}

/** Placements of the first group: the kings (462), three unique pieces (31,332), or k leading pawns with the first on `file`. */
export function firstGroupSize(kkEnc: boolean, pawns: number, leadPawns: number, file: number): number {
  if (pawns > 0) return PAWN_FACTOR[(leadPawns - 1) * 4 + file];
  return kkEnc ? 462 : 31332;
}

/** The leading pawn's table (its file after the mirror), having moved the leading pawn to p[0] among the first `count`. */
export function leadingPawnFile(p: Int32Array, count: number): number {
  for (let i = 1; i < count; i++) {
    if (FLAP[p[0]] > FLAP[p[i]]) {
      const t = p[0];
      p[0] = p[i];
      p[i] = t;
    }
  }
  return FILE_TO_FILE[p[0] & 7];
}

/** What encode() needs of a table's side: its groups of like pieces and their factors. */
export interface EncodingInfo {
  /** norm[i] > 0 at the start of each group: its size. */
  norm: Uint8Array;
  factor: Float64Array;
}

/**
 * The index of the position whose pieces stand on p[0..n) (in the table's
 * order, squares already flipped for the side to move). kkEnc: the first
 * group is the two kings; leadPawns: the leading colour's pawns (0 for a
 * pawnless table), otherPawns the other colour's. p is modified.
 */
export function encode(p: Int32Array, n: number, info: EncodingInfo, kkEnc: boolean, leadPawns: number, otherPawns: number): number {
  const { norm, factor } = info;
  if ((p[0] & 4) !== 0) for (let i = 0; i < n; i++) p[i] ^= 7;
  let idx: number;
  let k: number;
  if (leadPawns === 0) {
    if ((p[0] & 0x20) !== 0) for (let i = 0; i < n; i++) p[i] ^= 0x38;
    for (let i = 0; i < n; i++) {
      if (OFF_DIAG[p[i]] !== 0) {
        if (OFF_DIAG[p[i]] > 0 && i < (kkEnc ? 2 : 3)) for (let j = 0; j < n; j++) p[j] = FLIP_DIAG[p[j]];
        break;
      }
    }
    if (kkEnc) {
      idx = KK_INDEX[TRIANGLE[p[0]] * 64 + p[1]];
      k = 2;
    } else {
      const s1 = p[1] > p[0] ? 1 : 0;
      const s2 = (p[2] > p[0] ? 1 : 0) + (p[2] > p[1] ? 1 : 0);
      if (OFF_DIAG[p[0]] !== 0) idx = TRIANGLE[p[0]] * 63 * 62 + (p[1] - s1) * 62 + (p[2] - s2);
      else if (OFF_DIAG[p[1]] !== 0) idx = 6 * 63 * 62 + DIAG[p[0]] * 28 * 62 + LOWER[p[1]] * 62 + p[2] - s2;
      else if (OFF_DIAG[p[2]] !== 0) idx = 6 * 63 * 62 + 4 * 28 * 62 + DIAG[p[0]] * 7 * 28 + (DIAG[p[1]] - s1) * 28 + LOWER[p[2]];
      else idx = 6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + DIAG[p[0]] * 7 * 6 + (DIAG[p[1]] - s1) * 6 + (DIAG[p[2]] - s2);
      k = 3;
    }
    idx *= factor[0];
  } else {
    // The leading pawns after the first, most advanced (by PAWN_TWIST) first.
    for (let i = 1; i < leadPawns; i++) {
      for (let j = i + 1; j < leadPawns; j++) {
        if (PAWN_TWIST[p[i]] < PAWN_TWIST[p[j]]) {
          const t = p[i];
          p[i] = p[j];
          p[j] = t;
        }
      }
    }
    k = leadPawns;
    idx = PAWN_INDEX[(k - 1) * 24 + FLAP[p[0]]];
    for (let i = 1; i < k; i++) idx += BINOMIAL[(k - i) * 64 + PAWN_TWIST[p[i]]];
    idx *= factor[0];
    if (otherPawns > 0) {
      const t = k + otherPawns;
      idx += groupIndex(p, k, t, 8) * factor[k];
      k = t;
    }
  }
  while (k < n) {
    const t = k + norm[k];
    idx += groupIndex(p, k, t, 0) * factor[k];
    k = t;
  }
  return idx;
}

/**
 * The index of a group of like pieces p[k..t) (sorted here) on the squares
 * the pieces p[0..k) leave free: a sum of binomials over each square less
 * the earlier pieces below it, less `offset` (8 for the second colour's
 * pawns, which cannot stand on the first rank).
 */
function groupIndex(p: Int32Array, k: number, t: number, offset: number): number {
  sortRange(p, k, t);
  let s = 0;
  for (let i = k; i < t; i++) {
    const sq = p[i];
    let skips = 0;
    for (let j = 0; j < k; j++) if (sq > p[j]) skips++;
    s += BINOMIAL[(i - k + 1) * 64 + sq - skips - offset];
  }
  return s;
}

/** Sorts p[from..to) ascending (a handful of squares). */
function sortRange(p: Int32Array, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    for (let j = i + 1; j < to; j++) {
      if (p[i] > p[j]) {
        const t = p[i];
        p[i] = p[j];
        p[j] = t;
      }
    }
  }
}
