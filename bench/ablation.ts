// The classic ablation table: how much each layer of the search saves.
// On the bench positions at depths 3 to 6 it compares plain minimax
// alpha-beta (no transposition table, moves in generation order, static
// evaluation at the leaves) with Kestrel's full search (PVS) and with the
// MTD(f) driver, printing nodes, time and their ratios.
//
//   npx tsx bench/ablation.ts [--positions N] [--max-depth D]
//
// The plain search is exponential: its depth-6 column takes minutes.

import { generateMoves } from '../src/board/movegen.js';
import { Position } from '../src/board/position.js';
import { MAX_MOVES } from '../src/board/types.js';
import { evaluate } from '../src/eval/evaluate.js';
import { BENCH_POSITIONS } from '../src/search/bench.js';
import { SearchControl } from '../src/search/control.js';
import { DEFAULT_SEARCH_OPTIONS, type SearchOptions } from '../src/search/limits.js';
import { MATE, Searcher } from '../src/search/search.js';

function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const positions = BENCH_POSITIONS.slice(0, argValue('--positions', 50));
const maxDepth = argValue('--max-depth', 6);

/** Plain fail-hard alpha-beta: no table, no ordering, no quiescence, no pruning beyond the window. */
class PlainAlphaBeta {
  nodes = 0;
  private readonly moves = new Int32Array(64 * MAX_MOVES);

  search(pos: Position, alpha: number, beta: number, depth: number, ply: number): number {
    this.nodes++;
    const start = ply * MAX_MOVES;
    const end = generateMoves(pos, this.moves, start, false);
    if (end === start) return pos.inCheck() ? -MATE + ply : 0;
    if (depth === 0) return evaluate(pos);
    for (let i = start; i < end; i++) {
      pos.makeMove(this.moves[i]);
      const score = -this.search(pos, -beta, -alpha, depth - 1, ply + 1);
      pos.unmakeMove();
      if (score >= beta) return beta;
      if (score > alpha) alpha = score;
    }
    return alpha;
  }
}

function runFull(driver: SearchOptions['driver'], depth: number): { nodes: number; ms: number } {
  const searcher = new Searcher(16);
  const control = new SearchControl();
  let nodes = 0;
  const t0 = performance.now();
  for (const fen of positions) {
    searcher.clear();
    searcher.go(new Position(fen), { depth, infinite: false, ponder: false, searchmoves: [] }, { ...DEFAULT_SEARCH_OPTIONS, driver }, control, () => {});
    nodes += searcher.nodes;
  }
  return { nodes, ms: performance.now() - t0 };
}

function runPlain(depth: number): { nodes: number; ms: number } {
  const plain = new PlainAlphaBeta();
  const t0 = performance.now();
  for (const fen of positions) plain.search(new Position(fen), -2 * MATE, 2 * MATE, depth, 0);
  return { nodes: plain.nodes, ms: performance.now() - t0 };
}

const fmt = (n: number): string => String(Math.round(n)).padStart(12);
console.log(`${positions.length} positions; nodes and milliseconds summed over them; ratio = plain / other`);
console.log('depth   plain nodes     plain ms    PVS nodes       PVS ms   MTD(f) nodes    MTD(f) ms   plain/PVS nodes  plain/PVS time  PVS/MTD(f) nodes');
for (let depth = 3; depth <= maxDepth; depth++) {
  const plain = runPlain(depth);
  const pvs = runFull('pvs', depth);
  const mtdf = runFull('mtdf', depth);
  console.log(
    `${String(depth).padStart(5)}${fmt(plain.nodes)} ${fmt(plain.ms)} ${fmt(pvs.nodes)} ${fmt(pvs.ms)} ${fmt(mtdf.nodes)}  ${fmt(mtdf.ms)}` +
      `   ${(plain.nodes / pvs.nodes).toFixed(1).padStart(12)}x  ${(plain.ms / pvs.ms).toFixed(1).padStart(12)}x  ${(pvs.nodes / mtdf.nodes).toFixed(2).padStart(14)}x`,
  );
}
