// Perft: counts the leaf nodes of the legal move tree, the standard proof
// that move generation and make/unmake follow the rules. The last ply is
// counted in bulk from the length of the legal move list.

import { generateMoves } from './movegen.js';
import type { Position } from './position.js';
import { MAX_MOVES } from './types.js';

export class Perft {
  private readonly moves: Int32Array;

  constructor(maxDepth = 64) {
    this.moves = new Int32Array((maxDepth + 1) * MAX_MOVES);
  }

  /** Leaf nodes at `depth` plies below pos. */
  count(pos: Position, depth: number): number {
    return this.search(pos, depth, 0);
  }

  private search(pos: Position, depth: number, ply: number): number {
    const start = ply * MAX_MOVES;
    const end = generateMoves(pos, this.moves, start, false);
    if (depth <= 1) return depth === 1 ? end - start : 1;
    let nodes = 0;
    for (let i = start; i < end; i++) {
      pos.makeMove(this.moves[i]);
      nodes += this.search(pos, depth - 1, ply + 1);
      pos.unmakeMove();
    }
    return nodes;
  }

  /** Per-root-move counts (like Stockfish's `go perft`), in generation order. */
  divide(pos: Position, depth: number): Array<{ move: number; nodes: number }> {
    const end = generateMoves(pos, this.moves, 0, false);
    const result: Array<{ move: number; nodes: number }> = [];
    for (let i = 0; i < end; i++) {
      const move = this.moves[i];
      pos.makeMove(move);
      result.push({ move, nodes: depth <= 1 ? 1 : this.search(pos, depth - 1, 1) });
      pos.unmakeMove();
    }
    return result;
  }
}
