// Training positions for the network, read from viriformat games: every
// position that a game's recorded move was played in, less the ones a
// static evaluation should not be taught (see PositionFilter). Each kept
// position is packed for the trainer's threads into shared memory:
//   features: up to 32 input indices from White's perspective (uint16; a
//             piece's index from Black's is flipInput(index));
//   count, side to move, result for White (0, 1, 2) and score for White (int16).
// Positions of a game are kept together in order; a game goes to the
// validation set or the training set as a whole (by a hash of its number).

import { execFileSync } from 'node:child_process';
import { accessSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Position } from '../board/position.js';
import { WHITE } from '../board/types.js';
import { inputIndex } from '../eval/nnue/network.js';
import { isNoisy } from '../search/history.js';
import { CHUNK_SUFFIX, unpackChunk } from './chunk.js';
import { type StoreSelection, isStore, storeFiles } from './store.js';
import { type GameIndex, decodeGame, indexGames, unpackMove } from './viriformat.js';

/** The data files of paths: a data store (a folder with a manifest) stands for its selected training chunks, in order. */
export function expandDataPaths(paths: readonly string[], selection: StoreSelection = {}): string[] {
  return paths.flatMap((p) => (isStore(p) ? storeFiles(p, selection) : [p]));
}

export const MAX_FEATURES = 32;

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
  count: number;
  /** [i * MAX_FEATURES + k], White-perspective input indices; slots past counts[i] are unused. */
  features: Uint16Array;
  counts: Uint8Array;
  /** 0 White to move, 1 Black. */
  sides: Uint8Array;
  /** Game result for White: 0 loss, 1 draw, 2 win. */
  results: Uint8Array;
  /** Search score for White, centipawns. */
  scores: Int16Array;
}

/** The input index of a White-perspective index from Black's perspective. */
function flipInput(index: number): number {
  return (index < 384 ? index + 384 : index - 384) ^ 56;
}

/**
 * The W1 rows of position p's active inputs, as input * rowSize: the side to
 * move's perspective into us, the other side's into them. Returns how many.
 */
export function activeRows(set: PositionSet, p: number, rowSize: number, us: Int32Array, them: Int32Array): number {
  const features = set.features;
  const side = set.sides[p];
  const base = p * MAX_FEATURES;
  const count = set.counts[p];
  for (let k = 0; k < count; k++) {
    const white = features[base + k];
    const black = flipInput(white);
    us[k] = (side === 0 ? white : black) * rowSize;
    them[k] = (side === 0 ? black : white) * rowSize;
  }
  return count;
}

/** An empty set of `count` positions in shared memory. */
export function allocatePositions(count: number): PositionSet {
  return {
    count,
    features: new Uint16Array(new SharedArrayBuffer(count * MAX_FEATURES * 2)),
    counts: new Uint8Array(new SharedArrayBuffer(count)),
    sides: new Uint8Array(new SharedArrayBuffer(count)),
    results: new Uint8Array(new SharedArrayBuffer(count)),
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

export function readGameSource(file: string): GameSource {
  const bytes = readDataFile(file);
  return { bytes, index: indexGames(bytes) };
}

/** The largest file unpacked in memory (the trainer holds every game anyway). */
const MAX_UNPACKED_BYTES = 2 ** 31;

/**
 * A data file's bytes: the data store's chunks (`.vfc`) are unpacked by
 * chunk.ts, `.gz` files by Node.js, `.xz` files by the system's `xz`;
 * others are read as they are.
 */
export function readDataFile(file: string): Uint8Array {
  if (file.endsWith(CHUNK_SUFFIX)) return unpackChunk(readFileSync(file));
  if (file.endsWith('.gz')) return gunzipSync(readFileSync(file));
  if (!file.endsWith('.xz')) return readFileSync(file);
  accessSync(file); // a missing file fails here, with its name
  try {
    return execFileSync('xz', ['-dc', '--', file], { maxBuffer: MAX_UNPACKED_BYTES, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'the xz program is not installed' : String((e as Error).message);
    throw new Error(`cannot unpack ${file}: ${why} (or unpack it first: xz -dk ${file})`);
  }
}

/**
 * Replays the games of the sources in order, calling visit with each
 * position before its recorded move is played. Game numbers run on across
 * the sources (the validation split counts them so); a game for which
 * wantGame is false is skipped without being decoded. Returns the number of
 * games.
 */
export function replayGames(
  sources: readonly GameSource[],
  visit: (pos: Position, move: number, score: number, result: number, game: number) => void,
  wantGame: (game: number) => boolean = () => true,
): number {
  let number = 0;
  for (const { bytes, index } of sources) {
    for (let g = 0; g < index.offsets.length; g++, number++) {
      if (!wantGame(number)) continue;
      const game = decodeGame(bytes, index.offsets[g], index.plies[g]);
      const pos = new Position(game.fen);
      for (let i = 0; i < game.moves.length; i++) {
        const move = unpackMove(pos, game.moves[i]);
        visit(pos, move, game.scores[i], game.result, number);
        pos.makeMove(move);
        // The Position's undo stack is finite: long games start over from here.
        if (pos.ply > 4000) pos.clearHistory();
      }
    }
  }
  return number;
}

/** The filter's rule that leaves the position (before `move`, scored `score`) out, or null when it is kept. */
export function leftOutBy(pos: Position, move: number, score: number, filter: PositionFilter): 'inCheck' | 'noisy' | 'bigScore' | null {
  if (filter.skipInCheck && pos.inCheck()) return 'inCheck';
  if (filter.skipNoisy && isNoisy(pos, move)) return 'noisy';
  if (Math.abs(score) > filter.maxScore) return 'bigScore';
  return null;
}

/** Reads viriformat files into a training and a validation set. */
export function loadPositions(files: readonly string[], filter: PositionFilter, validPercent: number): LoadedData {
  // First pass: count, so that the shared arrays are allocated once.
  const sources = files.map(readGameSource);
  let total = 0;
  for (const s of sources) for (const n of s.index.plies) total += n;
  const room = filter.mirror ? total * 2 : total;
  const scratch = allocatePositions(room);
  const isValid = new Uint8Array(room);
  const stats = { read: 0, inCheck: 0, noisy: 0, bigScore: 0, mirrored: 0, games: 0 };
  let kept = 0;
  stats.games = replayGames(sources, (pos, move, score, result, game) => {
    stats.read++;
    const rule = leftOutBy(pos, move, score, filter);
    if (rule !== null) {
      stats[rule]++;
      return;
    }
    const valid = isValidationGame(game, validPercent);
    // Square flip 7 swaps files a-h (mirror image); 0 keeps the board as it is.
    const flips = filter.mirror && !valid && pos.castling === 0 ? 2 : 1;
    for (let f = 0; f < flips; f++) {
      let n = 0;
      for (let sq = 0; sq < 64; sq++) {
        const piece = pos.board[sq];
        if (piece !== 0) scratch.features[kept * MAX_FEATURES + n++] = inputIndex(WHITE, piece, sq ^ (f * 7));
      }
      scratch.counts[kept] = n;
      scratch.sides[kept] = pos.side;
      scratch.results[kept] = result;
      scratch.scores[kept] = score;
      isValid[kept] = valid ? 1 : 0;
      kept++;
    }
    stats.mirrored += flips - 1;
  });
  let validCount = 0;
  for (let i = 0; i < kept; i++) validCount += isValid[i];
  const train = allocatePositions(kept - validCount);
  const valid = allocatePositions(validCount);
  const at = [0, 0];
  for (let i = 0; i < kept; i++) {
    const set = isValid[i] ? valid : train;
    const j = at[isValid[i]]++;
    set.features.set(scratch.features.subarray(i * MAX_FEATURES, (i + 1) * MAX_FEATURES), j * MAX_FEATURES);
    set.counts[j] = scratch.counts[i];
    set.sides[j] = scratch.sides[i];
    set.results[j] = scratch.results[i];
    set.scores[j] = scratch.scores[i];
  }
  return { train, valid, ...stats };
}
