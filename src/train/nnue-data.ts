// Training positions for the network, read from viriformat games: every
// position that a game's recorded move was played in, less the ones a
// static evaluation should not be taught (see PositionFilter). Each kept
// position is stored compactly for the trainer's threads in shared memory,
// 29 bytes a position (100 M positions fit a 24 GB machine several times):
//   board:  the occupancy (64 bits, a1 first) and a 4-bit piece code per
//           occupied square in square order (24 bytes);
//   count of pieces, side to move, result for White (0, 1, 2), score for
//   White (int16).
// A set's entries name a stored position, or its mirror image (files a-h
// swapped), which is trained on as a position of its own.
// Positions of a game are kept together in order; a game goes to the
// validation set or the training set as a whole (by a hash of its number).
// Files are read one at a time, so the games themselves never all sit in
// memory at once.

import { execFileSync } from 'node:child_process';
import { accessSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Position } from '../board/position.js';
import { WHITE } from '../board/types.js';
import { type KingBuckets, inputIndex, kingKey } from '../eval/nnue/network.js';
import { isNoisy } from '../search/history.js';
import { CHUNK_SUFFIX, chunkSummary, unpackChunk } from './chunk.js';
import { MANIFEST, type StoreSelection, isStore, storeFiles } from './store.js';
import { type GameIndex, decodeGame, indexGames, notGames, unpackMove } from './viriformat.js';
import { errorText, fileProblem } from '../util/errors.js';

/** The data files of paths: a data store (a folder with a manifest) stands for its selected training chunks, in order. */
export function expandDataPaths(paths: readonly string[], selection: StoreSelection = {}): string[] {
  return paths.flatMap((p) => (isStore(p) ? storeFiles(p, selection) : [p]));
}

/** The most pieces a position has, and so the most active inputs of a perspective. */
export const MAX_FEATURES = 32;

/** Bytes of a stored board: 8 of occupancy, 16 of 4-bit piece codes. */
const BOARD_BYTES = 24;

export interface PositionFilter {
  /** Positions whose score is further from 0 than this are left out (mates, lost causes). */
  maxScore: number;
  /** Leave out positions in check (the evaluation is never asked there). */
  skipInCheck: boolean;
  /** Leave out positions whose recorded move was a capture or promotion (not quiet: the score is the exchange's). */
  skipNoisy: boolean;
  /**
   * Also train on each training position without castling rights mirrored
   * left to right (files a-h swapped): the network sees no castling rights,
   * and such a position and its mirror image are worth the same, so this
   * doubles the distinct positions small data sets offer. Validation
   * positions are never mirrored.
   */
  mirror: boolean;
}

export const DEFAULT_FILTER: PositionFilter = { maxScore: 3000, skipInCheck: true, skipNoisy: true, mirror: false };

/** A set of positions in shared memory (sent to worker threads as it is). */
export interface PositionSet {
  /** Entries: what the trainer iterates over. */
  count: number;
  /** Per entry: the stored position's index * 2, plus 1 for its mirror image. */
  entries: Int32Array;
  /** Per stored position, BOARD_BYTES: occupancy, then the pieces' codes (see the file comment). */
  boards: Uint8Array;
  /** Per stored position: pieces on the board. */
  counts: Uint8Array;
  /** 0 White to move, 1 Black. */
  sides: Uint8Array;
  /** Game result for White: 0 loss, 1 draw, 2 win. */
  results: Uint8Array;
  /** Search score for White, centipawns. */
  scores: Int16Array;
}

/** The stored position of entry p. */
export function storedOf(set: PositionSet, p: number): number {
  return set.entries[p] >> 1;
}

/** White-perspective input index of piece code and square, [piece * 64 + sq]. */
const WHITE_INPUT = new Int16Array(16 * 64);
for (let piece = 1; piece < 15; piece++) {
  if ((piece & 7) === 0 || (piece & 7) === 7) continue;
  for (let sq = 0; sq < 64; sq++) WHITE_INPUT[piece * 64 + sq] = inputIndex(WHITE, piece, sq);
}

/** Entry p's pieces in square order: their codes and squares (mirrored for a mirror-image entry). Returns how many. */
function entryPieces(set: PositionSet, p: number, codes: Int32Array, squares: Int32Array): number {
  const entry = set.entries[p];
  const base = (entry >> 1) * BOARD_BYTES;
  const flip = (entry & 1) * 7;
  const b = set.boards;
  let k = 0;
  for (let half = 0; half < 2; half++) {
    const at = base + half * 4;
    let bits = b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24);
    while (bits !== 0) {
      const low = bits & -bits;
      bits ^= low;
      codes[k] = (b[base + 8 + (k >> 1)] >> ((k & 1) * 4)) & 15;
      squares[k] = (half * 32 + 31 - Math.clz32(low)) ^ flip;
      k++;
    }
  }
  return k;
}

const pieceCodes = new Int32Array(MAX_FEATURES);
const pieceSquares = new Int32Array(MAX_FEATURES);

/** Entry p's White-perspective input indices into out, in square order; returns how many. */
export function whiteInputs(set: PositionSet, p: number, out: Int32Array | Uint16Array): number {
  const k = entryPieces(set, p, pieceCodes, pieceSquares);
  for (let i = 0; i < k; i++) out[i] = WHITE_INPUT[pieceCodes[i] * 64 + pieceSquares[i]];
  return k;
}

/**
 * The W1 rows of entry p's active inputs, as input * rowSize: the side to
 * move's perspective into us, the other side's into them, under the king
 * buckets `kings` (network.ts). Returns how many.
 */
export function activeRows(
  set: PositionSet,
  p: number,
  rowSize: number,
  us: Int32Array,
  them: Int32Array,
  kings: KingBuckets | null = null,
): number {
  if (kings !== null) return activeRowsByKings(set, p, rowSize, us, them, kings);
  // whiteInputs, written out: this is the trainer's inner loop.
  const entry = set.entries[p];
  const stored = entry >> 1;
  const base = stored * BOARD_BYTES;
  const flip = (entry & 1) * 7;
  const black = set.sides[stored] !== 0;
  const b = set.boards;
  let k = 0;
  for (let half = 0; half < 2; half++) {
    const at = base + half * 4;
    let bits = b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24);
    while (bits !== 0) {
      const low = bits & -bits;
      bits ^= low;
      const sq = half * 32 + 31 - Math.clz32(low);
      const code = (b[base + 8 + (k >> 1)] >> ((k & 1) * 4)) & 15;
      const white = WHITE_INPUT[code * 64 + (sq ^ flip)];
      const other = (white < 384 ? white + 384 : white - 384) ^ 56;
      us[k] = (black ? other : white) * rowSize;
      them[k] = (black ? white : other) * rowSize;
      k++;
    }
  }
  return k;
}

/** The squares of the two kings (White's, Black's) of the entry activeRowsByKings is reading. */
const kingSquares = new Int32Array(2);

/** activeRows with king buckets: the pieces first, then each perspective's rows under its king's key. */
function activeRowsByKings(set: PositionSet, p: number, rowSize: number, us: Int32Array, them: Int32Array, kings: KingBuckets): number {
  const k = entryPieces(set, p, pieceCodes, pieceSquares);
  for (let i = 0; i < k; i++) if ((pieceCodes[i] & 7) === 6) kingSquares[pieceCodes[i] >> 3] = pieceSquares[i];
  const side = set.sides[storedOf(set, p)];
  const keyUs = kingKey(kings, side, kingSquares[side]);
  const keyThem = kingKey(kings, side ^ 1, kingSquares[side ^ 1]);
  for (let i = 0; i < k; i++) {
    us[i] = inputIndex(side, pieceCodes[i], pieceSquares[i], keyUs) * rowSize;
    them[i] = inputIndex(side ^ 1, pieceCodes[i], pieceSquares[i], keyThem) * rowSize;
  }
  return k;
}

/** Stores a position (its 64 squares' piece codes) at index s of the set's storage. */
export function putPosition(set: PositionSet, s: number, board: ArrayLike<number>, side: number, result: number, score: number): void {
  const base = s * BOARD_BYTES;
  const b = set.boards;
  b.fill(0, base, base + BOARD_BYTES);
  let n = 0;
  for (let sq = 0; sq < 64; sq++) {
    const piece = board[sq];
    if (piece === 0) continue;
    b[base + (sq >> 3)] |= 1 << (sq & 7);
    b[base + 8 + (n >> 1)] |= piece << ((n & 1) * 4);
    n++;
  }
  set.counts[s] = n;
  set.sides[s] = side;
  set.results[s] = result;
  set.scores[s] = score;
}

/** A set of `count` stored positions in shared memory, each its own entry (fill them with putPosition). */
export function allocatePositions(count: number): PositionSet {
  const entries = new Int32Array(new SharedArrayBuffer(Math.max(4, count * 4)));
  for (let i = 0; i < count; i++) entries[i] = i * 2;
  return { count, entries, ...allocateStorage(count) };
}

function allocateStorage(count: number): Omit<PositionSet, 'count' | 'entries'> {
  return {
    boards: new Uint8Array(new SharedArrayBuffer(Math.max(1, count * BOARD_BYTES))),
    counts: new Uint8Array(new SharedArrayBuffer(Math.max(1, count))),
    sides: new Uint8Array(new SharedArrayBuffer(Math.max(1, count))),
    results: new Uint8Array(new SharedArrayBuffer(Math.max(1, count))),
    scores: new Int16Array(new SharedArrayBuffer(Math.max(2, count * 2))),
  };
}

/** Whether game number `game` belongs to the validation set (about `percent`% of games). */
export function isValidationGame(game: number, percent: number): boolean {
  let h = Math.imul(game ^ 0x5bd1e995, 0x9e3779b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return (h >>> 0) % 10000 < percent * 100;
}

export interface LoadedData {
  train: PositionSet;
  valid: PositionSet;
  games: number;
  /** Positions read, and left out by each filter. */
  read: number;
  inCheck: number;
  noisy: number;
  bigScore: number;
  /** Mirrored copies added to the training set (PositionFilter.mirror). */
  mirrored: number;
}

/** A viriformat file's bytes and where its complete games start. */
export interface GameSource {
  bytes: Uint8Array;
  index: GameIndex;
}

/**
 * A data file's games (readDataFile), checked: its bytes must be viriformat
 * games, with at most a half-written game at the end (notGames), else it
 * throws, naming the file and what is wrong. Every reader of data files
 * (train, data-info, data-add, the benches) takes them from here.
 */
export function readGameSource(file: string): GameSource {
  const bytes = readDataFile(file);
  const index = indexGames(bytes);
  const problem = notGames(bytes, index);
  if (problem !== null) throw new Error(`${file} is not viriformat training data (${problem})`);
  return { bytes, index };
}

/** The largest file unpacked in memory (the trainer holds every game anyway). */
const MAX_UNPACKED_BYTES = 2 ** 31;

/**
 * A data file's bytes: the data store's chunks (`.vfc`) are unpacked by
 * chunk.ts, `.gz` files by Node.js, `.xz` files by the system's `xz`;
 * others are read as they are.
 */
export function readDataFile(file: string): Uint8Array {
  const folder = notAStore(file);
  if (folder !== null) throw new Error(folder);
  if (file.endsWith(CHUNK_SUFFIX)) return unpackChunk(readBytes(file));
  if (file.endsWith('.gz')) {
    const packed = readBytes(file);
    try {
      return gunzipSync(packed);
    } catch (e) {
      throw new Error(`cannot unpack ${file}: ${errorText(e)}`);
    }
  }
  if (!file.endsWith('.xz')) return readBytes(file);
  try {
    accessSync(file); // a missing file fails here, with its name
  } catch (e) {
    throw new Error(`cannot read ${file}: ${fileProblem(e)}`);
  }
  try {
    return execFileSync('xz', ['-dc', '--', file], { maxBuffer: MAX_UNPACKED_BYTES, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'the xz program is not installed' : String((e as Error).message);
    throw new Error(`cannot unpack ${file}: ${why} (or unpack it first: xz -dk ${file})`);
  }
}

function readBytes(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new Error(`cannot read ${file}: ${fileProblem(e)}`);
  }
}

/** Why path, a folder that is not a data store, cannot be read as data (null when it is no folder). */
function notAStore(path: string): string | null {
  let empty: boolean;
  try {
    if (!statSync(path).isDirectory()) return null;
    empty = readdirSync(path).length === 0;
  } catch {
    return null; // reading it says what is wrong
  }
  const what = empty ? 'an empty folder' : `a folder without a ${MANIFEST}`;
  return (
    `${path} is ${what}: neither a data store (a folder whose ${MANIFEST} is a manifest listing its chunks, ` +
    "as the repository's data/) nor a viriformat file (.vf, a chunk .vfc, or either packed .gz or .xz)"
  );
}

/**
 * Replays the games of the sources in order, calling visit with each
 * position before its recorded move is played. Game numbers run on across
 * the sources from firstGame (the validation split counts them so); a game
 * for which wantGame is false is skipped without being decoded. Returns the
 * number of games.
 */
export function replayGames(
  sources: readonly GameSource[],
  visit: (pos: Position, move: number, score: number, result: number, game: number) => void,
  wantGame: (game: number) => boolean = () => true,
  firstGame = 0,
): number {
  let number = firstGame;
  const pos = new Position();
  for (const { bytes, index } of sources) {
    for (let g = 0; g < index.offsets.length; g++, number++) {
      if (!wantGame(number)) continue;
      const game = decodeGame(bytes, index.offsets[g], index.plies[g]);
      pos.setFen(game.fen);
      for (let i = 0; i < game.moves.length; i++) {
        const move = unpackMove(pos, game.moves[i]);
        visit(pos, move, game.scores[i], game.result, number);
        pos.makeMove(move);
        // The Position's undo stack is finite: long games start over from here.
        if (pos.ply > 4000) pos.clearHistory();
      }
    }
  }
  return number - firstGame;
}

/** The filter's rule that leaves the position (before `move`, scored `score`) out, or null when it is kept. */
export function leftOutBy(pos: Position, move: number, score: number, filter: PositionFilter): 'inCheck' | 'noisy' | 'bigScore' | null {
  if (filter.skipInCheck && pos.inCheck()) return 'inCheck';
  if (filter.skipNoisy && isNoisy(pos, move)) return 'noisy';
  if (Math.abs(score) > filter.maxScore) return 'bigScore';
  return null;
}

/** Positions (plies) of a data file: a chunk's header says; other files are read and counted. */
function positionsIn(file: string): number {
  if (file.endsWith(CHUNK_SUFFIX)) return chunkSummary(readFileSync(file)).positions;
  let n = 0;
  for (const plies of readGameSource(file).index.plies) n += plies;
  return n;
}

/**
 * Reads viriformat files into a training and a validation set, one file at
 * a time. Storage for every position is taken at once (a position filtered
 * out leaves its room unused): training positions fill it from the front,
 * validation positions from the back.
 */
export function loadPositions(files: readonly string[], filter: PositionFilter, validPercent: number): LoadedData {
  let capacity = 0;
  for (const file of files) capacity += positionsIn(file);
  const storage: PositionSet = { count: 0, entries: new Int32Array(0), ...allocateStorage(capacity) };
  const mirrored = new Uint8Array(capacity);
  const stats = { read: 0, inCheck: 0, noisy: 0, bigScore: 0, mirrored: 0, games: 0 };
  let front = 0;
  let back = capacity;
  for (const file of files) {
    stats.games += replayGames(
      [readGameSource(file)],
      (pos, move, score, result, game) => {
        stats.read++;
        const rule = leftOutBy(pos, move, score, filter);
        if (rule !== null) {
          stats[rule]++;
          return;
        }
        if (isValidationGame(game, validPercent)) {
          putPosition(storage, --back, pos.board, pos.side, result, score);
          return;
        }
        // A mirror image only where castling rights do not tell the two apart.
        if (filter.mirror && pos.castling === 0) {
          mirrored[front] = 1;
          stats.mirrored++;
        }
        putPosition(storage, front++, pos.board, pos.side, result, score);
      },
      undefined,
      stats.games,
    );
  }
  // Validation positions were stored last first: put them in game order.
  for (let i = back, j = capacity - 1; i < j; i++, j--) swapStored(storage, i, j);
  const trainEntries = new Int32Array(new SharedArrayBuffer(Math.max(4, (front + stats.mirrored) * 4)));
  let e = 0;
  for (let s = 0; s < front; s++) {
    trainEntries[e++] = s * 2;
    if (mirrored[s] === 1) trainEntries[e++] = s * 2 + 1;
  }
  const validCount = capacity - back;
  const validEntries = new Int32Array(new SharedArrayBuffer(Math.max(4, validCount * 4)));
  for (let i = 0; i < validCount; i++) validEntries[i] = i * 2;
  const train: PositionSet = { ...storage, count: e, entries: trainEntries };
  const valid: PositionSet = {
    count: validCount,
    entries: validEntries,
    boards: storage.boards.subarray(back * BOARD_BYTES, capacity * BOARD_BYTES),
    counts: storage.counts.subarray(back, capacity),
    sides: storage.sides.subarray(back, capacity),
    results: storage.results.subarray(back, capacity),
    scores: storage.scores.subarray(back, capacity),
  };
  return { train, valid, ...stats };
}

function swapStored(set: PositionSet, i: number, j: number): void {
  const b = set.boards;
  for (let k = 0; k < BOARD_BYTES; k++) {
    const t = b[i * BOARD_BYTES + k];
    b[i * BOARD_BYTES + k] = b[j * BOARD_BYTES + k];
    b[j * BOARD_BYTES + k] = t;
  }
  for (const a of [set.counts, set.sides, set.results, set.scores]) {
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}
