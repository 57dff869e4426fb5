// `kestrel book build` and `kestrel book probe`.

import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { type Command, InvalidArgumentError } from 'commander';
import { MoveError, parseUciMove } from '../board/notation.js';
import { FenError, Position, START_FEN } from '../board/position.js';
import { fileProblem } from '../util/errors.js';
import { requireOutputFolder } from './args.js';
import { setPosition } from './load-position.js';
import { type BuildOptions, DEFAULT_BUILD_OPTIONS, buildBookFromPgnFiles } from '../book/builder.js';
import { formatProbeTable, probeRows } from '../book/format.js';
import { keyToHex } from '../book/polyglot.js';
import { BookError, OpeningBook } from '../book/reader.js';

/** Problems printed one by one before the rest are only counted. */
const MAX_PROBLEMS_SHOWN = 100;

function integer(min: number): (text: string) => number {
  return (text) => {
    if (!/^\d+$/.test(text) || Number(text) < min) throw new InvalidArgumentError(`expected an integer >= ${min}.`);
    return Number(text);
  };
}

function percent(text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100) {
    throw new InvalidArgumentError('expected a number from 0 to 100.');
  }
  return n;
}

interface BuildCommandOptions {
  pgn: string[];
  out: string;
  maxPly: number;
  minGames: number;
  minScore: number;
  onlyWhite?: boolean;
  onlyBlack?: boolean;
  uniform?: boolean;
  onlyWinning?: boolean;
}

async function buildCommand(opts: BuildCommandOptions, command: Command): Promise<void> {
  if (opts.onlyWhite && opts.onlyBlack) command.error('error: --only-white and --only-black exclude each other');
  requireOutputFolder(command, opts.out);
  const options: BuildOptions = {
    maxPly: opts.maxPly,
    minGames: opts.minGames,
    minScore: opts.minScore,
    onlyWhite: opts.onlyWhite ?? false,
    onlyBlack: opts.onlyBlack ?? false,
    uniform: opts.uniform ?? false,
    onlyWinning: opts.onlyWinning ?? false,
  };
  const progress = process.stderr.isTTY === true;
  let problems = 0;
  const t0 = performance.now();
  let result: Awaited<ReturnType<typeof buildBookFromPgnFiles>>;
  try {
    result = await buildBookFromPgnFiles(opts.pgn, options, {
      onProblem: (message) => {
        problems++;
        if (progress) process.stderr.write('\r\x1b[K');
        if (problems <= MAX_PROBLEMS_SHOWN) console.error(`warning: ${message}`);
      },
      onProgress: (games) => {
        if (progress) process.stderr.write(`\r${games} games...`);
      },
    });
  } catch (e) {
    command.error(`error: ${(e as Error).message}`);
  }
  if (progress) process.stderr.write('\r\x1b[K');
  if (problems > MAX_PROBLEMS_SHOWN) console.error(`warning: ${problems - MAX_PROBLEMS_SHOWN} more skipped games not shown`);

  // Write beside the target and rename, so a failed write never leaves half a book.
  const temp = `${opts.out}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, result.bytes);
    renameSync(temp, opts.out);
  } catch (e) {
    rmSync(temp, { force: true });
    command.error(`error: cannot write ${opts.out}: ${fileProblem(e)}`);
  }
  const s = result.stats;
  const seconds = (performance.now() - t0) / 1000;
  console.log(`Games: ${s.games} read, ${s.gamesUsed} used, ${s.gamesSkipped} skipped`);
  console.log(`Entries: ${s.entries} in ${s.positions} positions, ${s.written} kept`);
  console.log(`Book: ${opts.out} (${result.bytes.length} bytes)`);
  console.log(`Time: ${seconds.toFixed(2)} s`);
  if (s.written === 0) console.error('warning: the book is empty (see --min-games, --max-ply)');
}

interface ProbeCommandOptions {
  fen?: string;
  moves?: string[];
  chess960?: boolean;
}

function probeCommand(file: string, opts: ProbeCommandOptions, command: Command): void {
  const pos = new Position();
  const fen = opts.fen ?? START_FEN;
  try {
    setPosition(pos, fen, opts.chess960 ?? false);
    for (const text of opts.moves ?? []) pos.makeMove(parseUciMove(pos, text));
  } catch (e) {
    if (e instanceof FenError) command.error(`error: bad FEN '${fen}': ${e.message}`);
    if (e instanceof MoveError) command.error(`error: ${e.message} in ${pos.fen()}`);
    throw e;
  }
  let book: OpeningBook;
  try {
    book = OpeningBook.open(file);
  } catch (e) {
    if (e instanceof BookError) command.error(`error: ${e.message}`);
    throw e;
  }
  const { entries, warnings } = book.probe(pos);
  book.close();
  for (const w of warnings) console.error(`warning: ${w}`);
  console.log(`Book: ${file} (${book.size} entries)`);
  console.log(`Position: ${pos.fen()}`);
  console.log(`Key: ${keyToHex(pos.keyHi, pos.keyLo)}`);
  for (const line of formatProbeTable(probeRows(pos, entries))) console.log(line);
}

/** Adds `book build` and `book probe` to the program. */
export function registerBookCommands(program: Command): void {
  const book = program
    .command('book')
    .description('Polyglot opening books: build one from PGN games, or list the book moves of a position');

  book
    .command('build')
    .description(
      'build a Polyglot book from PGN games, weighting moves like polyglot make-book ' +
        '(2 points per win, 1 per draw, for the side that played the move)',
    )
    .requiredOption('--pgn <files...>', 'PGN files to read')
    .requiredOption('--out <file>', 'the book to write (Polyglot .bin)')
    .option('--max-ply <n>', 'count only the first n plies of each game', integer(0), DEFAULT_BUILD_OPTIONS.maxPly)
    .option('--min-games <n>', 'keep a move only if at least n games play it', integer(1), DEFAULT_BUILD_OPTIONS.minGames)
    .option('--min-score <percent>', 'keep a move only if it scores at least this (0-100)', percent, 0)
    .option('--only-white', "keep only White's moves")
    .option('--only-black', "keep only Black's moves")
    .option('--uniform', 'give every kept move weight 1')
    .option('--only-winning', 'count a move only in games won by the side that played it')
    .action(buildCommand);

  book
    .command('probe')
    .description("list a position's book moves with their weights")
    .argument('<book>', 'Polyglot book (.bin)')
    .option('--fen <fen>', 'position to look up (default: the start position)')
    .option('--moves <moves...>', 'moves (UCI) to play from that position first')
    .option('--chess960', 'the position is Chess960 (castling king-takes-rook in --moves)')
    .action(probeCommand);
}
