// Allocation check: move generation and make/unmake must allocate nothing,
// and neither must the network's evaluation with its incremental
// accumulators (every node of a walk evaluated, with each kernel), nor the
// Monte Carlo tree search's playouts once its node pool exists.
// Run with `npx tsx bench/alloc.ts`.
//
// Method: after warm-up runs (so the JIT has compiled everything), run large
// perfts while observing garbage collections and comparing the heap in use
// before and after. Without a collection in between, every byte allocated
// shows up as heap growth; and the young generation starts at 1 MB, so even
// one small object per thousand nodes would force collections here.

import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { generateMoves } from '../src/board/movegen.js';
import { Perft } from '../src/board/perft.js';
import { Position, START_FEN } from '../src/board/position.js';
import { MAX_MOVES } from '../src/board/types.js';
import { embeddedNetwork } from '../src/eval/index.js';
import { NnueEvaluator } from '../src/eval/nnue/evaluator.js';
import { SearchControl } from '../src/search/control.js';
import { DEFAULT_SEARCH_OPTIONS, type SearchDriver } from '../src/search/limits.js';
import { Searcher } from '../src/search/search.js';

const CASES: Array<[string, string, number]> = [
  ['start position', START_FEN, 6],
  ['kiwipete', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 5],
  ['en passant and pins', '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 6],
  ['promotions', 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', 5],
];
/** Heap growth allowed per run for one-off JIT work (code and feedback installed late). */
const SLACK_BYTES = 1024;

/** Start times of the garbage collections seen (the observer hears of them asynchronously). */
const gcTimes: number[] = [];
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcTimes.push(entry.startTime);
});
observer.observe({ entryTypes: ['gc'] });

const perft = new Perft();
const pos = new Position();

const lists = Array.from({ length: 16 }, () => new Int32Array(MAX_MOVES));
/** XOR of every evaluation of a walk (kept outside the walk, so that it never boxes a number). */
const evalCheck = new Int32Array(1);

/** Evaluates every node of the legal move tree to depth (the accumulators follow make/unmake); returns the node count. */
function evaluateWalk(evaluator: NnueEvaluator, depth: number, ply: number): number {
  evalCheck[0] ^= evaluator.evaluate(pos);
  if (depth === 0) return 1;
  const moves = lists[ply];
  const n = generateMoves(pos, moves, 0, false);
  let nodes = 1;
  for (let i = 0; i < n; i++) {
    pos.makeMove(moves[i]);
    nodes += evaluateWalk(evaluator, depth - 1, ply + 1);
    pos.unmakeMove();
  }
  return nodes;
}

/** Perft of fen to depth (or, given an evaluator, an evaluated walk): leaf or node count, heap growth in bytes, and collections during the run. */
async function measure(fen: string, depth: number, evaluator?: NnueEvaluator): Promise<{ leaves: number; growth: number; gcs: number }> {
  pos.setFen(fen);
  const start = performance.now();
  const heapBefore = getHeapStatistics().used_heap_size;
  const leaves = evaluator === undefined ? perft.count(pos, depth) : evaluateWalk(evaluator, depth, 0);
  const growth = getHeapStatistics().used_heap_size - heapBefore;
  const end = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 50)); // lets pending GC entries arrive
  return { leaves, growth, gcs: gcTimes.filter((t) => t >= start && t <= end).length };
}

// Warm-up, which also counts the interior nodes: one makeMove/unmakeMove pair
// per node above the last ply (and one generateMoves call per interior node).
const pairs = CASES.map(([, fen, depth]) => {
  pos.setFen(fen);
  let n = 0;
  for (let d = 1; d < depth; d++) n += perft.count(pos, d);
  return n;
});
for (let pass = 0; pass < 2; pass++) for (const [, fen, depth] of CASES) await measure(fen, depth);

// The same measurement around a one-ply perft: what measuring itself costs.
const control = Math.min(...(await Promise.all([1, 2, 3].map(() => measure(START_FEN, 1)))).map((m) => m.growth));

let allocated = false;
console.log(`heap growth is net of ${control} B that the same measurement shows around a one-ply perft`);
console.log('case                 depth       leaves  make/unmake  heap growth  GCs');
for (let i = 0; i < CASES.length; i++) {
  const [name, fen, depth] = CASES[i];
  const { leaves, growth, gcs } = await measure(fen, depth);
  if (gcs > 0 || growth - control > SLACK_BYTES) allocated = true;
  console.log(
    `${name.padEnd(20)} ${String(depth).padStart(5)} ${String(leaves).padStart(12)} ${String(pairs[i]).padStart(12)}` +
      ` ${`${growth - control} B`.padStart(12)} ${String(gcs).padStart(4)}`,
  );
}

// The network: each kernel evaluates every node of walks one ply shallower than the perfts above.
const net = embeddedNetwork().net;
console.log('network evaluation   kernel        nodes  heap growth  GCs');
for (const kernel of ['wasm', 'ts'] as const) {
  const evaluator = new NnueEvaluator(net, kernel);
  for (let pass = 0; pass < 2; pass++) for (const [, fen, depth] of CASES) await measure(fen, depth - 2, evaluator);
  for (const [name, fen, depth] of CASES) {
    const { leaves, growth, gcs } = await measure(fen, depth - 1, evaluator);
    if (gcs > 0 || growth - control > SLACK_BYTES) allocated = true;
    console.log(
      `${name.padEnd(20)} ${evaluator.kernelName.padStart(6)} ${String(leaves).padStart(12)} ${`${growth - control} B`.padStart(12)} ${String(gcs).padStart(4)}`,
    );
  }
}
// The tree search: a search of SHORT playouts and one of LONG, each from an
// empty tree (a search allocates a little for its lines and notes, and its
// short PVS, the same whatever its length); their difference is what the
// extra playouts allocate.
const SHORT = 2000;
const LONG = 22000;
/**
 * Heap growth allowed for the LONG - SHORT extra playouts: four bytes a
 * playout, where one object per playout would take 12 or more. What there
 * is: the clock read every 32 playouts (performance.now() boxes its result,
 * about a byte a playout), and the lines reported as the depth grows and
 * every second (more of them on a slow machine).
 */
const MCTS_SLACK_BYTES = 4 * (LONG - SHORT);
const searcher = new Searcher(64);
async function mctsRun(driver: SearchDriver, fen: string, playouts: number): Promise<{ growth: number; gcs: number }> {
  const root = new Position(fen);
  searcher.clear();
  const start = performance.now();
  const heapBefore = getHeapStatistics().used_heap_size;
  searcher.go(
    root,
    { nodes: playouts, infinite: false, ponder: false, searchmoves: [] },
    { ...DEFAULT_SEARCH_OPTIONS, driver },
    new SearchControl(),
  );
  const growth = getHeapStatistics().used_heap_size - heapBefore;
  const end = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { growth, gcs: gcTimes.filter((t) => t >= start && t <= end).length };
}
console.log(`tree search          driver          playouts  heap growth (${LONG} - ${SHORT})  GCs`);
for (const driver of ['mcts', 'mcts-qs', 'mcts-uniform'] as const) {
  for (let pass = 0; pass < 2; pass++) for (const [, fen] of CASES) await mctsRun(driver, fen, SHORT);
  for (const [name, fen] of CASES) {
    const short = await mctsRun(driver, fen, SHORT);
    const long = await mctsRun(driver, fen, LONG);
    const extra = long.growth - short.growth;
    if (long.gcs > 0 || extra > MCTS_SLACK_BYTES) allocated = true;
    console.log(
      `${name.padEnd(20)} ${driver.padEnd(14)} ${String(LONG).padStart(9)} ${`${extra} B`.padStart(26)} ${String(long.gcs).padStart(4)}`,
    );
  }
}
observer.disconnect();
console.log(allocated ? 'Result: memory was allocated' : 'Result: nothing allocated (no garbage collection, no heap growth)');
if (allocated) process.exitCode = 1;
