// The node pool of the Monte Carlo tree search (mcts.ts): one typed array
// per field, allocated once, sized by the Hash option. Nothing is allocated
// per playout.
//
// A node stands for the position after its move. When a node is expanded,
// its children (one per legal move) are allocated as one block at the top of
// the pool, so a node's children are always at higher indices than the node
// itself: keepSubtree() relies on that to slide a subtree down to the front
// of the pool in one pass, without a stack.
//
// Values are seen from the side that played the node's move (its parent's
// side to move): q is the mean of the values backed up through the node, in
// [-1, 1], so that a parent picks the child with the highest q. The root's q
// is seen the same way (from the side not to move at the root).
//
// proof (the MCTS-solver's exact result, same point of view): PROOF_NONE,
// PROOF_DRAW, provenWin(plies) or provenLoss(plies), where plies counts the
// moves from the node's position to the mate (0: the node is checkmate).

/** No node (a leaf's firstChild). */
export const NO_NODE = -1;
export const PROOF_NONE = 0;
export const PROOF_DRAW = 1;
/** The largest mate distance a proof records (tree depth is below MAX_PLY). */
const MAX_PROOF_PLIES = 1000;

/** The node's mover wins, mating in `plies` plies from the node's position. */
export function provenWin(plies: number): number {
  return 2 + Math.min(plies, MAX_PROOF_PLIES);
}

/** The node's mover loses, mated in `plies` plies from the node's position. */
export function provenLoss(plies: number): number {
  return -2 - Math.min(plies, MAX_PROOF_PLIES);
}

/** The plies to mate of a win or loss proof. */
export function proofPlies(proof: number): number {
  return (proof < 0 ? -proof : proof) - 2;
}

/** Bytes per node: move 2, proof 2, childCount 1, prior 4, q 4, visits 4, firstChild 4, scratch 4. */
export const NODE_BYTES = 25;

export class MctsTree {
  readonly capacity: number;
  /** The move into the node (16 bits, as the transposition table stores moves). */
  readonly move: Uint16Array;
  readonly proof: Int16Array;
  /** Children of an expanded node (0: not expanded). */
  readonly childCount: Uint8Array;
  readonly prior: Float32Array;
  readonly q: Float32Array;
  readonly visits: Int32Array;
  readonly firstChild: Int32Array;
  /** keepSubtree()'s forwarding addresses. */
  private readonly scratch: Int32Array;
  /** Nodes in use: [0, top). */
  top = 0;

  /** A pool of at most `megabytes` MiB (at least a few hundred nodes). */
  constructor(megabytes: number) {
    const capacity = Math.max(512, Math.floor((Math.max(1, megabytes) * 1024 * 1024) / NODE_BYTES));
    this.capacity = capacity;
    this.move = new Uint16Array(capacity);
    this.proof = new Int16Array(capacity);
    this.childCount = new Uint8Array(capacity);
    this.prior = new Float32Array(capacity);
    this.q = new Float32Array(capacity);
    this.visits = new Int32Array(capacity);
    this.firstChild = new Int32Array(capacity);
    this.scratch = new Int32Array(capacity);
    this.reset();
  }

  /** An empty tree: only the root (index 0), not yet expanded. */
  reset(): void {
    this.top = 1;
    this.initNode(0, 0, 1);
  }

  /** Permille of the pool in use. */
  usedPermille(): number {
    return Math.floor((this.top * 1000) / this.capacity);
  }

  /** Whether `count` more nodes fit. */
  hasRoom(count: number): boolean {
    return this.top + count <= this.capacity;
  }

  /**
   * Gives `node` a block of `count` children (their moves and priors still to
   * be written by the caller); returns the block's first index. The caller
   * checks hasRoom() first.
   */
  expand(node: number, count: number): number {
    const first = this.top;
    this.top = first + count;
    for (let i = first; i < first + count; i++) this.initNode(i, 0, 0);
    this.firstChild[node] = first;
    this.childCount[node] = count;
    return first;
  }

  private initNode(i: number, move: number, prior: number): void {
    this.move[i] = move;
    this.prior[i] = prior;
    this.proof[i] = PROOF_NONE;
    this.childCount[i] = 0;
    this.q[i] = 0;
    this.visits[i] = 0;
    this.firstChild[i] = NO_NODE;
  }

  /**
   * Keeps only the subtree under `node`, which becomes the root at index 0;
   * every other node is freed. Children always lie above their parent, so
   * one forward sweep from `node` finds the subtree and assigns each kept
   * node its new index, and a second moves each node down (never up) in
   * index order, so it never overwrites a node still to be moved.
   */
  keepSubtree(node: number): void {
    if (node === 0) return;
    const fwd = this.scratch;
    const top = this.top;
    const KEEP = -2;
    fwd.fill(-1, node, top);
    fwd[node] = KEEP;
    let next = 0;
    for (let i = node; i < top; i++) {
      if (fwd[i] !== KEEP) continue;
      fwd[i] = next++;
      const first = this.firstChild[i];
      const count = this.childCount[i];
      if (count > 0) fwd.fill(KEEP, first, first + count);
    }
    for (let i = node; i < top; i++) {
      const j = fwd[i];
      if (j < 0) continue;
      this.move[j] = this.move[i];
      this.prior[j] = this.prior[i];
      this.proof[j] = this.proof[i];
      this.childCount[j] = this.childCount[i];
      this.q[j] = this.q[i];
      this.visits[j] = this.visits[i];
      this.firstChild[j] = this.childCount[i] > 0 ? fwd[this.firstChild[i]] : NO_NODE;
    }
    this.top = next;
    this.move[0] = 0;
    this.prior[0] = 1;
  }

  /** The child of `node` whose move is `move`, or NO_NODE. */
  childWithMove(node: number, move: number): number {
    const first = this.firstChild[node];
    const end = first + this.childCount[node];
    for (let c = first; c < end; c++) if (this.move[c] === (move & 0xffff)) return c;
    return NO_NODE;
  }
}
