// The MCTS-solver of the tree search (mcts.ts): exact results proven in the
// tree climb towards the root, mate distances kept. For the side to move, a
// position with a winning move is won (by the fastest mate), one whose every
// move loses is lost (by the slowest), one whose every move is proven, a draw
// at best, is drawn. The root is never given a proof (searchmoves may
// restrict its moves): rootSolved() settles it from its allowed children.

import { type MctsTree, NO_NODE, PROOF_DRAW, PROOF_NONE, proofPlies, provenLoss, provenWin } from './tree.js';

/**
 * The proof of an expanded node from its children's (its side to move
 * moves into them): lost for its mover if one child wins (the fastest mate),
 * won if every move has a child and every child loses (the slowest), a
 * draw if every move's child is proven and the best is a draw, else
 * PROOF_NONE.
 */
function solve(tree: MctsTree, node: number): number {
  let winPlies = -1;
  let lossPlies = -1;
  let draw = false;
  let allProven = true;
  let children = 0;
  for (let c = tree.firstChild(node); c !== NO_NODE; c = tree.nextSibling(c)) {
    children++;
    const proof = tree.proof(c);
    if (proof === PROOF_NONE) allProven = false;
    else if (proof === PROOF_DRAW) draw = true;
    else if (proof > 0) {
      const plies = proofPlies(proof);
      if (winPlies < 0 || plies < winPlies) winPlies = plies;
    } else lossPlies = Math.max(lossPlies, proofPlies(proof));
  }
  if (winPlies >= 0) return provenLoss(winPlies + 1);
  if (!allProven || children < tree.edgeCount(node)) return PROOF_NONE;
  return draw ? PROOF_DRAW : provenWin(lossPlies + 1);
}

/**
 * path[depth] (path[0] the root) has just been proven: the proof climbs the
 * path while it settles each parent, the root excluded. True when it reached
 * a root child, whose proof may settle the root.
 */
export function propagateProof(tree: MctsTree, path: Int32Array, depth: number): boolean {
  for (let i = depth - 1; i >= 1; i--) {
    const proof = solve(tree, path[i]);
    if (proof === PROOF_NONE) return false;
    tree.setProof(path[i], proof);
  }
  return true;
}

/** Whether the root moves allowed (allowed[edge] 1) settle the root: one is a proven win, or every one is proven. */
export function rootSolved(tree: MctsTree, allowed: Uint8Array): boolean {
  let allProven = true;
  // The children come in edge order; an edge not taken yet is unproven.
  let c = tree.firstChild(0);
  for (let i = 0; i < tree.edgeCount(0); i++) {
    let proof = PROOF_NONE;
    if (c !== NO_NODE && tree.edgeIndex(c) === i) {
      proof = tree.proof(c);
      c = tree.nextSibling(c);
    }
    if (allowed[i] === 0) continue;
    if (proof >= 2) return true;
    if (proof === PROOF_NONE) allProven = false;
  }
  return allProven;
}
