// How well a network and the hand-crafted evaluation predict the games, on
// held-out games: the correlation of each static evaluation with the search
// score recorded in the data, each one's loss against two fixed targets
// (the search score, sigmoid(score / scale), and the game's result) and
// against the trainer's blend (--wdl), and how far each one strays from the
// search score (quantiles of |eval - score|: the error the search's futility
// margins must cover). The fixed targets make networks trained with
// different result weights (λ, --wdl) comparable. A network that does not
// beat the hand-crafted evaluation here will not beat it in games; this
// takes seconds where a match takes an hour.
//
// Every generation is measured on the project's fixed test file, never
// trained on (all its games: --valid 100):
//   npx tsx bench/network-fit.ts <net.nnue> ../shared/data/selfplay/test-x7-s100.vf.xz --valid 100
// or on the trainer's own validation games (the same files in the same order and --valid):
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
  /** Squared errors against the search score, the result, and the blend. */
  lossScore = 0;
  lossResult = 0;
  lossBlend = 0;
  errors: number[] = [];
  add(x: number, score: number, result: number): void {
    this.n++;
    this.errors.push(Math.abs(x - score));
    this.abs += Math.abs(x);
    this.xx += x * x;
    this.xs += x * score;
    const p = sigmoid(x / scale);
    const byScore = sigmoid(score / scale);
    const byResult = result / 2;
    this.lossScore += (p - byScore) ** 2;
    this.lossResult += (p - byResult) ** 2;
    this.lossBlend += (p - (wdl * byResult + (1 - wdl) * byScore)) ** 2;
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
    fits['hand-crafted'].add(white * evaluateHce(pos), score, result);
    fits.network.add(white * nnue.evaluate(pos), score, result);
    fits['search score'].add(score, score, result);
    ss += score * score;
  },
  (game) => isValidationGame(game, validPercent),
);
const n = fits.network.n;
console.log(
  `${n} positions of the validation games (${validPercent}% of ${games}); scale ${scale}; blend: ${wdl} result + ${1 - wdl} score`,
);
const QUANTILES = [0.5, 0.8, 0.9, 0.95];
for (const [name, f] of Object.entries(fits)) {
  const corr = f.xs / Math.sqrt(f.xx * ss);
  const errors = f.errors.sort((a, b) => a - b);
  const quantiles = QUANTILES.map((q) => `${q * 100}% ${errors[Math.floor(q * (n - 1))].toFixed(0)}`).join(', ');
  const loss = (sum: number): string => (sum / n).toFixed(6);
  console.log(
    `${name.padEnd(13)} mean |eval| ${(f.abs / n).toFixed(0).padStart(4)} cp   correlation with the search score ${corr.toFixed(4)}   ` +
      `loss vs score ${loss(f.lossScore)}  vs result ${loss(f.lossResult)}  vs blend ${loss(f.lossBlend)}` +
      (name === 'search score' ? '' : `   |eval - score| ${quantiles} cp`),
  );
}
