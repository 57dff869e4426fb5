// What a front end of `kestrel play` gives the game controller
// (controller.ts) and hears back from it: the game's settings and the
// controller's options, and the events through which it follows the game
// (with the list of listeners that hears them).

import type { EngineLine } from '../engine/search-lines.js';
import type { SearchDriver } from '../search/driver-list.js';
import type { PlayEngine } from './engine-player.js';
import type { TimeControl } from './clock.js';
import type { LevelChoice } from './levels.js';

export type PlayerKind = 'human' | 'engine';

export interface GameSettings {
  fen: string;
  /** White's and Black's player. */
  players: [PlayerKind, PlayerKind];
  time: TimeControl | null;
  level: LevelChoice;
  seed: number;
  /** The engine plays from the shipped opening book while it has moves. */
  book: boolean;
  /** The search driver of the engine's moves and hints at full strength (default pvs; the levels search with pvs). */
  driver?: SearchDriver;
  /** Syzygy tablebases' folders (the engine probes them at full strength and at every level). */
  syzygyPath?: string;
}

export interface ControllerOptions {
  /** Default: an engine host of its own (one thread, the default hash). */
  engine?: PlayEngine;
  /** How save writes a file (the terminal passes Node's writeFileSync); without it save cannot write. */
  writeFile?: (path: string, text: string) => void;
  /** The clocks' time in ms (default performance.now). */
  now?: () => number;
}

/** A search under way. */
export interface ThinkingState {
  /** The engine's move, a hint for a person, or the engine weighing a draw offer. */
  purpose: 'move' | 'hint' | 'draw';
  /** The side to move in the position searched. */
  side: number;
  /** One line for the players: "Kestrel thinks: depth 9  +0.31  12... Nf6 13. Nf3". */
  text: string;
  /** The best line so far (exact score, first line), if any. */
  line: EngineLine | null;
}

/** What a turn waits for: a person's move, the engine's, or nothing (the game is over). */
export type Waiting = 'person' | 'engine' | 'over';

/** What a `changed` event carries (a front end reads it from PlayEvents). @public */
export interface GameChange {
  /** What happened, in sentences ("Kestrel plays 12... Nf6 (depth 9, +0.31)"). */
  notes: string[];
  /** The last note says how the game ended (the first change since it ended). */
  ended: boolean;
}

/** The controller's events, in the order things happen; a listener takes the ones it needs. */
export interface PlayEvents {
  /** The game changed (its start, a move, an undo, a new game, its end): show it again. */
  changed(change: GameChange): void;
  /** Something to tell the players now: the answer to a command, or why it cannot be done. */
  message(lines: string[]): void;
  /** A search started, or found a new best line. */
  thinking(state: ThinkingState): void;
  /** A search ended and its answer is used (its last state). */
  thought(state: ThinkingState): void;
  /**
   * A turn begins. For 'engine' the engine moves right after this event,
   * unless a command given from it changes the game: a front end gives the
   * commands it holds back (typed ahead) here.
   */
  turn(waiting: Waiting): void;
  /** The clocks moved (about ten times a second while one runs). */
  tick(): void;
  /** The game cannot go on (the engine failed); the controller has closed. */
  failed(text: string): void;
}

/** Listeners of the controller's events, each told of the ones it takes. */
export class Listeners {
  private readonly list: Array<Partial<PlayEvents>> = [];

  /** Adds a listener; returns a function that removes it. */
  add(listener: Partial<PlayEvents>): () => void {
    this.list.push(listener);
    return () => {
      const at = this.list.indexOf(listener);
      if (at >= 0) this.list.splice(at, 1);
    };
  }

  emit<K extends keyof PlayEvents>(name: K, ...args: Parameters<PlayEvents[K]>): void {
    for (const listener of [...this.list]) {
      const handler = listener[name] as ((...a: Parameters<PlayEvents[K]>) => void) | undefined;
      handler?.(...args);
    }
  }
}
