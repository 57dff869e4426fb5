// Building Polyglot books from games, counted the way `polyglot make-book`
// counts them so both give the same file for the same PGN and settings:
//
// - every move of a game up to maxPly is an occurrence of (position, move);
//   each occurrence adds 1 to the entry's game count n and 2 / 1 / 0 points
//   to its score sum when the side that played it won / drew / lost (the
//   result is the Result tag's, as Polyglot reads it, or the movetext's when
//   there is no tag; anything but 1-0 or 0-1, "*" included, is a draw);
// - when an entry's n reaches 16384, n and sum of every entry of that
//   position are halved (rounding up), so sums fit in 16 bits;
// - an entry is written if n >= minGames, sum > 0, sum / (2 n) >= minScore,
//   and its side to move is not filtered out; its weight is sum (1 with
//   uniform);
// - records are sorted by key, then weight (highest first), then first
//   appearance in the input.
//
// Kestrel differs on purpose in three places: a game with an illegal move or
// a broken tag is reported and skipped (Polyglot stops the whole build); a
// game with a FEN tag starts from that position, with the result credited to
// the side that played each move (Debian's Polyglot 2.0.4 ignores FEN tags
// and starts every game from the initial position); and onlyWinning (no
// Polyglot equivalent) counts only the moves of the side that won.
//
// The tables are typed arrays (no object per entry): positions in an
// open-addressing hash on the 64-bit key, each with a chain of its entries.

import { MoveError } from '../board/notation.js';
import { FenError, Position, START_FEN } from '../board/position.js';
import { parseSan } from '../board/san.js';
import { BLACK, WHITE } from '../board/types.js';
import { type PgnGame, gameProblem, isChess960, parsePgn } from '../board/pgn.js';
import { checkReadable, readPgnFile } from '../platform/pgn-file.js';
import { RECORD_SIZE, encodeMove } from './polyglot.js';

export interface BuildOptions {
  /** Only the first maxPly plies of each game count (Polyglot -max-ply; default 1024). */
  maxPly: number;
  /** Minimum number of games an entry needs (Polyglot -min-game; default 3). */
  minGames: number;
  /** Minimum score of an entry in percent, 0 to 100 (Polyglot -min-score; default 0). */
  minScore: number;
  /** Only White's moves (Polyglot -only-white). */
  onlyWhite: boolean;
  /** Only Black's moves (Polyglot -only-black). */
  onlyBlack: boolean;
  /** Weight 1 for every entry (Polyglot -uniform). */
  uniform: boolean;
  /** Count a move only in games that the side playing it won (Kestrel only). */
  onlyWinning: boolean;
}

export const DEFAULT_BUILD_OPTIONS: Readonly<BuildOptions> = {
  maxPly: 1024,
  minGames: 3,
  minScore: 0,
  onlyWhite: false,
  onlyBlack: false,
  uniform: false,
  onlyWinning: false,
};

export interface BuildStats {
  /** Games read. */
  games: number;
  /** Games whose moves were counted. */
  gamesUsed: number;
  /** Games reported and left out. */
  gamesSkipped: number;
  /** (position, move) occurrences counted. */
  occurrences: number;
  /** Distinct positions and (position, move) entries counted, before filtering. */
  positions: number;
  entries: number;
  /** Records in the book. */
  written: number;
}

/** Where a game came from, for messages. */
interface GameSource {
  file: string;
  /** 1-based number of the game in its file. */
  game: number;
}

/** The count at which an entry's position has its statistics halved (Polyglot's COUNT_MAX). */
const COUNT_MAX = 16384;
/** Most moves one position can have (legal moves are at most 218). */
const MAX_RUN = 4096;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Longest game a builder takes in one piece; longer ones are cut (a game has at most about 6000 plies). */
const MAX_GAME_PLIES = 8000;

export class BookBuilder {
  readonly options: BuildOptions;
  readonly stats: BuildStats = {
    games: 0,
    gamesUsed: 0,
    gamesSkipped: 0,
    occurrences: 0,
    positions: 0,
    entries: 0,
    written: 0,
  };

  // Positions: key halves (unsigned, as int32 bits), first entry of the chain.
  private posHi = new Int32Array(1024);
  private posLo = new Int32Array(1024);
  private posHead = new Int32Array(1024);
  private posCount = 0;
  /** Hash slots holding position index + 1 (0 = empty); twice the position capacity. */
  private slots = new Int32Array(2048);
  // Entries, in order of first appearance.
  private entMove = new Uint16Array(4096);
  private entN = new Int32Array(4096);
  private entSum = new Int32Array(4096);
  private entSide = new Uint8Array(4096);
  private entNext = new Int32Array(4096);
  private entCount = 0;

  // One game's occurrences, kept until the whole game has been read.
  private readonly gameHi = new Int32Array(MAX_GAME_PLIES);
  private readonly gameLo = new Int32Array(MAX_GAME_PLIES);
  private readonly gameMove = new Uint16Array(MAX_GAME_PLIES);
  private readonly gameSide = new Uint8Array(MAX_GAME_PLIES);
  private readonly pos = new Position();

  constructor(options: Partial<BuildOptions> = {}) {
    this.options = { ...DEFAULT_BUILD_OPTIONS, ...options };
    const o = this.options;
    if (!Number.isInteger(o.maxPly) || o.maxPly < 0) throw new RangeError('maxPly must be an integer >= 0');
    if (!Number.isInteger(o.minGames) || o.minGames < 1) throw new RangeError('minGames must be an integer >= 1');
    if (!(o.minScore >= 0 && o.minScore <= 100)) throw new RangeError('minScore must be from 0 to 100');
    if (o.onlyWhite && o.onlyBlack) throw new RangeError('onlyWhite and onlyBlack exclude each other');
  }

  /**
   * Counts a game's moves. Returns null when the game was used (or had no
   * moves), or the reason it was skipped: an unreadable tag, an unclosed
   * comment or variation, another variant, a bad FEN, an illegal or
   * ambiguous move. A skipped game counts for nothing.
   */
  addGame(game: PgnGame): string | null {
    this.stats.games++;
    const problem = this.readGame(game);
    if (problem !== null) {
      this.stats.gamesSkipped++;
      return problem;
    }
    return null;
  }

  private readGame(game: PgnGame): string | null {
    const problem = gameProblem(game);
    if (problem !== null) return problem;
    const pos = this.pos;
    const fen = game.tags.FEN;
    try {
      pos.setFen(fen ?? START_FEN);
    } catch (e) {
      if (e instanceof FenError) return `bad FEN tag "${fen}": ${e.message}`;
      throw e;
    }
    pos.chess960 = isChess960(game);
    const plies = Math.min(game.moves.length, this.options.maxPly, MAX_GAME_PLIES);
    for (let ply = 0; ply < plies; ply++) {
      let move: number;
      try {
        move = parseSan(pos, game.moves[ply]);
      } catch (e) {
        if (!(e instanceof MoveError)) throw e;
        const number = `${pos.fullmove}${pos.side === WHITE ? '.' : '...'}`;
        return `${e.message} (move ${number} ${game.moves[ply]}, ply ${ply + 1})`;
      }
      this.gameHi[ply] = pos.keyHi;
      this.gameLo[ply] = pos.keyLo;
      this.gameSide[ply] = pos.side;
      this.gameMove[ply] = encodeMove(move);
      pos.makeMove(move);
    }
    // Points for White's moves: 2 win, 1 draw, 0 loss; Black's are 2 minus that.
    const result = game.tags.Result ?? game.result;
    const white = result === '1-0' ? 2 : result === '0-1' ? 0 : 1;
    for (let ply = 0; ply < plies; ply++) {
      const points = this.gameSide[ply] === WHITE ? white : 2 - white;
      if (this.options.onlyWinning && points !== 2) continue;
      this.count(this.gameHi[ply], this.gameLo[ply], this.gameSide[ply], this.gameMove[ply], points);
    }
    if (plies > 0) this.stats.gamesUsed++;
    return null;
  }

  /** Adds one occurrence of (key, move) with the points its side scored. */
  private count(hi: number, lo: number, side: number, move: number, points: number): void {
    this.stats.occurrences++;
    const p = this.findPosition(hi, lo);
    let e = this.posHead[p];
    while (e >= 0 && this.entMove[e] !== move) e = this.entNext[e];
    if (e < 0) {
      e = this.addEntry(move, side);
      this.entNext[e] = this.posHead[p];
      this.posHead[p] = e;
    }
    this.entN[e]++;
    this.entSum[e] += points;
    if (this.entN[e] >= COUNT_MAX) {
      for (let f = this.posHead[p]; f >= 0; f = this.entNext[f]) {
        this.entN[f] = (this.entN[f] + 1) >> 1;
        this.entSum[f] = (this.entSum[f] + 1) >> 1;
      }
    }
  }

  private findPosition(hi: number, lo: number): number {
    let mask = this.slots.length - 1;
    let i = lo & mask;
    for (;;) {
      const s = this.slots[i];
      if (s === 0) break;
      if (this.posLo[s - 1] === lo && this.posHi[s - 1] === hi) return s - 1;
      i = (i + 1) & mask;
    }
    if (this.posCount === this.posHi.length) {
      this.growPositions();
      mask = this.slots.length - 1;
      i = lo & mask;
      while (this.slots[i] !== 0) i = (i + 1) & mask;
    }
    const p = this.posCount++;
    this.posHi[p] = hi;
    this.posLo[p] = lo;
    this.posHead[p] = -1;
    this.slots[i] = p + 1;
    return p;
  }

  private growPositions(): void {
    const cap = this.posHi.length * 2;
    this.posHi = grow(this.posHi, cap);
    this.posLo = grow(this.posLo, cap);
    this.posHead = grow(this.posHead, cap);
    this.slots = new Int32Array(cap * 2);
    const mask = this.slots.length - 1;
    for (let p = 0; p < this.posCount; p++) {
      let i = this.posLo[p] & mask;
      while (this.slots[i] !== 0) i = (i + 1) & mask;
      this.slots[i] = p + 1;
    }
  }

  private addEntry(move: number, side: number): number {
    if (this.entCount === this.entMove.length) {
      const cap = this.entMove.length * 2;
      this.entMove = grow(this.entMove, cap);
      this.entN = grow(this.entN, cap);
      this.entSum = grow(this.entSum, cap);
      this.entSide = grow(this.entSide, cap);
      this.entNext = grow(this.entNext, cap);
    }
    const e = this.entCount++;
    this.entMove[e] = move;
    this.entN[e] = 0;
    this.entSum[e] = 0;
    this.entSide[e] = side;
    return e;
  }

  private keep(e: number): boolean {
    const o = this.options;
    const n = this.entN[e];
    const sum = this.entSum[e];
    if (n < o.minGames || sum === 0) return false;
    if (sum / n / 2 < o.minScore / 100) return false;
    if ((o.onlyWhite && this.entSide[e] === BLACK) || (o.onlyBlack && this.entSide[e] === WHITE)) return false;
    return true;
  }

  private weight(e: number): number {
    return this.options.uniform ? 1 : this.entSum[e];
  }

  /** The index of a position already counted. */
  private positionIndex(hi: number, lo: number): number {
    const mask = this.slots.length - 1;
    for (let i = lo & mask; ; i = (i + 1) & mask) {
      const s = this.slots[i];
      if (this.posLo[s - 1] === lo && this.posHi[s - 1] === hi) return s - 1;
    }
  }

  /** The book: sorted 16-byte records (learn fields zero). */
  toBytes(): Uint8Array {
    this.stats.positions = this.posCount;
    this.stats.entries = this.entCount;
    // Sort the keys as unsigned 64-bit numbers natively: (lo, hi) pairs of
    // 32-bit words seen as one little-endian 64-bit word each.
    const words = new Uint32Array(this.posCount * 2);
    const [low, high] = LITTLE_ENDIAN ? [0, 1] : [1, 0];
    for (let p = 0; p < this.posCount; p++) {
      words[2 * p + low] = this.posLo[p];
      words[2 * p + high] = this.posHi[p];
    }
    new BigUint64Array(words.buffer).sort();

    let kept = 0;
    for (let e = 0; e < this.entCount; e++) if (this.keep(e)) kept++;
    const out = new Uint8Array(kept * RECORD_SIZE);
    const view = new DataView(out.buffer);
    let o = 0;
    const run = new Int32Array(MAX_RUN);
    for (let k = 0; k < this.posCount; k++) {
      const hi = words[2 * k + high];
      const lo = words[2 * k + low];
      if (hi === 0 && lo === 0) continue; // key 0 is Polyglot's header key
      const p = this.positionIndex(hi | 0, lo | 0);
      // The position's kept entries by weight (highest first), then first appearance.
      let n = 0;
      for (let e = this.posHead[p]; e >= 0 && n < MAX_RUN; e = this.entNext[e]) {
        if (!this.keep(e)) continue;
        const w = this.weight(e);
        let j = n++;
        while (j > 0 && (this.weight(run[j - 1]) < w || (this.weight(run[j - 1]) === w && run[j - 1] > e))) {
          run[j] = run[j - 1];
          j--;
        }
        run[j] = e;
      }
      for (let j = 0; j < n; j++) {
        const e = run[j];
        view.setUint32(o, hi);
        view.setUint32(o + 4, lo);
        view.setUint16(o + 8, this.entMove[e]);
        view.setUint16(o + 10, this.weight(e));
        view.setUint32(o + 12, 0);
        o += RECORD_SIZE;
      }
    }
    this.stats.written = o / RECORD_SIZE;
    return o === out.length ? out : out.subarray(0, o);
  }
}

function grow<T extends Int32Array | Uint16Array | Uint8Array>(a: T, cap: number): T {
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}

/** Builds a book from PGN text (tests, small inputs); problems are reported as "game N: reason". */
export function buildBookFromPgnText(
  text: string,
  options: Partial<BuildOptions> = {},
  onProblem: (message: string) => void = () => {},
): { bytes: Uint8Array; stats: BuildStats } {
  const builder = new BookBuilder(options);
  parsePgn(text).forEach((game, i) => {
    const problem = builder.addGame(game);
    if (problem !== null) onProblem(`game ${i + 1}${gameLabel(game)}: ${problem}; game skipped`);
  });
  const bytes = builder.toBytes();
  return { bytes, stats: builder.stats };
}

export interface BuildHooks {
  /** A game that was skipped: the message names the file, the game's number and the reason. */
  onProblem?: (message: string, source: GameSource) => void;
  /** Called after every 10,000th game with the number of games read so far. */
  onProgress?: (games: number) => void;
}

/**
 * Builds a book from PGN files, read as streams. Each game that cannot be
 * read is reported through onProblem with its file and number, and skipped;
 * a file that cannot be read at all rejects the promise before any work.
 */
export async function buildBookFromPgnFiles(
  files: readonly string[],
  options: Partial<BuildOptions> = {},
  hooks: BuildHooks = {},
): Promise<{ bytes: Uint8Array; stats: BuildStats }> {
  const builder = new BookBuilder(options);
  checkReadable(files);
  for (const file of files) {
    let number = 0;
    for await (const game of readPgnFile(file)) {
      number++;
      const problem = builder.addGame(game);
      if (problem !== null) {
        hooks.onProblem?.(`${file}: game ${number}${gameLabel(game)}: ${problem}; game skipped`, { file, game: number });
      }
      if (builder.stats.games % 10000 === 0) hooks.onProgress?.(builder.stats.games);
    }
  }
  const bytes = builder.toBytes();
  return { bytes, stats: builder.stats };
}

function gameLabel(game: PgnGame): string {
  const { White: white, Black: black } = game.tags;
  return white !== undefined || black !== undefined ? ` (${white ?? '?'} - ${black ?? '?'})` : '';
}
