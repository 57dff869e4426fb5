#!/usr/bin/env node
// Command-line entry point. `kestrel` alone speaks UCI on stdin/stdout (what a
// chess GUI runs); each subcommand is registered by its own module; arguments
// that start with a UCI word run as UCI lines first (uci-lines.ts).

import { Command } from 'commander';
import { runUci } from '../uci/uci.js';
import { engineVersion } from '../engine/version.js';
import { isSearchWorker, runSearchWorker } from '../engine/search-worker.js';
import { isSelfPlayWorker, runSelfPlayWorker } from '../train/selfplay-run.js';
import { isTrainWorker, runTrainWorker } from '../train/nnue-train.js';
import { registerTrainCommands } from './train-commands.js';
import { registerBookCommands } from './book-commands.js';
import { registerEngineCommands } from './engine-commands.js';
import { registerPerftCommands } from './perft-commands.js';
import { platform } from '../platform/index.js';
import { registerPlayCommands } from './play-commands.js';
import { registerAnalyseCommands } from './analyse-commands.js';
import { argumentsAreUciLines, uciStreamWith } from './uci-lines.js';
import { errorText } from '../util/errors.js';

/** The command line's program, with every subcommand. */
function commandLine(): Command {
  const program = new Command('kestrel')
    .description('Kestrel, a UCI chess engine for Node.js. Without a command, it speaks UCI on stdin/stdout.')
    .version(engineVersion(), '-V, --version', 'print the version');
  registerPerftCommands(program);
  registerPlayCommands(program);
  registerAnalyseCommands(program);
  registerEngineCommands(program);
  registerBookCommands(program);
  registerTrainCommands(program);
  return program;
}

// Workers run this same bundle; they must not parse arguments (nor spend
// their start on the command line: a search's helper threads start by the dozen).
// No arguments means UCI (checked before commander so that an unknown command is still an error).
if (isSearchWorker()) {
  runSearchWorker();
} else if (isSelfPlayWorker()) {
  runSelfPlayWorker();
} else if (isTrainWorker()) {
  runTrainWorker();
} else {
  // Before any search code runs; the flags hold for the whole process, workers included.
  platform.tuneCompiler();
  const program = commandLine();
  const args = process.argv.slice(2);
  const subcommands = program.commands.flatMap((c) => [c.name(), ...c.aliases()]);
  if (args.length === 0 || argumentsAreUciLines(args, subcommands)) {
    // A person at a terminal (a GUI's pipe is not one) learns what this is; a GUI sees nothing extra.
    if (args.length === 0 && process.stdin.isTTY) {
      console.log(`Kestrel ${engineVersion()}, a UCI chess engine: type uci, or help for the commands; kestrel --help lists the tools.`);
    }
    runUci(uciStreamWith(platform.uciStream(), args));
  } else {
    // A reader that has gone (`| head`) ends the command quietly.
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') console.error(`error: ${errorText(e)}`);
      process.exit(e.code === 'EPIPE' ? 0 : 1);
    });
    program.parseAsync().catch((e: unknown) => {
      // One line for a user; the stack trace with KESTREL_DEBUG=1.
      console.error(process.env.KESTREL_DEBUG ? e : `error: ${errorText(e)}`);
      process.exitCode = 1;
    });
  }
}
