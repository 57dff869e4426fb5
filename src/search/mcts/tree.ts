// The tree of the Monte Carlo tree search (mcts.ts), in one block of memory
// of Hash megabytes (at most MAX_TREE_MB), allocated once. Nothing is
// allocated per playout.
//
// As in Leela Chess Zero, a position's moves and a position's statistics are
// stored apart:
//   - an expanded node owns an edge block: one edge per legal move, 6 bytes
//     each (the move, 16 bits as the transposition table stores it, and its
//     prior as a float), plus 8 bytes of block header;
//   - a node (28 bytes) exists only for an edge that a playout has taken:
//     its visits, mean value q, edge block, first child, next sibling, the
//     index of its edge in its parent's block, its edge count and its proof.
// A node is created when its edge is first taken (the playout's leaf: it is
// scored, not expanded), and expanded (given its edge block) when a playout
// reaches it again. So moves that no playout has tried cost 6 bytes, and
// positions visited once no more than their node.
//
// Nodes grow up from the bottom of the block, edge blocks down from its top;
// the tree is full when they meet, so whatever mix of nodes and edges a
// search needs fits until the whole block is used.
//
// A node's children form a list in the order of their edges (nextSibling),
// so that a walk over a node's edges meets its children in turn. A child is
// always created after its parent, so children lie at higher node indices:
// keepSubtree() relies on that to slide a subtree down in one forward sweep.
//
// Values are seen from the side that played the node's move (its parent's
// side to move): q is the mean of the values backed up through the node, in
// [-1, 1], so that a parent picks the child with the highest q. The root's q
// is seen the same way (from the side not to move at the root).
//
// proof (the MCTS-solver's exact result, same point of view): PROOF_NONE,
// PROOF_DRAW, provenWin(plies) or provenLoss(plies), where plies counts the
// moves from the node's position to the mate (0: the node is checkmate).

/** No node (an empty child list, no sibling, a node not expanded). */
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

// A node is NODE_WORDS 32-bit words at word n * NODE_WORDS. mcts.ts reads
// them directly in its hot loops (i32 and f32 are views of the same words).
/** Visits (int). */
export const N_VISITS = 0;
/** Mean value q (float). */
export const N_Q = 1;
/** First word of the node's edge block (NO_NODE: not expanded). */
export const N_EDGES = 2;
/** First child (NO_NODE: none). */
export const N_CHILD = 3;
/** Next sibling, in edge order (NO_NODE: none). */
export const N_SIBLING = 4;
/** Bits 0-7: the index of the node's edge in its parent's block; 8-15: its own edge count (0: not expanded); 16-31: its proof (signed). */
export const N_META = 5;
/** keepSubtree()'s forwarding address. */
const N_SCRATCH = 6;
export const NODE_WORDS = 7;
/** Bytes per node. */
export const NODE_BYTES = NODE_WORDS * 4;
/** The largest tree in MiB (a larger Hash still gives this): its word indices are int32, and a 16-bit view of it must hold at most 2^32 elements. */
const MAX_TREE_MB = 4096;

/** Bytes per edge (a 16-bit move and a float prior), not counting the block's 8-byte header. */
export const EDGE_BYTES = 6;

// An edge block of `count` edges starting at word s: the priors (floats) at
// words s..s+count, the moves (16 bits, two a word) from word s+count, then
// two header words at its end, its owner (node index) and count, so that
// keepSubtree() can walk the blocks from the top of the pool down.
export function edgeBlockWords(count: number): number {
  return count + ((count + 1) >> 1) + 2;
}

export class MctsTree {
  /** The pool's size in 32-bit words. */
  readonly words: number;
  readonly i32: Int32Array;
  readonly f32: Float32Array;
  private readonly u16: Uint16Array;
  /** Nodes in use: [0, nodeCount), at the bottom of the pool. */
  nodeCount = 0;
  /** Edge blocks in use: words [edgeLow, words), at the top of the pool. */
  edgeLow = 0;

  /** A pool of `megabytes` MiB (at least 1, at most MAX_TREE_MB). */
  constructor(megabytes: number) {
    const words = Math.floor((Math.min(MAX_TREE_MB, Math.max(1, megabytes)) * 1024 * 1024) / 4);
    const buffer = new ArrayBuffer(words * 4);
    this.words = words;
    this.i32 = new Int32Array(buffer);
    this.f32 = new Float32Array(buffer);
    this.u16 = new Uint16Array(buffer);
    this.reset();
  }

  /** An empty tree: only the root (index 0), not yet expanded. */
  reset(): void {
    this.nodeCount = 1;
    this.edgeLow = this.words;
    this.initNode(0, 0, PROOF_NONE);
  }

  private initNode(n: number, edgeIndex: number, proof: number): void {
    const b = n * NODE_WORDS;
    const i32 = this.i32;
    i32[b + N_VISITS] = 0;
    this.f32[b + N_Q] = 0;
    i32[b + N_EDGES] = NO_NODE;
    i32[b + N_CHILD] = NO_NODE;
    i32[b + N_SIBLING] = NO_NODE;
    i32[b + N_META] = edgeIndex | (proof << 16);
  }

  /** Bytes of the pool in use. */
  bytesUsed(): number {
    return this.nodeCount * NODE_BYTES + (this.words - this.edgeLow) * 4;
  }

  /** Permille of the pool in use. */
  usedPermille(): number {
    return Math.floor((this.bytesUsed() * 1000) / (this.words * 4));
  }

  /** Whether one more node fits. */
  hasNodeRoom(): boolean {
    return (this.nodeCount + 1) * NODE_WORDS <= this.edgeLow;
  }

  /** Whether an edge block of `count` edges and then one node (the first child to be taken) fit. */
  hasRoomToExpand(count: number): boolean {
    return (this.nodeCount + 1) * NODE_WORDS <= this.edgeLow - edgeBlockWords(count);
  }

  // ---------------------------------------------------------------------------
  // A node's fields.

  visits(n: number): number {
    return this.i32[n * NODE_WORDS + N_VISITS];
  }

  q(n: number): number {
    return this.f32[n * NODE_WORDS + N_Q];
  }

  proof(n: number): number {
    return this.i32[n * NODE_WORDS + N_META] >> 16;
  }

  setProof(n: number, proof: number): void {
    const at = n * NODE_WORDS + N_META;
    this.i32[at] = (this.i32[at] & 0xffff) | (proof << 16);
  }

  /** The node's edges (0: not expanded). */
  edgeCount(n: number): number {
    return (this.i32[n * NODE_WORDS + N_META] >> 8) & 0xff;
  }

  /** The index of the node's edge in its parent's block. */
  edgeIndex(n: number): number {
    return this.i32[n * NODE_WORDS + N_META] & 0xff;
  }

  firstChild(n: number): number {
    return this.i32[n * NODE_WORDS + N_CHILD];
  }

  nextSibling(n: number): number {
    return this.i32[n * NODE_WORDS + N_SIBLING];
  }

  /** The prior of edge e of node n. */
  prior(n: number, e: number): number {
    return this.f32[this.i32[n * NODE_WORDS + N_EDGES] + e];
  }

  /** The move (16 bits) of edge e of node n. */
  move(n: number, e: number): number {
    const s = this.i32[n * NODE_WORDS + N_EDGES];
    return this.u16[2 * (s + this.edgeCount(n)) + e];
  }

  /** The move into child c of node n. */
  moveTo(n: number, c: number): number {
    return this.move(n, this.edgeIndex(c));
  }

  // ---------------------------------------------------------------------------
  // Growth.

  /**
   * Gives `node` an edge block for moves[0..count) (count in 1..255); returns
   * the word where their priors go (f32), for the caller to write. The
   * caller checks hasRoomToExpand() first.
   */
  expand(node: number, moves: Int32Array, count: number): number {
    const size = edgeBlockWords(count);
    const s = this.edgeLow - size;
    this.edgeLow = s;
    const i32 = this.i32;
    i32[s + size - 2] = node;
    i32[s + size - 1] = count;
    const u16 = this.u16;
    const m0 = 2 * (s + count);
    for (let i = 0; i < count; i++) u16[m0 + i] = moves[i] & 0xffff;
    if ((count & 1) === 1) u16[m0 + count] = 0;
    const b = node * NODE_WORDS;
    i32[b + N_EDGES] = s;
    i32[b + N_META] = (i32[b + N_META] & ~0xff00) | (count << 8);
    return s;
  }

  /**
   * Creates the child of `parent` for its edge e, with `proof`, and links it
   * after `prev` (the last child of a lower edge, or NO_NODE: first); returns
   * it. The caller checks hasNodeRoom() first.
   */
  addChild(parent: number, e: number, prev: number, proof: number): number {
    const c = this.nodeCount++;
    this.initNode(c, e, proof);
    const i32 = this.i32;
    const link = prev === NO_NODE ? parent * NODE_WORDS + N_CHILD : prev * NODE_WORDS + N_SIBLING;
    i32[c * NODE_WORDS + N_SIBLING] = i32[link];
    i32[link] = c;
    return c;
  }

  /** The child of `node` whose move is `move`, or NO_NODE (not taken yet, or no such move). */
  childWithMove(node: number, move: number): number {
    const count = this.edgeCount(node);
    let e = 0;
    while (e < count && this.move(node, e) !== (move & 0xffff)) e++;
    if (e === count) return NO_NODE;
    for (let c = this.firstChild(node); c !== NO_NODE; c = this.nextSibling(c)) if (this.edgeIndex(c) === e) return c;
    return NO_NODE;
  }

  // ---------------------------------------------------------------------------
  // Reuse.

  /**
   * Keeps only the subtree under `node`, which becomes the root at index 0;
   * every other node and edge block is freed. Children always lie above
   * their parent, so one forward sweep from `node` finds the subtree and
   * numbers its nodes in order; the kept edge blocks then slide up to the top
   * of the pool, oldest (highest) first, the links are renumbered, and the
   * nodes slide down in index order (never onto one still to be moved).
   */
  keepSubtree(node: number): void {
    if (node === 0) return;
    const i32 = this.i32;
    const top = this.nodeCount;
    const NW = NODE_WORDS;
    const KEEP = -2;
    for (let i = node; i < top; i++) i32[i * NW + N_SCRATCH] = -1;
    i32[node * NW + N_SCRATCH] = KEEP;
    let next = 0;
    for (let i = node; i < top; i++) {
      const b = i * NW;
      if (i32[b + N_SCRATCH] !== KEEP) continue;
      i32[b + N_SCRATCH] = next++;
      for (let c = i32[b + N_CHILD]; c !== NO_NODE; c = i32[c * NW + N_SIBLING]) i32[c * NW + N_SCRATCH] = KEEP;
    }
    // Edge blocks, from the top of the pool down (oldest first): the kept ones slide up.
    let dst = this.words;
    for (let end = this.words; end > this.edgeLow; ) {
      const owner = i32[end - 2];
      const size = edgeBlockWords(i32[end - 1]);
      const start = end - size;
      if (owner >= node && owner < top && i32[owner * NW + N_SCRATCH] >= 0) {
        const to = dst - size;
        if (to !== start) i32.copyWithin(to, start, end);
        i32[to + size - 2] = i32[owner * NW + N_SCRATCH];
        i32[owner * NW + N_EDGES] = to;
        dst = to;
      }
      end = start;
    }
    this.edgeLow = dst;
    // Links to the new indices (a kept node's children and later siblings are kept; the new root's siblings are not).
    for (let i = node; i < top; i++) {
      const b = i * NW;
      if (i32[b + N_SCRATCH] < 0) continue;
      const c = i32[b + N_CHILD];
      if (c !== NO_NODE) i32[b + N_CHILD] = i32[c * NW + N_SCRATCH];
      const s = i32[b + N_SIBLING];
      if (s !== NO_NODE && i !== node) i32[b + N_SIBLING] = i32[s * NW + N_SCRATCH];
    }
    // The nodes slide down (without their scratch word, which the later ones still need).
    for (let i = node; i < top; i++) {
      const b = i * NW;
      const j = i32[b + N_SCRATCH];
      if (j < 0) continue;
      for (let k = 0; k < N_SCRATCH; k++) i32[j * NW + k] = i32[b + k];
    }
    this.nodeCount = next;
    i32[N_SIBLING] = NO_NODE;
    i32[N_META] &= ~0xff;
  }
}
