// Allocation check: move generation and make/unmake must allocate nothing,
// and neither must the network's evaluation with its incremental
// accumulators (every node of a walk evaluated, with each kernel), nor the
// Monte Carlo tree search's playouts once its tree exists, full or not.
// Run with `npx tsx bench/alloc.ts`.
//
// Method: after warm-up runs (so the JIT has compiled everything), run large
// perfts while observing garbage collections and comparing the heap in use
// before and after. Without a collection in between, every byte allocated
// shows up as heap growth; and the young generation starts at 1 MB, so even
// one small object per thousand nodes would force collections here.

import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { generateMoves } from '../src/board/movegen.js';
import { Perft } from '../src/board/perft.js';
import { Position, START_FEN } from '../src/board/position.js';
import { MAX_MOVES } from '../src/board/types.js';
import { embeddedNetwork } from '../src/eval/index.js';
import { NnueEvaluator } from '../src/eval/nnue/evaluator.js';
import { SearchControl } from '../src/search/control.js';
import type { SearchDriver } from '../src/search/driver-list.js';
import { DEFAULT_SEARCH_OPTIONS, type SearchEvent } from '../src/search/limits.js';
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
// The tree search: searches of SHORT and LONG playouts, each from an empty
// tree; their difference is what the extra playouts allocate (what a search
// allocates once, its short PVS, lines and notes, cancels out). Two things
// that are not per playout would show too, and are kept out:
//   - the JIT's work the first time a long search reaches new code (compiled
//     code and its metadata, hundreds of KB on the heap): the warm-up runs
//     long searches as well as short ones;
//   - a garbage collection of earlier searches' objects falling inside a
//     measured one: a collection is forced before each measured search (its
//     sweeping may end during the search, which makes the whole heap shrink).
// Even then the whole heap moves by a hundred KB or more from one search to
// the next, whatever the playouts: code compiled again (the loop of each
// search is compiled on the stack as it runs) and the sweeping after the
// forced collection. So each row shows, of three pairs, the median growth of
// the young generation, where every new object is allocated when no
// collection runs (a collection during a search counts as a failure), and
// the least growth of the whole heap, which would show objects kept per
// playout in every pair. The "full" rows search a tree of 1 MB that both
// searches fill (the extra playouts go through a tree that no longer grows).
const SHORT = 2000;
const LONG = 22000;
const FULL_MB = 1;
const FULL_SHORT = 40000;
const FULL_LONG = 60000;
const PAIRS = 3;
/**
 * Heap growth allowed for the extra playouts: four bytes a playout, where
 * one object per playout would take 12 or more. What there is: the clock
 * read every 32 playouts (performance.now() boxes its result: half a byte a
 * playout), and the lines reported as the depth grows and every second
 * (more of them on a slow machine).
 */
const MCTS_SLACK_BYTES_PER_PLAYOUT = 4;
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const searchers = new Map<number, Searcher>();
async function mctsRun(
  driver: SearchDriver,
  fen: string,
  playouts: number,
  hashMb: number,
): Promise<{ young: number; growth: number; gcs: number; filledAt: number }> {
  let searcher = searchers.get(hashMb);
  if (searcher === undefined) {
    searcher = new Searcher(hashMb);
    searchers.set(hashMb, searcher);
  }
  const root = new Position(fen);
  searcher.clear();
  let filledAt = 0;
  const report = (e: SearchEvent): void => {
    if (e.type === 'note' && e.text.includes('stops growing')) filledAt = Number(/after (\d+)/.exec(e.text)?.[1]);
  };
  const params = { nodes: playouts, infinite: false, ponder: false, searchmoves: [] };
  const options = { ...DEFAULT_SEARCH_OPTIONS, driver };
  const control = new SearchControl();
  collectGarbage();
  const start = performance.now();
  const heapBefore = getHeapStatistics().used_heap_size;
  const youngBefore = youngUsed();
  searcher.go({ pos: root, params, options, control, report });
  const young = youngUsed() - youngBefore;
  const growth = getHeapStatistics().used_heap_size - heapBefore;
  const end = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { young, growth, gcs: gcTimes.filter((t) => t >= start && t <= end).length, filledAt };
}
/** Bytes in use in the young generation. */
function youngUsed(): number {
  let bytes = 0;
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_name === 'new_space' || space.space_name === 'new_large_object_space') bytes += space.space_used_size;
  }
  return bytes;
}
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}
const mctsCases: Array<[SearchDriver, number, number, number]> = [
  ['mcts', 64, SHORT, LONG],
  ['mcts-qs', 64, SHORT, LONG],
  ['mcts-uniform', 64, SHORT, LONG],
  ['mcts', FULL_MB, FULL_SHORT, FULL_LONG],
];
console.log('tree search                 driver       Hash  playouts  extra   young growth  per playout  heap growth  GCs');
for (const [driver, hashMb, short, long] of mctsCases) {
  for (let pass = 0; pass < 2; pass++) {
    for (const [, fen] of CASES) {
      await mctsRun(driver, fen, short, hashMb);
      await mctsRun(driver, fen, long, hashMb);
    }
  }
  for (const [name, fen] of CASES) {
    const young: number[] = [];
    const heap: number[] = [];
    let gcs = 0;
    let filled = true;
    for (let k = 0; k < PAIRS; k++) {
      const a = await mctsRun(driver, fen, short, hashMb);
      const b = await mctsRun(driver, fen, long, hashMb);
      young.push(b.young - a.young);
      heap.push(b.growth - a.growth);
      gcs += a.gcs + b.gcs;
      if (hashMb === FULL_MB && (a.filledAt === 0 || b.filledAt === 0)) filled = false;
    }
    const playouts = long - short;
    const extra = median(young);
    const extraHeap = Math.min(...heap);
    const slack = MCTS_SLACK_BYTES_PER_PLAYOUT * playouts;
    if (gcs > 0 || extra > slack || extraHeap > slack) allocated = true;
    const label = hashMb === FULL_MB ? `${name} (full${filled ? '' : '?'})` : name;
    console.log(
      `${label.padEnd(27)} ${driver.padEnd(12)} ${String(hashMb).padStart(4)} ${String(long).padStart(9)} ${String(playouts).padStart(6)}` +
        ` ${`${extra} B`.padStart(14)} ${`${(extra / playouts).toFixed(2)} B`.padStart(12)} ${`${extraHeap} B`.padStart(12)} ${String(gcs).padStart(4)}`,
    );
    if (!filled) console.log(`  (the ${FULL_MB} MB tree was not full after ${short} playouts: raise FULL_SHORT)`);
  }
}
observer.disconnect();
console.log(allocated ? 'Result: memory was allocated' : 'Result: nothing allocated (no garbage collection, no heap growth)');
if (allocated) process.exitCode = 1;
