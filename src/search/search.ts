// The search: iterative deepening over a fail-soft negamax alpha-beta with
// principal variation search, aspiration windows, a transposition table and
// quiescence search, plus the selectivity of modern engines (null move,
// futility and late-move pruning, late-move reductions, singular
// extensions, upcoming repetitions by cuckoo tables) and a static
// evaluation corrected by what searches of the pawn structure found
// (correction.ts). MTD(f) is offered as an alternative
// at the root (options.driver 'mtdf': each iteration converges by
// null-window searches instead of one aspiration window). The Monte Carlo
// drivers live beside it (driver.ts chooses, mcts/mcts.ts searches): they use a
// Searcher only through MctsHost, for its table, histories and quiescence
// search. The Searcher runs inside a worker thread and polls
// SearchControl for `stop` and `ponderhit`; it reports through SearchReport
// events, which the search worker turns into structured lines
// (src/engine/search-lines.ts) for each front end to show.
//
// Parallel search (Lazy SMP, see threads.ts): with Threads > 1 the searcher
// of the search worker is the main one (its ThreadRole names its helpers);
// each helper is a Searcher in a worker of its own over the same table.

import { popcount64 } from '../board/bitboard.js';
import { upcomingRepetition } from '../board/cuckoo.js';
import { givesCheck as moveGivesCheck } from '../board/gives-check.js';
import { generateMoves, isPseudoLegal } from '../board/movegen.js';
import type { Position } from '../board/position.js';
import { SEE_VALUE, seeGE } from '../board/see.js';
import { cannotMate } from '../board/rules.js';
import { EN_PASSANT, MAX_MOVES, MAX_PLY, PAWN, PROMO_KNIGHT, PROMO_QUEEN, moveKind, moveTo } from '../board/types.js';
import { evaluate } from '../eval/index.js';
import { TablebaseRoot, type TablebaseUse } from '../syzygy/root.js';
import { PROBE_FAILED, type Tablebases } from '../syzygy/tablebases.js';
import { CorrectionHistory } from './correction.js';
import { MoveHistory, NO_CONT, contKey, isNoisy, priorQuietMove } from './history.js';
import { type SearchControl, waitWhileInfinite } from './control.js';
import {
  type GoParams,
  MAX_DEPTH,
  NO_LEGAL_SEARCHMOVES,
  NO_REPORT,
  type SearchLine,
  type SearchOptions,
  type SearchReport,
  searchmovesAllow,
} from './limits.js';
import type { MctsHost } from './mcts/mcts.js';
import { MovePicker } from './movepick.js';
import * as P from './params.js';
import { onSearchParametersChanged } from './tuning.js';
import { type HelperThreads, type ThreadState, bestHelperResult, helperSkipsDepth } from './threads.js';
import { DECISIVE_BOUND, INFINITE, MATE, MATE_BOUND, TB_WIN, scoreFromTT, scoreToTT } from './score.js';
import type { SearchRequest } from './request.js';
import { TimeManager } from './timeman.js';
import { BOUND_EXACT, BOUND_LOWER, BOUND_NONE, BOUND_UPPER, DEFAULT_HASH_MB, TranspositionTable } from './tt.js';

const NO_EVAL = 32001;
/** Table depth of an entry that holds only a static evaluation: below quiescence's 0, replaced first. */
const EVAL_ONLY_DEPTH = -1;
/**
 * Limits and flags are checked every this many nodes (a power of two): a few
 * milliseconds even while the code is not yet optimized, so that a stop or a
 * tiny time budget is honoured at once.
 */
const POLL_INTERVAL = 256;
/** Aspiration failures and currmove lines are reported only after this long: short searches stay quiet. */
const REPORT_DETAIL_AFTER_MS = 1000;
/** singularExtension()'s answer when the node is cut off (multi-cut). */
const MULTI_CUT = -2;
/** Quiet and noisy moves remembered per ply for the history maluses (more are tried, but not penalised). */
const QUIETS_KEPT = 64;
const NOISIES_KEPT = 32;
/** Sides of the late-move reduction table (by depth and by move number; larger ones are clamped). */
const LMR_SIZE = 64;
/** A tablebase result is stored in the table as if searched this much deeper: it is exact whatever the depth. */
const TB_DEPTH_BONUS = 6;

export interface SearchResult {
  /** The best move, 0 when there is no legal move. */
  move: number;
  /** The expected reply (from the principal variation or the table), 0 if none is known. */
  ponder: number;
  /** The best move's score, side to move's view. */
  score: number;
}

// Late-move reduction table: reduce more for later moves at higher depth.
const LMR = new Int8Array(LMR_SIZE * LMR_SIZE);
function fillLmrTable(): void {
  for (let d = 1; d < LMR_SIZE; d++) {
    for (let m = 1; m < LMR_SIZE; m++) LMR[d * LMR_SIZE + m] = Math.floor(P.LMR_BASE + (Math.log(d) * Math.log(m)) / P.LMR_DIVISOR);
  }
}
fillLmrTable();
onSearchParametersChanged(fillLmrTable);

export class Searcher implements MctsHost {
  readonly tt: TranspositionTable;
  readonly history = new MoveHistory();
  readonly correction = new CorrectionHistory();
  private readonly moves = new Int32Array(MAX_PLY * MAX_MOVES);
  private readonly scores = new Int32Array(MAX_PLY * MAX_MOVES);
  /** Move pickers: two per ply, the second for the singular-extension search of the same node. */
  private readonly pickers: MovePicker[] = [];
  /** Quiet moves tried at each ply (for history maluses). */
  private readonly quietsTried = new Int32Array(MAX_PLY * QUIETS_KEPT);
  /** Noisy moves tried at each ply (for capture-history maluses). */
  private readonly noisyTried = new Int32Array(MAX_PLY * NOISIES_KEPT);
  private readonly pvTable = new Int32Array(MAX_PLY * MAX_PLY);
  private readonly pvLength = new Int32Array(MAX_PLY);
  private readonly staticEval = new Int32Array(MAX_PLY);
  /** Continuation key (history.ts) of the move being searched at each ply; NO_CONT for a null move. */
  private readonly contAt = new Int32Array(MAX_PLY);
  /** The move a singular-extension search at each ply leaves out (0: none). */
  private readonly excludedAt = new Int32Array(MAX_PLY);
  /** Double extensions on the path from the root to each ply (bounded, so that the tree stays finite). */
  private readonly doubleExtensionsAt = new Int32Array(MAX_PLY + 1);
  /** Nodes searched under each root move this search (indexed by the move's code), for time management. */
  private readonly rootMoveNodes = new Float64Array(1 << 16);
  /** Root moves excluded from this search (earlier MultiPV lines, or not in searchmoves). */
  private readonly rootExcluded = new Int32Array(MAX_MOVES);
  private rootExcludedCount = 0;
  private readonly time = new TimeManager();
  /** Tablebases (SyzygyPath), and how they are used; null: none. */
  private tb: Tablebases | null = null;
  private tbUse: TablebaseUse | null = null;
  /** Probe below the root positions of at most this many pieces in this search (0: not at all). */
  private tbLimit = 0;
  /** Probes of this search that found a table. */
  private tbHits = 0;
  /** The root as the tablebases rank it, this search. */
  private readonly tbRoot = new TablebaseRoot();

  private pos!: Position;
  private control!: SearchControl;
  /** Nodes searched by this searcher in the current (or last) search. */
  nodes = 0;
  /** Set in a main searcher with helpers (Threads > 1). */
  private helpers: HelperThreads | null = null;
  /** Shared with the other searchers of a parallel search (main or helper), else null. */
  private shared: ThreadState | null = null;
  /** 0 for the main (or only) searcher, 1.. for helpers. */
  private threadIndex = 0;
  /**
   * `go depth N` with helpers (and one pv): the depth at which a helper's
   * completed iteration ends the search, since it answers the question asked;
   * 0 otherwise.
   */
  private helperTargetDepth = 0;
  /** The search ended because a helper completed helperTargetDepth. */
  private stoppedByHelper = false;
  /** `go nodes`: counts the nodes of all searchers; nodeLimit is this searcher's share of what is left. */
  private nodeLimitTotal = 0;
  private seldepth = 0;
  private stopped = false;
  private startTime = 0;
  private nodeLimit = 0;
  private pondering = false;
  private rootDepth = 0;
  private report: SearchReport = NO_REPORT;
  private showCurrMove = false;
  /** Best root move of the current iteration, kept when an iteration is aborted. */
  private iterationBest = 0;

  /** A searcher with a table of its own (hashMb), or over a given one (a helper's view of the shared table). */
  constructor(hashMbOrTable: number | TranspositionTable = DEFAULT_HASH_MB) {
    this.tt = typeof hashMbOrTable === 'number' ? new TranspositionTable(hashMbOrTable) : hashMbOrTable;
    for (let i = 0; i < MAX_PLY * 2; i++) this.pickers.push(new MovePicker(this.history, this.moves, this.scores, (i >> 1) * MAX_MOVES));
  }

  setHashSize(mb: number): void {
    this.tt.resize(mb);
  }

  /** Searches with these tablebases from the next search on (null: none). */
  setTablebases(tb: Tablebases | null, use: TablebaseUse): void {
    this.tb = tb !== null && tb.maxPieces > 0 ? tb : null;
    this.tbUse = use;
  }

  /** Forgets everything learned: table, move-ordering statistics and evaluation corrections. */
  clear(): void {
    this.tt.clear();
    this.clearLearned();
  }

  /** Forgets the move-ordering statistics and the evaluation corrections, keeping the table. */
  clearLearned(): void {
    this.history.clear();
    this.correction.clear();
  }

  // ---------------------------------------------------------------------------
  // Iterative deepening.

  /**
   * Searches pos under the limits of params until done or control.stopped,
   * reporting lines through `report` (the caller announces the move).
   * With params.infinite or an unanswered params.ponder, it does not return
   * before control.stopped (or ponderhit) even if the search ends early.
   * A helper's caller has set its table's age (SearchRequest.role).
   */
  go(request: SearchRequest): SearchResult {
    const { pos, params, options, control } = request;
    this.begin(request);
    const isHelper = this.threadIndex > 0;
    const maxDepth = Math.min(MAX_DEPTH, params.depth !== undefined && params.depth > 0 ? params.depth : MAX_DEPTH);
    const rootCount = generateMoves(pos, this.moves, 0, false);
    for (let i = 0; i < rootCount; i++) this.rootMoveNodes[this.moves[i]] = 0;
    let allowed = this.excludeRootMoves(params, rootCount);
    allowed = this.rankRootByTablebases(rootCount, allowed);
    const searchmovesExcluded = this.rootExcludedCount;
    if (rootCount === 0) {
      const score = pos.inCheck() ? -MATE : 0;
      this.line(0, 0, 1, score, [], 'exact');
      waitWhileInfinite(control, params);
      return { move: 0, ponder: 0, score };
    }
    this.helpers?.start(this.tt, params, options);

    const multiPv = Math.max(1, Math.min(options.multiPv, allowed));
    this.helperTargetDepth = this.helpers !== null && multiPv === 1 && params.depth !== undefined && params.depth > 0 ? maxDepth : 0;
    const scores = new Int32Array(multiPv);
    let lines: number[][] = [];
    // The fallback if even depth 1 is interrupted: first legal (allowed) move.
    let bestMove = 0;
    for (let i = 0; i < rootCount && bestMove === 0; i++) if (!this.isRootExcluded(this.moves[i])) bestMove = this.moves[i];
    let bestScore = -INFINITE;
    let completedDepth = 0;
    let lastSeldepth = 0;
    let lastPv: number[] = [bestMove];
    // Whether the last line reported already is the final word on this search.
    let reportedLast = false;
    for (let depth = 1; depth <= maxDepth; depth++) {
      if (isHelper) {
        if (this.control.stopped) break;
        if (depth < maxDepth && helperSkipsDepth(this.threadIndex, depth)) continue;
      }
      reportedLast = false;
      this.rootDepth = depth;
      this.rootExcludedCount = searchmovesExcluded;
      const iteration = this.iterate(depth, multiPv, scores, options);
      if (iteration === null) {
        // An interrupted iteration may still have found a better first line.
        if (this.iterationBest !== 0) {
          bestMove = this.iterationBest;
          lastPv = this.pvTable[0] === bestMove ? this.extractPv() : [bestMove];
        }
        break;
      }
      lines = iteration;
      if (lines[0].length === 0) {
        // MTD(f) whose every pass ended at the root on the hash table: the table's move, else the best so far.
        this.rootExcludedCount = searchmovesExcluded;
        const ttMove = this.tt.probe(pos.keyLo, pos.keyHi) ? this.tt.move : 0;
        const usable = ttMove !== 0 && this.moves.subarray(0, rootCount).includes(ttMove) && !this.isRootExcluded(ttMove);
        lines[0] = [usable ? ttMove : bestMove];
      }
      completedDepth = depth;
      const changed = lines[0][0] !== bestMove;
      bestMove = lines[0][0];
      bestScore = scores[0];
      lastPv = lines[0];
      if (isHelper) this.shared!.publishResult(this.threadIndex, depth, bestScore, lastPv);
      else for (let i = 0; i < multiPv; i++) this.line(depth, Math.max(depth, this.seldepth), i + 1, scores[i], lines[i], 'exact');
      reportedLast = true;
      lastSeldepth = this.seldepth;

      if (params.mate !== undefined && params.mate > 0 && bestScore >= MATE_BOUND && MATE - bestScore <= params.mate * 2) break;
      if (this.nodeLimitTotal > 0 && this.totalNodes() >= this.nodeLimitTotal) break;
      if (params.softNodes !== undefined && this.totalNodes() >= params.softNodes) break;
      const mateIn = Math.abs(bestScore) >= MATE_BOUND ? MATE - Math.abs(bestScore) : 0;
      if (
        this.time.stopAfterIteration(
          depth,
          bestScore,
          changed,
          allowed === 1,
          mateIn,
          performance.now() - this.startTime,
          this.pondering,
          this.rootMoveNodes[bestMove] / Math.max(1, this.nodes),
        )
      )
        break;
      this.checkPonderhit();
    }

    if (isHelper) {
      this.shared!.publishNodes(this.threadIndex, this.nodes);
      return { move: bestMove, ponder: 0, score: bestScore };
    }
    waitWhileInfinite(control, params);

    // The final line (unless the last iteration's is it): the best line of the
    // deepest completed search, with the final counts.
    const lastIterationBest = lines.length > 0 && lines[0][0] === bestMove;
    let line = lastIterationBest ? lines[0] : lastPv;
    let score = lastIterationBest ? scores[0] : bestScore;
    if (this.helpers !== null) {
      this.helpers.finish();
      // A helper that completed a deeper iteration with a better score has the
      // better move; so has one that completed the depth asked for first.
      this.rootExcludedCount = searchmovesExcluded;
      const playable = (move: number): boolean => this.moves.subarray(0, rootCount).includes(move) && !this.isRootExcluded(move);
      const helper =
        multiPv === 1 ? bestHelperResult(this.helpers, completedDepth, this.stoppedByHelper ? -INFINITE : bestScore, playable) : null;
      if (helper !== null) {
        bestMove = helper.pv[0];
        line = lastPv = helper.pv;
        score = helper.score;
        completedDepth = helper.depth;
        lastSeldepth = Math.max(lastSeldepth, helper.depth);
        reportedLast = false;
      }
    }
    if (!reportedLast) this.line(Math.max(1, completedDepth), Math.max(1, lastSeldepth), 1, score, line, 'exact');
    return { move: bestMove, ponder: this.ponderMoveAfter(lastPv, bestMove), score };
  }

  /**
   * Readies the searcher for the quiescence searches at a Monte Carlo tree's
   * leaves (leafQuiescence): no node limit (`go nodes` counts playouts), the
   * hard time limit and the stop flag; fresh: a new search of the table and
   * aged histories (when no alpha-beta search ran before). startTime: when
   * the `go` arrived.
   */
  prepareLeaves(pos: Position, params: GoParams, options: SearchOptions, control: SearchControl, startTime: number, fresh: boolean): void {
    this.begin({ pos, params, options, control }, startTime, fresh);
    this.nodeLimitTotal = 0;
    this.nodeLimit = 0;
    // Past depth 1, checkLimits applies the hard time limit.
    this.rootDepth = 2;
  }

  /** An MCTS leaf's value (mcts/mcts.ts): the quiescence score of the position, side to move's view. */
  leafQuiescence(): number {
    return this.qsearch(-INFINITE, INFINITE, 0);
  }

  /** Whether the stop flag or the time limit has cut the search (a leaf's quiescence search) short. */
  get interrupted(): boolean {
    return this.stopped;
  }

  /** Sets up the search's state, limits and role for one `go`; fresh: a new search of the table, and aged histories. */
  private begin(request: SearchRequest, startTime = performance.now(), fresh = true): void {
    const { pos, params, options, control, report = NO_REPORT, role } = request;
    this.helpers = role?.kind === 'main' && role.helpers.count > 0 ? role.helpers : null;
    this.shared = role === undefined ? null : role.kind === 'main' ? (this.helpers === null ? null : role.helpers.state) : role.state;
    this.threadIndex = role?.kind === 'helper' ? role.index : 0;
    this.pos = pos;
    this.control = control;
    this.report = report;
    this.nodes = 0;
    this.seldepth = 0;
    this.stopped = false;
    this.startTime = startTime;
    this.pondering = params.ponder;
    this.nodeLimitTotal = params.nodes !== undefined && params.nodes > 0 ? params.nodes : 0;
    this.nodeLimit = this.nodeLimitTotal;
    this.showCurrMove = false;
    this.stoppedByHelper = false;
    this.tbHits = 0;
    this.tbRoot.reset();
    this.tbLimit = this.tb === null ? 0 : Math.min(this.tb.maxPieces, this.tbUse!.probeLimit);
    if (fresh) {
      if (this.threadIndex === 0) this.tt.newSearch();
      this.history.age();
    }
    this.time.start(params, pos.side, options.moveOverhead);
  }

  /**
   * With the root in the tablebases: ranks the root moves by them
   * (syzygy/root.ts: by DTZ where the files are there, else by WDL) and
   * leaves out all but the best-ranked, so that a won position is
   * converted within the fifty-move rule and a drawn one is not lost.
   * With DTZ the search below the root then probes no more (the root's
   * moves already keep the result). When some moves lead where the tables
   * cannot answer, only the moves proven worse are left out, and the lines
   * show searched scores. Returns how many moves remain.
   */
  private rankRootByTablebases(rootCount: number, allowed: number): number {
    const tb = this.tb;
    const pos = this.pos;
    if (tb === null || pos.castling !== 0 || rootCount === 0) return allowed;
    if (popcount64(pos.occLo(), pos.occHi()) > this.tbLimit) return allowed;
    const root = this.tbRoot;
    const kind = root.rank(tb, pos, this.moves, rootCount, (move) => this.isRootExcluded(move), this.tbUse!.rule50);
    if (kind === 'none') return allowed;
    this.tbHits += rootCount;
    this.rootExcludedCount = root.leftOut(this.rootExcluded, this.rootExcludedCount);
    if (root.settled) this.tbLimit = 0;
    return root.kept;
  }

  /** Excludes the root moves (this.moves[0..rootCount)) that searchmoves leaves out; returns how many remain. */
  private excludeRootMoves(params: GoParams, rootCount: number): number {
    this.rootExcludedCount = 0;
    if (params.searchmoves.length === 0) return rootCount;
    let allowed = 0;
    for (let i = 0; i < rootCount; i++) {
      if (searchmovesAllow(params, this.pos, this.moves[i])) allowed++;
      else this.rootExcluded[this.rootExcludedCount++] = this.moves[i];
    }
    if (allowed > 0) return allowed;
    this.report({ type: 'note', text: NO_LEGAL_SEARCHMOVES });
    this.rootExcludedCount = 0;
    return rootCount;
  }

  /**
   * One iteration: the best line, then (MultiPV) the best among the moves
   * not yet shown, each with its aspiration window around its last score.
   * Returns the lines sorted by score, with scores[] in the same order, or
   * null when the search was stopped.
   */
  private iterate(depth: number, multiPv: number, scores: Int32Array, options: SearchOptions): number[][] | null {
    const lines: number[][] = [];
    for (let pvIndex = 0; pvIndex < multiPv; pvIndex++) {
      this.seldepth = 0;
      this.iterationBest = 0;
      const prev = depth > 1 ? scores[pvIndex] : 0;
      const score = options.driver === 'mtdf' && multiPv === 1 ? this.mtdf(depth, prev) : this.aspiration(depth, prev, pvIndex);
      if (this.stopped) {
        // Only the first line's best move may stand in for the interrupted iteration.
        if (pvIndex > 0) this.iterationBest = 0;
        return null;
      }
      scores[pvIndex] = score;
      lines.push(this.extractPv());
      this.rootExcluded[this.rootExcludedCount++] = this.pvTable[0];
    }
    // Sort the lines by score (a later line can beat an earlier one after re-search).
    const order = lines.map((_, i) => i).sort((a, b) => scores[b] - scores[a]);
    const sortedScores = order.map((i) => scores[i]);
    for (let i = 0; i < multiPv; i++) scores[i] = sortedScores[i];
    return order.map((i) => lines[i]);
  }

  /** Nodes of this search: this searcher's, plus its helpers' as last published. */
  totalNodes(): number {
    return this.helpers === null ? this.nodes : this.nodes + this.helpers.state.helperNodes();
  }

  /** The second move of the PV, or the TT move after the best move; 0 if neither is a legal reply (of the position last searched). */
  ponderMoveAfter(pv: readonly number[], best: number): number {
    const pos = this.pos;
    if (best === 0) return 0;
    pos.makeMove(best);
    let reply = pv.length > 1 && pv[0] === best ? pv[1] : 0;
    if (reply === 0 && this.tt.probe(pos.keyLo, pos.keyHi)) reply = this.tt.move;
    if (reply !== 0 && !this.moves.subarray(MAX_MOVES, generateMoves(pos, this.moves, MAX_MOVES, false)).includes(reply)) reply = 0;
    pos.unmakeMove();
    return reply;
  }

  private isRootExcluded(move: number): boolean {
    for (let i = 0; i < this.rootExcludedCount; i++) if (this.rootExcluded[i] === move) return true;
    return false;
  }

  /** One iteration with an aspiration window around the previous score, widened on failure. */
  private aspiration(depth: number, previous: number, pvIndex: number): number {
    let delta = P.ASPIRATION_DELTA;
    let alpha = -INFINITE;
    let beta = INFINITE;
    if (depth >= P.ASPIRATION_MIN_DEPTH && Math.abs(previous) < DECISIVE_BOUND) {
      alpha = Math.max(-INFINITE, previous - delta);
      beta = Math.min(INFINITE, previous + delta);
    }
    // After a fail high the next try searches a little shallower: the move
    // that failed high is usually good enough, and the full depth comes back
    // with the next iteration (or the next fail low).
    let failHighs = 0;
    for (;;) {
      const score = this.search(alpha, beta, Math.max(1, depth - failHighs), 0, false);
      if (this.stopped) return score;
      if (score <= alpha) {
        beta = (alpha + beta) >> 1;
        alpha = Math.max(-INFINITE, score - delta);
        failHighs = 0;
        this.reportBound(depth, pvIndex, score, 'upper');
      } else if (score >= beta) {
        beta = Math.min(INFINITE, score + delta);
        if (failHighs < P.ASPIRATION_FAIL_HIGH_PLIES_MAX) failHighs++;
        this.reportBound(depth, pvIndex, score, 'lower');
      } else {
        return score;
      }
      delta = (delta * P.ASPIRATION_GROWTH) | 0;
    }
  }

  /**
   * MTD(f): converge on the score with null-window searches from a first
   * guess. A pass that fails low, or ends at the root on a hash-table cutoff,
   * leaves no line (pvLength[0] 0): the last pass that found one gives it
   * (the root's row of the PV table still holds it).
   */
  private mtdf(depth: number, guess: number): number {
    let g = guess;
    let lower = -INFINITE;
    let upper = INFINITE;
    let lineLength = 0;
    while (lower < upper) {
      const beta = g === lower ? g + 1 : g;
      g = this.search(beta - 1, beta, depth, 0, false);
      if (this.stopped) return g;
      if (this.pvLength[0] > 0) lineLength = this.pvLength[0];
      if (g < beta) upper = g;
      else lower = g;
    }
    this.pvLength[0] = lineLength;
    return g;
  }

  // ---------------------------------------------------------------------------
  // Reports.

  /** A line of a finished search or iteration, or (bound) an aspiration window's failure. */
  private line(depth: number, seldepth: number, multipv: number, score: number, pv: readonly number[], bound: SearchLine['bound']): void {
    const timeMs = Math.max(1, Math.round(performance.now() - this.startTime));
    const hashfull = bound === 'exact' ? this.tt.hashfull() : null;
    // With the root in the tables, a line shows the tables' verdict on its move unless the search found a mate.
    if (this.tbRoot.ranked && pv.length > 0 && Math.abs(score) < MATE_BOUND) score = this.tbRoot.score(pv[0], TB_WIN - 1);
    const tbhits = this.tb === null ? null : this.tbHits;
    this.report({ type: 'line', depth, seldepth, multipv, score, bound, nodes: this.totalNodes(), timeMs, hashfull, tbhits, pv });
  }

  /** Aspiration failures are reported only in long searches, as GUIs expect. */
  private reportBound(depth: number, pvIndex: number, score: number, bound: 'lower' | 'upper'): void {
    if (this.threadIndex > 0 || performance.now() - this.startTime < REPORT_DETAIL_AFTER_MS) return;
    this.line(depth, this.seldepth, pvIndex + 1, score, this.extractPv(), bound);
  }

  private extractPv(): number[] {
    return Array.from(this.pvTable.subarray(0, this.pvLength[0]));
  }

  // ---------------------------------------------------------------------------
  // Limits.

  private checkPonderhit(): void {
    if (this.pondering && this.control.ponderhitReceived) {
      // From now on the normal time control applies, counted from the ponderhit.
      this.pondering = false;
      this.startTime = performance.now();
    }
  }

  /** Polled every POLL_INTERVAL nodes: stop flag, hard time limit; with Threads > 1 the node counts. */
  private checkLimits(): void {
    if (this.control.stopped) {
      this.stopped = true;
      return;
    }
    if (this.shared !== null) {
      if (this.threadIndex > 0) {
        this.shared.publishNodes(this.threadIndex, this.nodes);
        return; // helpers have no limits of their own
      }
      if (this.nodeLimitTotal > 0) this.nodeLimit = Math.max(1, this.nodeLimitTotal - this.shared.helperNodes());
      if (this.helperTargetDepth > 0 && !this.pondering && this.shared.deepestHelperDepth() >= this.helperTargetDepth) {
        this.stoppedByHelper = true;
        this.stopped = true;
        return;
      }
    }
    this.checkPonderhit();
    const hardMs = this.time.hardMs;
    if (this.rootDepth > 1 && hardMs > 0 && !this.pondering && performance.now() - this.startTime >= hardMs) this.stopped = true;
    if (!this.showCurrMove && performance.now() - this.startTime > REPORT_DETAIL_AFTER_MS) this.showCurrMove = true;
  }

  /** Counts a node; false when the search must stop (flag, time or node limit). */
  private countNode(ply: number): boolean {
    this.nodes++;
    if ((this.nodes & (POLL_INTERVAL - 1)) === 0) this.checkLimits();
    if (this.nodeLimit > 0 && this.nodes >= this.nodeLimit) this.stopped = true;
    if (this.stopped) return false;
    if (ply > this.seldepth) this.seldepth = ply;
    return true;
  }

  // ---------------------------------------------------------------------------
  // Alpha-beta.

  /** Draw by the 50-move rule, repetition, or material that cannot mate. */
  private isDraw(): boolean {
    const pos = this.pos;
    return pos.halfmove >= 100 || pos.isRepetition() || cannotMate(pos);
  }

  // Negamax negates scores as `0 - x`, not `-x`: -0 would be a double, and V8
  // would deoptimize the search and recompile its score arithmetic for doubles.
  private search(alpha: number, beta: number, depth: number, ply: number, cutNode: boolean): number {
    const pos = this.pos;
    const isPv = beta - alpha > 1;
    const isRoot = ply === 0;
    this.pvLength[ply] = ply;

    if (depth <= 0) return this.qsearch(alpha, beta, ply);
    if (this.stopped) return 0; // a caller may still try a move after the stop: not counted as a node
    if (!this.countNode(ply)) return 0;

    const inCheck = pos.inCheck();
    if (!isRoot) {
      // A checkmate on the hundredth half-move still counts as mate.
      if (this.isDraw() && !(pos.halfmove >= 100 && inCheck && generateMoves(pos, this.moves, ply * MAX_MOVES, false) === ply * MAX_MOVES))
        return 0;
      if (ply >= MAX_PLY - 2) return inCheck ? 0 : evaluate(pos);
      // A move back to an earlier position is a draw (0) that the side to move can choose.
      if (alpha < 0 && upcomingRepetition(pos)) {
        alpha = 0;
        if (alpha >= beta) return alpha;
      }
      // Mate-distance pruning: no line from here can beat a mate already found closer to the root.
      alpha = Math.max(alpha, -MATE + ply);
      beta = Math.min(beta, MATE - ply - 1);
      if (alpha >= beta) return alpha;
    }

    // Transposition table. A singular-extension search of this position
    // (excluded !== 0) asks another question than the entry answers: it
    // neither cuts off on the entry nor stores its own result.
    const excluded = this.excludedAt[ply];
    const tt = this.tt;
    let ttMove = 0;
    let ttEval = NO_EVAL;
    let ttScore = 0;
    let ttDepth = 0;
    let ttBound = BOUND_NONE;
    if (tt.probe(pos.keyLo, pos.keyHi)) {
      ttEval = tt.eval;
      ttScore = scoreFromTT(tt.score, ply);
      ttDepth = tt.depth;
      ttBound = tt.bound;
      ttMove = tt.move;
      // (Not at a root some of whose moves are left out: the entry may be about one of them.)
      const rootRestricted = isRoot && this.rootExcludedCount > 0;
      if (!isPv && excluded === 0 && !rootRestricted && ttDepth >= depth && cutsOff(ttBound, ttScore, alpha, beta)) return ttScore;
    }

    // Tablebases: a position of few pieces just after a capture or pawn move
    // (the tables count the fifty-move rule from there), without castling
    // rights. A result the window cannot change ends the node; at a PV node
    // one it can still bounds the searched score (a win never scores below
    // the table's win, a loss never above its loss), so that the search
    // cannot trade the table's verdict for an evaluation's.
    let tbFloor = -INFINITE;
    let tbCeiling = INFINITE;
    if (this.tbLimit > 0 && !isRoot && excluded === 0 && pos.halfmove === 0 && pos.castling === 0) {
      const pieces = popcount64(pos.occLo(), pos.occHi());
      if (pieces <= this.tbLimit && (pieces < this.tbLimit || depth >= this.tbUse!.probeDepth)) {
        const wdl = this.tb!.probeWdl(pos);
        if (wdl !== PROBE_FAILED) {
          this.tbHits++;
          const draw = this.tbUse!.rule50 ? 1 : 0;
          const score = wdl < -draw ? ply - TB_WIN : wdl > draw ? TB_WIN - ply : 2 * wdl * draw;
          const bound = wdl < -draw ? BOUND_UPPER : wdl > draw ? BOUND_LOWER : BOUND_EXACT;
          if (bound === BOUND_EXACT || (bound === BOUND_LOWER ? score >= beta : score <= alpha)) {
            // No static eval: a later visit must not take 0 for one.
            tt.store(pos.keyLo, pos.keyHi, 0, depth + TB_DEPTH_BONUS, bound, scoreToTT(score, ply), NO_EVAL);
            return score;
          }
          if (isPv) {
            if (bound === BOUND_LOWER) tbFloor = score;
            else tbCeiling = score;
          }
        }
      }
    }

    // Static evaluation (as the evaluation says it, and corrected by what
    // searches of this pawn structure found), and whether it improved over
    // our previous move.
    let rawEval = NO_EVAL;
    let staticEval = NO_EVAL;
    if (!inCheck) {
      if (ttEval !== NO_EVAL) {
        rawEval = ttEval;
      } else {
        // Kept at once: many nodes return before their own store (pruned by
        // reverse futility or the null move), and come back next iteration.
        rawEval = evaluate(pos);
        if (excluded === 0) tt.store(pos.keyLo, pos.keyHi, 0, EVAL_ONLY_DEPTH, BOUND_NONE, 0, rawEval);
      }
      staticEval = this.correction.correct(pos, rawEval);
    }
    this.staticEval[ply] = staticEval;
    // The opponent's quiet move that led here learns from how the static eval swung across it.
    if (ply >= 1 && staticEval !== NO_EVAL && this.staticEval[ply - 1] !== NO_EVAL && excluded === 0) {
      const prior = priorQuietMove(pos);
      if (prior !== 0) this.history.updatePriorEvalGain(pos, prior, staticEval, this.staticEval[ply - 1]);
    }
    // Improving: better than at our previous move, or, if we were in check then, at the one before.
    const before =
      ply >= 2 && this.staticEval[ply - 2] !== NO_EVAL ? this.staticEval[ply - 2] : ply >= 4 ? this.staticEval[ply - 4] : NO_EVAL;
    const improving = !inCheck && before !== NO_EVAL && staticEval > before;
    // The pruning below judges the node by an estimate of its score (scoreEstimate).
    const estimate = inCheck ? staticEval : scoreEstimate(ttBound, ttScore, staticEval);

    // Internal iterative reduction: without a hash move this node is probably not important.
    if (depth >= P.IIR_MIN_DEPTH && ttMove === 0 && !isRoot) depth--;

    // Never the root (searched off the principal variation by MTD(f)'s null
    // windows): razoring's quiescence search there would try the moves that
    // searchmoves leaves out and write its line over the root's.
    if (!isPv && !inCheck && excluded === 0 && !isRoot) {
      const score = this.pruneNode(alpha, beta, depth, ply, cutNode, estimate, improving);
      if (score !== NO_EVAL) return score;
    }

    const cont1 = ply >= 1 ? this.contAt[ply - 1] : NO_CONT;
    const cont2 = ply >= 2 ? this.contAt[ply - 2] : NO_CONT;
    // A move that cannot be played here is another position's (a key collision).
    const ttMoveUsable = ttMove !== 0 && isPseudoLegal(pos, ttMove);
    if (!ttMoveUsable) ttMove = 0;
    const picker = this.pickers[ply * 2 + (excluded !== 0 ? 1 : 0)];
    picker.init(pos, ttMove, !isRoot && ttMoveUsable && ttMove !== excluded, ply, cont1, cont2, false);
    // A capture or promotion as hash move: the quiet moves after it are less likely to matter.
    let ttMoveNoisy = ttMoveUsable && isNoisy(pos, ttMove);

    const alphaOrig = alpha;
    let bestScore = -INFINITE;
    let bestMove = 0;
    let moveCount = 0;
    let quietCount = 0;
    let noisyCount = 0;
    const quietBase = ply * QUIETS_KEPT;
    const lmpLimit = improving ? P.LMP_BASE + depth * depth : ((P.LMP_BASE + depth * depth) / P.LMP_NOT_IMPROVING_DIVISOR) | 0;
    // Move-count and SEE pruning are off in pawn endings, where single moves decide.
    const mayPruneMoves = !isRoot && pos.hasNonPawnMaterial(pos.side);

    for (let move = picker.nextMove(); move !== 0; move = picker.nextMove()) {
      const fromTT = picker.fromTT;
      if ((isRoot && this.rootExcludedCount > 0 && this.isRootExcluded(move)) || move === excluded) continue;
      const noisy = isNoisy(pos, move);

      if (mayPruneMoves && bestScore > -DECISIVE_BOUND && depth <= P.MOVE_PRUNING_MAX_DEPTH) {
        if (!noisy) {
          // Late-move pruning: after enough quiet moves, the rest rarely matter.
          if (quietCount >= lmpLimit) {
            picker.skipQuiets();
            continue;
          }
          // Futility: a quiet move cannot lift a hopeless static eval above
          // alpha, unless it gives check. Alpha only rises, so every later
          // quiet move is futile too.
          // A move with a strong history is spared: it may be the exception.
          if (
            !inCheck &&
            estimate + P.FUTILITY_BASE + P.FUTILITY_MARGIN * depth <= alpha &&
            this.history.historyOf(pos.side, move, contKey(pos, move), cont1, cont2) < P.FUTILITY_HISTORY_LIMIT
          ) {
            picker.stopSorting();
            if (!moveGivesCheck(pos, move)) continue;
          }
          if (!seeGE(pos, move, -P.SEE_QUIET_MARGIN * depth)) continue;
        } else if (picker.exchange <= 0 && !seeGE(pos, move, -P.SEE_NOISY_MARGIN * depth * depth)) {
          continue;
        }
      }

      if (isRoot && this.showCurrMove) this.report({ type: 'currmove', depth, move, number: moveCount + 1 });

      let extension = 0;
      if (
        fromTT &&
        depth >= P.SINGULAR_MIN_DEPTH &&
        excluded === 0 &&
        ttDepth >= depth - P.SINGULAR_TT_DEPTH_MARGIN &&
        ply < P.SINGULAR_MAX_PLY_FACTOR * this.rootDepth
      ) {
        extension = this.singularExtension(move, beta, depth, ply, cutNode, isPv, ttScore, ttBound);
        if (this.stopped) return 0;
        if (extension === MULTI_CUT) return ttScore - ((P.SINGULAR_MARGIN * depth) | 0);
      }

      this.contAt[ply] = contKey(pos, move);
      this.doubleExtensionsAt[ply + 1] = this.doubleExtensionsAt[ply] + (extension === 2 ? 1 : 0);
      const nodesBefore = this.nodes;
      pos.makeMove(move);
      this.tt.touch(pos.keyLo);
      if (fromTT && pos.isAttacked(pos.kingSq[pos.side ^ 1], pos.side)) {
        // The hash move leaves our king in check (a key collision): forget it.
        pos.unmakeMove();
        picker.forgetHashMove();
        ttMoveNoisy = false;
        continue;
      }
      const givesCheck = pos.inCheck();
      moveCount++;
      if (!noisy && quietCount < QUIETS_KEPT) this.quietsTried[quietBase + quietCount++] = move;
      else if (noisy && noisyCount < NOISIES_KEPT) this.noisyTried[ply * NOISIES_KEPT + noisyCount++] = move;
      // No extension for giving check (the reductions still spare checks).
      const newDepth = depth - 1 + extension;

      let score: number;
      if (moveCount === 1) {
        // Expected node types alternate: the first child of an expected cut node is expected to fail low, and back.
        score = 0 - this.search(0 - beta, 0 - alpha, newDepth, ply + 1, !isPv && !cutNode);
      } else {
        // Late-move reductions: later moves in a well-ordered list are searched shallower first.
        let r = 0;
        if (depth >= P.LMR_MIN_DEPTH && moveCount > 1 + (isPv ? 1 : 0) && !noisy) {
          r = this.reduction(move, depth, moveCount, ply, isPv, cutNode, improving, ttMoveNoisy, givesCheck, cont1, cont2);
          r = Math.max(0, Math.min(r, newDepth - 1));
        }
        score = 0 - this.search(-1 - alpha, 0 - alpha, newDepth - r, ply + 1, true);
        if (score > alpha && r > 0) score = 0 - this.search(-1 - alpha, 0 - alpha, newDepth, ply + 1, !cutNode);
        if (score > alpha && score < beta) score = 0 - this.search(0 - beta, 0 - alpha, newDepth, ply + 1, false);
      }
      pos.unmakeMove();
      if (isRoot) this.rootMoveNodes[move] += this.nodes - nodesBefore;
      if (this.stopped) return 0;

      if (score > bestScore) {
        bestScore = score;
        if (score > alpha) {
          bestMove = move;
          if (isRoot) this.iterationBest = move;
          this.updatePv(ply, move);
          if (score >= beta) {
            // A cutoff the static eval did not expect teaches more; the first quiet move near the leaves
            // teaches no quiet history (killer and counter-move only).
            const historyDepth = depth + (staticEval !== NO_EVAL && staticEval <= alpha ? P.HISTORY_LOW_EVAL_PLIES : 0);
            if (!noisy) {
              this.history.rememberRefutation(pos, move, ply);
              if (quietCount > 1 || depth > P.HISTORY_SKIP_MAX_DEPTH)
                this.history.updateQuietCutoff(pos, move, historyDepth, this.quietsTried, quietBase, quietCount, cont1, cont2);
            }
            this.history.updateCaptureCutoff(pos, noisy ? move : 0, historyDepth, this.noisyTried, ply * NOISIES_KEPT, noisyCount);
            break;
          }
          alpha = score;
        }
      }
    }

    if (picker.generated === 0) return inCheck ? -MATE + ply : 0;
    // Every move was excluded (MultiPV / searchmoves) or pruned.
    if (moveCount === 0) return isRoot ? -INFINITE : alpha;
    // Every move failed low: the opponent's quiet move that led here was a good one.
    if (bestMove === 0 && !isRoot && excluded === 0 && depth >= P.FAIL_LOW_HISTORY_MIN_DEPTH) {
      const prior = priorQuietMove(pos);
      if (prior !== 0) {
        const before1 = ply >= 2 ? this.contAt[ply - 2] : NO_CONT;
        const before2 = ply >= 3 ? this.contAt[ply - 3] : NO_CONT;
        this.history.updatePriorFailLow(pos, prior, depth, cont1, before1, before2);
      }
    }
    if (bestScore < tbFloor) bestScore = tbFloor;
    else if (bestScore > tbCeiling) bestScore = tbCeiling;
    if (!(isRoot && this.rootExcludedCount > 0) && excluded === 0)
      this.storeResult(depth, ply, bestScore, bestMove, alphaOrig, beta, inCheck, rawEval, staticEval);
    return bestScore;
  }

  /**
   * Pruning of a whole node before its moves (not in check, off the principal
   * variation): reverse futility, razoring, null move. The score to return
   * when the node is pruned, else NO_EVAL.
   */
  private pruneNode(
    alpha: number,
    beta: number,
    depth: number,
    ply: number,
    cutNode: boolean,
    estimate: number,
    improving: boolean,
  ): number {
    const pos = this.pos;
    // Reverse futility: far above beta even with a margin per remaining ply.
    if (
      depth <= P.RFP_MAX_DEPTH &&
      estimate - P.RFP_MARGIN * (depth - (improving ? P.RFP_IMPROVING_PLIES : 0)) >= beta &&
      Math.abs(beta) < DECISIVE_BOUND
    ) {
      return estimate;
    }
    // Razoring: this far below alpha so near the leaves, only a capture could
    // save the node; when quiescence finds none, it fails low at once.
    if (depth <= P.RAZOR_MAX_DEPTH && estimate + P.RAZOR_MARGIN * depth <= alpha && Math.abs(alpha) < DECISIVE_BOUND) {
      const score = this.qsearch(alpha, alpha + 1, ply);
      if (this.stopped) return 0;
      if (score <= alpha) return score;
    }
    // Null move: if passing still fails high, a real move would too (not in
    // pawn endings, where zugzwang makes passing better than any move). The
    // estimate keeps it off where the table says this node stayed below beta.
    if (depth >= P.NMP_MIN_DEPTH && estimate >= beta && pos.stackMove[pos.ply - 1] !== 0 && pos.hasNonPawnMaterial(pos.side)) {
      const r =
        P.NMP_BASE_REDUCTION + ((depth / P.NMP_DEPTH_DIVISOR) | 0) + Math.min(P.NMP_EVAL_MAX, ((estimate - beta) / P.NMP_EVAL_DIVISOR) | 0);
      this.contAt[ply] = NO_CONT;
      this.doubleExtensionsAt[ply + 1] = this.doubleExtensionsAt[ply];
      pos.makeNullMove();
      this.tt.touch(pos.keyLo);
      const score = 0 - this.search(0 - beta, 1 - beta, depth - r, ply + 1, !cutNode);
      pos.unmakeNullMove();
      if (this.stopped) return 0;
      if (score >= beta) return score >= DECISIVE_BOUND ? beta : score;
    }
    return NO_EVAL;
  }

  /**
   * Singular extension of the hash move: when it is the only move that
   * reaches the table's score (every other move, searched shallower, fails
   * low against a bar below it), it is searched one ply deeper, two when the
   * others fall far short. When even without it the search fails high above
   * beta, several moves refute this node: MULTI_CUT, the node is cut off.
   * When the table's score was already above beta but others are not far
   * behind, the hash move is searched one ply shallower (-1).
   */
  private singularExtension(
    move: number,
    beta: number,
    depth: number,
    ply: number,
    cutNode: boolean,
    isPv: boolean,
    ttScore: number,
    ttBound: number,
  ): number {
    if ((ttBound !== BOUND_LOWER && ttBound !== BOUND_EXACT) || Math.abs(ttScore) >= DECISIVE_BOUND) return 0;
    const singularBeta = ttScore - ((P.SINGULAR_MARGIN * depth) | 0);
    this.excludedAt[ply] = move;
    const score = this.search(singularBeta - 1, singularBeta, ((depth - 1) / P.SINGULAR_DEPTH_DIVISOR) | 0, ply, cutNode);
    this.excludedAt[ply] = 0;
    if (this.stopped) return 0;
    if (score < singularBeta) {
      const double = !isPv && score < singularBeta - P.DOUBLE_EXTENSION_MARGIN && this.doubleExtensionsAt[ply] < P.DOUBLE_EXTENSION_MAX;
      return double ? 2 : 1;
    }
    if (singularBeta >= beta) return MULTI_CUT;
    return ttScore >= beta ? -1 : 0;
  }

  /** The late-move reduction of a quiet move (before clamping to the depth left). */
  private reduction(
    move: number,
    depth: number,
    moveCount: number,
    ply: number,
    isPv: boolean,
    cutNode: boolean,
    improving: boolean,
    ttMoveNoisy: boolean,
    givesCheck: boolean,
    cont1: number,
    cont2: number,
  ): number {
    let r = LMR[Math.min(depth, LMR_SIZE - 1) * LMR_SIZE + Math.min(moveCount, LMR_SIZE - 1)];
    if (isPv) r -= P.LMR_PV_PLIES;
    if (cutNode) r += P.LMR_CUT_NODE_PLIES;
    if (!improving) r += P.LMR_NOT_IMPROVING_PLIES;
    if (ttMoveNoisy) r += P.LMR_TT_NOISY_PLIES;
    if (givesCheck) r -= P.LMR_GIVES_CHECK_PLIES;
    // A quiet move that has often refuted positions like this one (history,
    // continuations included: up to ±3 * HISTORY_MAX) is reduced less, a poor one more.
    r -= (this.history.historyOf(this.pos.side ^ 1, move, this.contAt[ply], cont1, cont2) / P.LMR_HISTORY_DIVISOR) | 0;
    return r;
  }

  /**
   * Stores a searched node's result in the table, and teaches correction
   * history the evaluation's error where the result bounds it on the side
   * that shows one (a fail-high below the eval says nothing), and not from
   * captures, whose gain the evaluation is not meant to see.
   */
  private storeResult(
    depth: number,
    ply: number,
    bestScore: number,
    bestMove: number,
    alphaOrig: number,
    beta: number,
    inCheck: boolean,
    rawEval: number,
    staticEval: number,
  ): void {
    const pos = this.pos;
    const bound = bestScore >= beta ? BOUND_LOWER : bestScore > alphaOrig ? BOUND_EXACT : BOUND_UPPER;
    this.tt.store(pos.keyLo, pos.keyHi, bestMove, depth, bound, scoreToTT(bestScore, ply), rawEval);
    if (
      !inCheck &&
      (bestMove === 0 || !isNoisy(pos, bestMove)) &&
      Math.abs(bestScore) < DECISIVE_BOUND &&
      (bound === BOUND_EXACT || (bound === BOUND_LOWER ? bestScore > staticEval : bestScore < staticEval))
    ) {
      this.correction.update(pos, depth, bestScore, rawEval);
    }
  }

  /** The principal variation at ply becomes move followed by the child's. */
  private updatePv(ply: number, move: number): void {
    const child = (ply + 1) * MAX_PLY;
    const own = ply * MAX_PLY;
    this.pvTable[own + ply] = move;
    for (let j = ply + 1; j < this.pvLength[ply + 1]; j++) this.pvTable[own + j] = this.pvTable[child + j];
    this.pvLength[ply] = Math.max(ply + 1, this.pvLength[ply + 1]);
  }

  /** Quiescence: resolve captures (and check evasions) so that the static eval is taken in a quiet position. */
  private qsearch(alpha: number, beta: number, ply: number): number {
    const pos = this.pos;
    this.pvLength[ply] = ply;
    if (this.stopped || !this.countNode(ply)) return 0;
    if (pos.halfmove >= 100 || pos.isRepetition()) return 0;
    // As in search(); not at a Monte Carlo leaf (ply 0), whose value is the position's own.
    if (ply > 0 && alpha < 0 && upcomingRepetition(pos)) {
      alpha = 0;
      if (alpha >= beta) return alpha;
    }

    const inCheck = pos.inCheck();
    if (ply >= MAX_PLY - 2) return inCheck ? 0 : evaluate(pos);
    const isPv = beta - alpha > 1;

    const tt = this.tt;
    let ttMove = 0;
    let ttEval = NO_EVAL;
    let ttScore = 0;
    let ttBound = BOUND_NONE;
    if (tt.probe(pos.keyLo, pos.keyHi)) {
      ttEval = tt.eval;
      ttMove = tt.move;
      ttScore = scoreFromTT(tt.score, ply);
      ttBound = tt.bound;
      if (!isPv && cutsOff(ttBound, ttScore, alpha, beta)) return ttScore;
    }

    let bestScore = -INFINITE;
    let rawEval = NO_EVAL;
    let standPat = NO_EVAL;
    if (!inCheck) {
      // Stand pat: the side to move can usually do at least as well as doing nothing.
      rawEval = ttEval !== NO_EVAL ? ttEval : evaluate(pos);
      standPat = scoreEstimate(ttBound, ttScore, this.correction.correct(pos, rawEval));
      if (standPat >= beta) {
        if (ttEval === NO_EVAL) tt.store(pos.keyLo, pos.keyHi, 0, 0, BOUND_LOWER, scoreToTT(standPat, ply), rawEval);
        return standPat;
      }
      if (standPat > alpha) alpha = standPat;
      bestScore = standPat;
    }

    // Continuation history matters only for the quiet evasions of a position in check.
    const picker = this.pickers[ply * 2];
    picker.init(pos, ttMove, false, ply, ply >= 1 ? this.contAt[ply - 1] : NO_CONT, ply >= 2 ? this.contAt[ply - 2] : NO_CONT, !inCheck);
    const alphaOrig = alpha;
    let bestMove = 0;
    const futilityBase = inCheck ? NO_EVAL : standPat + P.QS_FUTILITY_MARGIN;
    for (let move = picker.nextMove(); move !== 0; move = picker.nextMove()) {
      if (!inCheck) {
        // The picker puts the captures that lose material last: from here on all of them do.
        if (picker.exchange < 0) break;
        const kind = moveKind(move);
        if (kind >= PROMO_KNIGHT && kind !== PROMO_QUEEN) continue; // under-promotions
        // Delta pruning: even winning this piece (plus a margin) cannot reach alpha.
        const victim = kind === EN_PASSANT ? PAWN : pos.board[moveTo(move)] & 7;
        if (kind < PROMO_KNIGHT && standPat + SEE_VALUE[victim] + P.DELTA_MARGIN <= alpha) continue;
        // Captures that lose material by static exchange are not worth resolving.
        if (picker.exchange === 0 && !seeGE(pos, move, 0)) continue;
        // Far below alpha, a capture that only trades evenly cannot reach it either.
        if (futilityBase <= alpha && !seeGE(pos, move, 1)) {
          if (futilityBase > bestScore) bestScore = futilityBase;
          continue;
        }
      }
      this.contAt[ply] = contKey(pos, move);
      pos.makeMove(move);
      this.tt.touch(pos.keyLo);
      const score = 0 - this.qsearch(0 - beta, 0 - alpha, ply + 1);
      pos.unmakeMove();
      if (this.stopped) return 0;
      if (score > bestScore) {
        bestScore = score;
        if (score > alpha) {
          bestMove = move;
          this.updatePv(ply, move);
          if (score >= beta) break;
          alpha = score;
        }
      }
    }
    if (inCheck && picker.generated === 0) return -MATE + ply;
    const bound = bestScore >= beta ? BOUND_LOWER : bestScore > alphaOrig ? BOUND_EXACT : BOUND_UPPER;
    tt.store(pos.keyLo, pos.keyHi, bestMove, 0, bound, scoreToTT(bestScore, ply), rawEval);
    return bestScore;
  }
}

/**
 * What pruning takes a node to be worth: the table's score where its bound
 * says the truth lies beyond the static eval (exact, a lower bound above it,
 * an upper bound below it; never a mate score), else the static eval.
 */
function scoreEstimate(bound: number, score: number, staticEval: number): number {
  if (bound === BOUND_NONE || Math.abs(score) >= DECISIVE_BOUND) return staticEval;
  const beyond = bound === BOUND_EXACT || (bound === BOUND_LOWER ? score > staticEval : score < staticEval);
  return beyond ? score : staticEval;
}

/** Whether a table score with this bound settles a node searched with (alpha, beta). */
function cutsOff(bound: number, score: number, alpha: number, beta: number): boolean {
  return bound === BOUND_EXACT || (bound === BOUND_LOWER ? score >= beta : bound === BOUND_UPPER && score <= alpha);
}
