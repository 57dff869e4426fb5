// What a `go` command asks for, as a front end (the UCI layer, the library,
// play, analyse) hands it through the engine host to the search (in its
// worker), the options the search needs, and what the search reports while
// it runs.

import { moveToUci } from '../board/notation.js';
import type { Position } from '../board/position.js';
import { MAX_PLY } from '../board/types.js';
import type { SearchDriver } from './driver-list.js';

/** The deepest iteration a search runs (the search's arrays have room for extensions beyond it). */
export const MAX_DEPTH = MAX_PLY - 4;

export interface GoParams {
  wtime?: number;
  btime?: number;
  winc?: number;
  binc?: number;
  movestogo?: number;
  depth?: number;
  nodes?: number;
  /** No new iteration starts after this many nodes (self-play data generation); `nodes` stays the hard limit. */
  softNodes?: number;
  /** Search for a mate in this many moves. */
  mate?: number;
  movetime?: number;
  infinite: boolean;
  ponder: boolean;
  /** Root moves to consider, in UCI notation (empty = all). */
  searchmoves: string[];
}

/** Whether `go searchmoves` lets the search play this root move of pos (all moves when it names none). */
export function searchmovesAllow(params: GoParams, pos: Position, move: number): boolean {
  return params.searchmoves.length === 0 || params.searchmoves.includes(moveToUci(pos, move));
}

/** The note when searchmoves names no legal move: the search then considers them all. */
export const NO_LEGAL_SEARCHMOVES = 'none of the searchmoves is legal here; searching all moves';

/** A level as the search applies it (strength.ts: a row of its table, or a blend of two for UCI_Elo). */
export interface StrengthLimit {
  /** The Elo it stands for, and how to name it ("level 7", "Elo 1500"). */
  elo: number;
  label: string;
  nodes: number;
  multiPv: number;
  temperature: number;
  margin: number;
  /** Seeds the choice of move (any 32-bit integer). */
  seed: number;
}

export interface SearchOptions {
  multiPv: number;
  moveOverhead: number;
  chess960: boolean;
  showWdl: boolean;
  /** 'pvs' (default), 'mtdf' or one of the Monte Carlo tree searches (driver-list.ts). */
  driver: SearchDriver;
  /** A limited strength (strength.ts: Skill Level, UCI_Elo); absent: full strength. */
  strength?: StrengthLimit;
}

/** The options of a search that no front end sets (bench, self-play); the engine host's front ends set their own (engine/settings.ts). */
export const DEFAULT_SEARCH_OPTIONS: SearchOptions = {
  multiPv: 1,
  moveOverhead: 0,
  chess960: false,
  showWdl: false,
  driver: 'pvs',
};

/** What a line of the search says: a completed iteration, the final word, or an aspiration window's failure. */
export interface SearchLine {
  type: 'line';
  depth: number;
  seldepth: number;
  /** 1 for the best line, 2.. for the others of a MultiPV search. */
  multipv: number;
  /** Side to move's view; -INFINITE when no move was searched. */
  score: number;
  /** 'exact', or the side the true score lies on after an aspiration failure. */
  bound: 'exact' | 'lower' | 'upper';
  /** Nodes of every searcher of this search. */
  nodes: number;
  timeMs: number;
  /** Permille of the table in use; null where not reported (aspiration failures). */
  hashfull: number | null;
  /** Tablebase probes that found a table; null when no tablebases are in use. */
  tbhits: number | null;
  /** The line's moves, from the root. */
  pv: readonly number[];
}

export type SearchEvent =
  | SearchLine
  /** A root move the search starts on (long searches only). */
  | { type: 'currmove'; depth: number; move: number; number: number }
  | { type: 'note'; text: string };

/** Receives the search's events, at the root position (so moves can be written out). */
export type SearchReport = (event: SearchEvent) => void;

export const NO_REPORT: SearchReport = () => {};
