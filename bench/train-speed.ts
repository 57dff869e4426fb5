// Training speed: positions per second of `kestrel train` end to end (the
// shuffle, the forward and backward passes on the worker threads, the AdamW
// step and the validation pass), one epoch at a time: the WebAssembly kernel
// on one thread and on --threads, and the TypeScript reference on --threads,
// in turn in one run.
//
//   npx tsx bench/train-speed.ts [--hidden 256] [--threads 2] [--positions 300000] [--rounds 3] [--data games.vf]
//
// Without --data the positions are those of random games from the start
// position, with as many pieces on the board as self-play's training
// positions (about 18; the mean is printed, since a position's cost grows
// with its pieces). With --data, the first --positions training positions of
// those viriformat files, as the trainer filters them.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateMoves } from '../src/board/movegen.js';
import { Position } from '../src/board/position.js';
import { MAX_MOVES } from '../src/board/types.js';
import {
  DEFAULT_FILTER,
  type LoadedData,
  type PositionSet,
  allocatePositions,
  loadPositions,
  putPosition,
  storedOf,
} from '../src/train/nnue-data.js';
import { DEFAULT_TRAIN_SETTINGS, type TrainKernel, train } from '../src/train/nnue-train.js';
import { xorshift32 } from '../src/util/random.js';
import { numberOption, repeatedOption, requireFile } from './args.js';

const args = process.argv.slice(2);
const hidden = numberOption(args, '--hidden', 256);
const threads = numberOption(args, '--threads', 2);
const count = numberOption(args, '--positions', 300_000);
const rounds = numberOption(args, '--rounds', 3);
const files = repeatedOption(args, '--data').map((f) => requireFile(f, 'a viriformat file (kestrel selfplay, convert-pgn)'));

/** Random games this long average 18 pieces on the board, as self-play positions do after the trainer's filters. */
const PLIES = 240;

/** Positions of random games from the start position, PLIES plies long. */
function randomPositions(n: number): PositionSet {
  const set = allocatePositions(n);
  const moves = new Int32Array(MAX_MOVES);
  const random = xorshift32(12345);
  const next = (k: number): number => random() % k;
  let i = 0;
  while (i < n) {
    const pos = new Position();
    for (let ply = 0; ply < PLIES && i < n; ply++) {
      const k = generateMoves(pos, moves, 0, false);
      if (k === 0) break;
      pos.makeMove(moves[next(k)]);
      const score = next(400) - 200;
      putPosition(set, i++, pos.board, pos.side, next(3), score);
    }
  }
  return set;
}

/** Entries [from, to) of set. */
function slice(set: PositionSet, from: number, to: number): PositionSet {
  return { ...set, count: to - from, entries: set.entries.subarray(from, to) };
}

const all = files.length > 0 ? loadPositions(files, DEFAULT_FILTER, 3).train : randomPositions(count);
const positions = slice(all, 0, Math.min(count, all.count));
let pieces = 0;
for (let i = 0; i < positions.count; i++) pieces += positions.counts[storedOf(positions, i)];
// The last 3% validate (the trainer's share).
const cut = Math.floor(positions.count * 0.97);
const data: LoadedData = {
  train: slice(positions, 0, cut),
  valid: slice(positions, cut, positions.count),
  games: 0,
  read: positions.count,
  inCheck: 0,
  noisy: 0,
  bigScore: 0,
  mirrored: 0,
};

const outDir = mkdtempSync(join(tmpdir(), 'kestrel-train-speed-'));
/** Positions per second of one epoch of `kestrel train` with this kernel and this many threads. */
async function epochRate(kernel: TrainKernel, n: number): Promise<number> {
  const result = await train(
    { ...DEFAULT_TRAIN_SETTINGS, data: [], outDir, hidden, threads: n, epochs: 1, kernel },
    () => {},
    () => {},
    data,
  );
  return data.train.count / result.history[0].seconds;
}

console.log(
  `${data.train.count} positions (${files.length > 0 ? files.join(', ') : `random games of ${PLIES} plies`}; ` +
    `${(pieces / positions.count).toFixed(1)} pieces on average), 768 -> 2x${hidden} -> 1, ` +
    `batches of ${DEFAULT_TRAIN_SETTINGS.batch}, one epoch a measurement`,
);
const RUNS: Array<[TrainKernel, number]> = [
  ['wasm', 1],
  ['wasm', threads],
  ['ts', threads],
];
const rates: number[][] = RUNS.map(() => []);
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [0, 1, 2] : [2, 1, 0];
  for (const i of order) rates[i].push(await epochRate(...RUNS[i]));
  console.log(
    `round ${r + 1}: ${RUNS.map(([k, n], i) => `${k} ${n} thread${n > 1 ? 's' : ''} ${Math.round(rates[i][r])}`).join(', ')} positions/s`,
  );
}
rmSync(outDir, { recursive: true, force: true });
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const [w1, wn, tn] = rates.map(median);
console.log(
  `median positions/s: wasm ${Math.round(w1)} on 1 thread, ${Math.round(wn)} on ${threads}; TypeScript ${Math.round(tn)} on ${threads}; ` +
    `wasm/TypeScript on ${threads} threads ${(wn / tn).toFixed(2)}x`,
);
