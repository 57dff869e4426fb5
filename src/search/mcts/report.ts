// What the tree search (mcts.ts) makes of its tree: the move to play, the
// lines and scores it reports, and the mapping between centipawns and values
// in [-1, 1]. It only reads the tree. A proven win is always chosen; else
// the most visited move, Q deciding among those within MCTS_VISIT_TIE_SHARE
// of it. Scores are the side to move's at the root: a mate score when
// proven, else centipawns from Q, bounded by ±MAX_CP.

import { MAX_PLY } from '../../board/types.js';
import type { SearchReport } from '../limits.js';
import { type MctsTree, NO_NODE, PROOF_DRAW, PROOF_NONE, proofPlies } from './tree.js';
import { MCTS_VALUE_SCALE, MCTS_VISIT_TIE_SHARE } from '../params.js';
import { DECISIVE_BOUND, MATE } from '../score.js';

/** The largest centipawn score reported for an unproven Q (Q of ±1 would be infinite). */
const MAX_CP = 10000;

/** A reported line: its score (side to move's view at the root) and its moves. */
export interface RootLine {
  score: number;
  pv: number[];
}

/** A score in centipawns (side to move's view) as a value in [-1, 1]: 2 sigmoid(cp / scale) - 1. */
export function scoreToValue(cp: number): number {
  if (cp >= DECISIVE_BOUND) return 1;
  if (cp <= -DECISIVE_BOUND) return -1;
  return Math.tanh(cp / (2 * MCTS_VALUE_SCALE));
}

/** The inverse of scoreToValue, bounded by ±MAX_CP. */
export function valueToScore(q: number): number {
  if (q >= 1) return MAX_CP;
  if (q <= -1) return -MAX_CP;
  const cp = Math.round(MCTS_VALUE_SCALE * Math.log((1 + q) / (1 - q)));
  return cp > MAX_CP ? MAX_CP : cp < -MAX_CP ? -MAX_CP : cp;
}

/**
 * The child of `node` to play: a proven win (the fastest), else the most
 * visited move not proven lost, Q deciding among those with at least
 * MCTS_VISIT_TIE_SHARE of its visits; when every move loses, the slowest
 * loss. allowed (at the root; null elsewhere): the children by edge that
 * may be chosen (1). NO_NODE when no child has a visit or a proof.
 */
export function bestChild(tree: MctsTree, node: number, allowed: Uint8Array | null): number {
  let win = NO_NODE;
  let loss = NO_NODE;
  let maxVisits = 0;
  for (let c = tree.firstChild(node); c !== NO_NODE; c = tree.nextSibling(c)) {
    if (allowed !== null && allowed[tree.edgeIndex(c)] === 0) continue;
    const proof = tree.proof(c);
    if (proof >= 2) {
      if (win === NO_NODE || proofPlies(proof) < proofPlies(tree.proof(win))) win = c;
    } else if (proof <= -2) {
      if (loss === NO_NODE || proofPlies(proof) > proofPlies(tree.proof(loss))) loss = c;
    } else if (tree.visits(c) > maxVisits) {
      maxVisits = tree.visits(c);
    }
  }
  if (win !== NO_NODE) return win;
  if (maxVisits === 0) return loss;
  let best = NO_NODE;
  let bestQ = Number.NEGATIVE_INFINITY;
  for (let c = tree.firstChild(node); c !== NO_NODE; c = tree.nextSibling(c)) {
    if ((allowed !== null && allowed[tree.edgeIndex(c)] === 0) || tree.proof(c) <= -2) continue;
    if (tree.visits(c) < maxVisits * MCTS_VISIT_TIE_SHARE) continue;
    const q = tree.proof(c) === PROOF_DRAW ? 0 : tree.q(c);
    if (q > bestQ) {
      bestQ = q;
      best = c;
    }
  }
  return best;
}

/** The score of root child c for the side to move at the root. */
function childScore(tree: MctsTree, c: number): number {
  const proof = tree.proof(c);
  if (proof === PROOF_DRAW) return 0;
  if (proof >= 2) return MATE - (proofPlies(proof) + 1);
  if (proof <= -2) return -(MATE - (proofPlies(proof) + 1));
  return valueToScore(tree.q(c));
}

/** The line from root child c along the best children. */
function lineFrom(tree: MctsTree, c: number): number[] {
  const pv = [tree.moveTo(0, c)];
  let node = c;
  while (pv.length < MAX_PLY) {
    const next = bestChild(tree, node, null);
    if (next === NO_NODE) break;
    pv.push(tree.moveTo(node, next));
    node = next;
  }
  return pv;
}

/** What a report says besides the lines (see reportLines). */
export interface LineStats {
  multiPv: number;
  /** The highest average leaf depth of this search so far, rounded down. */
  depth: number;
  /** The deepest leaf. */
  maxDepth: number;
  playouts: number;
  /** When the search started (performance.now()). */
  startTime: number;
}

/**
 * Reports the best `multiPv` allowed root moves' lines: the move chosen
 * first, then by visits. Depth is stats.depth (at least 1), seldepth the
 * deepest leaf, nodes the playouts, hashfull the share of the tree's memory
 * in use. Returns the lines.
 */
export function reportLines(tree: MctsTree, allowed: Uint8Array, stats: LineStats, report: SearchReport): RootLine[] {
  const best = bestChild(tree, 0, allowed);
  const order: number[] = [];
  if (best !== NO_NODE) order.push(best);
  for (let c = tree.firstChild(0); c !== NO_NODE; c = tree.nextSibling(c)) {
    if (allowed[tree.edgeIndex(c)] === 1 && c !== best && (tree.visits(c) > 0 || tree.proof(c) !== PROOF_NONE)) order.push(c);
  }
  const rest = order.slice(1).sort((a, b) => tree.visits(b) - tree.visits(a));
  const lines: RootLine[] = [];
  const timeMs = Math.max(1, Math.round(performance.now() - stats.startTime));
  const depth = Math.max(1, stats.depth);
  const chosen = order.length > 0 ? [order[0], ...rest].slice(0, stats.multiPv) : [];
  for (let k = 0; k < chosen.length; k++) {
    const line = { score: childScore(tree, chosen[k]), pv: lineFrom(tree, chosen[k]) };
    lines.push(line);
    report({
      type: 'line',
      tbhits: null,
      depth,
      seldepth: Math.max(depth, stats.maxDepth),
      multipv: k + 1,
      score: line.score,
      bound: 'exact',
      nodes: stats.playouts,
      timeMs,
      hashfull: tree.usedPermille(),
      pv: line.pv,
    });
  }
  return lines;
}
