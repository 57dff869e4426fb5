// The classic ablation table: how much each layer of the search saves.
// On the bench positions at depths 3 to 6 it compares plain minimax
// alpha-beta (no transposition table, moves in generation order, static
// evaluation at the leaves) with Kestrel's full search (PVS) and with the
// MTD(f) driver, printing nodes, time and their ratios.
//
//   npm run bench:ablation -- [--positions N] [--max-depth D] [--plain-max-depth P]
//
// The plain search is exponential: at depth 5 it already takes minutes, so by
// default it stops there (--plain-max-depth) and the deeper rows compare PVS
// with MTD(f) only. A warm-up pass runs first so that the JIT has compiled
// the search before anything is timed.

import { generateMoves } from '../src/board/movegen.js';
import { Position } from '../src/board/position.js';
import { MAX_MOVES } from '../src/board/types.js';
import { evaluate } from '../src/eval/evaluate.js';
import { BENCH_POSITIONS } from '../src/search/bench.js';
import { SearchControl } from '../src/search/control.js';
import { DEFAULT_SEARCH_OPTIONS, type SearchOptions } from '../src/search/limits.js';
import { MATE } from '../src/search/score.js';
import { Searcher } from '../src/search/search.js';
import { numberOption } from './args.js';

function argValue(name: string, fallback: number): number {
  return numberOption(process.argv, name, fallback);
}

const positions = BENCH_POSITIONS.slice(0, argValue('--positions', 50));
const maxDepth = argValue('--max-depth', 6);
const plainMaxDepth = argValue('--plain-max-depth', 5);

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
    searcher.go({
      pos: new Position(fen),
      params: { depth, infinite: false, ponder: false, searchmoves: [] },
      options: { ...DEFAULT_SEARCH_OPTIONS, driver },
      control,
    });
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

const fmt = (n: number): string => (Number.isNaN(n) ? '-' : String(Math.round(n))).padStart(12);
const ratio = (a: number, b: number, digits: number): string => (Number.isNaN(a) ? '-' : `${(a / b).toFixed(digits)}x`);
console.log(`${positions.length} positions; nodes and milliseconds summed over them; ratio = plain / other`);
console.log(
  'depth   plain nodes     plain ms    PVS nodes       PVS ms   MTD(f) nodes    MTD(f) ms   plain/PVS nodes  plain/PVS time  PVS/MTD(f) nodes',
);
runFull('pvs', 4);
runPlain(2);
for (let depth = 3; depth <= maxDepth; depth++) {
  const plain = depth <= plainMaxDepth ? runPlain(depth) : { nodes: NaN, ms: NaN };
  const pvs = runFull('pvs', depth);
  const mtdf = runFull('mtdf', depth);
  console.log(
    `${String(depth).padStart(5)}${fmt(plain.nodes)} ${fmt(plain.ms)} ${fmt(pvs.nodes)} ${fmt(pvs.ms)} ${fmt(mtdf.nodes)}  ${fmt(mtdf.ms)}` +
      `   ${ratio(plain.nodes, pvs.nodes, 1).padStart(13)}  ${ratio(plain.ms, pvs.ms, 1).padStart(13)}  ${ratio(pvs.nodes, mtdf.nodes, 2).padStart(15)}`,
  );
}
