// Subcommands around the engine: `bench` (the search signature) and the
// evaluation tuning tools `tune` and `datagen`.

import type { Command } from 'commander';
import { DEFAULT_BENCH_DEPTH, runBench } from '../search/bench.js';
import { datagenMain, tuneMain } from '../tune/main.js';

export function registerEngineCommands(program: Command): void {
  program
    .command('bench')
    .argument('[depth]', 'search depth', String(DEFAULT_BENCH_DEPTH))
    .description('search the bench positions to a fixed depth (single thread, 16 MB hash) and print the node count')
    .action((depthText: string) => {
      const depth = Number(depthText);
      if (!Number.isInteger(depth) || depth < 1 || depth > 60) program.error(`error: bench depth must be an integer from 1 to 60, got '${depthText}'`);
      runBench(depth);
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
          process.exitCode = await main(args);
        } catch (e) {
          process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
          process.exitCode = 1;
        }
      });
  };
  passThrough('tune', 'Texel-tune the evaluation: tune --data <file> [--out <weights.ts>] [--epochs n] [--lr x] [--k x] [--limit n]', tuneMain);
  passThrough('datagen', 'turn PGN games into labelled positions: datagen --pgn <file> [--pgn ...] [--out <file>] [--skip-moves n]', datagenMain);
}
