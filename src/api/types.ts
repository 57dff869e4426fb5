// The library's public types (what docs/api.md describes).

import type { SearchDriver } from '../search/driver-list.js';

/**
 * A position: a FEN, 'startpos', or a FEN (default: the start position)
 * with moves played from it, in UCI (`e2e4`) or SAN (`e4`).
 */
export type PositionInput = string | { fen?: string; moves?: readonly string[] };

/** A move in both notations. */
export interface Move {
  /** UCI notation (`e2e4`, `e7e8q`; castling `e1g1`, or king-takes-rook `e1h1` in Chess960). */
  uci: string;
  /** Standard algebraic notation (`e4`, `exd5`, `O-O`, `e8=Q+`). */
  san: string;
}

/** A score from the side to move's point of view: centipawns, or moves to mate (negative: being mated). */
export type Score = { type: 'cp'; value: number } | { type: 'mate'; value: number };

/** Win, draw and loss chances in per mille (summing to 1000), side to move's view. */
export interface Wdl {
  win: number;
  draw: number;
  loss: number;
}

/** One line of a search: a completed iteration's best line (or the n-th best with multiPv). */
export interface SearchLine {
  /** 1 for the best line, 2.. for the others of a multiPv search. */
  multiPv: number;
  depth: number;
  seldepth: number;
  score: Score;
  /** 'exact', or the side the true score lies on (an aspiration window failed; a new result follows). */
  bound: 'exact' | 'lower' | 'upper';
  wdl: Wdl;
  /** The line's moves from the position searched. */
  pv: string[];
  pvSan: string[];
  /** Nodes searched so far (all threads), and time since the search started. */
  nodes: number;
  timeMs: number;
  nps: number;
  /** Permille of the hash table in use; null where not reported. */
  hashfull: number | null;
  /** Tablebase probes that found a table (syzygyPath); null without tablebases. */
  tbHits: number | null;
}

/** What the tablebases say of a position (Engine.probe()). */
export interface TablebaseProbe {
  /** For the side to move: won, or won but drawn by the fifty-move rule ('cursed-win'), drawn, lost but saved by the rule ('blessed-loss'), lost. */
  wdl: 'win' | 'cursed-win' | 'draw' | 'blessed-loss' | 'loss';
  /**
   * Plies to the next capture or pawn move (distance to zeroing): positive
   * when winning, negative when losing, 0 drawn; null without a readable DTZ file.
   * The fifty-move counter of the position is counted in wdl, not here.
   */
  dtz: number | null;
  /**
   * A move that keeps the result (the quickest win, the longest defence);
   * null with no legal move, or when the tables cannot answer for every move
   * (one leads to a table that is missing or damaged): never a guess.
   */
  bestMove: Move | null;
}

/** What a search found. */
export interface AnalysisResult {
  /** The move to play; null when there is no legal move. */
  bestMove: Move | null;
  /** The reply expected after bestMove, when known. */
  ponder: Move | null;
  /** The best line's score and win/draw/loss chances (0 and a draw-ish WDL with no line). */
  score: Score;
  wdl: Wdl;
  /** The deepest completed iteration of the best line. */
  depth: number;
  seldepth: number;
  /** The best line (pv[0] is normally bestMove). */
  pv: string[];
  pvSan: string[];
  /** The latest line of each multiPv rank, best first. */
  lines: SearchLine[];
  nodes: number;
  timeMs: number;
  /** True when the search was stopped (AbortSignal, or the iterator left early) rather than ending by its limits. */
  stopped: boolean;
}

/** How long to search. Give at least one limit, or `infinite` with an AbortSignal. */
export interface SearchLimits {
  depth?: number;
  nodes?: number;
  /** Milliseconds. */
  movetime?: number;
  /** Look for a mate in this many moves. */
  mate?: number;
  /** A game clock (milliseconds); the engine plans its time like in a UCI game. */
  wtime?: number;
  btime?: number;
  winc?: number;
  binc?: number;
  movestogo?: number;
  /** Search until aborted. */
  infinite?: boolean;
  /** Consider only these root moves (UCI or SAN). */
  searchMoves?: readonly string[];
}

export interface AnalyseOptions {
  /** Lines to report (1 = only the best; default 1). */
  multiPv?: number;
  /** Stops the search: the promise then resolves with what was found (rejects with AbortError if it had not started). */
  signal?: AbortSignal;
  /** Called with every line the search reports, as it reports it. */
  onInfo?: (line: SearchLine) => void;
}

/** bestMove()'s answer. */
export interface BestMove extends Move {
  ponder: Move | null;
  /** Played from the opening book (the engine's `book` option): no search was made. */
  fromBook: boolean;
  /** The search's result (null for a book move). */
  analysis: AnalysisResult | null;
}

/**
 * How the engine searches (the UCI option SearchDriver): alpha-beta as
 * principal variation search ('pvs', the default) or MTD(f) ('mtdf'), or
 * Monte Carlo tree search over the network: 'mcts' (the network's value at
 * the leaves), 'mcts-qs' (quiescence search's), and their '-uniform' forms
 * (every move the same prior). See docs/mcts.md. The engine's list of
 * drivers (published beside these types as drivers.d.ts) defines it.
 */
export type { SearchDriver };

export interface EngineOptions {
  /** Search threads (default 1). In a browser page that is not cross-origin isolated, always 1. */
  threads?: number;
  /** Transposition table in MB (default 16; at most 131072 in Node, 256 in a browser). */
  hash?: number;
  /** Chess960: castling written king-takes-rook, X-FEN / Shredder-FEN castling rights (default false). */
  chess960?: boolean;
  /** The search driver of every search (default 'pvs'). The mcts drivers search with one thread, and keep their tree from one search of a game to the next. */
  driver?: SearchDriver;
  /**
   * bestMove() plays from an opening book when the position is in it: true for
   * the shipped book, or a Book (Book.load(), Book.fromBytes()). Default false.
   */
  book?: boolean | import('./book.js').Book;
  /** Evaluate with a network (NNUE): true for the built-in one; default: the engine's default (the UCI option UseNNUE). */
  nnue?: boolean;
  /** A network file (the EvalFile option): its bytes, or a path (Node only). Implies nnue unless nnue is false. */
  networkFile?: Uint8Array | string;
  /**
   * Syzygy tablebases (Node only): folders of .rtbw/.rtbz files, separated as
   * PATH is (':', ';' on Windows). The search probes them and plays a won
   * position out within the fifty-move rule; probe() reads them.
   */
  syzygyPath?: string;
  /** How the search uses them (the UCI options SyzygyProbeDepth, Syzygy50MoveRule, SyzygyProbeLimit; defaults 1, true, 7). */
  syzygy?: { probeDepth?: number; rule50?: boolean; probeLimit?: number };
  /** Messages of the engine that are not errors of a call (a helper thread failed, ...). Default: ignored. */
  onLog?: (text: string) => void;
  /** Browser only: the URL of the worker script (default: kestrel-worker.js beside the library). */
  workerUrl?: string | URL;
}
