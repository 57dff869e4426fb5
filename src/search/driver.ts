// The search drivers side by side (driver-list.ts lists them): a Driver chooses,
// for each `go`, alpha-beta (PVS or MTD(f), the Searcher's iterative
// deepening), a strength level (strength.ts, which plays with PVS: the
// levels were calibrated with it), or Monte Carlo tree search (mcts/mcts.ts),
// whose tree it owns and keeps between the searches of a game. MTD(f)
// stays inside the Searcher: it is another way to run an iteration of the
// same alpha-beta search, and needs the Searcher's state at every pass.

import { generateMoves } from '../board/movegen.js';
import { MAX_MOVES } from '../board/types.js';
import { waitWhileInfinite } from './control.js';
import { type SearchDriver, mctsSpec } from './driver-list.js';
import { type GoParams, NO_REPORT, searchmovesAllow } from './limits.js';
import { Mcts } from './mcts/mcts.js';
import type { MctsTree } from './mcts/tree.js';
import * as P from './params.js';
import type { SearchRequest } from './request.js';
import { type SearchResult, Searcher } from './search.js';
import { limitedSearch } from './strength.js';
import { computeTimeBudget } from './timeman.js';
import { DEFAULT_HASH_MB, allocateHash } from './tt.js';

/** The driver a search at a limited strength plays with, whatever was asked. */
export const LEVELS_DRIVER: SearchDriver = 'pvs';

/** What a strength level does with another driver asked for: it plays with LEVELS_DRIVER, and says so. */
const LEVELS_DRIVER_NOTE = `UCI_LimitStrength and Skill Level play with the ${LEVELS_DRIVER} driver, with which the levels were calibrated`;

export class Driver {
  readonly searcher: Searcher;
  /** The Monte Carlo tree search and its tree, made at its first search. */
  private mcts: Mcts | null = null;
  private readonly moves = new Int32Array(MAX_MOVES);

  constructor(hashMb = DEFAULT_HASH_MB) {
    this.searcher = new Searcher(hashMb);
  }

  /** Megabytes of Hash: the size of the table (which keeps it), and of the Monte Carlo tree search's tree. */
  get hashMb(): number {
    return this.searcher.tt.megabytes;
  }

  /** The Monte Carlo tree (null before the first mcts search): for tests and benchmarks. */
  get mctsTree(): MctsTree | null {
    return this.mcts === null ? null : this.mcts.tree;
  }

  setHashSize(mb: number): void {
    this.searcher.setHashSize(mb);
    this.mcts = null;
  }

  /** Forgets everything learned: the table, histories and corrections, and the tree (`ucinewgame`). */
  clear(): void {
    this.searcher.clear();
    this.mcts?.reset();
  }

  /** One `go`, with the driver options name (SearchRequest and Searcher.go say what is asked). */
  go(request: SearchRequest): SearchResult {
    const { options, report = NO_REPORT } = request;
    const strength = options.strength;
    if (strength !== undefined) {
      if (options.driver !== LEVELS_DRIVER) {
        report({ type: 'note', text: LEVELS_DRIVER_NOTE });
        request = { ...request, options: { ...options, driver: LEVELS_DRIVER } };
      }
      return limitedSearch(this.searcher, request, strength);
    }
    if (mctsSpec(options.driver) === null) return this.searcher.go(request);
    return this.goMcts(request);
  }

  /**
   * A search by one of the mcts drivers, on this thread alone: a short PVS
   * first, which fills the table and the histories that the priors read
   * (not with uniform priors), then the tree search.
   */
  private goMcts(request: SearchRequest): SearchResult {
    const { pos, params, options, control, report = NO_REPORT, role } = request;
    const startTime = performance.now();
    if (role?.kind === 'main' && role.helpers.count > 0) {
      report({ type: 'note', text: `Threads ${role.helpers.count + 1}: the mcts driver searches with one thread` });
    }
    const searcher = this.searcher;
    const rootCount = generateMoves(pos, this.moves, 0, false);
    // No legal move: alpha-beta says so (mate or stalemate) as for any driver.
    if (rootCount === 0) return searcher.go({ pos, params, options: { ...options, driver: 'pvs' }, control, report });
    const preSearch = mctsSpec(options.driver)!.priors !== 'uniform' && P.MCTS_PRESEARCH_NODES > 0;
    let fallback = 0;
    if (preSearch) {
      // On a clock it takes at most a share of the move's time (of the soft budget, or of movetime).
      const budget = computeTimeBudget(params, pos.side, options.moveOverhead);
      const ms = params.ponder ? 0 : budget.softMs > 0 ? budget.softMs : budget.hardMs;
      const pre: GoParams = {
        depth: P.MCTS_PRESEARCH_DEPTH,
        nodes: P.MCTS_PRESEARCH_NODES,
        movetime: ms > 0 ? Math.max(1, Math.floor(ms * P.MCTS_PRESEARCH_TIME_SHARE)) : undefined,
        infinite: false,
        ponder: false,
        searchmoves: params.searchmoves,
      };
      fallback = searcher.go({ pos, params: pre, options: { ...options, driver: 'pvs', multiPv: 1, moveOverhead: 0 }, control }).move;
    }
    searcher.prepareLeaves(pos, params, options, control, startTime, !preSearch);
    this.mcts ??= allocateHash(
      this.hashMb,
      'for the mcts tree',
      (mb) => new Mcts(mb),
      (text) => report({ type: 'note', text }),
    );
    // Without the short PVS's move, the first legal move stands in case not even the root can be scored.
    if (fallback === 0) {
      for (let i = 0; i < rootCount && fallback === 0; i++) if (searchmovesAllow(params, pos, this.moves[i])) fallback = this.moves[i];
      if (fallback === 0) fallback = this.moves[0];
    }
    const result = this.mcts.search(searcher, pos, params, options, control, report, fallback, startTime);
    waitWhileInfinite(control, params);
    return { move: result.move, ponder: searcher.ponderMoveAfter(result.pv, result.move), score: result.score };
  }
}
