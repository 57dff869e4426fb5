// The search: iterative deepening over a fail-soft negamax alpha-beta with
// principal variation search, aspiration windows, a transposition table and
// quiescence search, plus the selectivity of modern engines (null move,
// futility and late-move pruning, late-move reductions, singular
// extensions) and a static evaluation corrected by what searches of the
// pawn structure found (correction.ts). MTD(f) is offered as an alternative
// root driver. The Searcher runs inside a worker thread and polls
// SearchControl for `stop` and `ponderhit`.
//
// Parallel search (Lazy SMP, see threads.ts): with Threads > 1 the searcher
// of the search worker is the main one (its ThreadRole names its helpers);
// each helper is a Searcher in a worker of its own over the same table.

import { generateMoves, isPseudoLegal } from '../board/movegen.js';
import { moveToUci } from '../board/notation.js';
import type { Position } from '../board/position.js';
import { seeGE, SEE_VALUE } from '../board/see.js';
import { BISHOP, KNIGHT, MAX_MOVES, MAX_PLY, PAWN, QUEEN, ROOK, moveKind, moveTo } from '../board/types.js';
import { evaluate } from '../eval/evaluate.js';
import type { SearchControl } from './control.js';
import type { GoParams, SearchOptions } from './limits.js';
import { CorrectionHistory } from './correction.js';
import { MoveOrdering, NO_CONT, contKey, pickedExchange, isNoisy } from './movepick.js';
import { helperSkipsDepth, type HelperThreads, type ThreadRole, type ThreadState } from './threads.js';
import { computeTimeBudget } from './timeman.js';
import { BOUND_EXACT, BOUND_LOWER, BOUND_NONE, BOUND_UPPER, TranspositionTable } from './tt.js';

export const INFINITE = 31000;
export const MATE = 30000;
/** Scores beyond this are mates (in at most MAX_PLY plies). */
export const MATE_BOUND = MATE - MAX_PLY;
const NO_EVAL = 32001;
/** Table depth of an entry that holds only a static evaluation: below quiescence's 0, replaced first. */
const EVAL_ONLY_DEPTH = -1;
/**
 * Limits and flags are checked every this many nodes (a power of two): a few
 * milliseconds even while the code is not yet optimized, so that a stop or a
 * tiny time budget is honoured at once.
 */
const POLL_INTERVAL = 256;
/** Singular extensions are tried from this depth on. */
const SINGULAR_MIN_DEPTH = 8;

export interface SearchResult {
  /** UCI move, or '0000' when there is no legal move. */
  bestMove: string;
  ponderMove: string | null;
  /** The best move (0 when there is none) and its score, from the side to move's point of view. */
  move: number;
  score: number;
}

// Late-move reduction table: reduce more for later moves at higher depth.
const LMR = new Int8Array(64 * 64);
for (let d = 1; d < 64; d++) {
  for (let m = 1; m < 64; m++) LMR[d * 64 + m] = Math.floor(0.75 + (Math.log(d) * Math.log(m)) / 2.25);
}

/** Formats a score for `info`: `cp N` or `mate N` (in moves, negative when being mated). */
export function formatScore(score: number): string {
  if (score >= MATE_BOUND) return `mate ${Math.floor((MATE - score + 1) / 2)}`;
  if (score <= -MATE_BOUND) return `mate ${-Math.floor((MATE + score) / 2)}`;
  return `cp ${score}`;
}

/** Win/draw/loss per mille for a score, from a simple logistic model. */
function wdl(score: number): string {
  if (score >= MATE_BOUND) return '1000 0 0';
  if (score <= -MATE_BOUND) return '0 0 1000';
  const win = Math.round(1000 / (1 + Math.exp((150 - score) / 60)));
  const loss = Math.round(1000 / (1 + Math.exp((150 + score) / 60)));
  return `${win} ${1000 - win - loss} ${loss}`;
}

export class Searcher {
  readonly tt: TranspositionTable;
  readonly ordering = new MoveOrdering();
  readonly correction = new CorrectionHistory();
  private readonly moves = new Int32Array(MAX_PLY * MAX_MOVES);
  private readonly scores = new Int32Array(MAX_PLY * MAX_MOVES);
  /** Quiet moves tried at each ply (for history maluses). */
  private readonly quietsTried = new Int32Array(MAX_PLY * 64);
  /** Noisy moves tried at each ply (for capture-history maluses). */
  private readonly noisyTried = new Int32Array(MAX_PLY * 32);
  private readonly pvTable = new Int32Array(MAX_PLY * MAX_PLY);
  private readonly pvLength = new Int32Array(MAX_PLY);
  private readonly staticEval = new Int32Array(MAX_PLY);
  /** Continuation key (movepick.ts) of the move being searched at each ply; NO_CONT for a null move. */
  private readonly contAt = new Int32Array(MAX_PLY);
  /** The move a singular-extension search at each ply leaves out (0: none). */
  private readonly excludedAt = new Int32Array(MAX_PLY);
  /** Double extensions on the path from the root to each ply (bounded, so that the tree stays finite). */
  private readonly doubleExtensionsAt = new Int32Array(MAX_PLY + 1);
  /** Root moves excluded from this search (earlier MultiPV lines, or not in searchmoves). */
  private readonly rootExcluded = new Int32Array(MAX_MOVES);
  private rootExcludedCount = 0;

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
  private hardMs = 0;
  private nodeLimit = 0;
  private pondering = false;
  private rootDepth = 0;
  private emit: (line: string) => void = () => {};
  private showCurrMove = false;
  /** Best root move of the current iteration, kept when an iteration is aborted. */
  private iterationBest = 0;

  /** A searcher with a table of its own (hashMb), or over a given one (a helper's view of the shared table). */
  constructor(hashMbOrTable: number | TranspositionTable = 16) {
    this.tt = typeof hashMbOrTable === 'number' ? new TranspositionTable(hashMbOrTable) : hashMbOrTable;
  }

  setHashSize(mb: number): void {
    this.tt.resize(mb);
  }

  /** Forgets everything learned: table, move-ordering statistics and evaluation corrections (`ucinewgame`). */
  clear(): void {
    this.tt.clear();
    this.clearLearned();
  }

  /** Forgets the move-ordering statistics and the evaluation corrections, keeping the table. */
  clearLearned(): void {
    this.ordering.clear();
    this.correction.clear();
  }

  // ---------------------------------------------------------------------------
  // Driver.

  /**
   * Searches pos under the limits of params until done or control.stopped.
   * Emits every `info` line through emit (the caller prints `bestmove`).
   * With params.infinite or an unanswered params.ponder, it does not return
   * before control.stopped (or ponderhit) even if the search ends early.
   *
   * role: absent for a single-threaded search. A main searcher starts its
   * helpers, stops them when it is done and may play a helper's move; its
   * `info` lines count the nodes of all. A helper (whose table's age the
   * caller has set) searches until its control's stop flag, without output.
   */
  go(
    pos: Position,
    params: GoParams,
    options: SearchOptions,
    control: SearchControl,
    emit: (line: string) => void,
    role?: ThreadRole,
  ): SearchResult {
    this.helpers = role?.kind === 'main' && role.helpers.count > 0 ? role.helpers : null;
    this.shared = role === undefined ? null : role.kind === 'main' ? (this.helpers === null ? null : role.helpers.state) : role.state;
    this.threadIndex = role?.kind === 'helper' ? role.index : 0;
    const isHelper = this.threadIndex > 0;
    this.pos = pos;
    this.control = control;
    this.emit = emit;
    this.nodes = 0;
    this.seldepth = 0;
    this.stopped = false;
    this.startTime = performance.now();
    this.pondering = params.ponder;
    this.nodeLimitTotal = params.nodes !== undefined && params.nodes > 0 ? params.nodes : 0;
    this.nodeLimit = this.nodeLimitTotal;
    this.showCurrMove = false;
    if (!isHelper) this.tt.newSearch();
    this.ordering.age();

    const budget = computeTimeBudget(params, pos.side, options.moveOverhead);
    this.hardMs = budget.hardMs;
    const maxDepth = Math.min(MAX_PLY - 4, params.depth !== undefined && params.depth > 0 ? params.depth : MAX_PLY - 4);
    this.stoppedByHelper = false;

    // Root moves: legal moves, restricted by searchmoves.
    const rootMoves = this.moves;
    const rootCount = generateMoves(pos, rootMoves, 0, false);
    this.rootExcludedCount = 0;
    let allowed = rootCount;
    if (params.searchmoves.length > 0) {
      allowed = 0;
      for (let i = 0; i < rootCount; i++) {
        if (params.searchmoves.includes(moveToUci(pos, rootMoves[i]))) allowed++;
        else this.rootExcluded[this.rootExcludedCount++] = rootMoves[i];
      }
      if (allowed === 0) {
        emit('info string none of the searchmoves is legal here; searching all moves');
        this.rootExcludedCount = 0;
        allowed = rootCount;
      }
    }
    const searchmovesExcluded = this.rootExcludedCount;

    if (rootCount === 0) {
      const score = pos.inCheck() ? -MATE : 0;
      emit(`info depth 0 score ${formatScore(score)} nodes 0 time 0`);
      this.waitWhileInfinite(params);
      return { bestMove: '0000', ponderMove: null, move: 0, score };
    }
    this.helpers?.start(this.tt, params, options);

    const multiPv = Math.max(1, Math.min(options.multiPv, allowed));
    this.helperTargetDepth = this.helpers !== null && multiPv === 1 && params.depth !== undefined && params.depth > 0 ? maxDepth : 0;
    const pvScores = new Int32Array(multiPv);
    const pvLines: number[][] = [];
    let bestMove = 0;
    let bestScore = -INFINITE;
    let previousScore = 0;
    let instability = 0;
    // The fallback if even depth 1 is interrupted: first legal (allowed) move.
    for (let i = 0; i < rootCount && bestMove === 0; i++) {
      if (!this.isRootExcluded(rootMoves[i])) bestMove = rootMoves[i];
    }
    let completedDepth = 0;
    let lastSeldepth = 0;
    let lastPv: number[] = [bestMove];

    // Whether the last line printed already is the final word on this search.
    let reportedLast = false;
    for (let depth = 1; depth <= maxDepth; depth++) {
      if (isHelper) {
        if (this.control.stopped) break;
        if (depth < maxDepth && helperSkipsDepth(this.threadIndex, depth)) continue;
      }
      reportedLast = false;
      this.rootDepth = depth;
      this.rootExcludedCount = searchmovesExcluded;
      const lines: number[][] = [];
      for (let pvIndex = 0; pvIndex < multiPv; pvIndex++) {
        this.seldepth = 0;
        this.iterationBest = 0;
        const prev = pvIndex < pvScores.length && depth > 1 ? pvScores[pvIndex] : 0;
        const score =
          options.driver === 'mtdf' && multiPv === 1 ? this.mtdf(depth, depth > 1 ? prev : 0) : this.aspiration(depth, prev, pvIndex, multiPv);
        if (this.stopped) {
          // An interrupted iteration may still have found a better first line.
          if (pvIndex === 0 && this.iterationBest !== 0) {
            bestMove = this.iterationBest;
            lastPv = this.pvTable[0] === bestMove ? this.extractPv() : [bestMove];
          }
          break;
        }
        pvScores[pvIndex] = score;
        lines.push(this.extractPv());
        this.rootExcluded[this.rootExcludedCount++] = this.pvTable[0];
      }
      if (this.stopped) break;
      // Sort the lines by score (a later line can beat an earlier one after re-search).
      const order = lines.map((_, i) => i).sort((a, b) => pvScores[b] - pvScores[a]);
      pvLines.length = 0;
      for (const i of order) pvLines.push(lines[i]);
      const sortedScores = order.map((i) => pvScores[i]);
      for (let i = 0; i < multiPv; i++) pvScores[i] = sortedScores[i];
      completedDepth = depth;
      if (pvLines[0][0] !== bestMove && depth > 1) instability += 1;
      bestMove = pvLines[0][0];
      bestScore = pvScores[0];
      lastPv = pvLines[0];
      if (isHelper) {
        this.shared!.publishResult(this.threadIndex, depth, bestScore, lastPv);
      } else {
        for (let i = 0; i < multiPv; i++) this.reportLine(depth, Math.max(depth, this.seldepth), i + 1, pvScores[i], pvLines[i], options);
      }
      reportedLast = true;

      lastSeldepth = this.seldepth;

      // Stop conditions.
      if (params.mate !== undefined && params.mate > 0 && bestScore >= MATE_BOUND && MATE - bestScore <= params.mate * 2) break;
      if (this.nodeLimitTotal > 0 && this.totalNodes() >= this.nodeLimitTotal) break;
      if (params.softNodes !== undefined && this.totalNodes() >= params.softNodes) break;
      if (budget.softMs > 0 && !this.pondering && params.depth === undefined) {
        if (allowed === 1 && depth >= 2) break; // only one move: play it
        if (Math.abs(bestScore) >= MATE_BOUND && depth >= MATE - Math.abs(bestScore) + 4) break; // mate found
        let scale = 1 + instability * 0.4;
        if (depth > 1 && bestScore < previousScore - 30) scale *= 1.3;
        const elapsed = performance.now() - this.startTime;
        if (elapsed > Math.min(budget.softMs * scale, budget.hardMs) * 0.6) break;
      }
      instability *= 0.6;
      previousScore = bestScore;
      this.checkPonderhit();
    }

    if (isHelper) {
      this.shared!.publishNodes(this.threadIndex, this.nodes);
      return { bestMove: moveToUci(pos, bestMove), ponderMove: null, move: bestMove, score: bestScore };
    }
    this.waitWhileInfinite(params);

    // The final line before bestmove (unless the last iteration's line is it):
    // the best line of the deepest completed search, with the final counts.
    let line = pvLines.length > 0 && pvLines[0][0] === bestMove ? pvLines[0] : lastPv;
    let score = pvLines.length > 0 && pvLines[0][0] === bestMove ? pvScores[0] : bestScore;
    if (this.helpers !== null) {
      this.helpers.finish();
      // A helper that completed a deeper iteration with a better score has the
      // better move; so has one that completed the depth asked for first.
      this.rootExcludedCount = searchmovesExcluded;
      const helper =
        multiPv === 1 ? this.bestHelperResult(completedDepth, this.stoppedByHelper ? -INFINITE : bestScore, rootCount) : null;
      if (helper !== null) {
        bestMove = helper.pv[0];
        line = lastPv = helper.pv;
        score = helper.score;
        completedDepth = helper.depth;
        lastSeldepth = Math.max(lastSeldepth, helper.depth);
        reportedLast = false;
      }
    }
    if (!reportedLast) this.reportLine(Math.max(1, completedDepth), Math.max(1, lastSeldepth), 1, score, line, options);
    const ponder = this.ponderMoveAfter(lastPv, bestMove);
    return { bestMove: moveToUci(pos, bestMove), ponderMove: ponder, move: bestMove, score };
  }

  /** Nodes of this search: this searcher's, plus its helpers' as last published. */
  totalNodes(): number {
    return this.helpers === null ? this.nodes : this.nodes + this.helpers.state.helperNodes();
  }

  /**
   * The result of the helper that completed the deepest iteration with a
   * better score than `depth` / `score` (the main searcher's), if any; its
   * move must be one the search may play.
   */
  private bestHelperResult(depth: number, score: number, rootCount: number): { depth: number; score: number; pv: number[] } | null {
    const helpers = this.helpers!;
    let best: { depth: number; score: number; pv: number[] } | null = null;
    for (let i = 1; i <= helpers.count; i++) {
      const r = helpers.state.result(i);
      if (r === null || r.pv.length === 0 || r.depth <= depth || r.score <= score) continue;
      let playable = false;
      for (let k = 0; k < rootCount; k++) if (this.moves[k] === r.pv[0]) playable = true;
      if (!playable || this.isRootExcluded(r.pv[0])) continue;
      best = r;
      depth = r.depth;
      score = r.score;
    }
    return best;
  }

  /** With `go infinite` or an unanswered `go ponder`, bestmove must wait for stop or ponderhit. */
  private waitWhileInfinite(params: GoParams): void {
    if (!params.infinite && !params.ponder) return;
    while (!this.control.stopped && !(params.ponder && !params.infinite && this.control.ponderhitReceived)) {
      Atomics.wait(this.control.flags, 0, 0, 5);
    }
  }

  /** The second move of the PV, or the TT move after the best move. */
  private ponderMoveAfter(pv: number[], best: number): string | null {
    const pos = this.pos;
    if (best === 0) return null;
    pos.makeMove(best);
    let reply = pv.length > 1 && pv[0] === best ? pv[1] : 0;
    if (reply === 0 && this.tt.probe(pos.keyLo, pos.keyHi)) reply = this.tt.move;
    let text: string | null = null;
    if (reply !== 0) {
      const n = generateMoves(pos, this.moves, MAX_MOVES, false);
      for (let i = MAX_MOVES; i < n; i++) if (this.moves[i] === reply) text = moveToUci(pos, reply);
    }
    pos.unmakeMove();
    return text;
  }

  private isRootExcluded(move: number): boolean {
    for (let i = 0; i < this.rootExcludedCount; i++) if (this.rootExcluded[i] === move) return true;
    return false;
  }

  /** One iteration with an aspiration window around the previous score, widened on failure. */
  private aspiration(depth: number, previous: number, pvIndex: number, multiPv: number): number {
    let delta = 25;
    let alpha = -INFINITE;
    let beta = INFINITE;
    if (depth >= 4 && Math.abs(previous) < MATE_BOUND) {
      alpha = Math.max(-INFINITE, previous - delta);
      beta = Math.min(INFINITE, previous + delta);
    }
    for (;;) {
      const score = this.search(alpha, beta, depth, 0, false);
      if (this.stopped) return score;
      if (score <= alpha) {
        beta = (alpha + beta) >> 1;
        alpha = Math.max(-INFINITE, score - delta);
        this.reportBound(depth, pvIndex, multiPv, score, BOUND_UPPER);
      } else if (score >= beta) {
        beta = Math.min(INFINITE, score + delta);
        this.reportBound(depth, pvIndex, multiPv, score, BOUND_LOWER);
      } else {
        return score;
      }
      delta += delta >> 1;
    }
  }

  /** MTD(f): converge on the score with null-window searches from a first guess. */
  private mtdf(depth: number, guess: number): number {
    let g = guess;
    let lower = -INFINITE;
    let upper = INFINITE;
    let best = 0;
    while (lower < upper) {
      const beta = g === lower ? g + 1 : g;
      g = this.search(beta - 1, beta, depth, 0, false);
      if (this.stopped) return g;
      if (this.pvTable[0] !== 0) best = this.pvTable[0];
      if (g < beta) upper = g;
      else lower = g;
    }
    if (this.pvTable[0] === 0) this.pvTable[0] = best;
    return g;
  }

  // ---------------------------------------------------------------------------
  // Output.

  /** An `info` line of a finished search or iteration (a score of -INFINITE, no move searched, shows as 0). */
  private reportLine(depth: number, seldepth: number, multipv: number, score: number, pv: number[], options: SearchOptions): void {
    const elapsed = Math.max(1, Math.round(performance.now() - this.startTime));
    const nodes = this.totalNodes();
    this.emit(
      `info depth ${depth} seldepth ${seldepth} multipv ${multipv} score ${formatScore(score === -INFINITE ? 0 : score)}` +
        (options.showWdl ? ` wdl ${wdl(score)}` : '') +
        ` nodes ${nodes} nps ${Math.round((nodes * 1000) / elapsed)} hashfull ${this.tt.hashfull()} time ${elapsed} pv ${this.pvToUci(pv)}`,
    );
  }

  /** Aspiration failures are reported only in long searches, as GUIs expect. */
  private reportBound(depth: number, pvIndex: number, multiPv: number, score: number, bound: number): void {
    void multiPv;
    if (this.threadIndex > 0 || performance.now() - this.startTime < 1000) return;
    const elapsed = Math.max(1, Math.round(performance.now() - this.startTime));
    const nodes = this.totalNodes();
    this.emit(
      `info depth ${depth} seldepth ${this.seldepth} multipv ${pvIndex + 1} score ${formatScore(score)} ${bound === BOUND_LOWER ? 'lowerbound' : 'upperbound'}` +
        ` nodes ${nodes} nps ${Math.round((nodes * 1000) / elapsed)} time ${elapsed} pv ${this.pvToUci(this.extractPv())}`,
    );
  }

  private extractPv(): number[] {
    const pv: number[] = [];
    for (let i = 0; i < this.pvLength[0]; i++) pv.push(this.pvTable[i]);
    return pv;
  }

  /** PV in UCI notation; stops at the first move that is not legal (should not happen). */
  private pvToUci(pv: number[]): string {
    const pos = this.pos;
    const parts: string[] = [];
    let played = 0;
    for (const move of pv) {
      if (move === 0) break;
      const n = generateMoves(pos, this.moves, MAX_MOVES, false);
      let legal = false;
      for (let i = MAX_MOVES; i < n; i++) if (this.moves[i] === move) legal = true;
      if (!legal) break;
      parts.push(moveToUci(pos, move));
      pos.makeMove(move);
      played++;
    }
    for (let i = 0; i < played; i++) pos.unmakeMove();
    return parts.join(' ');
  }

  // ---------------------------------------------------------------------------
  // Limits.

  private checkPonderhit(): boolean {
    if (this.pondering && this.control.ponderhitReceived) {
      // From now on the normal time control applies, counted from the ponderhit.
      this.pondering = false;
      this.startTime = performance.now();
      return true;
    }
    return false;
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
    if (this.rootDepth > 1 && this.hardMs > 0 && !this.pondering && performance.now() - this.startTime >= this.hardMs) {
      this.stopped = true;
    }
    if (!this.showCurrMove && performance.now() - this.startTime > 1000) this.showCurrMove = true;
  }

  // ---------------------------------------------------------------------------
  // Alpha-beta.

  /** Draw by the 50-move rule, repetition, or material that cannot mate. */
  private isDraw(): boolean {
    const pos = this.pos;
    if (pos.halfmove >= 100 || pos.isRepetition()) return true;
    const bb = pos.bb;
    // No pawns, rooks or queens, and at most one minor piece on the board.
    if ((bb[PAWN * 2] | bb[PAWN * 2 + 1] | bb[(8 | PAWN) * 2] | bb[(8 | PAWN) * 2 + 1]) !== 0) return false;
    const heavy =
      bb[ROOK * 2] | bb[ROOK * 2 + 1] | bb[QUEEN * 2] | bb[QUEEN * 2 + 1] |
      bb[(8 | ROOK) * 2] | bb[(8 | ROOK) * 2 + 1] | bb[(8 | QUEEN) * 2] | bb[(8 | QUEEN) * 2 + 1];
    if (heavy !== 0) return false;
    return pos.count(KNIGHT) + pos.count(BISHOP) + pos.count(8 | KNIGHT) + pos.count(8 | BISHOP) <= 1;
  }

  private hasNonPawnMaterial(side: number): boolean {
    const bb = this.pos.bb;
    const p = side << 3;
    return (
      (bb[(p | KNIGHT) * 2] | bb[(p | KNIGHT) * 2 + 1] | bb[(p | BISHOP) * 2] | bb[(p | BISHOP) * 2 + 1] |
        bb[(p | ROOK) * 2] | bb[(p | ROOK) * 2 + 1] | bb[(p | QUEEN) * 2] | bb[(p | QUEEN) * 2 + 1]) !== 0
    );
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

    this.nodes++;
    if ((this.nodes & (POLL_INTERVAL - 1)) === 0) this.checkLimits();
    if (this.nodeLimit > 0 && this.nodes >= this.nodeLimit) this.stopped = true;
    if (this.stopped) return 0;
    if (ply > this.seldepth) this.seldepth = ply;

    const inCheck = pos.inCheck();
    if (!isRoot) {
      if (this.isDraw()) {
        // A checkmate on the hundredth half-move still counts as mate.
        if (!(pos.halfmove >= 100 && inCheck && generateMoves(pos, this.moves, ply * MAX_MOVES, false) === ply * MAX_MOVES)) return 0;
      }
      if (ply >= MAX_PLY - 2) return inCheck ? 0 : evaluate(pos);
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
      if (!isPv && excluded === 0 && ttDepth >= depth && cutsOff(ttBound, ttScore, alpha, beta)) return ttScore;
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
    const improving = !inCheck && ply >= 2 && this.staticEval[ply - 2] !== NO_EVAL && staticEval > this.staticEval[ply - 2];
    // The pruning below judges the node by an estimate of its score (scoreEstimate).
    const estimate = inCheck ? staticEval : scoreEstimate(ttBound, ttScore, staticEval);

    // Internal iterative reduction: without a hash move this node is probably not important.
    if (depth >= 4 && ttMove === 0 && !isRoot) depth--;

    if (!isPv && !inCheck && excluded === 0) {
      // Reverse futility: far above beta even with a margin per remaining ply.
      if (depth <= 8 && estimate - 80 * (depth - (improving ? 1 : 0)) >= beta && Math.abs(beta) < MATE_BOUND) {
        return estimate;
      }
      // Razoring: this far below alpha so near the leaves, only a capture could
      // save the node; when quiescence finds none, it fails low at once.
      if (depth <= 3 && estimate + 250 * depth <= alpha && Math.abs(alpha) < MATE_BOUND) {
        const score = this.qsearch(alpha, alpha + 1, ply);
        if (this.stopped) return 0;
        if (score <= alpha) return score;
      }
      // Null move: if passing still fails high, a real move would too (not in
      // pawn endings, where zugzwang makes passing better than any move). The
      // estimate keeps it off where the table says this node stayed below beta.
      if (depth >= 3 && estimate >= beta && pos.stackMove[pos.ply - 1] !== 0 && this.hasNonPawnMaterial(pos.side)) {
        const r = 3 + (depth >> 2) + Math.min(3, ((estimate - beta) / 200) | 0);
        this.contAt[ply] = NO_CONT;
        this.doubleExtensionsAt[ply + 1] = this.doubleExtensionsAt[ply];
        pos.makeNullMove();
        const score = 0 - this.search(0 - beta, 1 - beta, depth - r, ply + 1, !cutNode);
        pos.unmakeNullMove();
        if (this.stopped) return 0;
        if (score >= beta) return score >= MATE_BOUND ? beta : score;
      }
    }

    const moves = this.moves;
    const scores = this.scores;
    const start = ply * MAX_MOVES;
    const cont1 = ply >= 1 ? this.contAt[ply - 1] : NO_CONT;
    const cont2 = ply >= 2 ? this.contAt[ply - 2] : NO_CONT;
    // The hash move is tried before any move is generated: it often cuts off at
    // once. A move that cannot be played here is another position's (a key collision).
    const ttMoveUsable = ttMove !== 0 && isPseudoLegal(pos, ttMove);
    let ttMovePending = !isRoot && ttMoveUsable && ttMove !== excluded;
    let generated = false;
    let end = start;
    let next = start;

    const alphaOrig = alpha;
    let bestScore = -INFINITE;
    let bestMove = 0;
    let moveCount = 0;
    let quietCount = 0;
    let noisyCount = 0;
    let skipQuiets = false;
    let futileQuiets = false;
    const quietBase = ply * 64;
    const lmpLimit = improving ? 3 + depth * depth : ((3 + depth * depth) / 2) | 0;
    // Move-count and SEE pruning are off in pawn endings, where single moves decide.
    const mayPruneMoves = !isRoot && this.hasNonPawnMaterial(pos.side);
    // A capture or promotion as hash move: the quiet moves after it are less likely to matter.
    let ttMoveNoisy = ttMoveUsable && isNoisy(pos, ttMove);

    for (;;) {
      let move: number;
      let exchange = 0; // what pick() knows of the move's static exchange (pickedExchange)
      const fromTT = ttMovePending;
      if (ttMovePending) {
        move = ttMove;
        ttMovePending = false;
      } else {
        if (!generated) {
          generated = true;
          end = generateMoves(pos, moves, start, false);
          if (end === start) return inCheck ? -MATE + ply : 0;
          this.ordering.score(pos, moves, scores, start, end, ttMove, ply, cont1, cont2);
        }
        if (next >= end) break;
        // Once quiets are skipped or futile, what remains is taken in list order:
        // sorting moves that will mostly be pruned is wasted work.
        if (skipQuiets || futileQuiets) {
          move = moves[next];
        } else {
          move = this.ordering.pick(pos, moves, scores, next, end);
          exchange = pickedExchange(scores[next]);
        }
        next++;
        if (move === ttMove && moveCount > 0 && !isRoot) continue; // searched already
      }
      if (isRoot && this.rootExcludedCount > 0 && this.isRootExcluded(move)) continue;
      if (move === excluded) continue;
      const noisy = isNoisy(pos, move);
      if (skipQuiets && !noisy) continue;

      if (mayPruneMoves && bestScore > -MATE_BOUND) {
        if (!noisy) {
          // Late-move pruning: after enough quiet moves, the rest rarely matter.
          if (depth <= 8 && quietCount >= lmpLimit) {
            skipQuiets = true;
            continue;
          }
          // Futility: a quiet move cannot lift a hopeless static eval above
          // alpha, unless it gives check. Alpha only rises, so every later
          // quiet move is futile too.
          if (!inCheck && depth <= 8 && estimate + 100 + 100 * depth <= alpha) {
            futileQuiets = true;
            if (!pos.givesCheck(move)) continue;
          }
          if (depth <= 8 && !seeGE(pos, move, -60 * depth)) continue;
        } else if (depth <= 8 && exchange <= 0 && !seeGE(pos, move, -100 * depth)) {
          continue;
        }
      }

      if (isRoot && this.showCurrMove) {
        this.emit(`info depth ${depth} currmove ${moveToUci(pos, move)} currmovenumber ${moveCount + 1}`);
      }

      // Singular extension: when the hash move is the only one that reaches
      // the table's score (every other move, searched shallower, fails low
      // against a bar below it), it is searched one ply deeper. When even
      // without it the search fails high above beta, several moves refute
      // this node: it is cut off (multi-cut). And when the table's score
      // was already above beta but others are not far behind, the hash
      // move is searched one ply shallower.
      let extension = 0;
      if (
        fromTT &&
        depth >= SINGULAR_MIN_DEPTH &&
        excluded === 0 &&
        ttDepth >= depth - 3 &&
        (ttBound === BOUND_LOWER || ttBound === BOUND_EXACT) &&
        Math.abs(ttScore) < MATE_BOUND &&
        ply < 2 * this.rootDepth
      ) {
        const singularBeta = ttScore - depth;
        this.excludedAt[ply] = move;
        const score = this.search(singularBeta - 1, singularBeta, (depth - 1) >> 1, ply, cutNode);
        this.excludedAt[ply] = 0;
        if (this.stopped) return 0;
        // Far below the bar, in a node off the principal variation: two plies.
        if (score < singularBeta) extension = !isPv && score < singularBeta - 20 && this.doubleExtensionsAt[ply] < 6 ? 2 : 1;
        else if (singularBeta >= beta) return singularBeta;
        else if (ttScore >= beta) extension = -1;
      }

      this.contAt[ply] = contKey(pos, move);
      this.doubleExtensionsAt[ply + 1] = this.doubleExtensionsAt[ply] + (extension === 2 ? 1 : 0);
      pos.makeMove(move);
      if (fromTT && pos.isAttacked(pos.kingSq[pos.side ^ 1], pos.side)) {
        // The hash move leaves our king in check (a key collision): forget it.
        pos.unmakeMove();
        ttMove = 0;
        ttMoveNoisy = false;
        continue;
      }
      const givesCheck = pos.inCheck();
      moveCount++;
      if (!noisy && quietCount < 64) this.quietsTried[quietBase + quietCount++] = move;
      else if (noisy && noisyCount < 32) this.noisyTried[ply * 32 + noisyCount++] = move;
      // Check extension: do not let a forcing sequence vanish past the horizon.
      const newDepth = depth - 1 + (extension !== 0 ? extension : givesCheck ? 1 : 0);

      let score: number;
      if (moveCount === 1) {
        score = 0 - this.search(0 - beta, 0 - alpha, newDepth, ply + 1, false);
      } else {
        // Late-move reductions: later moves in a well-ordered list are searched shallower first.
        let r = 0;
        if (depth >= 3 && moveCount > 1 + (isPv ? 1 : 0) && !noisy) {
          r = LMR[Math.min(depth, 63) * 64 + Math.min(moveCount, 63)];
          if (isPv) r--;
          if (cutNode) r++;
          if (!improving) r++;
          if (ttMoveNoisy) r++;
          if (givesCheck) r--;
          // A quiet move that has often refuted positions like this one (history,
          // continuations included: up to ±3 * 16384, so up to 8 plies) is
          // reduced less, a poor one more.
          r -= (this.ordering.historyOf(pos.side ^ 1, move, this.contAt[ply], cont1, cont2) / 6144) | 0;
          r = Math.max(0, Math.min(r, newDepth - 1));
        }
        score = 0 - this.search(-1 - alpha, 0 - alpha, newDepth - r, ply + 1, true);
        if (score > alpha && r > 0) score = 0 - this.search(-1 - alpha, 0 - alpha, newDepth, ply + 1, !cutNode);
        if (score > alpha && score < beta) score = 0 - this.search(0 - beta, 0 - alpha, newDepth, ply + 1, false);
      }
      pos.unmakeMove();
      if (this.stopped) return 0;

      if (score > bestScore) {
        bestScore = score;
        if (score > alpha) {
          bestMove = move;
          if (isRoot) this.iterationBest = move;
          this.updatePv(ply, move);
          if (score >= beta) {
            if (!noisy) this.ordering.updateQuietCutoff(pos, move, ply, depth, this.quietsTried, quietBase, quietCount, cont1, cont2);
            this.ordering.updateCaptureCutoff(pos, noisy ? move : 0, depth, this.noisyTried, ply * 32, noisyCount);
            break;
          }
          alpha = score;
        }
      }
    }

    if (moveCount === 0) {
      // Every move was excluded (MultiPV / searchmoves) or pruned.
      if (isRoot) return -INFINITE;
      return alpha;
    }

    const bound = bestScore >= beta ? BOUND_LOWER : bestScore > alphaOrig ? BOUND_EXACT : BOUND_UPPER;
    if (!(isRoot && this.rootExcludedCount > 0) && excluded === 0) {
      tt.store(pos.keyLo, pos.keyHi, bestMove, depth, bound, scoreToTT(bestScore, ply), rawEval === NO_EVAL ? 0 : rawEval);
      // The evaluation's error, learnt where the result bounds it on the side
      // that shows one (a fail-high below the eval says nothing), and not from
      // captures, whose gain the evaluation is not meant to see.
      if (
        !inCheck &&
        (bestMove === 0 || !isNoisy(pos, bestMove)) &&
        Math.abs(bestScore) < MATE_BOUND &&
        (bound === BOUND_EXACT || (bound === BOUND_LOWER ? bestScore > staticEval : bestScore < staticEval))
      ) {
        this.correction.update(pos, depth, bestScore, rawEval);
      }
    }
    return bestScore;
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
    if (this.stopped) return 0;
    this.nodes++;
    if ((this.nodes & (POLL_INTERVAL - 1)) === 0) this.checkLimits();
    if (this.nodeLimit > 0 && this.nodes >= this.nodeLimit) this.stopped = true;
    if (this.stopped) return 0;
    if (ply > this.seldepth) this.seldepth = ply;
    if (pos.halfmove >= 100 || pos.isRepetition()) return 0;

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

    let bestScore: number;
    let rawEval = NO_EVAL;
    let standPat = NO_EVAL;
    if (inCheck) {
      bestScore = -INFINITE;
    } else {
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

    const moves = this.moves;
    const scores = this.scores;
    const start = ply * MAX_MOVES;
    const end = generateMoves(pos, moves, start, !inCheck);
    if (inCheck && end === start) return -MATE + ply;
    // Continuation history matters only for the quiet evasions of a position in check.
    const cont1 = ply >= 1 ? this.contAt[ply - 1] : NO_CONT;
    const cont2 = ply >= 2 ? this.contAt[ply - 2] : NO_CONT;
    this.ordering.score(pos, moves, scores, start, end, ttMove, ply, cont1, cont2);

    const alphaOrig = alpha;
    let bestMove = 0;
    for (let i = start; i < end; i++) {
      const move = this.ordering.pick(pos, moves, scores, i, end);
      if (!inCheck) {
        const exchange = pickedExchange(scores[i]);
        // pick() puts the captures that lose material last: from here on all of them do.
        if (exchange < 0) break;
        const kind = moveKind(move);
        if (kind >= 4 && kind !== 7) continue; // under-promotions
        // Delta pruning: even winning this piece (plus a margin) cannot reach alpha.
        if (kind < 4) {
          const victim = kind === 3 ? PAWN : pos.board[moveTo(move)] & 7;
          if (standPat + SEE_VALUE[victim] + 200 <= alpha) continue;
        }
        // Captures that lose material by static exchange are not worth resolving.
        if (exchange === 0 && !seeGE(pos, move, 0)) continue;
      }
      this.contAt[ply] = contKey(pos, move);
      pos.makeMove(move);
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
    const bound = bestScore >= beta ? BOUND_LOWER : bestScore > alphaOrig ? BOUND_EXACT : BOUND_UPPER;
    tt.store(pos.keyLo, pos.keyHi, bestMove, 0, bound, scoreToTT(bestScore, ply), rawEval === NO_EVAL ? 0 : rawEval);
    return bestScore;
  }
}

/**
 * What pruning takes a node to be worth: the table's score where its bound
 * says the truth lies beyond the static eval (exact, a lower bound above it,
 * an upper bound below it; never a mate score), else the static eval.
 */
function scoreEstimate(bound: number, score: number, staticEval: number): number {
  if (bound === BOUND_NONE || Math.abs(score) >= MATE_BOUND) return staticEval;
  const beyond = bound === BOUND_EXACT || (bound === BOUND_LOWER ? score > staticEval : score < staticEval);
  return beyond ? score : staticEval;
}

/** Whether a table score with this bound settles a node searched with (alpha, beta). */
function cutsOff(bound: number, score: number, alpha: number, beta: number): boolean {
  return bound === BOUND_EXACT || (bound === BOUND_LOWER ? score >= beta : bound === BOUND_UPPER && score <= alpha);
}

/**
 * Mate scores are stored relative to the node, not the root, so they stay
 * true in other paths. The same arithmetic runs on every path: a branch that
 * only mate scores reach would have no type feedback when V8 optimizes the
 * search, and would deoptimize it whenever the first mate score came by.
 */
function scoreToTT(score: number, ply: number): number {
  return score + mateSign(score) * ply;
}

function scoreFromTT(score: number, ply: number): number {
  return score - mateSign(score) * ply;
}

/** 1 for a winning mate score, -1 for a losing one, else 0. */
function mateSign(score: number): number {
  return (score >= MATE_BOUND ? 1 : 0) - (score <= -MATE_BOUND ? 1 : 0);
}
