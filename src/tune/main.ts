// Command-line entry points of the tuning tools, for the CLI to register:
//   kestrel tune --data <file> [--out <file>] [--epochs n] [--lr x] [--k x] [--limit n] [--no-quiet-filter]
//   kestrel datagen --pgn <file> [--pgn <file> ...] [--out <file>] [--skip-moves n] [--sample p] [--seed n]
// Also runnable without the CLI: npx tsx src/tune/run.ts tune --data ...

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { EG, MG } from '../eval/params.js';
import { loadDataset } from './dataset.js';
import { pgnToData } from './datagen.js';
import { weightsSource } from './emit.js';
import { tune } from './tuner.js';

export interface TuneCommand {
  data: string;
  /** Where to write the new weights.ts; '-' or undefined for stdout. */
  out?: string;
  epochs?: number;
  learningRate?: number;
  k?: number;
  limit?: number;
  quietFilter?: boolean;
}

/** Loads the data, tunes from the current weights and writes a weights.ts. Progress goes to stderr. */
export async function runTune(cmd: TuneCommand): Promise<void> {
  const log = (line: string): void => void process.stderr.write(line + '\n');
  const t0 = performance.now();
  const { set, stats } = await loadDataset(cmd.data, { quietFilter: cmd.quietFilter ?? true, limit: cmd.limit });
  log(
    `loaded ${stats.used} positions from ${cmd.data} in ${((performance.now() - t0) / 1000).toFixed(1)}s ` +
      `(skipped: ${stats.inCheck} in check, ${stats.notQuiet} not quiet, ${stats.drawnByMaterial} dead drawn, ${stats.badLines} unreadable)`,
  );
  if (set.count === 0) throw new Error('no usable positions');
  const epochs = cmd.epochs ?? 300;
  const result = tune(set, MG, EG, { epochs, learningRate: cmd.learningRate, k: cmd.k, log, reportEvery: Math.max(1, Math.floor(epochs / 20)) });
  log(`error ${result.errorBefore.toFixed(6)} -> ${result.errorAfter.toFixed(6)} (K ${result.k.toFixed(6)})`);
  const source = weightsSource(result.mg, result.eg, [
    `Tuned by \`kestrel tune\` on ${set.count} positions of ${cmd.data}, ${epochs} epochs,`,
    `K ${result.k.toFixed(6)}, mean squared error ${result.errorBefore.toFixed(6)} -> ${result.errorAfter.toFixed(6)}.`,
  ]);
  if (cmd.out === undefined || cmd.out === '-') process.stdout.write(source);
  else {
    writeFileSync(cmd.out, source);
    log(`wrote ${cmd.out}`);
  }
}

/** `tune` with command-line arguments (without the command name). */
export async function tuneMain(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      data: { type: 'string' },
      out: { type: 'string' },
      epochs: { type: 'string' },
      lr: { type: 'string' },
      k: { type: 'string' },
      limit: { type: 'string' },
      'no-quiet-filter': { type: 'boolean' },
    },
  });
  if (values.data === undefined) {
    process.stderr.write('usage: tune --data <file> [--out <file>] [--epochs n] [--lr x] [--k x] [--limit n] [--no-quiet-filter]\n');
    return 2;
  }
  const num = (s: string | undefined): number | undefined => (s === undefined ? undefined : Number(s));
  await runTune({
    data: values.data,
    out: values.out,
    epochs: num(values.epochs),
    learningRate: num(values.lr),
    k: num(values.k),
    limit: num(values.limit),
    quietFilter: !values['no-quiet-filter'],
  });
  return 0;
}

/** `datagen` with command-line arguments: PGN files to labelled positions. */
export async function datagenMain(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      pgn: { type: 'string', multiple: true },
      out: { type: 'string' },
      'skip-moves': { type: 'string' },
      sample: { type: 'string' },
      seed: { type: 'string' },
    },
  });
  if (values.pgn === undefined || values.pgn.length === 0) {
    process.stderr.write('usage: datagen --pgn <file> [--pgn <file> ...] [--out <file>] [--skip-moves n] [--sample p] [--seed n]\n');
    return 2;
  }
  const stats = await pgnToData(values.pgn, values.out ?? '-', {
    skipMoves: values['skip-moves'] === undefined ? undefined : Number(values['skip-moves']),
    sample: values.sample === undefined ? undefined : Number(values.sample),
    seed: values.seed === undefined ? undefined : Number(values.seed),
  });
  process.stderr.write(
    `${stats.games} games, ${stats.positions} positions written` +
      `${stats.skippedGames ? `, ${stats.skippedGames} games without a result skipped` : ''}` +
      `${stats.badMoves ? `, ${stats.badMoves} games cut at an unreadable move` : ''}\n`,
  );
  return 0;
}
