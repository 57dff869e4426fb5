// Training speed: positions per second through the trainer's forward and
// backward pass (the gradients of a mini-batch), on one thread and on the
// trainer's worker threads, measured alternately in one run.
//
//   npx tsx bench/train-speed.ts [--hidden 256] [--threads 2] [--positions 100000] [--rounds 3]

import { readFileSync } from 'node:fs';
import { generateMoves } from '../src/board/movegen.js';
import { Position } from '../src/board/position.js';
import { MAX_MOVES, WHITE } from '../src/board/types.js';
import { inputIndex } from '../src/eval/nnue/network.js';
import { type LoadedData, MAX_FEATURES, type PositionSet, allocatePositions } from '../src/train/nnue-data.js';
import { initParams, layoutOf, lossAndGradients } from '../src/train/nnue-model.js';
import { GradientWorkers } from '../src/train/nnue-train.js';
import { numberOption } from './args.js';

const args = process.argv.slice(2);
const hidden = numberOption(args, '--hidden', 256);
const threads = numberOption(args, '--threads', 2);
const count = numberOption(args, '--positions', 100000);
const rounds = numberOption(args, '--rounds', 3);

/** Positions of random games from the perft suite's positions. */
function positions(n: number): PositionSet {
  const set = allocatePositions(n);
  const starts = readFileSync(new URL('../test/data/perftsuite.epd', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.split(';')[0].trim());
  const moves = new Int32Array(MAX_MOVES);
  let s = 12345;
  const next = (k: number): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % k;
  };
  let i = 0;
  while (i < n) {
    const pos = new Position(starts[next(starts.length)]);
    for (let ply = 0; ply < 60 && i < n; ply++) {
      const k = generateMoves(pos, moves, 0, false);
      if (k === 0) break;
      pos.makeMove(moves[next(k)]);
      let f = 0;
      for (let sq = 0; sq < 64; sq++) if (pos.board[sq] !== 0) set.features[i * MAX_FEATURES + f++] = inputIndex(WHITE, pos.board[sq], sq);
      set.counts[i] = f;
      set.sides[i] = pos.side;
      set.scores[i] = next(400) - 200;
      set.results[i] = next(3);
      i++;
    }
  }
  return set;
}

const shape = { hidden, buckets: 1 };
const loss = { wdl: 0.25, scale: 400 };
const set = positions(count);
const params = new Float32Array(new SharedArrayBuffer(layoutOf(shape).size * 4));
initParams(shape, params, 1);
const order = new Int32Array(new SharedArrayBuffer(count * 4));
for (let i = 0; i < count; i++) order[i] = i;
const data: LoadedData = { train: set, valid: set, games: 0, read: count, inCheck: 0, noisy: 0, bigScore: 0, mirrored: 0 };
const workers = new GradientWorkers(threads, shape, loss, data, params, order);
const grads = new Float32Array(layoutOf(shape).size);
const us = new Float32Array(hidden);
const them = new Float32Array(hidden);
const BATCH = 16384;

async function timed(parallel: boolean): Promise<number> {
  const t0 = performance.now();
  for (let from = 0; from < count; from += BATCH) {
    const to = Math.min(count, from + BATCH);
    if (parallel) await workers.run('train', from, to, true);
    else lossAndGradients(shape, params, grads, set, order, from, to, loss, us, them);
  }
  return (count * 1000) / (performance.now() - t0);
}

console.log(`${count} positions, 768 -> 2x${hidden} -> 1, batches of ${BATCH}`);
await timed(false);
await timed(true);
const one: number[] = [];
const many: number[] = [];
for (let r = 0; r < rounds; r++) {
  for (const parallel of r % 2 === 0 ? [false, true] : [true, false]) (parallel ? many : one).push(await timed(parallel));
  console.log(`round ${r + 1}: 1 thread ${Math.round(one[r])} positions/s, ${threads} threads ${Math.round(many[r])} positions/s`);
}
workers.close();
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(
  `median: 1 thread ${Math.round(median(one))}, ${threads} threads ${Math.round(median(many))} positions/s (${(median(many) / median(one)).toFixed(2)}x)`,
);
