// Monte Carlo tree search, as AlphaZero and Leela Chess Zero search, over
// Kestrel's network: the `mcts` drivers (SearchDriver). docs/mcts.md tells
// the whole story; in short, each playout
//   1. selects from the root down by PUCT, Q + c P sqrt(N_parent) / (1 + N),
//      an unvisited child counting as its parent's Q less a first-play
//      urgency reduction (MCTS_FPU_REDUCTION * sqrt(visited children's priors));
//   2. at the first move not yet taken, creates the node of the position it
//      leads to and scores it: exactly when the game is over there (mate,
//      stalemate, repetition, fifty moves, no mating material), else by the
//      network's evaluation (`mcts`) or a quiescence search (`mcts-qs`), as
//      an expected score sigmoid(cp / 400) mapped to [-1, 1]; a node gets its
//      moves with their priors (priors.ts) when a playout reaches it
//      again (tree.ts: moves tried by no playout cost only an edge);
//   3. backs the value up, negated at each ply, into every node's mean Q,
//      and proves what it can (the MCTS-solver, solver.ts): a node with
//      a mating move is won, one whose every move loses is lost, mate
//      distances kept.
// The move played is the most visited root move, Q deciding among those
// within a few percent of it; a proven win is played at once (report.ts,
// which also reports the lines).
// When the tree fills its memory it stops growing, and playouts go on through
// it: a leaf that cannot be expanded, or a node whose untried moves cannot
// get a node, gives back its stored value (see playout()).
//
// The Driver (../driver.ts) runs this search when options.driver is one of the
// mcts drivers: it runs the short PVS that fills the table and histories
// first, and keeps the tree (sized by Hash) between searches, so that the
// subtree of the moves played since the last search is searched on
// (root.ts). A Searcher (../search.ts), as MctsHost, supplies the
// transposition table, the histories and the quiescence search.

import { generateMoves } from '../../board/movegen.js';
import type { Position } from '../../board/position.js';
import { cannotMate } from '../../board/rules.js';
import { MAX_MOVES, MAX_PLY } from '../../board/types.js';
import { evaluate } from '../../eval/index.js';
import type { SearchControl } from '../control.js';
import type { MoveHistory } from '../history.js';
import { mctsSpec } from '../driver-list.js';
import type { GoParams, SearchOptions, SearchReport } from '../limits.js';
import { computePriors } from './priors.js';
import { type RootLine, bestChild, reportLines, scoreToValue } from './report.js';
import { MctsRoot, allowRootMoves } from './root.js';
import { propagateProof, rootSolved } from './solver.js';
import {
  MctsTree,
  NODE_WORDS,
  NO_NODE,
  N_CHILD,
  N_EDGES,
  N_META,
  N_Q,
  N_SIBLING,
  N_VISITS,
  PROOF_DRAW,
  PROOF_NONE,
  proofPlies,
  provenWin,
} from './tree.js';
import { MCTS_CPUCT, MCTS_FPU_REDUCTION, MCTS_TIME_SHARE } from '../params.js';
import { computeTimeBudget } from '../timeman.js';
import type { TranspositionTable } from '../tt.js';

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
/** The search ends when the root has this many visits (the counts are 32-bit; a full tree is searched on at millions of playouts a second). */
const MAX_ROOT_VISITS = 1 << 30;
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

export class Mcts {
  readonly tree: MctsTree;
  /** The nodes of the current playout, root first. */
  private readonly path = new Int32Array(MAX_PLY + 1);
  private readonly moves = new Int32Array(MAX_MOVES);
  private readonly logits = new Float64Array(MAX_MOVES);
  /** Root children that searchmoves allows (by offset from the first child). */
  private readonly rootAllowed = new Uint8Array(MAX_MOVES);
  private allowedCount = 0;
  /** What the root is, for the tree's reuse by the next search. */
  private readonly root = new MctsRoot();

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
  /** The tree has stopped growing (its pool is full): said once in an info string. */
  private full = false;
  private fullNoted = false;
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
  /** scoreLeaf()'s proof of the leaf. */
  private leafProof = PROOF_NONE;
  /** select()'s child node of the edge chosen (NO_NODE: not taken yet), and the child before it in edge order. */
  private selChild = NO_NODE;
  private selPrev = NO_NODE;

  /** A tree of at most `megabytes` MiB. */
  constructor(megabytes: number) {
    this.tree = new MctsTree(megabytes);
  }

  /** Forgets the tree (a new game). */
  reset(): void {
    this.tree.reset();
    this.root.forget();
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
    // The leaf value and the priors of the driver.
    const spec = mctsSpec(options.driver)!;
    this.quiescence = spec.leaf === 'quiescence';
    this.uniform = spec.priors === 'uniform';
    this.playouts = 0;
    this.depthSum = 0;
    this.maxDepth = 0;
    this.full = false;
    this.fullNoted = false;
    this.startTime = startTime;

    const reused = this.root.place(this.tree, pos, options.driver);
    if (reused > 0) report({ type: 'note', text: `mcts: reusing ${reused} playouts of the last search` });
    if (this.tree.edgeCount(0) === 0 && !this.expandRoot()) {
      return { move: fallback, pv: fallback === 0 ? [] : [fallback], score: 0 };
    }
    this.allowedCount = allowRootMoves(this.tree, pos, params, this.rootAllowed, report);
    // A tree grown under searchmoves has its root's visits on those moves only: the next search starts afresh.
    if (this.allowedCount < this.tree.edgeCount(0)) this.root.forget();
    this.rootProofChanged = false;
    this.rootSolved = rootSolved(this.tree, this.rootAllowed);

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
    // A full tree searches on only under a limit that ends the search anyway
    // (its depth barely grows any more, and no proof may come).
    const bounded = nodeLimit > 0 || softNodes > 0 || this.softMs > 0 || this.hardMs > 0 || params.infinite || params.ponder;

    for (;;) {
      if (this.control.stopped || this.rootSolved) break;
      if (this.full && !this.fullNoted) {
        this.fullNoted = true;
        const mb = Math.round((this.tree.words * 4) / (1024 * 1024));
        const next = bounded ? 'it stops growing and the search goes on through it' : 'with no node or time limit the search stops there';
        report({
          type: 'note',
          text: `mcts: the tree fills its ${mb} MB (Hash) after ${this.playouts} playouts; ${next} (raise Hash for a bigger tree)`,
        });
        if (!bounded) break;
      }
      if (this.tree.i32[N_VISITS] >= MAX_ROOT_VISITS) break;
      if (nodeLimit > 0 && this.playouts >= nodeLimit) break;
      if (softNodes > 0 && this.playouts >= softNodes) break;
      if (depthLimit > 0 && this.playouts > 0 && this.depthSum >= depthLimit * this.playouts) break;
      // (At least one playout, whatever the clock says: the move is then the tree's, not the fallback.)
      if ((this.playouts & (CLOCK_INTERVAL - 1)) === 0 && this.playouts > 0 && this.clockStops()) break;
      if (!this.playout()) break;
      if (this.rootProofChanged) {
        this.rootProofChanged = false;
        this.rootSolved = rootSolved(this.tree, this.rootAllowed);
      }
      if (this.depthSum >= (this.reportedDepth + 1) * this.playouts) {
        this.reportedDepth = Math.floor(this.depthSum / this.playouts);
        this.lastReport = performance.now();
        this.reportLines();
      }
    }

    const best = bestChild(this.tree, 0, this.rootAllowed);
    if (best === NO_NODE) return { move: fallback, pv: fallback === 0 ? [] : [fallback], score: 0 };
    const lines = this.reportLines();
    return { move: this.tree.moveTo(0, best), pv: lines[0].pv, score: lines[0].score };
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
    let a = 0;
    let b = 0;
    for (let c = tree.firstChild(0); c !== NO_NODE; c = tree.nextSibling(c)) {
      if (this.rootAllowed[tree.edgeIndex(c)] === 0) continue;
      const v = tree.visits(c);
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

  /** Expands a new root and scores it (its first visit); false if interrupted. */
  private expandRoot(): boolean {
    const tree = this.tree;
    if (!this.leafValue()) return false;
    const value = this.leafOut[0];
    const count = generateMoves(this.pos, this.moves, 0, false);
    if (!tree.hasRoomToExpand(count)) tree.reset();
    this.expand(0, count);
    // A kept leaf has its visits already.
    if (tree.visits(0) === 0) {
      tree.i32[N_VISITS] = 1;
      tree.f32[N_Q] = 0 - value;
    }
    return true;
  }

  // ---------------------------------------------------------------------------
  // Playouts.

  /**
   * One playout from the root: select down the tree, take the first move
   * not taken yet (scoring its position, a new node), back up. False if
   * interrupted (nothing changed).
   *
   * When the tree is full it stops growing and the playouts go on through
   * it: a node that cannot be expanded (no room for its edges, or too deep)
   * gives back its stored value, as does one whose untried moves can get no
   * node (only the moves taken already are selected then). The visits keep
   * accumulating over the tree's leaves, so the move choice keeps improving
   * on what the tree knows.
   */
  private playout(): boolean {
    const tree = this.tree;
    const i32 = tree.i32;
    const f32 = tree.f32;
    const pos = this.pos;
    const path = this.path;
    // Room for this playout's node (one at most; an expansion also checks for it).
    const grow = tree.hasNodeRoom();
    if (!grow) this.full = true;
    let node = 0;
    let depth = 0;
    path[0] = 0;
    // The value of path[depth] for the side that moved into it.
    let value: number;
    for (;;) {
      const e = this.select(node, depth === 0, grow);
      if (e < 0) {
        // (At the root: no move may be selected.)
        if (depth === 0) return false;
        value = f32[node * NODE_WORDS + N_Q];
        break;
      }
      const child = this.selChild;
      pos.makeMove(tree.move(node, e));
      depth++;
      if (child === NO_NODE) {
        // The leaf: a move taken for the first time.
        if (!this.scoreLeaf()) {
          for (let i = 0; i < depth; i++) pos.unmakeMove();
          return false;
        }
        path[depth] = tree.addChild(node, e, this.selPrev, this.leafProof);
        value = 0 - this.leafOut[0];
        break;
      }
      path[depth] = child;
      node = child;
      const proof = i32[node * NODE_WORDS + N_META] >> 16;
      if (proof !== PROOF_NONE) {
        // (Through leafOut, as the other values: a variable mixing integers and fractions would be boxed.)
        this.leafOut[0] = proof === PROOF_DRAW ? 0 : proof > 0 ? -1 : 1;
        value = 0 - this.leafOut[0];
        break;
      }
      // The second visit of a node expands it; if it cannot be, its stored value stands for it.
      if (i32[node * NODE_WORDS + N_EDGES] === NO_NODE && !this.expandNode(node, depth)) {
        value = f32[node * NODE_WORDS + N_Q];
        break;
      }
    }
    for (let i = 0; i < depth; i++) pos.unmakeMove();

    // Back up, from the leaf's mover's view, negated at each ply.
    for (let i = depth; i >= 0; i--) {
      const b = path[i] * NODE_WORDS;
      const visits = i32[b + N_VISITS] + 1;
      i32[b + N_VISITS] = visits;
      f32[b + N_Q] += (value - f32[b + N_Q]) / visits;
      value = 0 - value;
    }
    if (tree.proof(path[depth]) !== PROOF_NONE && propagateProof(tree, path, depth)) this.rootProofChanged = true;
    this.playouts++;
    this.depthSum += depth;
    if (depth > this.maxDepth) this.maxDepth = depth;
    return true;
  }

  /**
   * The edge of the expanded `node` to descend by PUCT, -1 when none may be
   * (at the root: all excluded; in a tree that cannot grow: none taken
   * yet); leaves its child in selChild (NO_NODE: not taken yet) and the
   * child before it in edge order in selPrev. grow: untried moves may be
   * selected.
   */
  private select(node: number, atRoot: boolean, grow: boolean): number {
    const tree = this.tree;
    const i32 = tree.i32;
    const f32 = tree.f32;
    const NW = NODE_WORDS;
    const b = node * NW;
    const priors = i32[b + N_EDGES];
    const count = (i32[b + N_META] >> 8) & 0xff;
    let visitedPolicy = 0;
    for (let c = i32[b + N_CHILD]; c !== NO_NODE; c = i32[c * NW + N_SIBLING]) {
      if (i32[c * NW + N_VISITS] > 0) visitedPolicy += f32[priors + (i32[c * NW + N_META] & 0xff)];
    }
    // An unvisited move is taken to be somewhat worse than this node's average for its side to move.
    const fpu = 0 - f32[b + N_Q] - MCTS_FPU_REDUCTION * Math.sqrt(visitedPolicy);
    const explore = MCTS_CPUCT * Math.sqrt(i32[b + N_VISITS]);
    let best = -1;
    let bestChild = NO_NODE;
    let bestPrev = NO_NODE;
    let bestScore = Number.NEGATIVE_INFINITY;
    // The children come in edge order: `child` is the next, at edge `childEdge`; `prev` the last passed.
    let prev = NO_NODE;
    let child = i32[b + N_CHILD];
    let childEdge = child === NO_NODE ? count : i32[child * NW + N_META] & 0xff;
    for (let e = 0; e < count; e++) {
      if (e !== childEdge) {
        if (!grow || (atRoot && this.rootAllowed[e] === 0)) continue;
        const score = fpu + explore * f32[priors + e];
        if (score > bestScore) {
          bestScore = score;
          best = e;
          bestChild = NO_NODE;
          bestPrev = prev;
        }
        continue;
      }
      const c = child;
      prev = c;
      child = i32[c * NW + N_SIBLING];
      childEdge = child === NO_NODE ? count : i32[child * NW + N_META] & 0xff;
      if (atRoot && this.rootAllowed[e] === 0) continue;
      const proof = i32[c * NW + N_META] >> 16;
      const n = i32[c * NW + N_VISITS];
      let score: number;
      if (proof === PROOF_NONE) score = (n > 0 ? f32[c * NW + N_Q] : fpu) + (explore * f32[priors + e]) / (1 + n);
      else if (proof === PROOF_DRAW) score = (explore * f32[priors + e]) / (1 + n);
      else if (proof > 0) {
        this.selChild = c;
        return e;
      } else score = LOST_SCORE + proofPlies(proof);
      if (score > bestScore) {
        bestScore = score;
        best = e;
        bestChild = c;
      }
    }
    this.selChild = bestChild;
    this.selPrev = bestPrev;
    return best;
  }

  /**
   * Scores the position pos is in (a new leaf) for its side to move, in
   * [-1, 1], into leafOut[0], and its proof into leafProof: exact when the
   * game is over there. False if the quiescence search was interrupted.
   */
  private scoreLeaf(): boolean {
    const pos = this.pos;
    if (pos.isRepetition() || cannotMate(pos)) {
      this.leafProof = PROOF_DRAW;
      this.leafOut[0] = 0;
      return true;
    }
    const count = generateMoves(pos, this.moves, 0, false);
    if (count === 0) {
      // Checkmate: the side that moved here wins; stalemate: a draw.
      const mated = pos.inCheck();
      this.leafProof = mated ? provenWin(0) : PROOF_DRAW;
      this.leafOut[0] = mated ? -1 : 0;
      return true;
    }
    // A mate on the hundredth half-move still counts as mate (found above).
    if (pos.halfmove >= 100) {
      this.leafProof = PROOF_DRAW;
      this.leafOut[0] = 0;
      return true;
    }
    this.leafProof = PROOF_NONE;
    return this.leafValue();
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

  /**
   * Expands `node` (the position pos is in, `depth` plies below the root,
   * scored at its first visit: with `mcts-qs` its quiescence search's table
   * entry can name the priors' table move); false if it cannot be, the
   * tree being full or this deep.
   */
  private expandNode(node: number, depth: number): boolean {
    if (depth >= MAX_TREE_DEPTH) return false;
    const count = generateMoves(this.pos, this.moves, 0, false);
    if (count === 0) return false;
    if (!this.tree.hasRoomToExpand(count)) {
      this.full = true;
      return false;
    }
    this.expand(node, count);
    return true;
  }

  /** Gives `node` (the position pos is in) its edges: this.moves[0..count), with their priors. */
  private expand(node: number, count: number): void {
    const tree = this.tree;
    const pos = this.pos;
    const tt = this.host.tt;
    const ttMove = tt.probe(pos.keyLo, pos.keyHi) ? tt.move : 0;
    const priors = tree.expand(node, this.moves, count);
    computePriors(pos, this.host.history, ttMove, this.moves, count, tree.f32, priors, this.uniform, this.logits);
  }

  /** Reports the lines of the best root moves (report.ts); returns them. */
  private reportLines(): RootLine[] {
    return reportLines(
      this.tree,
      this.rootAllowed,
      { multiPv: this.multiPv, depth: this.reportedDepth, maxDepth: this.maxDepth, playouts: this.playouts, startTime: this.startTime },
      this.report,
    );
  }
}
