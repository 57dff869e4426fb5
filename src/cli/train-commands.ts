// Subcommands for the neural network: training data (`selfplay`,
// `convert-pgn`, `data-info`) and training (`train`).

import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { type NetworkChoice, decodeNetwork } from '../eval/index.js';
import { DEFAULT_SELFPLAY_SETTINGS, type SelfPlaySettings } from '../train/selfplay.js';
import { convertPgn } from '../train/convert-pgn.js';
import { type GameSource, readGameSource } from '../train/nnue-data.js';
import { DEFAULT_TRAIN_SETTINGS, type TrainKernel, type TrainSettings, train } from '../train/nnue-train.js';
import { runSelfPlay } from '../train/selfplay-run.js';
import { summariseGames } from '../train/viriformat.js';

/** Reads an integer option within [min, max], or exits with a one-line error. */
function integer(
  program: Command,
  name: string,
  text: string | undefined,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) program.error(`error: ${name} must be an integer from ${min} to ${max}, got '${text}'`);
  return n;
}

/** The FENs of an EPD or FEN file (first four fields of each line), or exits with a one-line error. */
function readOpenings(program: Command, path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    program.error(`error: cannot read the openings file ${path}`);
  }
  const fens: string[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length >= 4) fens.push(`${fields.slice(0, 4).join(' ')} 0 1`);
  }
  if (fens.length === 0) program.error(`error: no positions in ${path}`);
  return fens;
}

interface SelfPlayOptions {
  out: string;
  threads?: string;
  games?: string;
  positions?: string;
  hours?: string;
  seed?: string;
  softNodes?: string;
  hardNodes?: string;
  randomPlies?: string;
  book?: string;
  maxOpeningScore?: string;
  network?: string;
}

export function registerTrainCommands(program: Command): void {
  const d = DEFAULT_SELFPLAY_SETTINGS;
  program
    .command('selfplay')
    .description(
      "play Kestrel against itself and append the games, with every position's score, to a viriformat file (training data for the network)",
    )
    .requiredOption('--out <file>', 'viriformat file to append to (a run resumes where the file ends)')
    .option('--threads <n>', 'games played at once, one per worker thread', '1')
    .option('--games <n>', 'stop once the file holds n games')
    .option('--positions <n>', 'stop once the file holds n positions')
    .option('--hours <h>', 'stop after h hours')
    .option('--seed <n>', 'run seed: game i of a seed is always the same game', '1')
    .option('--soft-nodes <n>', 'no new iteration after n nodes', String(d.softNodes))
    .option('--hard-nodes <n>', 'a search stops at n nodes', String(d.hardNodes))
    .option('--random-plies <n>', 'random legal plies that open each game (this many or one more)', String(d.randomPlies))
    .option('--book <file>', 'EPD file of starting positions (the random plies follow)')
    .option('--max-opening-score <cp>', 'throw away openings scored further from 0', String(d.maxOpeningScore))
    .option(
      '--network <file>',
      "evaluate with this network file, 'built-in', or 'none' (the hand-crafted evaluation); default: as the engine",
    )
    .action(async (opts: SelfPlayOptions) => {
      const settings: SelfPlaySettings = {
        ...d,
        softNodes: integer(program, '--soft-nodes', opts.softNodes, d.softNodes, 1),
        hardNodes: integer(program, '--hard-nodes', opts.hardNodes, d.hardNodes, 1),
        randomPlies: integer(program, '--random-plies', opts.randomPlies, d.randomPlies, 0, 100),
        maxOpeningScore: integer(program, '--max-opening-score', opts.maxOpeningScore, d.maxOpeningScore, 0),
        book: opts.book === undefined ? [] : readOpenings(program, opts.book),
      };
      if (settings.hardNodes < settings.softNodes) program.error('error: --hard-nodes must be at least --soft-nodes');
      const hours = opts.hours === undefined ? undefined : Number(opts.hours);
      if (hours !== undefined && !(hours > 0)) program.error(`error: --hours must be a positive number, got '${opts.hours}'`);
      const games = opts.games === undefined ? undefined : integer(program, '--games', opts.games, 0, 1);
      const positions = opts.positions === undefined ? undefined : integer(program, '--positions', opts.positions, 0, 1);
      if (games === undefined && positions === undefined && hours === undefined)
        program.error('error: say when to stop: --games, --positions or --hours');
      let network: NetworkChoice | undefined;
      if (opts.network === 'none') network = { use: false, bytes: null };
      else if (opts.network === 'built-in') network = { use: true, bytes: null };
      else if (opts.network !== undefined) {
        try {
          const bytes = new Uint8Array(readFileSync(opts.network));
          decodeNetwork(bytes);
          network = { use: true, bytes };
        } catch (e) {
          program.error(`error: cannot use the network ${opts.network}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      const done = await runSelfPlay({
        network,
        out: opts.out,
        threads: integer(program, '--threads', opts.threads, 1, 1, 64),
        seed: integer(program, '--seed', opts.seed, 1, 0, 0xffffffff),
        games,
        positions,
        hours,
        settings,
      });
      process.stderr.write(`${done.games} games, ${done.positions} positions written to ${opts.out}\n`);
    });

  program
    .command('convert-pgn')
    .description('convert PGN games with engine scores in their move comments (fastchess, cutechess-cli) to viriformat training data')
    .requiredOption('--pgn <files...>', 'PGN files to read')
    .requiredOption('--out <file>', 'viriformat file to write (replaced)')
    .action(async (opts: { pgn: string[]; out: string }) => {
      const log = (line: string): void => void process.stderr.write(`${line}\n`);
      try {
        const stats = await convertPgn(opts.pgn, opts.out, log);
        log(`${stats.games} games, ${stats.positions} positions written to ${opts.out}; ${stats.skipped} games left out`);
      } catch (e) {
        program.error(`error: ${e instanceof Error ? e.message : String(e)}`);
      }
    });

  program
    .command('data-info')
    .description('count the complete games, positions and bytes of viriformat files, as a data manifest records them')
    .argument('<files...>', 'viriformat files (selfplay, convert-pgn); .xz and .gz files are read unpacked')
    .option('--games <n>', 'count only the first n games of each file (the prefix that selfplay --games n remakes)')
    .action((files: string[], opts: { games?: string }) => {
      const first = opts.games === undefined ? undefined : integer(program, '--games', opts.games, 0, 0);
      const total = { games: 0, positions: 0, bytes: 0 };
      for (const file of files) {
        let source: GameSource;
        try {
          source = readGameSource(file);
        } catch (e) {
          program.error(`error: cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
        }
        const all = source.index.offsets.length;
        const s = summariseGames(source.index, first);
        const notes: string[] = [];
        if (first !== undefined && first > all) notes.push(`only ${all} games there`);
        const torn = source.bytes.length - source.index.completeBytes;
        if (torn > 0) notes.push(`then ${torn} bytes of a half-written game`);
        const tail = notes.length > 0 ? ` (${notes.join('; ')})` : '';
        process.stdout.write(`${file}: ${s.games} games, ${s.positions} positions, ${s.bytes} bytes${tail}\n`);
        total.games += s.games;
        total.positions += s.positions;
        total.bytes += s.bytes;
      }
      if (files.length > 1) process.stdout.write(`total: ${total.games} games, ${total.positions} positions, ${total.bytes} bytes\n`);
    });

  const t = DEFAULT_TRAIN_SETTINGS;
  program
    .command('train')
    .description('train the network (768 -> 2xH -> output buckets) on viriformat games, and write it quantised with a loss chart')
    .requiredOption('--data <files...>', 'viriformat files (selfplay, convert-pgn); .xz and .gz files are read unpacked')
    .option('--out-dir <dir>', 'where the network, its loss chart (.svg) and record (.json) go', 'nets')
    .option('--hidden <n>', 'neurons per perspective', String(t.hidden))
    .option('--buckets <n>', 'output buckets by piece count', String(t.buckets))
    .option('--epochs <n>', 'passes over the training positions', String(t.epochs))
    .option('--batch <n>', 'positions per optimiser step', String(t.batch))
    .option('--lr <x>', 'learning rate at the start (cosine decay to lr * --lr-final)', String(t.lr))
    .option('--lr-final <x>', 'final learning rate, as a fraction of --lr', String(t.lrFinal))
    .option('--wdl <x>', 'weight of the game result in the target (the rest: the search score)', String(t.wdl))
    .option('--scale <cp>', 'centipawns per unit of the output (sigmoid(score / scale))', String(t.scale))
    .option('--weight-decay <x>', 'AdamW weight decay', String(t.weightDecay))
    .option('--max-score <cp>', 'leave out positions scored further from 0', String(t.filter.maxScore))
    .option('--mirror', 'also train on positions without castling rights mirrored left to right (files a-h swapped)')
    .option('--valid <percent>', 'percent of the games held out for validation', String(t.validPercent))
    .option('--threads <n>', 'worker threads computing gradients', String(t.threads))
    .option('--seed <n>', 'seed of the initial weights and the shuffles', String(t.seed))
    .option('--init <file.f32>', 'start from these float weights (written by an earlier train) instead of random ones')
    .option('--kernel <name>', "gradients in 'wasm' (WebAssembly SIMD) or 'ts' (the TypeScript reference)", t.kernel)
    .action(async (o: Record<string, string> & { data: string[]; mirror?: boolean }) => {
      const num = (name: string, text: string, min: number, max: number, intOnly = false): number => {
        const n = Number(text);
        if (!Number.isFinite(n) || n < min || n > max || (intOnly && !Number.isInteger(n))) {
          program.error(`error: --${name} must be ${intOnly ? 'an integer' : 'a number'} from ${min} to ${max}, got '${text}'`);
        }
        return n;
      };
      if (o.kernel !== 'wasm' && o.kernel !== 'ts') program.error(`error: --kernel must be 'wasm' or 'ts', got '${o.kernel}'`);
      const hidden = num('hidden', o.hidden, 8, 4096, true);
      if (hidden % 8 !== 0) program.error('error: --hidden must be a multiple of 8');
      const settings: TrainSettings = {
        ...t,
        data: o.data,
        outDir: o.outDir,
        hidden,
        buckets: num('buckets', o.buckets, 1, 16, true),
        epochs: num('epochs', o.epochs, 1, 10000, true),
        batch: num('batch', o.batch, 1, 1 << 24, true),
        lr: num('lr', o.lr, 0, 1),
        lrFinal: num('lr-final', o.lrFinal, 0, 1),
        wdl: num('wdl', o.wdl, 0, 1),
        scale: num('scale', o.scale, 1, 10000),
        weightDecay: num('weight-decay', o.weightDecay, 0, 1),
        filter: { ...t.filter, maxScore: num('max-score', o.maxScore, 0, 32767), mirror: o.mirror !== undefined },
        validPercent: num('valid', o.valid, 0.01, 50),
        threads: num('threads', o.threads, 1, 64, true),
        seed: num('seed', o.seed, 0, 0xffffffff, true),
        init: o.init,
        kernel: o.kernel as TrainKernel,
      };
      const log = (line: string): void => void process.stderr.write(`${process.stderr.isTTY ? '\r\x1b[K' : ''}${line}\n`);
      const status = (line: string): void => {
        if (process.stderr.isTTY) process.stderr.write(`\r${line}\x1b[K`);
      };
      try {
        const result = await train(settings, log, status);
        log(`network written to ${result.file} (loss chart and record beside it)`);
      } catch (e) {
        program.error(`error: ${e instanceof Error ? e.message : String(e)}`);
      }
    });
}
