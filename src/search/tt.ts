// Transposition table: one Int32Array over a SharedArrayBuffer, in buckets
// of five entries. A bucket is 16 words (five entries and one unused word):
// 64 bytes, one cache line, so a probe costs at most one miss. With
// Threads > 1 every searcher has its own TranspositionTable object over the
// same buffer (see attach()).
//
// An entry is three int32 words:
//   0: check = keyHi ^ word1 ^ word2
//   1: move (16 bits) | depth (8 bits, biased by +DEPTH_BIAS) << 16 | bound (2 bits) << 24 | age (6 bits) << 26
//   2: score (16 bits, signed) | static eval (16 bits, signed; the search's NO_EVAL when it has none, as in check) << 16
// The bucket is chosen by keyLo, and keyHi verifies the entry.
//
// After the buckets, one byte per page of 64 buckets (4 KiB) marks the
// pages written since the last clear, and clear() zeroes only those. Memory
// the search never wrote to is never touched, so the system never has to
// page it in: clearing a fresh 4 GB table took seconds, now it is free.
//
// Lock-free sharing (the XOR trick): threads read and write entries without
// locks, word by word (aligned int32 accesses never tear, but two writers, or
// a reader and a writer, can interleave, so an entry may mix the words of two
// stores). Such a mixed entry fails the check unless 32 bits happen to match:
// it reads as another key's entry and is not used. The rare entry that gets
// through (like a plain key collision) is harmless: its move is only played
// after isPseudoLegal and a king-safety test (search.ts), its score only
// prunes.

import { TT_AGE_WEIGHT, TT_KEEP_DEPTH_MARGIN } from './params.js';
import { sharedMemory } from './shared-memory.js';

/** The table's size when nobody asks for another (the Hash option's default, the library's, play's). */
export const DEFAULT_HASH_MB = 16;

export const BOUND_NONE = 0;
export const BOUND_UPPER = 1; // the score is at most this (all moves failed low)
export const BOUND_LOWER = 2; // the score is at least this (a move failed high)
export const BOUND_EXACT = 3;

const ENTRY_WORDS = 3;
const BUCKET_ENTRIES = 5;
/** The entries' words, then one unused word that pads the bucket to 64 bytes. */
const BUCKET_WORDS = 16;
const ENTRIES_WORDS = ENTRY_WORDS * BUCKET_ENTRIES;
const DEPTH_BIAS = 8; // quiescence stores negative depths
/** log2 of the buckets per page of the written-pages map (64 buckets of 64 bytes: 4 KiB, a memory page). */
const PAGE_SHIFT = 6;
const AGE_CYCLE = 64;

export class TranspositionTable {
  private table: Int32Array;
  private buckets: number;
  /** One byte per page of buckets: 1 when written since the last clear. */
  private written: Uint8Array;
  private age = 0;
  /** The last word touch() read (kept so that the read is not dropped as dead code). */
  touched = 0;

  // The last successful probe, read by the search right after probe() returns true.
  move = 0;
  depth = 0;
  bound = BOUND_NONE;
  score = 0;
  eval = 0;

  /** A new table of `megabytes` MiB, or a view of another table's buffer (see `buffer`). */
  constructor(megabytesOrBuffer: number | SharedArrayBuffer) {
    this.table = new Int32Array(0);
    this.written = new Uint8Array(0);
    this.buckets = 0;
    if (typeof megabytesOrBuffer === 'number') this.resize(megabytesOrBuffer);
    else this.attach(megabytesOrBuffer);
  }

  /** Reallocates the table (clearing it) with at most `megabytes` MiB. */
  resize(megabytes: number): void {
    const bytes = Math.max(1, megabytes) * 1024 * 1024;
    const buckets = Math.max(1, Math.floor(bytes / (BUCKET_WORDS * 4)));
    this.attach(sharedMemory(buckets * BUCKET_WORDS * 4 + pagesOf(buckets)));
  }

  /** The memory of the table, to be shared with other threads. */
  get buffer(): SharedArrayBuffer {
    return this.table.buffer as SharedArrayBuffer;
  }

  /** Uses `buffer` (another table's, see `buffer`) as this table's memory, without clearing it. */
  attach(buffer: SharedArrayBuffer): void {
    if (this.table.buffer === buffer) return;
    // The largest bucket count whose buckets and page map fit the buffer.
    let buckets = Math.max(1, Math.floor(buffer.byteLength / (BUCKET_WORDS * 4)));
    while (buckets > 1 && buckets * BUCKET_WORDS * 4 + pagesOf(buckets) > buffer.byteLength) buckets--;
    this.buckets = buckets;
    this.table = new Int32Array(buffer, 0, buckets * BUCKET_WORDS);
    this.written = new Uint8Array(buffer, buckets * BUCKET_WORDS * 4, pagesOf(buckets));
  }

  /** The age stamped on the entries of the current search. */
  get generation(): number {
    return this.age;
  }

  /** Helpers searching alongside another thread take over its age instead of calling newSearch(). */
  set generation(age: number) {
    this.age = ((age % AGE_CYCLE) + AGE_CYCLE) % AGE_CYCLE;
  }

  /** Empties the table: zeroes the pages written since the last clear. */
  clear(): void {
    const pageWords = BUCKET_WORDS << PAGE_SHIFT;
    const written = this.written;
    for (let p = written.indexOf(1); p >= 0; p = written.indexOf(1, p + 1)) {
      this.table.fill(0, p * pageWords, (p + 1) * pageWords);
      written[p] = 0;
    }
    this.age = 0;
  }

  /** Called once per search so that entries of older searches are replaced first. */
  newSearch(): void {
    this.age = (this.age + 1) % AGE_CYCLE;
  }

  private bucketOf(keyLo: number): number {
    return Math.floor(((keyLo >>> 0) * this.buckets) / 4294967296) * BUCKET_WORDS;
  }

  /**
   * Reads the key's bucket and nothing else: called right after a move is
   * made, it starts the memory load (the probe's cache miss, the costliest
   * line of the search) while the child node does its first checks. A
   * prefetch by hand; the word read is kept only so that it is not dropped.
   */
  touch(keyLo: number): void {
    this.touched = this.table[this.bucketOf(keyLo)];
  }

  /** Looks the key up; on a hit fills move/depth/bound/score/eval and returns true. */
  probe(keyLo: number, keyHi: number): boolean {
    const t = this.table;
    const base = this.bucketOf(keyLo);
    for (let i = 0; i < ENTRIES_WORDS; i += ENTRY_WORDS) {
      const w1 = t[base + i + 1];
      const w2 = t[base + i + 2];
      if ((t[base + i] ^ w1 ^ w2) === keyHi && w1 !== 0) {
        this.move = w1 & 0xffff;
        this.depth = ((w1 >>> 16) & 0xff) - DEPTH_BIAS;
        this.bound = (w1 >>> 24) & 3;
        this.score = (w2 << 16) >> 16;
        this.eval = w2 >> 16;
        return true;
      }
    }
    return false;
  }

  /**
   * Stores a result. Replaces the same key, else the entry that is least
   * worth keeping: shallowest, with entries from older searches counting as
   * much shallower.
   */
  store(keyLo: number, keyHi: number, move: number, depth: number, bound: number, score: number, staticEval: number): void {
    const t = this.table;
    const base = this.bucketOf(keyLo);
    let slot = base;
    let worst = 1 << 30;
    for (let i = 0; i < ENTRIES_WORDS; i += ENTRY_WORDS) {
      const e = base + i;
      const w1 = t[e + 1];
      const w2 = t[e + 2];
      if ((t[e] ^ w1 ^ w2) === keyHi || w1 === 0) {
        slot = e;
        // Keep the old best move when the new result has none.
        if (move === 0 && w1 !== 0) move = w1 & 0xffff;
        // Do not overwrite a much deeper exact-ish result of this search with a shallow one.
        const oldDepth = ((w1 >>> 16) & 0xff) - DEPTH_BIAS;
        if (w1 !== 0 && bound !== BOUND_EXACT && oldDepth > depth + TT_KEEP_DEPTH_MARGIN && ((w1 >>> 26) & 63) === this.age) return;
        worst = -1;
        break;
      }
      const entryAge = (w1 >>> 26) & 63;
      const ageDiff = (this.age - entryAge + AGE_CYCLE) % AGE_CYCLE;
      const value = ((w1 >>> 16) & 0xff) - ageDiff * TT_AGE_WEIGHT;
      if (value < worst) {
        worst = value;
        slot = e;
      }
    }
    this.written[base >>> (PAGE_SHIFT + 4)] = 1;
    const d = Math.max(0, Math.min(255, depth + DEPTH_BIAS));
    const w1 = (move & 0xffff) | (d << 16) | (bound << 24) | (this.age << 26);
    const w2 = (score & 0xffff) | (staticEval << 16);
    t[slot + 1] = w1;
    t[slot + 2] = w2;
    t[slot] = keyHi ^ w1 ^ w2;
  }

  /** Permille of the first thousand buckets' entries written in the current search. */
  hashfull(): number {
    const t = this.table;
    const n = Math.min(1000, this.buckets);
    let used = 0;
    for (let b = 0; b < n; b++) {
      for (let i = 0; i < ENTRIES_WORDS; i += ENTRY_WORDS) {
        const w1 = t[b * BUCKET_WORDS + i + 1];
        if (w1 !== 0 && ((w1 >>> 26) & 63) === this.age) used++;
      }
    }
    return Math.round((used * 1000) / (n * BUCKET_ENTRIES));
  }
}

/** Bytes of the written-pages map of a table of `buckets` buckets: one per page, rounded up to a multiple of 8. */
function pagesOf(buckets: number): number {
  return Math.ceil(buckets / (8 << PAGE_SHIFT)) * 8;
}
