// The engine's side of a game of `kestrel play`: its moves (from the
// shipped opening book while the game is young, else a search at its
// level), hints for a person, and its view of a draw offer. Searches run
// through the engine host (engine/host.ts), one at a time; the one under way
// can be stopped (it answers now) or dropped (its answer is thrown away).
// The seeded choices (book moves, the levels' seeds) come from one
// generator in the order the engine moves, so that the same seed and the
// same moves replay the same game.

import { OpeningBook } from '../book/reader.js';
import { DEFAULT_TABLEBASE_USE, SETTINGS, defaultIn } from '../engine/settings.js';
import { EngineHost } from '../engine/host.js';
import type { SearchHandle, SearchOutcome } from '../engine/host-search.js';
import { type UciScore, uciScore } from '../engine/search-lines.js';
import { platform } from '../platform/index.js';
import type { SearchDriver } from '../search/driver-list.js';
import type { GoParams, SearchOptions } from '../search/limits.js';
import { HARD_NODES_FACTOR } from '../search/strength.js';
import { mulberry32, unitInterval } from '../util/random.js';
import type { Clock } from './clock.js';
import type { ThinkingState } from './events.js';
import type { Game } from './game.js';
import { type LevelChoice, levelLimit } from './levels.js';
import { formatScore, lineToSan, negateScore, whiteView } from './notation-view.js';

/** The engine as a game uses it: the engine host, or a stand-in (tests). */
export type PlayEngine = Pick<EngineHost, 'warm' | 'search' | 'clear' | 'close'>;

/** The engine accepts a draw from this move on... */
export const DRAW_MIN_FULLMOVE = 30;
/** ...when its evaluation, its own view, is at most this (near zero, or worse for it). */
const DRAW_ACCEPT_CP = 25;
/** The search that judges a draw offer. */
const DRAW_CHECK_NODES = 50_000;
/** The engine thinks this long a move at full strength without a clock, and for a hint then. */
const FULL_STRENGTH_MOVETIME_MS = 1000;
/** Book moves are played for at most this many plies. */
const BOOK_MAX_PLIES = 16;

/** A search's limits. */
export interface SearchPlan {
  params: Partial<GoParams>;
  options: Partial<SearchOptions>;
}

interface Search {
  handle: SearchHandle;
  state: ThinkingState;
  /** Set when the answer must be dropped. */
  discard: boolean;
}

export class EnginePlayer {
  private readonly engine: PlayEngine;
  private readonly random: () => number;
  private book: OpeningBook | null = null;
  private search: Search | null = null;

  /** engine: default, an engine host of its own (one thread, the default hash). */
  constructor(seed: number, useBook: boolean, engine?: PlayEngine, syzygyPath?: string) {
    if (engine === undefined) {
      const host = new EngineHost({
        hashMb: defaultIn(SETTINGS.hash, 'play'),
        threads: SETTINGS.threads.default,
        keepAlive: 'always',
        stopGraceMs: defaultIn(SETTINGS.stopGraceMs, 'play'),
      });
      if (syzygyPath !== undefined) host.configure({ type: 'syzygy', settings: { path: syzygyPath, use: DEFAULT_TABLEBASE_USE } });
      this.engine = host;
    } else this.engine = engine;
    this.random = unitInterval(mulberry32(seed));
    if (useBook) {
      try {
        const shipped = platform.shippedBook();
        this.book = shipped.embedded ? OpeningBook.fromBytes(shipped.bytes(), shipped.name) : OpeningBook.open(shipped.name);
      } catch {
        this.book = null; // no book: the engine searches from the first move
      }
    }
  }

  /** The search under way, if any (until its answer has arrived, dropped or not). */
  get thinking(): ThinkingState | null {
    return this.search?.state ?? null;
  }

  /** Starts the engine now. Throws if it cannot start. */
  warm(): void {
    this.engine.warm();
  }

  /** Forgets what earlier searches learned (a new game). */
  clear(): void {
    void this.engine.clear();
  }

  /** Drops the search under way and ends the engine. */
  close(): void {
    this.drop();
    void this.engine.close();
    this.book?.close();
  }

  /** The book's move while the game is young and the book has one; else null (search). */
  bookMove(game: Game): number | null {
    if (this.book === null || game.moves.length >= BOOK_MAX_PLIES) return null;
    const { choice } = this.book.choose(game.pos, 'weighted', this.random);
    return choice === null ? null : choice.move;
  }

  /**
   * The search for the engine's move: by the clocks if any, else the level's
   * node budget (a second at full strength); at full strength with `driver`
   * (the levels search with pvs).
   */
  movePlan(level: LevelChoice, clock: Clock | null, driver: SearchDriver = 'pvs'): SearchPlan {
    const limit = levelLimit(level, this.nextSeed());
    const params = clock !== null ? clock.goParams() : limit === null ? { movetime: FULL_STRENGTH_MOVETIME_MS } : {};
    return { params, options: limit === null ? { driver } : { strength: limit } };
  }

  /** The search for a hint: the level's node budget, without its random choice; at full strength with `driver`. */
  static hintPlan(level: LevelChoice, driver: SearchDriver = 'pvs'): SearchPlan {
    const limit = levelLimit(level, 0);
    const params =
      limit === null ? { movetime: FULL_STRENGTH_MOVETIME_MS } : { softNodes: limit.nodes, nodes: limit.nodes * HARD_NODES_FACTOR };
    return { params, options: limit === null ? { driver } : {} };
  }

  static readonly drawPlan: SearchPlan = { params: { nodes: DRAW_CHECK_NODES }, options: {} };

  /**
   * The engine's answer to a draw offer, from the drawPlan search of the
   * offering person's position: whether it accepts, and its own view of the
   * score (null if the search found none).
   */
  static judgeDraw(outcome: SearchOutcome): { accept: boolean; mine: UciScore | null } {
    const line = outcome.lines[0];
    // The search is from the person's side (to move): the engine's view is the opposite.
    const mine = line === undefined ? null : negateScore(uciScore(line));
    return { accept: mine !== null && 'cp' in mine && mine.cp <= DRAW_ACCEPT_CP, mine };
  }

  /**
   * Starts a search of the game's position (throws here when the engine
   * cannot start), `who` saying who thinks ("Kestrel thinks"); its state
   * follows the best exact line, and onLine hears of each. `done` resolves
   * with the outcome, or null if it was dropped, and rejects when the engine
   * fails.
   */
  think(
    game: Game,
    purpose: ThinkingState['purpose'],
    who: string,
    plan: SearchPlan,
    onLine: (state: ThinkingState) => void,
  ): { state: ThinkingState; done: Promise<SearchOutcome | null> } {
    const side = game.pos.side;
    const state: ThinkingState = { purpose, side, text: `${who}...`, line: null };
    const handle = this.engine.search(game.spec(), plan.params, plan.options, (info) => {
      if (info.bound !== 'exact' || info.multipv !== 1) return;
      state.line = info;
      state.text = `${who}: depth ${info.depth}  ${formatScore(whiteView(uciScore(info), side))}  ${lineToSan(game.pos, info.pv, game.moveNumber())}`;
      onLine(state);
    });
    const search: Search = { handle, state, discard: false };
    this.search = search;
    return { state, done: this.settle(search) };
  }

  /** Makes the search under way answer now; false if there is none (or only one whose answer is dropped). */
  stop(): boolean {
    if (this.search === null || this.search.discard) return false;
    this.search.handle.stop();
    return true;
  }

  /** Stops the search under way, if any, and drops its answer. */
  drop(): void {
    if (this.search === null) return;
    this.search.discard = true;
    this.search.handle.stop();
  }

  private async settle(search: Search): Promise<SearchOutcome | null> {
    try {
      const outcome = await search.handle.done;
      return search.discard ? null : outcome;
    } finally {
      if (this.search === search) this.search = null;
    }
  }

  private nextSeed(): number {
    return Math.floor(this.random() * 0x100000000) | 0;
  }
}
