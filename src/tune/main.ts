// Command-line entry points of the tuning tools, for the CLI to register:
//   kestrel tune --data <file> [--data <file> ...] [--out <file>] [options: see TUNE_USAGE]
//   kestrel texel-data --pgn <file> [--pgn <file> ...] [--out <file>] [--skip-moves n] [--sample p] [--seed n] [--keep-duplicates]
// Also runnable without the CLI: npx tsx scripts/tune.ts tune --data ...
//
// How the shipped weights were made, step by step: docs/records/tunings.md.

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { NUM_PARAMS, termOf } from '../eval/layout.js';
import { EG, MG } from '../eval/live-weights.js';
import { type LoadStats, type TraceSet, gameFolds, loadDataset, splitByGame } from './dataset.js';
import { pgnToData } from './texel-data.js';
import { weightsSource } from './emit.js';
import {
  DEFAULT_LR,
  OPTIMIZERS,
  type Optimizer,
  type TuneOptions,
  type TuneResult,
  effectiveMaterial,
  mirrorTies,
  paramsOfGroups,
  tune,
} from './tuner.js';
import { errorByGame, pairedDifference } from './objective.js';

export interface TuneCommand {
  /** Labelled data file(s). */
  data: string | readonly string[];
  /** Where to write the new weights.ts; '-' or undefined for stdout. */
  out?: string;
  /** Held-out data file(s); when given, no games of `data` are held out. */
  valid?: readonly string[];
  /** Share of the games of `data` held out for validation (default 0.2; 0: none, train on everything). */
  validFraction?: number;
  splitSeed?: number;
  epochs?: number;
  optimizer?: Optimizer;
  learningRate?: number;
  momentum?: number;
  /** L2 pull towards the starting weights, in positions (see tuner.ts). */
  l2?: number;
  smooth?: number;
  /** Tune file-mirrored piece-square tables. */
  mirror?: boolean;
  /** Share of the search score in the training targets. */
  blend?: number;
  /** Tune only these groups / terms (paramsOfGroups names); the rest stays. */
  only?: readonly string[];
  /** Leave these groups / terms unchanged. */
  freeze?: readonly string[];
  patience?: number;
  /** Ties within this many standard errors of the lowest validation error: the latest epoch is kept (default 1). */
  tolerance?: number;
  k?: number;
  limit?: number;
  quietFilter?: boolean;
  reportEvery?: number;
}

/**
 * Defaults of the command: the configuration with the lowest error on held-out
 * games. 5-fold cross-validation by game on 1600 distinct self-play games
 * (selfplay1 + selfplay2, 132753 positions; error of the hand-set weights
 * about 0.0986), gain in validation error, mean over the folds +- standard error:
 *   old defaults (adam lr 1, 400 epochs, no penalty)     -76.4e-4 +- 9.7e-4 (worse)
 *   newton, l2 10000 / 20000 / 40000 / 80000              +7.2 / +8.8 / +8.6 / +7.2e-4 (+-3.9 / 3.2 / 2.4 / 1.8)
 *   newton, l2 20000, blend 0.5                           +8.7e-4 +- 1.8e-4 (every fold better)
 *   newton, l2 20000, with mirrored tables / smooth 10000 / psqt frozen
 *                                                         +8.6 / +8.7 / +8.3e-4 (no better)
 *   newton, l2 20000, only material and mobility          +4.5e-4 +- 1.7e-4
 * Trained on selfplay1 (600 games) and tested on selfplay2 (1000 games,
 * other openings): old defaults -176e-4, l2 20000 +0.1e-4 +- 4.6e-4,
 * l2 20000 blend 0.5 +4.3e-4 +- 2.4e-4; the other way round -109e-4,
 * +5.5e-4 +- 4.3e-4, +6.1e-4 +- 2.4e-4.
 * With a validation set (20% of the training games) choosing the epoch, the
 * strict lowest-error epoch gained 2.0e-4 +- 0.6e-4 less on the held-out
 * fold than the converged penalised fit; with tolerance 1, 0.6e-4 +- 0.3e-4
 * less (gain 8.5e-4 +- 1.7e-4).
 * With more data the pull can be weaker: on 7398 games (the above, 5000
 * more self-play games and 800 match games; 501700 positions), 5-fold gains
 * for l2 5000 / 1000 / 250 were +18.0 / +19.0 / +19.0e-4 (+- 1.4 / 1.6 / 1.7);
 * the shipped weights were tuned with --l2 1000 (README, Tuning).
 */
const DEFAULTS = {
  validFraction: 0.2,
  splitSeed: 1,
  epochs: 200,
  optimizer: 'newton' as Optimizer,
  l2: 20000,
  smooth: 0,
  blend: 0.5,
  patience: 50,
  tolerance: 1,
};

/** Plausible ranges of the effective piece values (material plus average placement), mg and eg alike: outside them the run is suspect. */
const PLAUSIBLE: readonly [string, number, number][] = [
  ['P', 50, 200],
  ['N', 200, 500],
  ['B', 200, 500],
  ['R', 350, 800],
  ['Q', 700, 1500],
];

/** Data file name(s) for messages. */
function fileList(files: string | readonly string[]): string {
  return typeof files === 'string' ? files : files.join(', ');
}

function describeStats(files: string | readonly string[], stats: LoadStats, set: TraceSet, seconds: number): string {
  return (
    `loaded ${stats.used} positions of ${set.games} games from ${fileList(files)} in ${seconds.toFixed(1)}s ` +
    `(skipped: ${stats.inCheck} in check, ${stats.notQuiet} not quiet, ${stats.drawnByMaterial} dead drawn, ${stats.badLines} unreadable)`
  );
}

/** The tuner's options from the command (validation data and logging aside). */
function tuneOptions(cmd: TuneCommand): TuneOptions {
  let frozen: Set<number> | undefined;
  if (cmd.only !== undefined && cmd.only.length > 0) {
    const keep = paramsOfGroups(cmd.only);
    frozen = new Set<number>();
    for (let i = 0; i < NUM_PARAMS; i++) if (!keep.has(i)) frozen.add(i);
  }
  if (cmd.freeze !== undefined && cmd.freeze.length > 0) {
    frozen ??= new Set<number>();
    for (const i of paramsOfGroups(cmd.freeze)) frozen.add(i);
  }
  const epochs = cmd.epochs ?? DEFAULTS.epochs;
  return {
    epochs,
    optimizer: cmd.optimizer ?? DEFAULTS.optimizer,
    learningRate: cmd.learningRate,
    momentum: cmd.momentum,
    k: cmd.k,
    l2: cmd.l2 ?? DEFAULTS.l2,
    smooth: cmd.smooth ?? DEFAULTS.smooth,
    blend: cmd.blend ?? DEFAULTS.blend,
    frozen,
    tie: cmd.mirror ? mirrorTies() : undefined,
    patience: cmd.patience ?? DEFAULTS.patience,
    tolerance: cmd.tolerance ?? DEFAULTS.tolerance,
    reportEvery: cmd.reportEvery ?? Math.max(1, Math.floor(epochs / 20)),
  };
}

/** Validation errors per game of the starting and the tuned weights. */
function validationErrors(valid: TraceSet, result: TuneResult): { before: Float64Array; after: Float64Array } {
  return {
    before: errorByGame(valid, Float64Array.from(MG), Float64Array.from(EG), result.k),
    after: errorByGame(valid, result.mg, result.eg, result.k),
  };
}

/** Validation gain (start minus tuned, per position) and its standard error by game. */
function validationGain(valid: TraceSet, result: TuneResult): { diff: number; se: number } {
  const { before, after } = validationErrors(valid, result);
  return pairedDifference(before, after, valid.count);
}

export interface CrossValidation {
  folds: { validBefore: number; validAfter: number; gain: number; se: number; epoch: number }[];
  /** Gain over all held-out positions (start minus tuned) and its standard error by game. */
  gain: number;
  se: number;
}

/**
 * k-fold cross-validation by game of the command's configuration: each fold
 * of the games is held out once, tuned on the others (early stopping on the
 * held-out fold, as a normal run does). Writes no weights.
 */
export async function runCrossValidation(cmd: TuneCommand, folds: number): Promise<CrossValidation> {
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const t0 = performance.now();
  const { set, stats } = await loadDataset(cmd.data, { quietFilter: cmd.quietFilter ?? true, limit: cmd.limit });
  log(describeStats(cmd.data, stats, set, (performance.now() - t0) / 1000));
  if (set.games < folds) throw new Error(`${folds} folds need at least ${folds} games`);
  const fold = gameFolds(set, folds, cmd.splitSeed ?? DEFAULTS.splitSeed);
  const options = tuneOptions(cmd);
  const out: CrossValidation = { folds: [], gain: 0, se: 0 };
  const before: number[] = [];
  const after: number[] = [];
  let positions = 0;
  for (let f = 0; f < folds; f++) {
    const train = set.subset((p) => fold[p] !== f);
    const valid = set.subset((p) => fold[p] === f);
    const result = tune(train, MG, EG, { ...options, valid });
    const errors = validationErrors(valid, result);
    const { diff, se } = pairedDifference(errors.before, errors.after, valid.count);
    out.folds.push({ validBefore: result.validBefore, validAfter: result.validAfter, gain: diff, se, epoch: result.bestEpoch });
    log(
      `fold ${f + 1}/${folds}: ${train.games} games for training, ${valid.games} held out: valid ${result.validBefore.toFixed(6)} -> ` +
        `${result.validAfter.toFixed(6)} (gain ${diff.toExponential(2)} +- ${se.toExponential(2)}, epoch ${result.bestEpoch})`,
    );
    before.push(...errors.before);
    after.push(...errors.after);
    positions += valid.count;
  }
  ({ diff: out.gain, se: out.se } = pairedDifference(before, after, positions));
  log(
    `cross-validation, ${folds} folds: validation error lower by ${out.gain.toExponential(2)} +- ${out.se.toExponential(2)} (standard error by game)`,
  );
  return out;
}

/** Loads the data, tunes from the current weights and writes a weights.ts. Progress goes to stderr. */
export async function runTune(cmd: TuneCommand): Promise<TuneResult> {
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const t0 = performance.now();
  const loadOptions = { quietFilter: cmd.quietFilter ?? true, limit: cmd.limit };
  const { set, stats } = await loadDataset(cmd.data, loadOptions);
  log(describeStats(cmd.data, stats, set, (performance.now() - t0) / 1000));
  if (set.count === 0) throw new Error('no usable positions');

  let train = set;
  let valid: TraceSet | undefined;
  let split: string;
  if (cmd.valid !== undefined && cmd.valid.length > 0) {
    const t1 = performance.now();
    const loaded = await loadDataset(cmd.valid, { quietFilter: loadOptions.quietFilter });
    log(describeStats(cmd.valid, loaded.stats, loaded.set, (performance.now() - t1) / 1000));
    valid = loaded.set;
    split = `validated on ${cmd.valid.join(', ')}`;
  } else {
    const fraction = cmd.validFraction ?? DEFAULTS.validFraction;
    const seed = cmd.splitSeed ?? DEFAULTS.splitSeed;
    if (fraction > 0) {
      ({ train, valid } = splitByGame(set, fraction, seed));
      split = `${valid.games} of ${set.games} games held out (fraction ${fraction}, seed ${seed})`;
      log(`split by game: ${train.count} positions of ${train.games} games for training, ${valid.count} of ${valid.games} for validation`);
      if (train.count === 0) throw new Error('no training positions left after the split');
    } else {
      split = 'no validation';
    }
  }

  const options = tuneOptions(cmd);
  const result = tune(train, MG, EG, { ...options, valid, log });
  const hasValid = valid !== undefined && !Number.isNaN(result.validAfter);
  const gain = hasValid ? validationGain(valid!, result) : { diff: NaN, se: NaN };
  const gainText = `lower by ${gain.diff.toExponential(2)} +- ${gain.se.toExponential(2)} (standard error by game)`;
  log(
    `train ${result.errorBefore.toFixed(6)} -> ${result.errorAfter.toFixed(6)}` +
      (hasValid
        ? `, valid ${result.validBefore.toFixed(6)} -> ${result.validAfter.toFixed(6)}, ${gainText}; epoch ${result.bestEpoch} of ${result.epochs}`
        : '') +
      ` (K ${result.k.toFixed(6)})`,
  );
  if (hasValid && result.validAfter >= result.validBefore)
    log('warning: the tuned weights do not predict the held-out games better than the starting weights');
  else if (hasValid && gain.diff < 2 * gain.se)
    log('note: the validation gain is within two standard errors; `--folds 5` measures it on all the games');
  const eff = effectiveMaterial(result.mg, result.eg);
  log(
    `effective piece values (material + average placement), mg/eg: ${eff.map(([m, e], t) => `${PLAUSIBLE[t][0]} ${Math.round(m)}/${Math.round(e)}`).join('  ')}`,
  );
  eff.forEach(([m, e], t) => {
    const [name, lo, hi] = PLAUSIBLE[t];
    if (Math.min(m, e) < lo || Math.max(m, e) > hi)
      log(`warning: implausible value of ${name}: ${Math.round(m)}/${Math.round(e)} (expected ${lo}..${hi})`);
  });
  const changes: { i: number; phase: string; from: number; to: number }[] = [];
  for (let i = 0; i < NUM_PARAMS; i++) {
    changes.push({ i, phase: 'mg', from: MG[i], to: result.mg[i] }, { i, phase: 'eg', from: EG[i], to: result.eg[i] });
  }
  const moved = changes.filter((c) => Math.round(c.to) !== c.from).sort((a, b) => Math.abs(b.to - b.from) - Math.abs(a.to - a.from));
  log(
    `${moved.length} values changed; largest: ${
      moved
        .slice(0, 8)
        .map((c) => `${termOf(c.i).name}[${c.i - termOf(c.i).offset}].${c.phase} ${c.from}->${Math.round(c.to)}`)
        .join(', ') || 'none'
    }`,
  );

  const { optimizer = DEFAULTS.optimizer, l2 = DEFAULTS.l2, smooth = DEFAULTS.smooth, blend = DEFAULTS.blend } = options;
  const settings = [
    `${optimizer} lr ${cmd.learningRate ?? DEFAULT_LR[optimizer]}`,
    `l2 ${l2}`,
    smooth > 0 ? `smooth ${smooth}` : '',
    cmd.mirror ? 'mirrored tables' : '',
    blend > 0 ? `blend ${blend}` : '',
    cmd.only?.length ? `only ${cmd.only.join(',')}` : '',
    cmd.freeze?.length ? `frozen ${cmd.freeze.join(',')}` : '',
  ].filter((s) => s !== '');
  const source = weightsSource(result.mg, result.eg, [
    `Tuned by \`kestrel tune\` on ${train.count} positions (${train.games} games) of ${fileList(cmd.data)}; ${split};`,
    `${settings.join(', ')}; epoch ${result.bestEpoch} of ${result.epochs}, K ${result.k.toFixed(6)} (fixed).`,
    `Mean squared error: training ${result.errorBefore.toFixed(6)} -> ${result.errorAfter.toFixed(6)}` +
      (hasValid ? `, validation ${result.validBefore.toFixed(6)} -> ${result.validAfter.toFixed(6)}` : '.'),
    ...(hasValid ? [`(${gainText}).`] : []),
  ]);
  if (cmd.out === undefined || cmd.out === '-') process.stdout.write(source);
  else {
    writeFileSync(cmd.out, source);
    log(`wrote ${cmd.out}`);
  }
  return result;
}

const TUNE_USAGE = `usage: tune --data <file> [--data <file> ...] [--out <file>] [options]
  --valid <file>        held-out data (repeatable); default: hold out games of --data
  --valid-fraction f    share of the games held out for validation (default ${DEFAULTS.validFraction}; 0: none)
  --split-seed n        which games are held out (default ${DEFAULTS.splitSeed})
  --epochs n            at most n epochs (default ${DEFAULTS.epochs})
  --patience n          stop after n epochs without a lower validation error (default ${DEFAULTS.patience})
  --tolerance x         validation errors within x standard errors of the lowest are ties; the latest is kept (default ${DEFAULTS.tolerance})
  --folds n             instead: n-fold cross-validation by game of these settings (writes no weights)
  --optimizer name      ${OPTIMIZERS.join(' | ')} (default ${DEFAULTS.optimizer})
  --lr x                step size (default ${OPTIMIZERS.map((o) => `${o} ${DEFAULT_LR[o]}`).join(', ')})
  --momentum x          momentum of newton and gd
  --l2 x                pull towards the starting weights, in positions (default ${DEFAULTS.l2})
  --smooth x            pull between neighbouring piece-square entries, in positions (default ${DEFAULTS.smooth})
  --mirror              tune left-right mirrored piece-square tables
  --blend x             share of the search score in the targets, 0..1 (default ${DEFAULTS.blend})
  --only a,b            tune only these groups or terms (psqt, mobility, passers, pawns, king, pieces, material, term names)
  --freeze a,b          leave these groups or terms unchanged
  --k x                 use this K instead of fitting it on the starting weights
  --limit n             use at most n positions
  --report n            progress every n epochs
  --no-quiet-filter     keep positions where a capture wins material`;

/** A numeric command-line value (undefined when absent); anything but a finite number is an error naming the option. */
function numberArg(name: string, s: string | undefined, check?: (v: number) => boolean, expected = 'a number'): number | undefined {
  if (s === undefined) return undefined;
  const v = Number(s);
  if (s.trim() === '' || !Number.isFinite(v) || (check !== undefined && !check(v)))
    throw new Error(`--${name} needs ${expected}, got '${s}'`);
  return v;
}

/** `tune` with command-line arguments (without the command name). */
export async function tuneMain(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      data: { type: 'string', multiple: true },
      out: { type: 'string' },
      valid: { type: 'string', multiple: true },
      'valid-fraction': { type: 'string' },
      'split-seed': { type: 'string' },
      epochs: { type: 'string' },
      patience: { type: 'string' },
      tolerance: { type: 'string' },
      folds: { type: 'string' },
      optimizer: { type: 'string' },
      lr: { type: 'string' },
      momentum: { type: 'string' },
      l2: { type: 'string' },
      smooth: { type: 'string' },
      mirror: { type: 'boolean' },
      blend: { type: 'string' },
      only: { type: 'string', multiple: true },
      freeze: { type: 'string', multiple: true },
      k: { type: 'string' },
      limit: { type: 'string' },
      report: { type: 'string' },
      'no-quiet-filter': { type: 'boolean' },
    },
  });
  if (values.data === undefined || values.data.length === 0) {
    process.stderr.write(`${TUNE_USAGE}\n`);
    return 2;
  }
  const optimizer = values.optimizer;
  if (optimizer !== undefined && !(OPTIMIZERS as readonly string[]).includes(optimizer)) {
    throw new Error(`--optimizer must be one of ${OPTIMIZERS.join(', ')}, got '${optimizer}'`);
  }
  const list = (v: string[] | undefined): string[] | undefined => v?.flatMap((s) => s.split(',')).filter((s) => s.trim() !== '');
  const cmd: TuneCommand = {
    data: values.data,
    out: values.out,
    valid: values.valid,
    validFraction: numberArg('valid-fraction', values['valid-fraction']),
    splitSeed: numberArg('split-seed', values['split-seed']),
    epochs: numberArg('epochs', values.epochs),
    patience: numberArg('patience', values.patience),
    tolerance: numberArg('tolerance', values.tolerance),
    optimizer: optimizer as Optimizer | undefined,
    learningRate: numberArg('lr', values.lr),
    momentum: numberArg('momentum', values.momentum),
    l2: numberArg('l2', values.l2),
    smooth: numberArg('smooth', values.smooth),
    mirror: values.mirror ?? false,
    blend: numberArg('blend', values.blend),
    only: list(values.only),
    freeze: list(values.freeze),
    k: numberArg('k', values.k),
    limit: numberArg('limit', values.limit),
    reportEvery: numberArg('report', values.report),
    quietFilter: !values['no-quiet-filter'],
  };
  const folds = numberArg('folds', values.folds, (v) => Number.isInteger(v) && v >= 2, 'an integer of at least 2');
  if (folds !== undefined) {
    await runCrossValidation(cmd, folds);
  } else {
    await runTune(cmd);
  }
  return 0;
}

/** `texel-data` with command-line arguments: PGN files to labelled positions. */
export async function texelDataMain(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      pgn: { type: 'string', multiple: true },
      out: { type: 'string' },
      'skip-moves': { type: 'string' },
      sample: { type: 'string' },
      seed: { type: 'string' },
      'keep-duplicates': { type: 'boolean' },
    },
  });
  if (values.pgn === undefined || values.pgn.length === 0) {
    process.stderr.write(
      'usage: texel-data --pgn <file> [--pgn <file> ...] [--out <file>] [--skip-moves n] [--sample p] [--seed n] [--keep-duplicates]\n',
    );
    return 2;
  }
  const stats = await pgnToData(values.pgn, values.out ?? '-', {
    skipMoves: numberArg('skip-moves', values['skip-moves'], (v) => Number.isInteger(v) && v >= 0, 'a whole number of at least 0'),
    sample: numberArg('sample', values.sample, (v) => v > 0 && v <= 1, 'a probability above 0 and at most 1'),
    seed: numberArg('seed', values.seed, Number.isInteger, 'a whole number'),
    keepDuplicates: values['keep-duplicates'] ?? false,
  });
  process.stderr.write(
    `${stats.games} games, ${stats.positions} positions written` +
      `${stats.duplicateGames ? `, ${stats.duplicateGames} repeated games dropped` : ''}` +
      `${stats.skippedGames ? `, ${stats.skippedGames} games without a result skipped` : ''}` +
      `${stats.badMoves ? `, ${stats.badMoves} games cut at an unreadable move` : ''}\n`,
  );
  return 0;
}
