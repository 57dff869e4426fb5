// Monte Carlo tree search, as AlphaZero and Leela Chess Zero search, over
// Kestrel's network: the `mcts` drivers (SearchDriver). docs/mcts.md tells
// the whole story; in short, each playout
//   1. selects from the root down by PUCT, Q + c P sqrt(N_parent) / (1 + N),
//      an unvisited child counting as its parent's Q less a first-play
//      urgency reduction (MCTS_FPU_REDUCTION * sqrt(visited children's priors));
//   2. at the first node not yet expanded, scores the position: exactly when
//      the game is over there (mate, stalemate, repetition, fifty moves, no
//      mating material), else by the network's evaluation (`mcts`) or a
//      quiescence search (`mcts-qs`), as an expected score sigmoid(cp / 400)
//      mapped to [-1, 1]; then expands it: one child per legal move, with
//      priors (mcts-priors.ts);
//   3. backs the value up, negated at each ply, into every node's mean Q,
//      and proves what it can (the MCTS-solver): a node with a mating move is
//      won, one whose every move loses is lost, mate distances kept.
// The move played is the most visited root move, Q deciding among those
// within a few percent of it; a proven win is played at once.
//
// The Searcher (search.ts) runs this search when options.driver is one of
// the mcts drivers: it supplies the transposition table, the histories and
// the quiescence search, runs the short PVS that fills them first, and keeps
// the tree (sized by Hash) between searches, so that the subtree of the
// moves played since the last search is searched on.

import { generateMoves } from '../board/movegen.js';
import { moveToUci } from '../board/notation.js';
import type { Position } from '../board/position.js';
import { cannotMate } from '../board/rules.js';
import { MAX_MOVES, MAX_PLY } from '../board/types.js';
import { evaluate, networkInUse } from '../eval/index.js';
import type { SearchControl } from './control.js';
import type { MoveHistory } from './history.js';
import type { GoParams, SearchDriver, SearchOptions, SearchReport } from './limits.js';
import { computePriors } from './mcts-priors.js';
import { MctsTree, NODE_BYTES, NO_NODE, PROOF_DRAW, PROOF_NONE, proofPlies, provenLoss, provenWin } from './mcts-tree.js';
import { MCTS_CPUCT, MCTS_FPU_REDUCTION, MCTS_TIME_SHARE, MCTS_VALUE_SCALE, MCTS_VISIT_TIE_SHARE } from './params.js';
import { MATE, MATE_BOUND } from './search.js';
import { computeTimeBudget } from './timeman.js';
import type { TranspositionTable } from './tt.js';

/** The largest centipawn score reported for an unproven Q (Q of ±1 would be infinite). */
const MAX_CP = 10000;
/** Leaves are not expanded below this depth (the path fits the search's ply arrays). */
const MAX_TREE_DEPTH = MAX_PLY - 2;
/** Lines are reported when the average depth grows, and at least this often. */
const REPORT_INTERVAL_MS = 1000;
/** With a clock and a single legal move, playouts made before playing it (enough for a ponder move). */
const ONLY_MOVE_PLAYOUTS = 64;
/**
 * The clock is read every this many playouts (a power of two; the stop flag
 * after each): a millisecond or two. Reading it makes the one object of the
 * playout loop, a boxed number (bench/alloc.ts).
 */
const CLOCK_INTERVAL = 32;
/** After a tree is kept for reuse, it is dropped instead if it fills more than this share of the pool. */
const REUSE_MAX_SHARE = 0.9;
/** Game positions before the root that must match for the tree to be reused (repetitions look this far back). */
const HISTORY_KEYS = 128;
/** A proven lost child's selection score: below any other, longer losses first (not a small integer, so never boxed). */
const LOST_SCORE = -1e12;

/** What the tree search needs from the Searcher that runs it. */
export interface MctsHost {
  readonly tt: TranspositionTable;
  readonly history: MoveHistory;
  /** The quiescence score of the position (centipawns, side to move's view); check `interrupted` after. */
  leafQuiescence(): number;
  /** Whether a quiescence search was cut short by the stop flag or the time limit. */
  readonly interrupted: boolean;
}

export interface MctsResult {
  /** The move chosen (0 only when no root move could be searched). */
  move: number;
  /** The line of the move chosen, along the most visited children. */
  pv: number[];
  /** Its score, side to move's view (centipawns from Q, or a mate score). */
  score: number;
}

/** The leaf value and the priors of a driver. */
function driverConfig(driver: SearchDriver): { quiescence: boolean; uniform: boolean } {
  return { quiescence: driver.startsWith('mcts-qs'), uniform: driver.endsWith('-uniform') };
}

/** A score in centipawns (side to move's view) as a value in [-1, 1]: 2 sigmoid(cp / scale) - 1. */
export function scoreToValue(cp: number): number {
  if (cp >= MATE_BOUND) return 1;
  if (cp <= -MATE_BOUND) return -1;
  return Math.tanh(cp / (2 * MCTS_VALUE_SCALE));
}

/** The inverse of scoreToValue, bounded by ±MAX_CP. */
export function valueToScore(q: number): number {
  if (q >= 1) return MAX_CP;
  if (q <= -1) return -MAX_CP;
  const cp = Math.round(MCTS_VALUE_SCALE * Math.log((1 + q) / (1 - q)));
  return cp > MAX_CP ? MAX_CP : cp < -MAX_CP ? -MAX_CP : cp;
}

export class Mcts {
  readonly tree: MctsTree;
  /** The nodes of the current playout, root first. */
  private readonly path = new Int32Array(MAX_PLY + 1);
  private readonly moves = new Int32Array(MAX_MOVES);
  private readonly logits = new Float64Array(MAX_MOVES);
  /** Root children that searchmoves allows (by offset from the first child). */
  private readonly rootAllowed = new Uint8Array(MAX_MOVES);
  private allowedCount = 0;

  // What the tree's root is, for reuse: its key, its place in the game, the
  // game's keys before it, and the evaluation and driver that built the tree.
  private rootKeyLo = 0;
  private rootKeyHi = 0;
  private rootPly = -1;
  private readonly rootHistory = new Int32Array(2 * HISTORY_KEYS);
  private rootEvaluator: unknown = null;
  private rootDriver: SearchDriver | null = null;

  // The current search.
  private host!: MctsHost;
  private pos!: Position;
  private control!: SearchControl;
  private report: SearchReport = () => {};
  private quiescence = false;
  private uniform = false;
  private playouts = 0;
  private depthSum = 0;
  private maxDepth = 0;
  /** The pool had no room for an expansion: the search ends. */
  private full = false;
  /** A root child's proof changed since rootSolved was computed. */
  private rootProofChanged = false;
  /** The allowed root moves settle the root: one wins, or all are proven. */
  private rootSolved = false;
  private startTime = 0;
  /** The highest average leaf depth reported (lines report it, so that their depth never falls). */
  private reportedDepth = 0;
  private lastReport = 0;
  private multiPv = 1;
  private pondering = false;
  /** Milliseconds after startTime (0: none): no playout after softMs (scaled by MCTS_TIME_SHARE), none after hardMs. */
  private softMs = 0;
  private hardMs = 0;
  /** Where scoreLeaf() and leafValue() leave the value (a double returned would be boxed on the heap). */
  private readonly leafOut = new Float64Array(1);

  /** A tree of at most `megabytes` MiB. */
  constructor(megabytes: number) {
    this.tree = new MctsTree(megabytes);
  }

  /** Forgets the tree (a new game). */
  reset(): void {
    this.tree.reset();
    this.rootPly = -1;
  }

  /**
   * Searches pos (which has at least one legal move) under the limits of
   * params until done or control.stopped; `fallback` (a legal move: the
   * short PVS's, or the first allowed one) is played if not even the root
   * can be scored. startTime: when the `go` arrived.
   */
  search(
    host: MctsHost,
    pos: Position,
    params: GoParams,
    options: SearchOptions,
    control: SearchControl,
    report: SearchReport,
    fallback: number,
    startTime: number,
  ): MctsResult {
    this.host = host;
    this.pos = pos;
    this.control = control;
    this.report = report;
    const config = driverConfig(options.driver);
    this.quiescence = config.quiescence;
    this.uniform = config.uniform;
    this.playouts = 0;
    this.depthSum = 0;
    this.maxDepth = 0;
    this.full = false;
    this.startTime = startTime;

    const reused = this.placeRoot(options.driver);
    if (reused > 0) report({ type: 'note', text: `mcts: reusing ${reused} playouts of the last search` });
    if (this.tree.childCount[0] === 0 && !this.expandRoot()) {
      return { move: fallback, pv: fallback === 0 ? [] : [fallback], score: 0 };
    }
    this.allowRootMoves(params);
    this.rootProofChanged = true;
    this.updateRootSolved();

    const budget = computeTimeBudget(params, pos.side, options.moveOverhead);
    this.softMs = budget.softMs > 0 ? budget.softMs * MCTS_TIME_SHARE : 0;
    this.hardMs = budget.hardMs;
    this.pondering = params.ponder;
    const nodeLimit = params.nodes !== undefined && params.nodes > 0 ? params.nodes : 0;
    const softNodes = params.softNodes !== undefined && params.softNodes > 0 ? params.softNodes : 0;
    const depthLimit = params.depth !== undefined && params.depth > 0 ? params.depth : 0;
    this.multiPv = Math.max(1, options.multiPv);
    this.reportedDepth = 0;
    this.lastReport = performance.now();

    for (;;) {
      if (this.control.stopped || this.rootSolved) break;
      if (this.full) {
        const mb = ((this.tree.capacity * NODE_BYTES) / (1024 * 1024)).toFixed(0);
        report({
          type: 'note',
          text: `mcts: the node pool (${this.tree.capacity} nodes, Hash ${mb} MB) is full after ${this.playouts} playouts; the search stops (raise Hash for longer searches)`,
        });
        break;
      }
      if (nodeLimit > 0 && this.playouts >= nodeLimit) break;
      if (softNodes > 0 && this.playouts >= softNodes) break;
      if (depthLimit > 0 && this.playouts > 0 && this.depthSum >= depthLimit * this.playouts) break;
      // (At least one playout, whatever the clock says: the move is then the tree's, not the fallback.)
      if ((this.playouts & (CLOCK_INTERVAL - 1)) === 0 && this.playouts > 0 && this.clockStops()) break;
      if (!this.playout()) break;
      if (this.rootProofChanged) this.updateRootSolved();
      if (this.depthSum >= (this.reportedDepth + 1) * this.playouts) {
        this.reportedDepth = Math.floor(this.depthSum / this.playouts);
        this.lastReport = performance.now();
        this.reportLines();
      }
    }

    const best = this.chooseRootChild();
    if (best === NO_NODE) return { move: fallback, pv: fallback === 0 ? [] : [fallback], score: 0 };
    const lines = this.reportLines();
    return { move: this.tree.move[best], pv: lines[0].pv, score: lines[0].score };
  }

  /**
   * The clock, every CLOCK_INTERVAL playouts: a ponderhit starts the time
   * control; lines are reported every REPORT_INTERVAL_MS; true when the
   * time is up (the hard limit, the soft budget, an only move) or the most
   * visited move can no longer be overtaken in the soft time left, at the
   * rate so far. No arguments and no double results: nothing is boxed.
   */
  private clockStops(): boolean {
    const now = performance.now();
    if (this.pondering && this.control.ponderhitReceived) {
      // From now on the normal time control applies, counted from the ponderhit.
      this.pondering = false;
      this.startTime = now;
    }
    if (now - this.lastReport >= REPORT_INTERVAL_MS) {
      this.lastReport = now;
      this.reportLines();
    }
    if (this.pondering) return false;
    const elapsed = now - this.startTime;
    if (this.hardMs > 0 && elapsed >= this.hardMs) return true;
    if (this.softMs <= 0) return false;
    if (elapsed >= this.softMs) return true;
    if (this.allowedCount === 1 && this.playouts >= ONLY_MOVE_PLAYOUTS) return true;
    if (this.playouts < CLOCK_INTERVAL * 4 || elapsed <= 0) return false;
    return this.visitLead() > ((this.softMs - elapsed) * this.playouts) / elapsed;
  }

  /** Visits of the most visited allowed root move less those of the second. */
  private visitLead(): number {
    const tree = this.tree;
    const first = tree.firstChild[0];
    let a = 0;
    let b = 0;
    for (let i = 0; i < tree.childCount[0]; i++) {
      if (this.rootAllowed[i] === 0) continue;
      const v = tree.visits[first + i];
      if (v > a) {
        b = a;
        a = v;
      } else if (v > b) {
        b = v;
      }
    }
    return a - b;
  }

  // ---------------------------------------------------------------------------
  // The root.

  /**
   * Makes pos the root: the subtree of the old root's child and grandchild
   * when pos is that position of the same game (or the child, or the old
   * root itself), else an empty tree. Returns the playouts kept.
   */
  private placeRoot(driver: SearchDriver): number {
    const pos = this.pos;
    const tree = this.tree;
    const evaluator = networkInUse();
    let kept = false;
    if (this.rootPly >= 0 && this.rootDriver === driver && this.rootEvaluator === evaluator && tree.childCount[0] > 0) {
      for (let k = 0; k <= 2 && !kept; k++) {
        const at = pos.ply - k;
        if (at !== this.rootPly || !this.sameHistory(at)) continue;
        let node = 0;
        for (let j = 0; j < k && node !== NO_NODE; j++) node = tree.childWithMove(node, pos.stackMove[at + j]);
        if (node === NO_NODE) continue;
        tree.keepSubtree(node);
        kept = tree.top <= tree.capacity * REUSE_MAX_SHARE;
      }
    }
    if (!kept) tree.reset();
    this.rootPly = pos.ply;
    this.rootKeyLo = pos.keyLo;
    this.rootKeyHi = pos.keyHi;
    const n = Math.min(HISTORY_KEYS, pos.ply);
    for (let i = 0; i < n; i++) {
      this.rootHistory[2 * i] = pos.stackKeyLo[pos.ply - 1 - i];
      this.rootHistory[2 * i + 1] = pos.stackKeyHi[pos.ply - 1 - i];
    }
    this.rootEvaluator = evaluator;
    this.rootDriver = driver;
    return kept ? tree.visits[0] : 0;
  }

  /** Whether the game position at ply `at` is the old root, with the same positions before it. */
  private sameHistory(at: number): boolean {
    const pos = this.pos;
    const lo = at === pos.ply ? pos.keyLo : pos.stackKeyLo[at];
    const hi = at === pos.ply ? pos.keyHi : pos.stackKeyHi[at];
    if (lo !== this.rootKeyLo || hi !== this.rootKeyHi) return false;
    const n = Math.min(HISTORY_KEYS, at);
    for (let i = 0; i < n; i++) {
      if (pos.stackKeyLo[at - 1 - i] !== this.rootHistory[2 * i] || pos.stackKeyHi[at - 1 - i] !== this.rootHistory[2 * i + 1])
        return false;
    }
    return true;
  }

  /** Expands a new root and scores it (its first visit); false if interrupted. */
  private expandRoot(): boolean {
    const tree = this.tree;
    if (!this.leafValue()) return false;
    const value = this.leafOut[0];
    const count = generateMoves(this.pos, this.moves, 0, false);
    if (!tree.hasRoom(count)) tree.reset();
    this.expand(0, count);
    // A kept leaf has its visits already.
    if (tree.visits[0] === 0) {
      tree.visits[0] = 1;
      tree.q[0] = 0 - value;
    }
    return true;
  }

  /** Marks the root moves searchmoves allows (all when it names none that is legal). */
  private allowRootMoves(params: GoParams): void {
    const tree = this.tree;
    const first = tree.firstChild[0];
    const count = tree.childCount[0];
    let allowed = 0;
    for (let i = 0; i < count; i++) {
      const ok = params.searchmoves.length === 0 || params.searchmoves.includes(moveToUci(this.pos, tree.move[first + i]));
      this.rootAllowed[i] = ok ? 1 : 0;
      if (ok) allowed++;
    }
    if (allowed === 0) {
      this.report({ type: 'note', text: 'none of the searchmoves is legal here; searching all moves' });
      this.rootAllowed.fill(1, 0, count);
      allowed = count;
    }
    this.allowedCount = allowed;
  }

  /** Recomputes rootSolved from the allowed root children's proofs. */
  private updateRootSolved(): void {
    this.rootProofChanged = false;
    const tree = this.tree;
    const first = tree.firstChild[0];
    let allProven = true;
    for (let i = 0; i < tree.childCount[0]; i++) {
      if (this.rootAllowed[i] === 0) continue;
      const proof = tree.proof[first + i];
      if (proof >= 2) {
        this.rootSolved = true;
        return;
      }
      if (proof === PROOF_NONE) allProven = false;
    }
    this.rootSolved = allProven;
  }

  // ---------------------------------------------------------------------------
  // Playouts.

  /** One playout from the root: select, score and expand a leaf, back up. False if interrupted (nothing changed). */
  private playout(): boolean {
    const tree = this.tree;
    const pos = this.pos;
    const path = this.path;
    let node = 0;
    let depth = 0;
    path[0] = 0;
    // The value of path[depth] for the side that moved into it.
    let value: number;
    for (;;) {
      const child = this.select(node, depth === 0);
      if (child === NO_NODE) {
        for (let i = 0; i < depth; i++) pos.unmakeMove();
        return false;
      }
      pos.makeMove(tree.move[child]);
      path[++depth] = child;
      node = child;
      const proof = tree.proof[node];
      if (proof !== PROOF_NONE) {
        // (Through leafOut, as the other values: a variable mixing integers and fractions would be boxed.)
        this.leafOut[0] = proof === PROOF_DRAW ? 0 : proof > 0 ? -1 : 1;
        value = 0 - this.leafOut[0];
        break;
      }
      if (tree.childCount[node] === 0) {
        if (!this.scoreLeaf(node, depth)) {
          for (let i = 0; i < depth; i++) pos.unmakeMove();
          return false;
        }
        value = 0 - this.leafOut[0];
        break;
      }
    }
    for (let i = 0; i < depth; i++) pos.unmakeMove();

    // Back up, from the leaf's mover's view, negated at each ply.
    for (let i = depth; i >= 0; i--) {
      const n = path[i];
      const visits = tree.visits[n] + 1;
      tree.visits[n] = visits;
      tree.q[n] += (value - tree.q[n]) / visits;
      value = 0 - value;
    }
    if (tree.proof[path[depth]] !== PROOF_NONE) this.propagateProof(depth);
    this.playouts++;
    this.depthSum += depth;
    if (depth > this.maxDepth) this.maxDepth = depth;
    return true;
  }

  /** The child of `node` to descend into by PUCT; NO_NODE when none may be (at the root: all excluded). */
  private select(node: number, atRoot: boolean): number {
    const tree = this.tree;
    const first = tree.firstChild[node];
    const end = first + tree.childCount[node];
    let visitedPolicy = 0;
    for (let c = first; c < end; c++) if (tree.visits[c] > 0) visitedPolicy += tree.prior[c];
    // An unvisited move is taken to be somewhat worse than this node's average for its side to move.
    const fpu = 0 - tree.q[node] - MCTS_FPU_REDUCTION * Math.sqrt(visitedPolicy);
    const explore = MCTS_CPUCT * Math.sqrt(tree.visits[node]);
    let best = NO_NODE;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let c = first; c < end; c++) {
      if (atRoot && this.rootAllowed[c - first] === 0) continue;
      const proof = tree.proof[c];
      const n = tree.visits[c];
      let score: number;
      if (proof === PROOF_NONE) score = (n > 0 ? tree.q[c] : fpu) + (explore * tree.prior[c]) / (1 + n);
      else if (proof === PROOF_DRAW) score = (explore * tree.prior[c]) / (1 + n);
      else if (proof > 0) return c;
      else score = LOST_SCORE + proofPlies(proof);
      if (score > bestScore) {
        bestScore = score;
        best = c;
      }
    }
    return best;
  }

  /**
   * Scores the leaf `node` (the position pos is in, `depth` plies below the
   * root) for its side to move, in [-1, 1], into leafOut[0], and expands
   * it; a finished game gets its exact value and a proof instead. False if
   * the quiescence search was interrupted.
   */
  private scoreLeaf(node: number, depth: number): boolean {
    const pos = this.pos;
    const tree = this.tree;
    if (pos.isRepetition() || cannotMate(pos)) {
      tree.proof[node] = PROOF_DRAW;
      this.leafOut[0] = 0;
      return true;
    }
    const count = generateMoves(pos, this.moves, 0, false);
    if (count === 0) {
      // Checkmate: the side that moved here wins; stalemate: a draw.
      const mated = pos.inCheck();
      tree.proof[node] = mated ? provenWin(0) : PROOF_DRAW;
      this.leafOut[0] = mated ? -1 : 0;
      return true;
    }
    // A mate on the hundredth half-move still counts as mate (found above).
    if (pos.halfmove >= 100) {
      tree.proof[node] = PROOF_DRAW;
      this.leafOut[0] = 0;
      return true;
    }
    // Scored first, so that the quiescence search's table entry can name the priors' table move.
    if (!this.leafValue()) return false;
    if (depth < MAX_TREE_DEPTH) {
      if (tree.hasRoom(count)) this.expand(node, count);
      else this.full = true;
    }
    return true;
  }

  /** The value of pos for its side to move, into leafOut[0]: the network's evaluation or quiescence search's score; false if interrupted. */
  private leafValue(): boolean {
    let cp: number;
    if (this.quiescence) {
      cp = this.host.leafQuiescence();
      if (this.host.interrupted) return false;
    } else {
      cp = evaluate(this.pos);
    }
    this.leafOut[0] = scoreToValue(cp);
    return true;
  }

  /** Gives `node` (the position pos is in) its children: this.moves[0..count), with their priors. */
  private expand(node: number, count: number): void {
    const tree = this.tree;
    const pos = this.pos;
    const tt = this.host.tt;
    const ttMove = tt.probe(pos.keyLo, pos.keyHi) ? tt.move : 0;
    const first = tree.expand(node, count);
    for (let i = 0; i < count; i++) tree.move[first + i] = this.moves[i];
    computePriors(pos, this.host.history, ttMove, this.moves, count, tree.prior, first, this.uniform, this.logits);
  }

  /**
   * The MCTS-solver: path[depth] has just been proven; the proof climbs the
   * path while it settles each parent (not the root, whose moves searchmoves
   * may restrict: see updateRootSolved).
   */
  private propagateProof(depth: number): void {
    const tree = this.tree;
    for (let i = depth - 1; i >= 1; i--) {
      const proof = this.solve(this.path[i]);
      if (proof === PROOF_NONE) return;
      tree.proof[this.path[i]] = proof;
    }
    this.rootProofChanged = true;
  }

  /**
   * The proof of an expanded node from its children's (its side to move
   * moves into them): lost for its mover if one child wins (the fastest mate),
   * won if every child loses (the slowest), a draw if every child is proven
   * and the best is a draw, else PROOF_NONE.
   */
  private solve(node: number): number {
    const tree = this.tree;
    const first = tree.firstChild[node];
    const end = first + tree.childCount[node];
    let winPlies = -1;
    let lossPlies = -1;
    let draw = false;
    let allProven = true;
    for (let c = first; c < end; c++) {
      const proof = tree.proof[c];
      if (proof === PROOF_NONE) allProven = false;
      else if (proof === PROOF_DRAW) draw = true;
      else if (proof > 0) {
        const plies = proofPlies(proof);
        if (winPlies < 0 || plies < winPlies) winPlies = plies;
      } else lossPlies = Math.max(lossPlies, proofPlies(proof));
    }
    if (winPlies >= 0) return provenLoss(winPlies + 1);
    if (!allProven) return PROOF_NONE;
    return draw ? PROOF_DRAW : provenWin(lossPlies + 1);
  }

  // ---------------------------------------------------------------------------
  // Move choice and reports.

  /**
   * The child of `node` to play: a proven win (the fastest), else the most
   * visited move not proven lost, Q deciding among those with at least
   * MCTS_VISIT_TIE_SHARE of its visits; when every move loses, the slowest
   * loss. NO_NODE when no child has a visit or a proof.
   */
  private bestChild(node: number, atRoot: boolean): number {
    const tree = this.tree;
    const first = tree.firstChild[node];
    const end = first + tree.childCount[node];
    let win = NO_NODE;
    let loss = NO_NODE;
    let maxVisits = 0;
    for (let c = first; c < end; c++) {
      if (atRoot && this.rootAllowed[c - first] === 0) continue;
      const proof = tree.proof[c];
      if (proof >= 2) {
        if (win === NO_NODE || proofPlies(proof) < proofPlies(tree.proof[win])) win = c;
      } else if (proof <= -2) {
        if (loss === NO_NODE || proofPlies(proof) > proofPlies(tree.proof[loss])) loss = c;
      } else if (tree.visits[c] > maxVisits) {
        maxVisits = tree.visits[c];
      }
    }
    if (win !== NO_NODE) return win;
    if (maxVisits === 0) return loss;
    let best = NO_NODE;
    let bestQ = Number.NEGATIVE_INFINITY;
    for (let c = first; c < end; c++) {
      if ((atRoot && this.rootAllowed[c - first] === 0) || tree.proof[c] <= -2) continue;
      if (tree.visits[c] < maxVisits * MCTS_VISIT_TIE_SHARE) continue;
      const q = tree.proof[c] === PROOF_DRAW ? 0 : tree.q[c];
      if (q > bestQ) {
        bestQ = q;
        best = c;
      }
    }
    return best;
  }

  private chooseRootChild(): number {
    return this.bestChild(0, true);
  }

  /** The score of root child c for the side to move at the root. */
  private childScore(c: number): number {
    const proof = this.tree.proof[c];
    if (proof === PROOF_DRAW) return 0;
    if (proof >= 2) return MATE - (proofPlies(proof) + 1);
    if (proof <= -2) return -(MATE - (proofPlies(proof) + 1));
    return valueToScore(this.tree.q[c]);
  }

  /** The line from root child c along the best children. */
  private lineFrom(c: number): number[] {
    const tree = this.tree;
    const pv = [tree.move[c]];
    let node = c;
    while (pv.length < MAX_PLY && tree.childCount[node] > 0) {
      node = this.bestChild(node, false);
      if (node === NO_NODE) break;
      pv.push(tree.move[node]);
    }
    return pv;
  }

  /**
   * Reports the best `multiPv` root moves' lines: the move chosen first, then
   * by visits. Depth is the highest average depth of this search's leaves
   * so far (rounded down), seldepth the deepest leaf; nodes are playouts; hashfull is the node pool's use.
   * Returns the lines.
   */
  private reportLines(): { score: number; pv: number[] }[] {
    const multiPv = this.multiPv;
    const tree = this.tree;
    const first = tree.firstChild[0];
    const best = this.chooseRootChild();
    const order: number[] = [];
    if (best !== NO_NODE) order.push(best);
    for (let i = 0; i < tree.childCount[0]; i++) {
      const c = first + i;
      if (this.rootAllowed[i] === 1 && c !== best && (tree.visits[c] > 0 || tree.proof[c] !== PROOF_NONE)) order.push(c);
    }
    const rest = order.slice(1).sort((a, b) => tree.visits[b] - tree.visits[a]);
    const lines: { score: number; pv: number[] }[] = [];
    const timeMs = Math.max(1, Math.round(performance.now() - this.startTime));
    const depth = Math.max(1, this.reportedDepth);
    const chosen = order.length > 0 ? [order[0], ...rest].slice(0, multiPv) : [];
    for (let k = 0; k < chosen.length; k++) {
      const line = { score: this.childScore(chosen[k]), pv: this.lineFrom(chosen[k]) };
      lines.push(line);
      this.report({
        type: 'line',
        depth,
        seldepth: Math.max(depth, this.maxDepth),
        multipv: k + 1,
        score: line.score,
        bound: 'exact',
        nodes: this.playouts,
        timeMs,
        hashfull: this.tree.usedPermille(),
        pv: line.pv,
      });
    }
    return lines;
  }
}
