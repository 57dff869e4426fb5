// Labelled positions for tuning, stored as evaluation traces: per position the
// non-zero coefficients (White minus Black count of each parameter), the
// midgame and endgame blend factors, the game result and the game the
// position comes from. The evaluation is linear in the parameters, so the
// tuner never needs the positions again.
//
// Games matter for validation: the positions of one game share its result, so
// a held-out set is only honest when whole games are held out (splitByGame).
// Data lines may carry the game number as a third field (`<fen> | <result> |
// <game>`, as texel-data writes them); for lines without one the games are
// inferred from the file order (a new game starts when the result changes or
// the move counter does not advance).

import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { FenError, Position } from '../board/position.js';
import { SCALE_NORMAL } from '../eval/endgame.js';
import { TRACE, TRACE_INFO, traceEvaluate } from '../eval/evaluate.js';
import { NUM_PARAMS } from '../eval/layout.js';
import { MAX_PHASE } from '../eval/psqt.js';
import { isQuiet } from './quiet.js';

/**
 * A FEN and its game result for White: 1 win, 0.5 draw, 0 loss; optionally
 * the number of its game and the engine's search score there (centipawns, White's side).
 */
export interface Labelled {
  fen: string;
  result: number;
  game?: number;
  score?: number;
}

const RESULT_WORDS: Record<string, number> = { '1-0': 1, '0-1': 0, '1/2-1/2': 0.5, '1/2': 0.5 };

function resultValue(text: string): number | null {
  if (text in RESULT_WORDS) return RESULT_WORDS[text];
  const v = Number(text);
  return text !== '' && (v === 0 || v === 0.5 || v === 1) ? v : null;
}

/**
 * Parses one line of labelled data; null for blank, comment or unreadable lines.
 * Accepted: `<fen> | 1.0`, `<fen> | 1.0 | <game>`, `<fen> | 1.0 | <game> | <score>`,
 * `<fen> [1.0]`, `<fen> [1-0]`, EPD `<fen> c9 "1-0";`, and `<fen>; 0.5`.
 * Results are for White; words 1-0, 0-1, 1/2-1/2 also work. The game is a
 * non-negative integer naming the game the position comes from; the score an
 * integer, centipawns from White's side.
 */
export function parseLabelledLine(line: string): Labelled | null {
  const text = line.trim();
  if (text === '' || text.startsWith('#')) return null;
  let fenPart: string;
  let resultText: string;
  let gameText: string | undefined;
  let scoreText: string | undefined;
  const piped = /^([^|]*?)\s*\|\s*([^|]+?)\s*(?:\|\s*(\d+)\s*(?:\|\s*([+-]?\d+)\s*)?)?$/.exec(text);
  const other =
    piped ?? /^(.*?)\s*\[\s*([^\]]+?)\s*\]\s*$/.exec(text) ?? /^(.*?)\s*\bc9\s+"([^"]+)"/.exec(text) ?? /^(.*?)\s*;\s*(\S+)\s*$/.exec(text);
  if (piped !== null) {
    [, fenPart, resultText, gameText, scoreText] = piped;
  } else if (other !== null) {
    [, fenPart, resultText] = other;
  } else {
    return null;
  }
  const result = resultValue(resultText);
  if (result === null) return null;
  // The FEN: four fields, plus the counters when present.
  const fields = fenPart.trim().split(/\s+/);
  if (fields.length < 4) return null;
  const counters = fields.slice(4, 6).filter((f) => /^\d+$/.test(f));
  const fen = [...fields.slice(0, 4), ...(counters.length === 2 ? counters : ['0', '1'])].join(' ');
  const item: Labelled = { fen, result };
  if (gameText !== undefined) item.game = Number(gameText);
  if (scoreText !== undefined) item.score = Number(scoreText);
  return item;
}

/** Plies since the start of the game from a FEN's side to move and full-move number (-1 when unknown). */
function fenPly(fen: string): number {
  const fields = fen.split(' ');
  const fullmove = Number(fields[5]);
  if (!Number.isInteger(fullmove) || fullmove < 1) return -1;
  return 2 * (fullmove - 1) + (fields[1] === 'b' ? 1 : 0);
}

/** Growable store of traced positions. */
export class TraceSet {
  count = 0;
  /** Coefficients of position p: entries start[p] .. start[p + 1] - 1. */
  start = new Uint32Array(1024);
  index = new Uint16Array(1 << 16);
  coef = new Int16Array(1 << 16);
  /** Weight of the midgame sum in the score (phase / 24). */
  mgFactor = new Float32Array(1024);
  /** Weight of the endgame sum in the score ((24 - phase) / 24 * scale / 128). */
  egFactor = new Float32Array(1024);
  result = new Float32Array(1024);
  /** Game (0 .. games - 1) of each position. */
  game = new Int32Array(1024);
  /** The engine's search score of each position (centipawns, White's side); NaN when unknown. */
  score = new Float32Array(1024);
  /** Per game: the first FEN stored of it; games with the same key are kept on one side of a split. */
  gameKey: string[] = [];
  private entries = 0;
  // Game bookkeeping of addPositions: explicit game numbers, and the state of the inference for lines without one.
  private gameOfId = new Map<number, number>();
  private currentGame = -1;
  private lastPly = -1;
  private lastResult = -1;
  private lastExplicit = false;

  /** Starts a new source of data (a file): its game numbers name new games. */
  newSource(): void {
    this.gameOfId.clear();
    this.currentGame = -1;
    this.lastPly = -1;
    this.lastResult = -1;
    this.lastExplicit = false;
  }

  /** Number of games (groups of positions). */
  get games(): number {
    return this.gameKey.length;
  }

  /**
   * The game of a labelled line (met in file order, whether its position is used or not):
   * its game number when it has one, else the current game unless a new one starts.
   */
  gameFor(item: Labelled): number {
    const ply = fenPly(item.fen);
    let g: number;
    if (item.game !== undefined) {
      let known = this.gameOfId.get(item.game);
      if (known === undefined) {
        known = this.newGame('');
        this.gameOfId.set(item.game, known);
      }
      g = known;
      this.lastExplicit = true;
    } else {
      if (this.currentGame < 0 || this.lastExplicit || item.result !== this.lastResult || ply < 0 || ply <= this.lastPly) {
        this.currentGame = this.newGame('');
      }
      g = this.currentGame;
      this.lastExplicit = false;
    }
    this.lastPly = ply;
    this.lastResult = item.result;
    return g;
  }

  /** Adds the trace left by the last traceEvaluate call, with its result for White and its game (see gameFor; default: a game of its own). */
  addTrace(result: number, game = -1, fen = '', score = NaN): void {
    this.reserve(NUM_PARAMS);
    const p = this.count;
    this.start[p] = this.entries;
    for (let i = 0; i < NUM_PARAMS; i++) {
      const c = TRACE[i] - TRACE[NUM_PARAMS + i];
      if (c !== 0) {
        this.index[this.entries] = i;
        this.coef[this.entries] = c;
        this.entries++;
      }
    }
    const [phase, scale] = TRACE_INFO;
    this.mgFactor[p] = phase / MAX_PHASE;
    this.egFactor[p] = ((MAX_PHASE - phase) / MAX_PHASE) * (scale / SCALE_NORMAL);
    this.result[p] = result;
    this.score[p] = score;
    if (game < 0) game = this.newGame('');
    if (this.gameKey[game] === '') this.gameKey[game] = fen === '' ? `#${game}` : fen;
    this.game[p] = game;
    this.count = p + 1;
    this.start[this.count] = this.entries;
  }

  /** A new game with this key ('' until its first position sets it); returns its number. */
  private newGame(key: string): number {
    this.gameKey.push(key);
    return this.gameKey.length - 1;
  }

  /** Room for one more position with up to `coefficients` non-zero coefficients. */
  private reserve(coefficients: number): void {
    if (this.count + 2 > this.start.length) {
      const n = this.start.length * 2;
      this.start = grow(this.start, new Uint32Array(n));
      this.mgFactor = grow(this.mgFactor, new Float32Array(n));
      this.egFactor = grow(this.egFactor, new Float32Array(n));
      this.result = grow(this.result, new Float32Array(n));
      this.game = grow(this.game, new Int32Array(n));
      this.score = grow(this.score, new Float32Array(n));
    }
    while (this.entries + coefficients > this.index.length) {
      const n = this.index.length * 2;
      this.index = grow(this.index, new Uint16Array(n));
      this.coef = grow(this.coef, new Int16Array(n));
    }
  }

  /** A new set holding the positions p with keep(p) (games renumbered densely, keys kept). */
  subset(keep: (p: number) => boolean): TraceSet {
    const out = new TraceSet();
    const gameMap = new Map<number, number>();
    for (let p = 0; p < this.count; p++) {
      if (!keep(p)) continue;
      let g = gameMap.get(this.game[p]);
      if (g === undefined) {
        g = out.newGame(this.gameKey[this.game[p]]);
        gameMap.set(this.game[p], g);
      }
      out.copyPosition(this, p, g);
    }
    return out;
  }

  private copyPosition(from: TraceSet, p: number, game: number): void {
    const n = from.start[p + 1] - from.start[p];
    this.reserve(n);
    const q = this.count;
    this.start[q] = this.entries;
    this.index.set(from.index.subarray(from.start[p], from.start[p + 1]), this.entries);
    this.coef.set(from.coef.subarray(from.start[p], from.start[p + 1]), this.entries);
    this.entries += n;
    this.mgFactor[q] = from.mgFactor[p];
    this.egFactor[q] = from.egFactor[p];
    this.result[q] = from.result[p];
    this.score[q] = from.score[p];
    this.game[q] = game;
    this.count = q + 1;
    this.start[this.count] = this.entries;
  }

  /** Total stored coefficients (for reporting). */
  get size(): number {
    return this.entries;
  }
}

function grow<T extends Uint32Array | Uint16Array | Int16Array | Int32Array | Float32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

export interface LoadStats {
  lines: number;
  used: number;
  badLines: number;
  inCheck: number;
  notQuiet: number;
  drawnByMaterial: number;
}

export interface LoadOptions {
  /** Drop positions where a capture wins material (default true). */
  quietFilter?: boolean;
  /** Stop after this many usable positions. */
  limit?: number;
}

/** Traces labelled positions into set (positions in check, not quiet, or dead drawn are skipped). */
export function addPositions(set: TraceSet, items: Iterable<Labelled>, stats: LoadStats, options: LoadOptions = {}): void {
  const pos = new Position();
  const quietFilter = options.quietFilter ?? true;
  for (const item of items) {
    if (options.limit !== undefined && stats.used >= options.limit) return;
    stats.lines++;
    const game = set.gameFor(item);
    try {
      pos.setFen(item.fen);
    } catch (e) {
      if (e instanceof FenError) {
        stats.badLines++;
        continue;
      }
      throw e;
    }
    if (pos.inCheck()) {
      stats.inCheck++;
      continue;
    }
    if (quietFilter && !isQuiet(pos)) {
      stats.notQuiet++;
      continue;
    }
    traceEvaluate(pos);
    if (TRACE_INFO[2] !== 0) {
      stats.drawnByMaterial++;
      continue;
    }
    set.addTrace(item.result, game, item.fen, item.score ?? NaN);
    stats.used++;
  }
}

export function emptyStats(): LoadStats {
  return { lines: 0, used: 0, badLines: 0, inCheck: 0, notQuiet: 0, drawnByMaterial: 0 };
}

/**
 * Reads labelled data files (any format parseLabelledLine accepts) into a
 * TraceSet; each file numbers its games on its own (game 0 of two files are two games).
 */
export async function loadDataset(
  paths: string | readonly string[],
  options: LoadOptions = {},
): Promise<{ set: TraceSet; stats: LoadStats }> {
  const set = new TraceSet();
  const stats = emptyStats();
  for (const path of typeof paths === 'string' ? [paths] : paths) {
    set.newSource();
    await loadFile(set, path, stats, options);
    if (options.limit !== undefined && stats.used >= options.limit) break;
  }
  return { set, stats };
}

async function loadFile(set: TraceSet, path: string, stats: LoadStats, options: LoadOptions): Promise<void> {
  const rl = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let batch: Labelled[] = [];
  for await (const line of rl) {
    const item = parseLabelledLine(line);
    if (item === null) {
      if (line.trim() !== '' && !line.trim().startsWith('#')) stats.badLines++;
      continue;
    }
    batch.push(item);
    if (batch.length >= 4096) {
      addPositions(set, batch, stats, options);
      batch = [];
      if (options.limit !== undefined && stats.used >= options.limit) break;
    }
  }
  addPositions(set, batch, stats, options);
  rl.close();
}

/** 32-bit FNV-1a hash of a string mixed with a seed. */
function hashKey(key: string, seed: number): number {
  let h = (0x811c9dc5 ^ Math.imul(seed | 0, 0x9e3779b1)) >>> 0;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}

/**
 * Fold (0 .. folds - 1) of every position: the distinct game keys in a
 * seeded random order, dealt round robin. Games with the same key (repeated
 * games: the same moves from the same opening) share a fold.
 */
export function gameFolds(set: TraceSet, folds: number, seed = 1): Int32Array {
  const keys = [...new Set(set.gameKey)];
  const order = keys.map((key) => ({ key, h: hashKey(key, seed) })).sort((a, b) => a.h - b.h || (a.key < b.key ? -1 : 1));
  const foldOfKey = new Map<string, number>();
  order.forEach((o, r) => {
    foldOfKey.set(o.key, r % folds);
  });
  const fold = new Int32Array(set.count);
  for (let p = 0; p < set.count; p++) fold[p] = foldOfKey.get(set.gameKey[set.game[p]]) ?? 0;
  return fold;
}

/**
 * Splits by game: about `fraction` of the distinct games (chosen by a seeded
 * hash of their keys) go to `valid`, the rest to `train`; no game is on both sides.
 */
export function splitByGame(set: TraceSet, fraction: number, seed = 1): { train: TraceSet; valid: TraceSet } {
  const keys = [...new Set(set.gameKey)];
  const order = keys.map((key) => ({ key, h: hashKey(key, seed) })).sort((a, b) => a.h - b.h || (a.key < b.key ? -1 : 1));
  const held = Math.round(Math.min(1, Math.max(0, fraction)) * keys.length);
  const validKeys = new Set(order.slice(0, held).map((o) => o.key));
  const isValid = (p: number): boolean => validKeys.has(set.gameKey[set.game[p]]);
  return { train: set.subset((p) => !isValid(p)), valid: set.subset(isValid) };
}
