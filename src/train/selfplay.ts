// One self-play game for training data: Kestrel against itself at a few
// thousand nodes a move, from an opening of random legal plies (after an
// optional book position), with the search's score of every position.
//
// A game is a pure function of (run seed, game index, settings): its random
// numbers come from a generator seeded by both, and the searcher forgets
// everything before the game starts. So a run gives the same games whatever
// the number of threads, and an interrupted run resumes where it stopped.

import { generateMoves } from '../board/movegen.js';
import { Position, START_FEN } from '../board/position.js';
import { gameOutcome } from '../board/rules.js';
import { MAX_MOVES, WHITE } from '../board/types.js';
import { SearchControl } from '../search/control.js';
import { DEFAULT_SEARCH_OPTIONS, type GoParams } from '../search/limits.js';
import type { Searcher } from '../search/search.js';
import { mixSeed, mulberry32 } from '../util/random.js';
import { RESULT_BLACK_WIN, RESULT_DRAW, RESULT_WHITE_WIN, encodeGame } from './viriformat.js';

export interface SelfPlaySettings {
  /** No new iteration after this many nodes. */
  softNodes: number;
  /** The search stops at this many nodes even mid-iteration. */
  hardNodes: number;
  /** Random legal plies played from the start (or book) position: this many or one more, so that either side may move first. */
  randomPlies: number;
  /** An opening whose score is further from 0 than this (centipawns) is thrown away. */
  maxOpeningScore: number;
  /** Starting positions (FEN) to pick from before the random plies; empty: the start position. */
  book: readonly string[];
  /** A game is won when both sides' scores agree on at least this (centipawns) for winPlies plies running. */
  winScore: number;
  winPlies: number;
  /** From this ply on, a game is drawn when |score| stays at most drawScore for drawPlies plies running. */
  drawFromPly: number;
  drawScore: number;
  drawPlies: number;
  /** A game still going after this many plies is scored a draw. */
  maxPlies: number;
}

export const DEFAULT_SELFPLAY_SETTINGS: SelfPlaySettings = {
  softNodes: 5000,
  hardNodes: 10_000,
  randomPlies: 8,
  maxOpeningScore: 200,
  book: [],
  winScore: 2000,
  winPlies: 4,
  drawFromPly: 80,
  drawScore: 10,
  drawPlies: 12,
  maxPlies: 600,
};

/**
 * The settings a run is known by in the data store's manifest: the ones the
 * command line sets (a book by a hash of its positions).
 */
export function settingsText(s: SelfPlaySettings): string {
  let text = `soft ${s.softNodes}, hard ${s.hardNodes}, ${s.randomPlies} random plies, openings within ${s.maxOpeningScore} cp`;
  if (s.book.length > 0) {
    let h = 0x811c9dc5; // FNV-1a over the book's positions
    for (const c of s.book.join('\n')) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
    text += `, book ${s.book.length} positions (fnv ${(h >>> 0).toString(16).padStart(8, '0')})`;
  }
  return text;
}

/** A finished game: viriformat bytes, plies recorded and the result (viriformat's 0/1/2). */
export interface PlayedGame {
  bytes: Uint8Array;
  plies: number;
  result: number;
}

/**
 * A playable opening (self-play's, and `genfens`'s): a random book position
 * (or the start position) and randomPlies or randomPlies + 1 random legal
 * plies, not yet decided, which `score` (a short search, side to move's view)
 * finds within maxOpeningScore of level; drawn again until one is.
 * `moves` is scratch space.
 */
function randomOpening(
  random: () => number,
  settings: Pick<SelfPlaySettings, 'book' | 'randomPlies' | 'maxOpeningScore'>,
  moves: Int32Array,
  score: (pos: Position) => number,
): Position {
  for (;;) {
    const pos = drawOpening(random, settings, moves, score);
    if (pos !== null) return pos;
  }
}

/** One draw of randomOpening: the opening, or null when it is decided or lopsided (the same random numbers either way). */
export function drawOpening(
  random: () => number,
  settings: Pick<SelfPlaySettings, 'book' | 'randomPlies' | 'maxOpeningScore'>,
  moves: Int32Array,
  score: (pos: Position) => number,
): Position | null {
  const book = settings.book;
  const pos = new Position(book.length > 0 ? book[random() % book.length] : START_FEN);
  const plies = settings.randomPlies + (random() % 2);
  for (let i = 0; i < plies; i++) {
    const n = generateMoves(pos, moves, 0, false);
    if (n === 0) return null;
    pos.makeMove(moves[random() % n]);
  }
  if (gameOutcome(pos) !== null || Math.abs(score(pos)) > settings.maxOpeningScore) return null;
  pos.clearHistory();
  return pos;
}

/** Plays self-play games with one searcher (one per thread). */
export class SelfPlayer {
  private readonly control = new SearchControl();
  private readonly moves = new Int32Array(MAX_MOVES);
  private readonly gameMoves = new Int32Array(1024);
  private readonly gameScores = new Int32Array(1024);

  constructor(
    private readonly searcher: Searcher,
    private readonly settings: SelfPlaySettings,
  ) {}

  /** The score of pos after a search of the self-play size, side to move's view, and its best move. */
  private search(pos: Position): { move: number; score: number } {
    const params: GoParams = {
      nodes: this.settings.hardNodes,
      softNodes: this.settings.softNodes,
      infinite: false,
      ponder: false,
      searchmoves: [],
    };
    this.control.reset();
    const r = this.searcher.go({ pos, params, options: DEFAULT_SEARCH_OPTIONS, control: this.control });
    return { move: r.move, score: r.score };
  }

  /** A playable opening: book position and random plies, not yet decided, with a score near level. */
  private opening(random: () => number): Position {
    return randomOpening(random, this.settings, this.moves, (pos) => this.search(pos).score);
  }

  /** Game `index` of the run seeded `runSeed`. */
  play(runSeed: number, index: number): PlayedGame {
    const s = this.settings;
    const random = mulberry32(mixSeed(runSeed, index));
    this.searcher.clear();
    const pos = this.opening(random);
    const start = new Position(pos.fen());
    this.searcher.clear();

    let result = RESULT_DRAW;
    let plies = 0;
    let winRun = 0;
    let drawRun = 0;
    for (;;) {
      const outcome = gameOutcome(pos);
      if (outcome !== null) {
        result = outcome.result === '1-0' ? RESULT_WHITE_WIN : outcome.result === '0-1' ? RESULT_BLACK_WIN : RESULT_DRAW;
        break;
      }
      if (plies >= s.maxPlies || plies >= this.gameMoves.length) break;
      const { move, score } = this.search(pos);
      const white = pos.side === WHITE ? score : 0 - score;
      this.gameMoves[plies] = move;
      this.gameScores[plies] = white;
      plies++;
      // Adjudication: a clear win both sides agree on (mate scores included), or a long dead level.
      const sameSide = winRun === 0 || Math.sign(white) === Math.sign(this.gameScores[plies - 2]);
      winRun = Math.abs(white) >= s.winScore && sameSide ? winRun + 1 : 0;
      if (winRun >= s.winPlies) {
        result = white > 0 ? RESULT_WHITE_WIN : RESULT_BLACK_WIN;
        break;
      }
      drawRun = plies > s.drawFromPly && Math.abs(white) <= s.drawScore ? drawRun + 1 : 0;
      if (drawRun >= s.drawPlies) break;
      pos.makeMove(move);
    }
    return { bytes: encodeGame(start, result, this.gameMoves, this.gameScores, plies), plies, result };
  }
}
