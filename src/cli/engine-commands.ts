// Subcommands around the engine: `bench` (the search signature), `spsa`
// (OpenBench's SPSA input, from a tuning build) and the evaluation tuning
// tools `tune` and `texel-data`.

import type { Command } from 'commander';
import { runBench, runThreadBench } from '../search/bench.js';
import { TUNING_BUILD, spsaInputLines } from '../search/tuning.js';
import { helperPool } from '../engine/search-worker.js';
import { SETTINGS } from '../engine/settings.js';
import { integerArg } from './args.js';
import { texelDataMain, tuneMain } from '../tune/main.js';
import { errorText } from '../util/errors.js';

export function registerEngineCommands(program: Command): void {
  program
    .command('bench')
    .argument('[depth]', 'search depth', String(SETTINGS.benchDepth.default))
    .option('--threads <n>', `instead: time to depth with n threads (2..${SETTINGS.threads.max}) against 1, alternating, and the speed-up`)
    .option(
      '--runs <n>',
      'search the positions n times in one process and report the median pass (default 1); with --threads: how many times each is measured (default 3)',
    )
    .description(
      'search the bench positions to a fixed depth (single thread, 16 MB hash) and print the node count; with --threads, measure parallel speed-up',
    )
    .action((depthText: string, opts: { threads?: string; runs?: string }) => {
      const depth = integerArg(program, 'bench depth', depthText, SETTINGS.benchDepth.min, SETTINGS.benchDepth.max);
      const runs = integerArg(program, '--runs', opts.runs ?? (opts.threads === undefined ? '1' : '3'), 1);
      if (opts.threads === undefined) {
        runBench(depth, undefined, runs);
        return;
      }
      const threads = integerArg(program, '--threads', opts.threads, 2, SETTINGS.threads.max);
      const pool = helperPool((text) => process.stderr.write(`${text}\n`));
      pool.setThreads(threads);
      if (pool.helpers !== threads - 1) program.error('error: the helper threads could not be started');
      try {
        runThreadBench(depth, runs, pool);
      } finally {
        pool.terminate();
      }
    });

  program
    .command('spsa')
    .description(
      "print OpenBench's SPSA input, one line per search parameter: NAME, int|float, value, min, max, c_end, r_end (a tuning build: make TUNE=1)",
    )
    .action(() => {
      if (!TUNING_BUILD) program.error('error: not a tuning build: its search parameters cannot be set (make TUNE=1, docs/openbench.md)');
      for (const line of spsaInputLines()) console.log(line);
    });

  // The tuning tools parse their own options (see src/tune/main.ts).
  const passThrough = (name: string, description: string, main: (args: string[]) => Promise<number>): void => {
    program
      .command(name)
      .description(description)
      .allowUnknownOption()
      .helpOption(false)
      .argument('[options...]')
      .action(async (args: string[]) => {
        try {
          // With no arguments the tools print their usage; --help asks for just that.
          if (args.includes('--help') || args.includes('-h')) {
            await main([]);
            process.exitCode = 0;
            return;
          }
          process.exitCode = await main(args);
        } catch (e) {
          process.stderr.write(`error: ${errorText(e)}\n`);
          process.exitCode = 1;
        }
      });
  };
  passThrough('tune', 'Texel-tune the evaluation: tune --data <file> [--out <weights.ts>] (tune --help lists the options)', tuneMain);
  passThrough(
    'texel-data',
    'turn PGN games into labelled positions: texel-data --pgn <file> [--pgn ...] [--out <file>] [--skip-moves n]',
    texelDataMain,
  );
}
