// Reading Polyglot opening books: a binary search on the sorted 16-byte
// records, from memory for small books and with positioned reads on the file
// descriptor for large ones, so a book of hundreds of MB costs a few reads per
// probe and no JS objects beyond the entries found.
//
// A book is outside input: nothing in it may crash the engine or make it play
// an illegal move. A file that cannot be a book (empty, size not a multiple of
// 16, keys visibly out of order) is refused by open() with a BookError; damage
// met later (keys out of order where the search looks, a read error, a move
// that is not legal in the position) becomes a warning in the probe result and
// the entries concerned are left out.

import { generateMoves } from '../board/movegen.js';
import type { Position } from '../board/position.js';
import { MAX_MOVES } from '../board/types.js';
import { type RandomAccessFile, platform } from '../platform/index.js';
import { RECORD_SIZE, compareKeys, decodeMove, rawMoveText } from './polyglot.js';
import { fileProblem } from '../util/errors.js';

/** A book that cannot be opened or is not a Polyglot book; the message is one line, ready for `info string`. */
export class BookError extends Error {}

export type BookMode = 'best' | 'weighted';

export const BOOK_MODES: readonly BookMode[] = ['best', 'weighted'];

/** One record of the book for the probed position, with its move made legal. */
export interface BookEntry {
  /** The legal move (Kestrel encoding). */
  move: number;
  /** The move as stored (Polyglot encoding). */
  raw: number;
  weight: number;
  learn: number;
  /** Record number in the file (0-based). */
  index: number;
}

export interface BookProbe {
  /** The position's entries whose move is legal, in file order (zero weights included). */
  entries: BookEntry[];
  /** What went wrong on the way (illegal moves skipped, damage seen): one line each, for `info string`. */
  warnings: string[];
}

export interface BookChoice {
  move: number;
  weight: number;
  /** Sum of the weights of the position's legal moves. */
  total: number;
}

/** Books up to this size are read into memory at open; larger ones are read record by record. */
const DEFAULT_MEMORY_LIMIT = 16 * 1024 * 1024;
/** How many records open() looks at to check that the keys are sorted. */
const OPEN_SAMPLES = 64;
/** More records than this for one key means a damaged book (a position has at most 218 legal moves). */
const MAX_RUN = 4096;

export interface OpenOptions {
  /** Read the whole file into memory when it is at most this many bytes (default 16 MiB). */
  memoryLimit?: number;
  /** Records checked for sorted keys at open (default 64; 0 skips the check, for tests of the probe's own checks). */
  samples?: number;
}

/** The game ply of a position: half-moves since the game's first move, from the FEN move counters. */
export function gamePly(pos: Position): number {
  return 2 * (pos.fullmove - 1) + pos.side;
}

export class OpeningBook {
  /** Number of records. */
  readonly size: number;
  private readonly data: Uint8Array | null;
  private file: RandomAccessFile | null;
  private readonly record = new Uint8Array(RECORD_SIZE);
  private readonly legal = new Int32Array(MAX_MOVES);
  // Fields of the record last read by read().
  private hi = 0;
  private lo = 0;
  private rawMove = 0;
  private weight = 0;
  private learn = 0;
  private closed = false;

  private constructor(
    /** The file name (or a label for books in memory), used in messages. */
    readonly name: string,
    size: number,
    data: Uint8Array | null,
    file: RandomAccessFile | null,
    samples: number,
  ) {
    this.size = size;
    this.data = data;
    this.file = file;
    this.checkSample(samples);
  }

  /** Opens a book file; throws BookError when it cannot be read or is not a Polyglot book. */
  static open(path: string, options: OpenOptions = {}): OpeningBook {
    const samples = options.samples ?? OPEN_SAMPLES;
    let file: RandomAccessFile;
    try {
      file = platform.openFile(path);
    } catch (e) {
      throw new BookError(`cannot open book ${path}: ${fileProblem(e)}`);
    }
    try {
      if (!file.isFile) throw new BookError(`book ${path} is not a file`);
      const size = file.size;
      checkLength(path, size);
      if (size <= (options.memoryLimit ?? DEFAULT_MEMORY_LIMIT)) {
        const data = new Uint8Array(size);
        let done = 0;
        while (done < size) {
          const n = file.read(data, done, size - done, done);
          if (n === 0) throw new BookError(`book ${path} got shorter while it was read`);
          done += n;
        }
        file.close();
        return new OpeningBook(path, size / RECORD_SIZE, data, null, samples);
      }
      return new OpeningBook(path, size / RECORD_SIZE, null, file, samples);
    } catch (e) {
      file.close();
      if (e instanceof BookError) throw e;
      throw new BookError(`cannot read book ${path}: ${fileProblem(e)}`);
    }
  }

  /** A book held in memory (tests, books made on the fly); throws BookError like open(). */
  static fromBytes(bytes: Uint8Array, name = 'book in memory', options: OpenOptions = {}): OpeningBook {
    checkLength(name, bytes.length);
    return new OpeningBook(name, bytes.length / RECORD_SIZE, bytes, null, options.samples ?? OPEN_SAMPLES);
  }

  /** Releases the file; the book cannot be probed afterwards (probes then find nothing). */
  close(): void {
    this.file?.close();
    this.file = null;
    this.closed = true;
  }

  /** Reads record i into the fields; false on a read failure. */
  private read(i: number): boolean {
    let r: Uint8Array;
    let o: number;
    if (this.data !== null) {
      r = this.data;
      o = i * RECORD_SIZE;
    } else {
      if (this.file === null || this.file.read(this.record, 0, RECORD_SIZE, i * RECORD_SIZE) !== RECORD_SIZE) return false;
      r = this.record;
      o = 0;
    }
    this.hi = ((r[o] << 24) | (r[o + 1] << 16) | (r[o + 2] << 8) | r[o + 3]) >>> 0;
    this.lo = ((r[o + 4] << 24) | (r[o + 5] << 16) | (r[o + 6] << 8) | r[o + 7]) >>> 0;
    this.rawMove = (r[o + 8] << 8) | r[o + 9];
    this.weight = (r[o + 10] << 8) | r[o + 11];
    this.learn = ((r[o + 12] << 24) | (r[o + 13] << 16) | (r[o + 14] << 8) | r[o + 15]) >>> 0;
    return true;
  }

  /** At open: evenly spaced records, first and last included, must have non-decreasing keys. */
  private checkSample(samples: number): void {
    const n = Math.min(this.size, samples);
    let prevHi = 0;
    let prevLo = 0;
    let prevIndex = -1;
    for (let k = 0; k < n; k++) {
      const i = n === 1 ? 0 : Math.round((k * (this.size - 1)) / (n - 1));
      if (i === prevIndex) continue;
      if (!this.read(i)) throw new BookError(`cannot read record ${i} of book ${this.name}`);
      if (prevIndex >= 0 && compareKeys(this.hi, this.lo, prevHi, prevLo) < 0) {
        throw new BookError(
          `book ${this.name} is not a Polyglot book or is corrupt: its keys are not sorted (record ${i} is below record ${prevIndex})`,
        );
      }
      prevHi = this.hi;
      prevLo = this.lo;
      prevIndex = i;
    }
  }

  /**
   * The position's entries with a legal move, in file order, and warnings for
   * anything skipped. Never throws for a damaged book.
   */
  probe(pos: Position): BookProbe {
    const entries: BookEntry[] = [];
    const warnings: string[] = [];
    const hi = pos.keyHi >>> 0;
    const lo = pos.keyLo >>> 0;
    if (this.closed || this.size === 0 || (hi === 0 && lo === 0)) return { entries, warnings };
    try {
      this.collect(pos, hi, lo, entries, warnings);
    } catch (e) {
      // A read error (file removed or cut short since open) must not stop the engine.
      entries.length = 0;
      warnings.push(`book ${this.name} could not be read: ${fileProblem(e)}; no book move`);
    }
    return { entries, warnings };
  }

  private collect(pos: Position, hi: number, lo: number, entries: BookEntry[], warnings: string[]): void {
    const damaged = (where: number): void => {
      entries.length = 0;
      warnings.push(`book ${this.name} is corrupt: its keys are out of order near record ${where}; no book move`);
    };
    // Leftmost record with key >= target. Every record looked at must fit the
    // order the earlier ones imply: keys left of the window below the target,
    // keys right of it at or above, and the window's own keys in between.
    let left = 0;
    let right = this.size;
    let lowHi = 0;
    let lowLo = 0;
    let highHi = 0xffffffff;
    let highLo = 0xffffffff;
    while (left < right) {
      const mid = (left + right) >>> 1;
      if (!this.read(mid)) throw new Error(`short read at record ${mid}`);
      if (compareKeys(this.hi, this.lo, lowHi, lowLo) < 0 || compareKeys(this.hi, this.lo, highHi, highLo) > 0) {
        damaged(mid);
        return;
      }
      if (compareKeys(this.hi, this.lo, hi, lo) < 0) {
        left = mid + 1;
        lowHi = this.hi;
        lowLo = this.lo;
      } else {
        right = mid;
        highHi = this.hi;
        highLo = this.lo;
      }
    }
    let end = -1;
    for (let i = left; i < this.size; i++) {
      if (!this.read(i)) throw new Error(`short read at record ${i}`);
      const c = compareKeys(this.hi, this.lo, hi, lo);
      if (c < 0) {
        damaged(i);
        return;
      }
      if (c > 0) break;
      if (i - left >= MAX_RUN) {
        entries.length = 0;
        warnings.push(`book ${this.name} is corrupt: more than ${MAX_RUN} records for one position; no book move`);
        return;
      }
      if (end < 0) end = generateMoves(pos, this.legal, 0, false);
      const raw = this.rawMove;
      if (raw === 0) continue; // "no move": Polyglot skips these too
      const move = decodeMove(raw, this.legal, end);
      if (move === 0) {
        warnings.push(`book ${this.name}: record ${i} holds ${rawMoveText(raw)}, not a legal move in ${pos.fen()}; ignored`);
        continue;
      }
      entries.push({ move, raw, weight: this.weight, learn: this.learn, index: i });
    }
  }

  /**
   * A book move for pos, or null when the book has none with a weight above
   * zero. `best` takes the highest weight (on a tie, the first in the file, as
   * Polyglot does); `weighted` picks at random in proportion to the weights.
   */
  choose(pos: Position, mode: BookMode, random: () => number = Math.random): { choice: BookChoice | null; warnings: string[] } {
    const { entries, warnings } = this.probe(pos);
    return { choice: pickEntry(entries, mode, random), warnings };
  }
}

/** The selection rule of OpeningBook.choose, over entries already probed. */
export function pickEntry(entries: readonly BookEntry[], mode: BookMode, random: () => number): BookChoice | null {
  let total = 0;
  let best: BookEntry | null = null;
  for (const e of entries) {
    total += e.weight;
    if (e.weight > 0 && (best === null || e.weight > best.weight)) best = e;
  }
  if (best === null) return null;
  if (mode === 'weighted') {
    const r = Math.min(total - 1, Math.floor(random() * total));
    let acc = 0;
    for (const e of entries) {
      acc += e.weight;
      if (r < acc) return { move: e.move, weight: e.weight, total };
    }
  }
  return { move: best.move, weight: best.weight, total };
}

function checkLength(name: string, bytes: number): void {
  if (bytes === 0) throw new BookError(`book ${name} is empty`);
  if (bytes % RECORD_SIZE !== 0) {
    throw new BookError(
      `book ${name} is not a Polyglot book or is truncated: its size (${bytes} bytes) is not a multiple of ${RECORD_SIZE}`,
    );
  }
}
