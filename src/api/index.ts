// kestrel-chess as a library: the Engine (searches in a worker), opening
// books, and synchronous helpers on the engine's rules code. The same API in
// Node.js and in a browser; see docs/api.md.

import { START_FEN as BOARD_START_FEN } from '../board/position.js';
import { engineVersion } from '../engine/version.js';

export { type BookMove, Book, bookMoves } from './book.js';
export { Engine, type Search } from './engine.js';
export {
  AbortError,
  EngineClosedError,
  EngineFailedError,
  IllegalMoveError,
  InvalidBookError,
  InvalidFenError,
  InvalidNetworkError,
  KestrelError,
} from './errors.js';
export { type GameStatus, type RulesOptions, evaluate, gameStatus, legalMoves, perft, validateFen } from './helpers.js';
export type {
  AnalyseOptions,
  AnalysisResult,
  BestMove,
  EngineOptions,
  Move,
  PositionInput,
  Score,
  SearchDriver,
  SearchLimits,
  SearchLine,
  TablebaseProbe,
  Wdl,
} from './types.js';

/** The start position's FEN (the board's, as a value of this module: the published types stay within src/api). */
export const START_FEN: string = BOARD_START_FEN;

/** This build's name: `0.1.0` for a release, `0.1.0-dev-<YYYYMMDD>-<commit>` between releases (what `id name` says after "Kestrel"). */
export const VERSION: string = engineVersion();
