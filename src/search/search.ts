// Search entry point used by the worker. (Stub: replaced by the real search.)
import { generateMoves } from '../board/movegen.js';
import type { Position } from '../board/position.js';
import { MAX_MOVES } from '../board/types.js';
import type { SearchControl } from './control.js';
import type { GoParams, SearchOptions } from './limits.js';

export interface SearchResult {
  /** UCI move, or '0000' when there is no legal move. */
  bestMove: string;
  ponderMove: string | null;
}

export class Searcher {
  private readonly moves = new Int32Array(MAX_MOVES);

  constructor(public hashMb = 16) {}

  /** Resizes the transposition table (clears it). */
  setHashSize(mb: number): void {
    this.hashMb = mb;
  }

  /** Clears the transposition table and all learned move-ordering data. */
  clear(): void {}

  /**
   * Searches pos under the limits of params until done or control.stopped.
   * Emits every `info` line through emit (the caller prints `bestmove`).
   * With params.infinite or an unanswered params.ponder, it does not return
   * before control.stopped (or ponderhit) even if the search ends early.
   */
  go(pos: Position, params: GoParams, options: SearchOptions, control: SearchControl, emit: (line: string) => void): SearchResult {
    void params;
    void options;
    void control;
    const n = generateMoves(pos, this.moves, 0, false);
    emit('info depth 1 score cp 0 nodes 1 pv');
    return { bestMove: n > 0 ? String(this.moves[0]) : '0000', ponderMove: null };
  }
}
