// What a `go` command asks for, as parsed by the UCI layer and handed to the
// search (in its worker), plus the options the search needs.

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

export interface SearchOptions {
  multiPv: number;
  moveOverhead: number;
  chess960: boolean;
  showWdl: boolean;
  /** 'pvs' (default) or 'mtdf'. */
  driver: 'pvs' | 'mtdf';
}

export const DEFAULT_SEARCH_OPTIONS: SearchOptions = {
  multiPv: 1,
  moveOverhead: 100,
  chess960: false,
  showWdl: false,
  driver: 'pvs',
};
