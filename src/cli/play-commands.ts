// `kestrel play`: a game against Kestrel (or between two people, or two
// engines) in the terminal: the game is src/play/controller.ts, the screen
// and keyboard src/play/terminal.ts.

import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { Position, START_FEN } from '../board/position.js';
import { setPosition } from './load-position.js';
import { parseTimeControl } from '../play/clock.js';
import { LEVEL_HELP, parseLevel } from '../play/levels.js';
import { GameController, type PlayerKind } from '../play/controller.js';
import { TerminalView } from '../play/terminal.js';
import { SEARCH_DRIVERS } from '../search/driver-list.js';
import { errorText } from '../util/errors.js';
import { openTablebases } from '../engine/tablebase-files.js';

/** The level when none is given: a club player. */
const DEFAULT_LEVEL = '10';

interface PlayOptions {
  fen?: string;
  white?: string;
  black?: string;
  time?: string;
  level: string;
  seed?: string;
  ascii?: boolean;
  book: boolean;
  driver: string;
  syzygy?: string;
}

function parsePlayer(program: Command, name: string, text: string | undefined): PlayerKind | undefined {
  if (text === undefined) return undefined;
  const t = text.toLowerCase();
  if (t === 'human' || t === 'engine') return t;
  program.error(`error: --${name} must be human or engine, got '${text}'`);
}

export function registerPlayCommands(program: Command): void {
  program
    .command('play')
    .description('play a game in the terminal: you against Kestrel at a level of your choice (help inside lists the commands)')
    .option('--fen <fen>', 'start from this position')
    .option('--white <who>', 'human or engine (default: human, or the opposite of --black)')
    .option('--black <who>', 'human or engine (default: engine, or the opposite of --white)')
    .option('--time <m+i>', 'clocks: minutes per side plus seconds added per move, e.g. 5+3 (default: no clocks)')
    .option('--level <n>', LEVEL_HELP, DEFAULT_LEVEL)
    .option('--seed <n>', "seeds the engine's choices, so that a game can be replayed (default: a random seed)")
    .option('--ascii', 'letters instead of Unicode pieces and colours')
    .option('--no-book', 'the engine plays no moves from the opening book')
    .option('--driver <name>', `the search at full strength: ${SEARCH_DRIVERS.join(', ')} (docs/mcts.md)`, 'pvs')
    .option('--syzygy <path>', 'Syzygy tablebases: folders of .rtbw/.rtbz files (docs/syzygy.md)')
    .action(async (opts: PlayOptions) => {
      const white = parsePlayer(program, 'white', opts.white);
      const black = parsePlayer(program, 'black', opts.black);
      const players: [PlayerKind, PlayerKind] = [
        white ?? (black === undefined ? 'human' : black === 'human' ? 'engine' : 'human'),
        black ?? (white === undefined ? 'engine' : white === 'human' ? 'engine' : 'human'),
      ];
      const fen = opts.fen ?? START_FEN;
      try {
        setPosition(new Position(), fen, false, 'are Chess960, which play does not play');
      } catch (e) {
        program.error(`error: bad FEN '${fen}': ${errorText(e)}`);
      }
      const time = opts.time === undefined ? null : parseTimeControl(opts.time);
      if (opts.time !== undefined && time === null) program.error(`error: --time must be minutes+seconds such as 5+3, got '${opts.time}'`);
      const driver = SEARCH_DRIVERS.find((d) => d === opts.driver.toLowerCase());
      if (driver === undefined) program.error(`error: --driver must be one of ${SEARCH_DRIVERS.join(', ')}, got '${opts.driver}'`);
      const level = parseLevel(opts.level);
      if (level === null) program.error(`error: --level must be ${LEVEL_HELP}, got '${opts.level}'`);
      let seed = Math.floor(Math.random() * 1_000_000);
      if (opts.seed !== undefined) {
        if (!/^\d+$/.test(opts.seed)) program.error(`error: --seed must be a non-negative integer, got '${opts.seed}'`);
        seed = Number(opts.seed) % 0x100000000;
      }
      if (opts.syzygy !== undefined) process.stdout.write(`${openTablebases(opts.syzygy).note}\n`);
      const out = process.stdout;
      // The reader has gone (a closed pipe): nothing more can be shown.
      out.on('error', () => process.exit(0));
      const interactive = process.stdin.isTTY === true && out.isTTY === true;
      const colorDepth = out.isTTY === true && process.env.NO_COLOR === undefined && out.hasColors() ? out.getColorDepth() : null;
      const controller = new GameController(
        { fen, players, time, level: level!, seed, book: opts.book, driver: driver!, syzygyPath: opts.syzygy },
        { writeFile: writeFileSync },
      );
      const view = new TerminalView(controller, { input: process.stdin, output: out, interactive, colorDepth, ascii: opts.ascii === true });
      const code = await view.run();
      // Everything printed, then out at once (the worker and timers are gone already).
      out.write('', () => process.exit(code));
    });
}
