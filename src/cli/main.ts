#!/usr/bin/env node
// Command-line entry point (placeholder until the CLI module lands).
import { Command } from 'commander';
import { Position } from '../board/position.js';
import { Perft } from '../board/perft.js';

const program = new Command('kestrel');
program
  .command('perft <depth>')
  .option('--fen <fen>', 'position')
  .action((depth: string, opts: { fen?: string }) => {
    const pos = new Position(opts.fen);
    const t0 = performance.now();
    const nodes = new Perft().count(pos, Number(depth));
    const ms = performance.now() - t0;
    console.log(`nodes ${nodes} time ${ms.toFixed(0)} ms nps ${Math.round((nodes / ms) * 1000)}`);
  });
program.parse();
