// The scale that turns search scores into expected results: the K (centipawns)
// for which sigmoid(score / K) best predicts the games' results (least squared
// error), over the positions the trainer keeps (its filter). The trainer's
// --sigmoid-scale takes it, so that a target blending score and result
// (--wdl) mixes two predictions of the same thing. Prints the error at K
// beside the error at the scale the networks were trained with (400).
//
//   npx tsx bench/fit-scale.ts <games.vf | chunk.vfc | data/>... [--max-positions 2000000]

import { DEFAULT_FILTER, expandDataPaths, leftOutBy, readGameSource, replayGames } from '../src/train/nnue-data.js';
import { numberOption, positionals, requireFile } from './args.js';

const args = process.argv.slice(2);
const paths = positionals(args);
if (paths.length === 0) {
  console.error('usage: fit-scale.ts <games.vf | chunk.vfc | data/>... [--max-positions 2000000]');
  process.exit(2);
}
for (const p of paths) requireFile(p, 'viriformat games, a chunk or a data store');
const maxPositions = numberOption(args, '--max-positions', 2_000_000);

const scores: number[] = [];
const results: number[] = [];
for (const file of expandDataPaths(paths)) {
  if (scores.length >= maxPositions) break;
  replayGames([readGameSource(file)], (pos, move, score, result) => {
    if (scores.length >= maxPositions || leftOutBy(pos, move, score, DEFAULT_FILTER) !== null) return;
    // The side to move's score and result, as the trainer's target takes them.
    const white = pos.side === 0;
    scores.push(white ? score : -score);
    results.push(white ? result / 2 : 1 - result / 2);
  });
}

const error = (k: number): number => {
  let sum = 0;
  for (let i = 0; i < scores.length; i++) sum += (1 / (1 + Math.exp(-scores[i] / k)) - results[i]) ** 2;
  return sum / scores.length;
};
// Golden-section search on log K over 50..2000 cp.
let a = Math.log(50);
let b = Math.log(2000);
const ratio = (Math.sqrt(5) - 1) / 2;
for (let i = 0; i < 50; i++) {
  const c = b - ratio * (b - a);
  const d = a + ratio * (b - a);
  if (error(Math.exp(c)) < error(Math.exp(d))) b = d;
  else a = c;
}
const k = Math.exp((a + b) / 2);
console.log(`${scores.length} positions: sigmoid(score / K) fits the results best at K = ${k.toFixed(1)} cp`);
console.log(`mean squared error against the result: ${error(k).toFixed(6)} at K = ${k.toFixed(1)}, ${error(400).toFixed(6)} at K = 400`);
