// The `perft` and `perft-suite` subcommands: move-generator checks and speed.

import { readFileSync } from 'node:fs';
import { type Command, InvalidArgumentError } from 'commander';
import { moveToUci } from '../board/notation.js';
import { Perft } from '../board/perft.js';
import { FenError, Position, START_FEN } from '../board/position.js';
import { setPosition } from './load-position.js';
import { type SuiteEntry, SuiteError, parsePerftSuite, runPerftSuite } from './perft-suite.js';

const MAX_DEPTH = 20;

function parseDepth(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_DEPTH) {
    throw new InvalidArgumentError(`depth must be an integer from 1 to ${MAX_DEPTH}.`);
  }
  return Number(text);
}

function nodesPerSecond(nodes: number, ms: number): number {
  return Math.round((nodes * 1000) / Math.max(ms, 0.001));
}

function printSummary(nodes: number, ms: number): void {
  console.log(`Nodes searched: ${nodes}`);
  console.log(`Time: ${ms < 10_000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`}`);
  console.log(`Nodes/second: ${nodesPerSecond(nodes, ms)}`);
}

interface PerftOptions {
  fen: string;
  divide?: boolean;
  chess960?: boolean;
}

function perftCommand(depth: number, options: PerftOptions, command: Command): void {
  const pos = new Position();
  try {
    setPosition(pos, options.fen, options.chess960 ?? false);
  } catch (e) {
    if (e instanceof FenError) command.error(`error: bad FEN '${options.fen}': ${e.message}`);
    throw e;
  }
  const perft = new Perft();
  const t0 = performance.now();
  let nodes: number;
  if (options.divide) {
    // One line per root move, sorted so two engines' outputs can be diffed.
    const rows = perft.divide(pos, depth).map(({ move, nodes }) => ({ uci: moveToUci(pos, move), nodes }));
    rows.sort((a, b) => (a.uci < b.uci ? -1 : 1));
    for (const row of rows) console.log(`${row.uci}: ${row.nodes}`);
    console.log('');
    nodes = rows.reduce((sum, row) => sum + row.nodes, 0);
  } else {
    nodes = perft.count(pos, depth);
  }
  printSummary(nodes, performance.now() - t0);
}

interface SuiteCommandOptions {
  depth?: number;
  chess960?: boolean;
}

function perftSuiteCommand(file: string, options: SuiteCommandOptions, command: Command): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    command.error(`error: cannot read ${file}: ${(e as Error).message}`);
  }
  const chess960 = options.chess960 ?? false;
  let entries: SuiteEntry[];
  try {
    entries = parsePerftSuite(text, chess960);
  } catch (e) {
    if (e instanceof SuiteError) command.error(`error: ${file} ${e.message}`);
    throw e;
  }

  // Progress overwrites one line of a terminal, at most ten times a second;
  // logs and pipes get none.
  const progress = process.stderr.isTTY === true;
  let lastProgress = 0;
  const clearProgress = (): void => {
    if (progress) process.stderr.write('\r\x1b[K');
  };
  const result = runPerftSuite(entries, chess960, {
    maxDepth: options.depth,
    onCount: (index, total, nodes, ms) => {
      if (progress && performance.now() - lastProgress >= 100) {
        lastProgress = performance.now();
        process.stderr.write(`\rposition ${index + 1} of ${total}, ${(nodesPerSecond(nodes, ms) / 1e6).toFixed(1)} Mnps`);
      }
    },
    onMismatch: ({ entry, depth, expected, actual }) => {
      clearProgress();
      console.log(`MISMATCH line ${entry.line} depth ${depth}: expected ${expected}, got ${actual}`);
      console.log(`  fen ${entry.fen}`);
    },
  });
  clearProgress();

  console.log(`Positions: ${result.positions}`);
  console.log(`Counts checked: ${result.checks} (depths up to ${result.deepest})`);
  printSummary(result.nodes, result.ms);
  const failed = result.mismatches.length;
  console.log(failed === 0 ? 'Result: all counts match' : `Result: ${failed} of ${result.checks} counts differ`);
  if (failed > 0) process.exitCode = 1;
}

/** Adds `perft` and `perft-suite` to the program. */
export function registerPerftCommands(program: Command): void {
  program
    .command('perft')
    .description('count the leaf nodes of the legal move tree to a depth (tests and times move generation)')
    .argument('<depth>', `plies, 1 to ${MAX_DEPTH}`, parseDepth)
    .option('--fen <fen>', 'position to start from', START_FEN)
    .option('--divide', "first print each root move's count, like Stockfish's 'go perft'")
    .option('--chess960', 'allow Chess960 castling; write castling king-takes-rook (e1h1)')
    .action(perftCommand);

  program
    .command('perft-suite')
    .description("check every ';D<depth> <nodes>' count of every position in an EPD perft suite")
    .argument('<file>', 'EPD file, one position per line: <fen> ;D1 <nodes> ;D2 <nodes> ...')
    .option('--depth <n>', 'check depths up to n only (default: all in the file)', parseDepth)
    .option('--chess960', 'the positions are Chess960 (castling rights in Shredder-FEN or X-FEN)')
    .action(perftSuiteCommand);
}
