// Transposition table: Int32Arrays over SharedArrayBuffers, in buckets of
// five entries. A bucket is 16 words (five entries and one unused word): 64
// bytes, one cache line, so a probe costs at most one miss. With Threads > 1
// every searcher has its own TranspositionTable object over the same buffers
// (see attach()).
//
// A table is one buffer up to 4 GiB, and segments of 4 GiB beyond (an
// Int32Array holds at most 2^32 elements, and word indices stay int32): the
// bucket index picks the segment by its high bits. A table of one segment
// indexes exactly as one of several does, so small tables pay nothing for it.
//
// An entry is three int32 words:
//   0: check = keyHi ^ word1 ^ word2
//   1: move (16 bits) | depth (8 bits, biased by +DEPTH_BIAS) << 16 | bound (2 bits) << 24 | age (6 bits) << 26
//   2: score (16 bits, signed) | static eval (16 bits, signed; the search's NO_EVAL when it has none, as in check) << 16
// The bucket is chosen by keyLo, and keyHi verifies the entry.
//
// Beside each segment, one byte per page of 64 buckets (4 KiB) marks the
// pages written since the last clear, and clear() zeroes only those. Memory
// the search never wrote to is never touched, so the system never has to
// page it in: clearing a fresh 4 GB table took seconds, now it is free. A
// segment is WebAssembly memory where the host gives it (its pages are the
// system's pages: a buffer from the allocator starts a few bytes into one,
// so that zeroing a page of buckets also touched the next system page,
// which the clear then paged in, up to doubling the table's memory), else a
// SharedArrayBuffer.
//
// Lock-free sharing (the XOR trick): threads read and write entries without
// locks, word by word (aligned int32 accesses never tear, but two writers, or
// a reader and a writer, can interleave, so an entry may mix the words of two
// stores). Such a mixed entry fails the check unless 32 bits happen to match:
// it reads as another key's entry and is not used. The rare entry that gets
// through (like a plain key collision) is harmless: its move is only played
// after isPseudoLegal and a king-safety test (search.ts), its score only
// prunes.

import { errorText } from '../util/errors.js';
import { TT_AGE_WEIGHT, TT_KEEP_DEPTH_MARGIN } from './params.js';
import { HAS_SHARED_MEMORY, sharedMemory } from '../util/shared-memory.js';

/** The table's size when nobody asks for another (the Hash option's default, the library's, play's). */
export const DEFAULT_HASH_MB = 16;
/** The size a table (or a Monte Carlo tree) falls back to when the memory asked for cannot be had. */
const FALLBACK_HASH_MB = 1;

/**
 * make(mb): a table or tree of mb MB; when that memory cannot be had,
 * make(FALLBACK_HASH_MB) after telling `note` why (what: "of hash", "for
 * the mcts tree").
 */
export function allocateHash<T>(mb: number, what: string, make: (mb: number) => T, note: (text: string) => void): T {
  try {
    return make(mb);
  } catch (e) {
    note(`error: could not allocate ${mb} MB ${what} (${errorText(e)}); using ${FALLBACK_HASH_MB} MB`);
    return make(FALLBACK_HASH_MB);
  }
}

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
/** log2 of the buckets of a full segment: 2^26 buckets of 64 bytes, 4 GiB. */
const SEGMENT_SHIFT = 26;
/** The most buckets a table may have: bucket indices are int32. */
const MAX_BUCKETS = 2 ** 31;
/** The largest table in MiB (128 GiB): 2^31 buckets. */
export const MAX_HASH_MB = (MAX_BUCKETS * BUCKET_WORDS * 4) / (1024 * 1024);

export class TranspositionTable {
  /** The buckets, segment by segment: segment k holds buckets k << segmentShift and up (the last may be shorter). */
  private segments: Int32Array[];
  private buckets: number;
  /** log2 of the buckets of a full segment, and that many less 1 (a bucket's index in its segment). */
  private segmentShift = SEGMENT_SHIFT;
  private segmentMask = (1 << SEGMENT_SHIFT) - 1;
  /** Per segment, one byte per page of buckets: 1 when written since the last clear. */
  private written: Uint8Array[];
  private age = 0;
  /** The last word touch() read (kept so that the read is not dropped as dead code). */
  touched = 0;

  // The last successful probe, read by the search right after probe() returns true.
  move = 0;
  depth = 0;
  bound = BOUND_NONE;
  score = 0;
  eval = 0;

  /**
   * A new table of `megabytes` MiB, or a view of another table's memory (see
   * `memory`). segmentShift: log2 of the buckets of a segment (tests make
   * small segments; the engine's are 4 GiB).
   */
  constructor(megabytesOrMemory: number | TableMemory, segmentShift = SEGMENT_SHIFT) {
    this.segments = [];
    this.written = [];
    this.buckets = 0;
    if (typeof megabytesOrMemory === 'number') this.resize(megabytesOrMemory, segmentShift);
    else this.attach(megabytesOrMemory);
  }

  /**
   * Reallocates the table (clearing it) with at most `megabytes` MiB. When
   * the memory cannot be had, throws and leaves the table as it was,
   * entries and all.
   */
  resize(megabytes: number, segmentShift = SEGMENT_SHIFT): void {
    segmentShift = Math.min(segmentShift, SEGMENT_SHIFT);
    const bytes = Math.max(1, megabytes) * 1024 * 1024;
    const buckets = Math.min(MAX_BUCKETS, Math.max(1, Math.floor(bytes / (BUCKET_WORDS * 4))));
    const memory: TableMemory = { buckets: [], written: [] };
    for (let first = 0; first < buckets; first += 2 ** segmentShift) {
      const n = Math.min(2 ** segmentShift, buckets - first);
      memory.buckets.push(pageAlignedMemory(n * BUCKET_WORDS * 4));
      memory.written.push(sharedMemory(pagesOf(n)));
    }
    this.attach(memory);
  }

  /** The table's size in MiB (the Hash it was made for). */
  get megabytes(): number {
    return (this.buckets * BUCKET_WORDS * 4) / (1024 * 1024);
  }

  /** The memory of the table, to be shared with other threads. */
  get memory(): TableMemory {
    return {
      buckets: this.segments.map((s) => s.buffer as SharedArrayBuffer),
      written: this.written.map((w) => w.buffer as SharedArrayBuffer),
    };
  }

  /** Uses `memory` (another table's, see `memory`) as this table's, without clearing it. */
  attach(memory: TableMemory): void {
    const { buckets, written } = memory;
    if (buckets.length === this.segments.length && buckets.every((b, k) => this.segments[k].buffer === b)) return;
    const counts = buckets.map((b) => Math.floor(b.byteLength / (BUCKET_WORDS * 4)));
    // Every segment but the last is full: its bucket count, a power of 2, gives the segments' size.
    this.segmentShift = buckets.length > 1 ? Math.round(Math.log2(counts[0])) : SEGMENT_SHIFT;
    this.segmentMask = (2 ** this.segmentShift - 1) | 0;
    this.buckets = counts.reduce((a, b) => a + b, 0);
    this.segments = buckets.map((b, k) => new Int32Array(b, 0, counts[k] * BUCKET_WORDS));
    this.written = written.map((w, k) => new Uint8Array(w, 0, pagesOf(counts[k])));
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
    for (let k = 0; k < this.segments.length; k++) {
      const written = this.written[k];
      for (let p = written.indexOf(1); p >= 0; p = written.indexOf(1, p + 1)) {
        this.segments[k].fill(0, p * pageWords, (p + 1) * pageWords);
        written[p] = 0;
      }
    }
    this.age = 0;
  }

  /** Called once per search so that entries of older searches are replaced first. */
  newSearch(): void {
    this.age = (this.age + 1) % AGE_CYCLE;
  }

  /** The bucket of a key: an index below this.buckets (segment bucketOf >>> segmentShift). */
  private bucketOf(keyLo: number): number {
    return Math.floor(((keyLo >>> 0) * this.buckets) / 4294967296);
  }

  /**
   * Reads the key's bucket and nothing else: called right after a move is
   * made, it starts the memory load (the probe's cache miss, the costliest
   * line of the search) while the child node does its first checks. A
   * prefetch by hand; the word read is kept only so that it is not dropped.
   */
  touch(keyLo: number): void {
    const b = this.bucketOf(keyLo);
    this.touched = this.segments[b >>> this.segmentShift][(b & this.segmentMask) << 4];
  }

  /** Looks the key up; on a hit fills move/depth/bound/score/eval and returns true. */
  probe(keyLo: number, keyHi: number): boolean {
    const b = this.bucketOf(keyLo);
    const t = this.segments[b >>> this.segmentShift];
    const base = (b & this.segmentMask) << 4;
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
    const b = this.bucketOf(keyLo);
    const segment = b >>> this.segmentShift;
    const t = this.segments[segment];
    const base = (b & this.segmentMask) << 4;
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
    this.written[segment][base >>> (PAGE_SHIFT + 4)] = 1;
    const d = Math.max(0, Math.min(255, depth + DEPTH_BIAS));
    const w1 = (move & 0xffff) | (d << 16) | (bound << 24) | (this.age << 26);
    const w2 = (score & 0xffff) | (staticEval << 16);
    t[slot + 1] = w1;
    t[slot + 2] = w2;
    t[slot] = keyHi ^ w1 ^ w2;
  }

  /** Permille of the first thousand buckets' entries written in the current search. */
  hashfull(): number {
    const t = this.segments[0];
    const n = Math.min(1000, t.length / BUCKET_WORDS);
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

/** The memory of a table, segment by segment: the buckets, and the map of their pages written since the last clear. */
export interface TableMemory {
  buckets: SharedArrayBuffer[];
  written: SharedArrayBuffer[];
}

/** Bytes of the written-pages map of a segment of `buckets` buckets: one per page, rounded up to a multiple of 8. */
function pagesOf(buckets: number): number {
  return Math.ceil(buckets / (8 << PAGE_SHIFT)) * 8;
}

/** WebAssembly's pages: 64 KiB. */
const WASM_PAGE = 65536;

/**
 * `bytes` of zeroed memory shared between threads, starting at a page of
 * the system: WebAssembly memory where the host gives it (at most 4 GiB, in
 * pages of 64 KiB), else a SharedArrayBuffer. Throws when neither can be had.
 */
function pageAlignedMemory(bytes: number): SharedArrayBuffer {
  if (bytes % WASM_PAGE === 0 && bytes <= 2 ** 32 && HAS_SHARED_MEMORY) {
    const pages = bytes / WASM_PAGE;
    try {
      return new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true }).buffer as unknown as SharedArrayBuffer;
    } catch {
      // No WebAssembly memory of that size here (address space limited, say): the allocator's.
    }
  }
  return sharedMemory(bytes);
}
