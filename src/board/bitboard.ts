// Bitboards as two 32-bit halves. Square 0 is a1, 7 is h1, 63 is h8; the low
// half holds squares 0..31 (ranks 1-4), the high half squares 32..63.
//
import { threadTable } from '../util/thread-tables.js';
import { BISHOP_MAGICS, ROOK_MAGICS } from './magics.js';

// JavaScript has no fast 64-bit integer, so every set of squares travels as a
// (lo, hi) pair of int32 values. Tables that hold bitboards store the pair at
// indices 2*i and 2*i + 1 of an Int32Array (int32 reads stay small integers
// in V8, unlike Uint32Array reads above 2^31).

/** Number of set bits in the pair (lo, hi), both halves counted at once (one final multiply). */
export function popcount64(lo: number, hi: number): number {
  lo = lo - ((lo >>> 1) & 0x55555555);
  hi = hi - ((hi >>> 1) & 0x55555555);
  lo = (lo & 0x33333333) + ((lo >>> 2) & 0x33333333);
  hi = (hi & 0x33333333) + ((hi >>> 2) & 0x33333333);
  // Each byte now counts at most 8 bits per half, so the halves' bytes can be added.
  const x = ((lo + (lo >>> 4)) & 0x0f0f0f0f) + ((hi + (hi >>> 4)) & 0x0f0f0f0f);
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Index of the lowest set bit of a non-zero 32-bit value. */
export function lsb32(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/**
 * The lowest square of a non-empty set (lo, hi). A loop over a set takes
 * its squares one by one with
 *   const sq = lowestSquare(lo, hi);
 *   if (lo !== 0) lo &= lo - 1; else hi &= hi - 1;
 */
export function lowestSquare(lo: number, hi: number): number {
  // Kept this small (in bytecode) so that V8 inlines it into the largest loops too.
  return lo !== 0 ? lsb32(lo) : 32 + lsb32(hi);
}

/** Each half of a bitboard without the a-file, and without the h-file. */
const NOT_FILE_A = ~0x01010101;
const NOT_FILE_H = ~0x80808080;

/**
 * Writes the squares the pawns (lo, hi) of `colour` (0 White, moving up the
 * board; 1 Black) attack to out[at], out[at + 1]: every pawn shifted one
 * step diagonally forward at once, none off the board's edge.
 */
export function pawnAttacks(lo: number, hi: number, colour: number, out: Int32Array, at: number): void {
  const westLo = lo & NOT_FILE_A;
  const westHi = hi & NOT_FILE_A;
  const eastLo = lo & NOT_FILE_H;
  const eastHi = hi & NOT_FILE_H;
  if (colour === 0) {
    // Up the board: west + 7, east + 9.
    out[at] = (westLo << 7) | (eastLo << 9);
    out[at + 1] = (westHi << 7) | (westLo >>> 25) | (eastHi << 9) | (eastLo >>> 23);
  } else {
    // Down the board: west - 9, east - 7.
    out[at] = (westLo >>> 9) | (westHi << 23) | (eastLo >>> 7) | (eastHi << 25);
    out[at + 1] = (westHi >>> 9) | (eastHi >>> 7);
  }
}

/** True when square `sq` is in the set (lo, hi). */
export function hasSquare(lo: number, hi: number, sq: number): boolean {
  return (((sq < 32 ? lo : hi) >>> sq) & 1) !== 0;
}

export function squareName(sq: number): string {
  return String.fromCharCode(97 + (sq & 7)) + String.fromCharCode(49 + (sq >> 3));
}

/** Parses "e4" into a square index, or -1. */
export function parseSquare(s: string): number {
  if (s.length !== 2) return -1;
  const f = s.charCodeAt(0) - 97;
  const r = s.charCodeAt(1) - 49;
  if (f < 0 || f > 7 || r < 0 || r > 7) return -1;
  return r * 8 + f;
}

// ---------------------------------------------------------------------------
// The tables below are computed once per process, in one block of memory
// that its threads share (util/thread-tables.ts): a thread started later
// only makes views of them. Every table is an Int32Array at its place in
// the block.

/** Words of the sliding-attack table: two for each rook and each bishop occupancy of every square. */
const SLIDER_WORDS = (102400 + 5248) * 2;
const LINE_WORDS = 64 * 64 * 2;
const TABLE_WORDS = 128 * 2 + 256 + 2 * LINE_WORDS + 2 * (128 + 128 + 64 + 64 + 128) + SLIDER_WORDS;
const tables = threadTable('bitboard', TABLE_WORDS * 4);
let tableWords = 0;

/** The next `words` of the block. */
function table(words: number): Int32Array {
  const t = new Int32Array(tables.buffer, tableWords * 4, words);
  tableWords += words;
  return t;
}

// ---------------------------------------------------------------------------
// Leaper attacks: knight, king and pawn (by colour).

export const KNIGHT_ATTACKS = table(128);
export const KING_ATTACKS = table(128);
/** PAWN_ATTACKS[(colour * 64 + sq) * 2 + half]: squares a pawn of that colour on sq attacks. */
export const PAWN_ATTACKS = table(256);

function setBit(table: Int32Array, index: number, sq: number): void {
  table[index * 2 + (sq >> 5)] |= 1 << (sq & 31);
}

function onBoard(f: number, r: number): boolean {
  return f >= 0 && f < 8 && r >= 0 && r < 8;
}

const KNIGHT_STEPS = [
  [1, 2],
  [2, 1],
  [2, -1],
  [1, -2],
  [-1, -2],
  [-2, -1],
  [-2, 1],
  [-1, 2],
];
const KING_STEPS = [
  [1, 0],
  [1, 1],
  [0, 1],
  [-1, 1],
  [-1, 0],
  [-1, -1],
  [0, -1],
  [1, -1],
];
const ROOK_DIRS = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];
const BISHOP_DIRS = [
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
];

function fillLeapers(): void {
  for (let sq = 0; sq < 64; sq++) {
    const f = sq & 7;
    const r = sq >> 3;
    for (const [df, dr] of KNIGHT_STEPS) {
      if (onBoard(f + df, r + dr)) setBit(KNIGHT_ATTACKS, sq, (r + dr) * 8 + f + df);
    }
    for (const [df, dr] of KING_STEPS) {
      if (onBoard(f + df, r + dr)) setBit(KING_ATTACKS, sq, (r + dr) * 8 + f + df);
    }
    for (const df of [-1, 1]) {
      if (onBoard(f + df, r + 1)) setBit(PAWN_ATTACKS, sq, (r + 1) * 8 + f + df);
      if (onBoard(f + df, r - 1)) setBit(PAWN_ATTACKS, 64 + sq, (r - 1) * 8 + f + df);
    }
  }
}

// ---------------------------------------------------------------------------
// Lines between squares.

/** BETWEEN[(a * 64 + b) * 2 + half]: squares strictly between a and b on a shared line, else empty. */
export const BETWEEN = table(LINE_WORDS);
/** LINE[(a * 64 + b) * 2 + half]: the whole line through a and b (both included), else empty. */
export const LINE = table(LINE_WORDS);

function fillLines(between: Int32Array, line: Int32Array): void {
  for (let a = 0; a < 64; a++) {
    const af = a & 7;
    const ar = a >> 3;
    for (const [df, dr] of [...ROOK_DIRS, ...BISHOP_DIRS]) {
      // Walk from a in this direction; every square b reached shares the line.
      let f = af + df;
      let r = ar + dr;
      const passed: number[] = [];
      while (onBoard(f, r)) {
        const b = r * 8 + f;
        for (const s of passed) setBit(between, a * 64 + b, s);
        // The full line: extend both ways from a.
        for (const sign of [1, -1]) {
          let lf = af;
          let lr = ar;
          while (onBoard(lf, lr)) {
            setBit(line, a * 64 + b, lr * 8 + lf);
            lf += sign * df;
            lr += sign * dr;
          }
        }
        passed.push(b);
        f += df;
        r += dr;
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Sliding attacks by magic lookup adapted to 32-bit multiplies: the relevant
// occupancy (lo, hi) is hashed as (lo * magicLo ^ hi * magicHi) >>> shift,
// which indexes a table holding every attack set of that square. The magic
// numbers were found by `npx tsx scripts/find-magics.ts` (a seeded search);
// a test checks every entry against a ray walk.

/** Attack sets of rooks and bishops; rookIndex/bishopIndex return an index of the lo half. */
export const SLIDER_ATTACKS = table(SLIDER_WORDS);

const ROOK_MASK = table(128);
const ROOK_MAGIC = table(128);
const ROOK_SHIFT = table(64);
const ROOK_OFFSET = table(64);
const BISHOP_MASK = table(128);
const BISHOP_MAGIC = table(128);
const BISHOP_SHIFT = table(64);
const BISHOP_OFFSET = table(64);

/** Empty-board rook and bishop rays (for pin and check detection). */
export const ROOK_RAYS = table(128);
export const BISHOP_RAYS = table(128);

/** Index into SLIDER_ATTACKS of the rook attacks from sq with occupancy (lo, hi). */
export function rookIndex(sq: number, lo: number, hi: number): number {
  const i = sq * 2;
  return (
    ROOK_OFFSET[sq] +
    (((Math.imul(lo & ROOK_MASK[i], ROOK_MAGIC[i]) ^ Math.imul(hi & ROOK_MASK[i + 1], ROOK_MAGIC[i + 1])) >>> ROOK_SHIFT[sq]) << 1)
  );
}

/** Index into SLIDER_ATTACKS of the bishop attacks from sq with occupancy (lo, hi). */
export function bishopIndex(sq: number, lo: number, hi: number): number {
  const i = sq * 2;
  return (
    BISHOP_OFFSET[sq] +
    (((Math.imul(lo & BISHOP_MASK[i], BISHOP_MAGIC[i]) ^ Math.imul(hi & BISHOP_MASK[i + 1], BISHOP_MAGIC[i + 1])) >>> BISHOP_SHIFT[sq]) <<
      1)
  );
}

/** Attacks by walking rays from sq, stopping at occupied squares; written to out[index]. */
function slidingAttacks(sq: number, dirs: number[][], occLo: number, occHi: number, out: Int32Array, index: number): void {
  let lo = 0;
  let hi = 0;
  for (let d = 0; d < dirs.length; d++) {
    const df = dirs[d][0];
    const dr = dirs[d][1];
    let f = (sq & 7) + df;
    let r = (sq >> 3) + dr;
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      const s = r * 8 + f;
      if (s < 32) lo |= 1 << s;
      else hi |= 1 << (s - 32);
      if (hasSquare(occLo, occHi, s)) break;
      f += df;
      r += dr;
    }
  }
  out[index * 2] = lo;
  out[index * 2 + 1] = hi;
}

interface SliderOccupancies {
  /** Relevant squares: the rays without their last square (an edge square never blocks further). */
  relevant: number[];
  occLo: Int32Array;
  occHi: Int32Array;
  /** attacks[2k], attacks[2k + 1]: the attack set for occupancy k. */
  attacks: Int32Array;
}

// Scratch for sliderOccupancies: at most 2^12 occupancies per square.
const SCRATCH_OCC_LO = new Int32Array(4096);
const SCRATCH_OCC_HI = new Int32Array(4096);
const SCRATCH_ATTACKS = new Int32Array(8192);

/**
 * Every subset of the relevant squares of sq, with its attack set. The arrays
 * are shared scratch, overwritten by the next call.
 */
export function sliderOccupancies(sq: number, bishop: boolean): SliderOccupancies {
  const dirs = bishop ? BISHOP_DIRS : ROOK_DIRS;
  const relevant = relevantSquares(sq, bishop);
  const size = 1 << relevant.length;
  const occLo = SCRATCH_OCC_LO;
  const occHi = SCRATCH_OCC_HI;
  const attacks = SCRATCH_ATTACKS;
  for (let k = 0; k < size; k++) {
    let lo = 0;
    let hi = 0;
    for (let b = 0; b < relevant.length; b++) {
      if (k & (1 << b)) {
        const s = relevant[b];
        if (s < 32) lo |= 1 << s;
        else hi |= 1 << (s - 32);
      }
    }
    occLo[k] = lo;
    occHi[k] = hi;
    slidingAttacks(sq, dirs, lo, hi, attacks, k);
  }
  return { relevant, occLo, occHi, attacks };
}

/** The relevant squares of a slider on sq: its rays without their last square (an edge square never blocks further). */
function relevantSquares(sq: number, bishop: boolean): number[] {
  const dirs = bishop ? BISHOP_DIRS : ROOK_DIRS;
  const relevant: number[] = [];
  for (let d = 0; d < dirs.length; d++) {
    const df = dirs[d][0];
    const dr = dirs[d][1];
    let f = (sq & 7) + df;
    let r = (sq >> 3) + dr;
    while (onBoard(f + df, r + dr)) {
      relevant.push(r * 8 + f);
      f += df;
      r += dr;
    }
  }
  return relevant;
}

/** Fills one slider's masks, magics, shifts, offsets and rays, and its part of the attack table. */
function initSliders(
  bishop: boolean,
  magics: readonly number[],
  mask: Int32Array,
  magic: Int32Array,
  shift: Int32Array,
  offset: Int32Array,
  rays: Int32Array,
  start: number,
): number {
  let next = start;
  for (let sq = 0; sq < 64; sq++) {
    const relevant = relevantSquares(sq, bishop);
    slidingAttacks(sq, bishop ? BISHOP_DIRS : ROOK_DIRS, 0, 0, rays, sq);
    for (const s of relevant) setBit(mask, sq, s);
    const bits = relevant.length;
    const mLo = magics[sq * 2] | 0;
    const mHi = magics[sq * 2 + 1] | 0;
    magic[sq * 2] = mLo;
    magic[sq * 2 + 1] = mHi;
    shift[sq] = 32 - bits;
    offset[sq] = next * 2;
    const { occLo, occHi, attacks } = sliderOccupancies(sq, bishop);
    for (let k = 0; k < 1 << bits; k++) {
      const idx = (Math.imul(occLo[k], mLo) ^ Math.imul(occHi[k], mHi)) >>> (32 - bits);
      SLIDER_ATTACKS[(next + idx) * 2] = attacks[k * 2];
      SLIDER_ATTACKS[(next + idx) * 2 + 1] = attacks[k * 2 + 1];
    }
    next += 1 << bits;
  }
  return next;
}

if (tables.fresh) {
  fillLeapers();
  fillLines(BETWEEN, LINE);
  const rookEnd = initSliders(false, ROOK_MAGICS, ROOK_MASK, ROOK_MAGIC, ROOK_SHIFT, ROOK_OFFSET, ROOK_RAYS, 0);
  initSliders(true, BISHOP_MAGICS, BISHOP_MASK, BISHOP_MAGIC, BISHOP_SHIFT, BISHOP_OFFSET, BISHOP_RAYS, rookEnd);
}
