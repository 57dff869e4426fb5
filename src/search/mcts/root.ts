// The root of the tree search (mcts.ts). Between searches the tree is kept
// only when the new root is the old root, or its child or grandchild along
// the moves played, in the same game (the same HISTORY_KEYS positions before
// it: repetitions depend on them), for the same driver and evaluation, and
// the subtree kept fills at most REUSE_MAX_SHARE of the pool; else the tree
// starts empty. In a search, only the root moves searchmoves allows count.

import type { Position } from '../../board/position.js';
import { networkInUse } from '../../eval/index.js';
import type { SearchDriver } from '../driver-list.js';
import { type GoParams, NO_LEGAL_SEARCHMOVES, type SearchReport, searchmovesAllow } from '../limits.js';
import { type MctsTree, NO_NODE } from './tree.js';

/** After a tree is kept for reuse, it is dropped instead if it fills more than this share of the pool. */
const REUSE_MAX_SHARE = 0.9;
/** Game positions before the root that must match for the tree to be reused (repetitions look this far back). */
const HISTORY_KEYS = 128;

/** What the tree's root is, for reuse: its key, its place in the game, the game's keys before it, and the evaluation and driver that built the tree. */
export class MctsRoot {
  private keyLo = 0;
  private keyHi = 0;
  /** -1: no root (the tree is not to be reused). */
  private ply = -1;
  private readonly history = new Int32Array(2 * HISTORY_KEYS);
  private evaluator: unknown = null;
  private driver: SearchDriver | null = null;

  /** Forgets the root (a new game): the next search starts an empty tree. */
  forget(): void {
    this.ply = -1;
  }

  /**
   * Makes pos the root of `tree`: the subtree of the old root's child and
   * grandchild when pos is that position of the same game (or the child, or
   * the old root itself), else an empty tree. Returns the playouts kept.
   */
  place(tree: MctsTree, pos: Position, driver: SearchDriver): number {
    const evaluator = networkInUse();
    let kept = false;
    if (this.ply >= 0 && this.driver === driver && this.evaluator === evaluator && tree.edgeCount(0) > 0) {
      for (let k = 0; k <= 2 && !kept; k++) {
        // By key, not by ply: the UCI loop re-bases its position at irreversible moves.
        const at = pos.ply - k;
        if (at < 0 || !this.sameHistory(pos, at)) continue;
        let node = 0;
        for (let j = 0; j < k && node !== NO_NODE; j++) node = tree.childWithMove(node, pos.stackMove[at + j]);
        if (node === NO_NODE) continue;
        tree.keepSubtree(node);
        kept = tree.bytesUsed() <= tree.words * 4 * REUSE_MAX_SHARE;
      }
    }
    if (!kept) tree.reset();
    this.ply = pos.ply;
    this.keyLo = pos.keyLo;
    this.keyHi = pos.keyHi;
    const n = Math.min(HISTORY_KEYS, pos.ply);
    for (let i = 0; i < n; i++) {
      this.history[2 * i] = pos.stackKeyLo[pos.ply - 1 - i];
      this.history[2 * i + 1] = pos.stackKeyHi[pos.ply - 1 - i];
    }
    this.evaluator = evaluator;
    this.driver = driver;
    return kept ? tree.visits(0) : 0;
  }

  /** Whether the game position at ply `at` of pos's game is the old root, with the same positions before it (as far as both know them). */
  private sameHistory(pos: Position, at: number): boolean {
    const lo = at === pos.ply ? pos.keyLo : pos.stackKeyLo[at];
    const hi = at === pos.ply ? pos.keyHi : pos.stackKeyHi[at];
    if (lo !== this.keyLo || hi !== this.keyHi) return false;
    const n = Math.min(HISTORY_KEYS, at, this.ply);
    for (let i = 0; i < n; i++) {
      if (pos.stackKeyLo[at - 1 - i] !== this.history[2 * i] || pos.stackKeyHi[at - 1 - i] !== this.history[2 * i + 1]) return false;
    }
    return true;
  }
}

/**
 * Marks in allowed[edge] (1 or 0) the moves of the root (pos, expanded)
 * that params.searchmoves allows: all when it names none that is legal,
 * which is reported. Returns how many are allowed.
 */
export function allowRootMoves(tree: MctsTree, pos: Position, params: GoParams, allowed: Uint8Array, report: SearchReport): number {
  const count = tree.edgeCount(0);
  let n = 0;
  for (let i = 0; i < count; i++) {
    const ok = searchmovesAllow(params, pos, tree.move(0, i));
    allowed[i] = ok ? 1 : 0;
    if (ok) n++;
  }
  if (n === 0) {
    report({ type: 'note', text: NO_LEGAL_SEARCHMOVES });
    allowed.fill(1, 0, count);
    n = count;
  }
  return n;
}
