// How well a network and the hand-crafted evaluation predict what the
// trainer teaches, on the trainer's validation games (the same games `kestrel
// train` holds out: pass the same files in the same order and --valid): the
// correlation of each static evaluation with the search score recorded in
// the data, each one's loss against the training target, and how far each
// one strays from the search score (quantiles of |eval - score|: the error
// the search's futility margins must cover). A network that
// does not beat the hand-crafted evaluation here will not beat it in games;
// this takes seconds where a match takes an hour.
//
//   npx tsx bench/network-fit.ts <net.nnue> <games.vf>... [--valid 3] [--scale 400] [--wdl 0.25]

import { readFileSync } from 'node:fs';
import { WHITE } from '../src/board/types.js';
import { evaluate as evaluateHce } from '../src/eval/evaluate.js';
import { NnueEvaluator } from '../src/eval/nnue/evaluator.js';
import { decodeNetwork } from '../src/eval/nnue/network.js';
import { DEFAULT_FILTER, isValidationGame, leftOutBy, readGameSource, replayGames } from '../src/train/nnue-data.js';
import { numberOption, positionals, requireFile } from './args.js';

const args = process.argv.slice(2);
const [netFile, ...files] = positionals(args);
if (netFile === undefined || files.length === 0) {
  console.error('usage: network-fit.ts <net.nnue> <games.vf>... [--valid 3] [--scale 400] [--wdl 0.25]');
  process.exit(2);
}
for (const f of [netFile, ...files]) requireFile(f, 'a network (kestrel train) or viriformat games (kestrel selfplay)');
const validPercent = numberOption(args, '--valid', 3);
const scale = numberOption(args, '--scale', 400);
const wdl = numberOption(args, '--wdl', 0.25);

const nnue = new NnueEvaluator(decodeNetwork(new Uint8Array(readFileSync(netFile))));
const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** Sums for one predictor (centipawns, White's view). */
class Fit {
  n = 0;
  abs = 0;
  xx = 0;
  xs = 0;
  loss = 0;
  errors: number[] = [];
  add(x: number, score: number, target: number): void {
    this.n++;
    this.errors.push(Math.abs(x - score));
    this.abs += Math.abs(x);
    this.xx += x * x;
    this.xs += x * score;
    this.loss += (sigmoid(x / scale) - target) ** 2;
  }
}
const fits = { 'hand-crafted': new Fit(), network: new Fit(), 'search score': new Fit() };
let ss = 0;
const games = replayGames(
  files.map(readGameSource),
  (pos, move, score, result) => {
    // The trainer's filter: quiet positions, not in check, not decided.
    if (leftOutBy(pos, move, score, DEFAULT_FILTER) !== null) return;
    const white = pos.side === WHITE ? 1 : -1;
    const target = (wdl * result) / 2 + (1 - wdl) * sigmoid(score / scale);
    fits['hand-crafted'].add(white * evaluateHce(pos), score, target);
    fits.network.add(white * nnue.evaluate(pos), score, target);
    fits['search score'].add(score, score, target);
    ss += score * score;
  },
  (game) => isValidationGame(game, validPercent),
);
const n = fits.network.n;
console.log(
  `${n} positions of the validation games (${validPercent}% of ${games}); target: ${wdl} result + ${1 - wdl} sigmoid(score / ${scale})`,
);
const QUANTILES = [0.5, 0.8, 0.9, 0.95];
for (const [name, f] of Object.entries(fits)) {
  const corr = f.xs / Math.sqrt(f.xx * ss);
  const errors = f.errors.sort((a, b) => a - b);
  const quantiles = QUANTILES.map((q) => `${q * 100}% ${errors[Math.floor(q * (n - 1))].toFixed(0)}`).join(', ');
  console.log(
    `${name.padEnd(13)} mean |eval| ${(f.abs / n).toFixed(0).padStart(4)} cp   correlation with the search score ${corr.toFixed(4)}   loss ${(f.loss / n).toFixed(6)}` +
      (name === 'search score' ? '' : `   |eval - score| ${quantiles} cp`),
  );
}
