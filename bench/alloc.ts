// Allocation check: move generation and make/unmake must allocate nothing.
// Run with `npx tsx bench/alloc.ts`.
//
// Method: after warm-up runs (so the JIT has compiled everything), run large
// perfts while observing garbage collections and comparing the heap in use
// before and after. Without a collection in between, every byte allocated
// shows up as heap growth; and the young generation starts at 1 MB, so even
// one small object per thousand nodes would force collections here.

import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { Perft } from '../src/board/perft.js';
import { Position, START_FEN } from '../src/board/position.js';

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

/** Perft of fen to depth: leaf count, heap growth in bytes, and collections during the run. */
async function measure(fen: string, depth: number): Promise<{ leaves: number; growth: number; gcs: number }> {
  pos.setFen(fen);
  const start = performance.now();
  const heapBefore = getHeapStatistics().used_heap_size;
  const leaves = perft.count(pos, depth);
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
observer.disconnect();
console.log(allocated ? 'Result: memory was allocated' : 'Result: nothing allocated (no garbage collection, no heap growth)');
if (allocated) process.exitCode = 1;
