// Subcommands for the neural network: training data (`selfplay`,
// `convert-pgn`, `data-info`) and training (`train`).

import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { type NetworkChoice, decodeNetwork } from '../eval/index.js';
import { CHUNK_SUFFIX } from '../train/chunk.js';
import { convertPgn } from '../train/convert-pgn.js';
import { type GameSource, expandDataPaths, readGameSource } from '../train/nnue-data.js';
import { KING_LAYOUT_NAMES, type KingBuckets, kingLayout, shapeText } from '../eval/nnue/network.js';
import { DEFAULT_SELFPLAY_SETTINGS, type SelfPlaySettings, settingsText } from '../train/selfplay.js';
import {
  MANIFEST,
  type RunKey,
  addChunk,
  isStore,
  readManifest,
  runChunkPath,
  runRows,
  storeSummary,
  verifyStore,
} from '../train/store.js';
import { DEFAULT_TRAIN_SETTINGS, type TrainKernel, type TrainSettings, train } from '../train/nnue-train.js';
import { runSelfPlay } from '../train/selfplay-run.js';
import { summariseGames } from '../train/viriformat.js';
import { errorText } from '../util/errors.js';
import { integerArg, numberArg, readTextFile } from './args.js';

/** The FENs of an EPD or FEN file (first four fields of each line), or exits with a one-line error. */
function readOpenings(program: Command, path: string): string[] {
  const text = readTextFile(program, path, `the openings file ${path}`);
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
  store?: string;
  chunkMinutes?: string;
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
    .option(
      '--store <dir>',
      "a data store (the repository's data/): start from its games of this network, seed and settings, and add the new games to it as chunks",
    )
    .option('--chunk-minutes <m>', 'with --store: write a chunk of the new games this often, and when the run ends', '60')
    .action(async (opts: SelfPlayOptions) => {
      const settings: SelfPlaySettings = {
        ...d,
        softNodes: integerArg(program, '--soft-nodes', opts.softNodes, 1, undefined, d.softNodes),
        hardNodes: integerArg(program, '--hard-nodes', opts.hardNodes, 1, undefined, d.hardNodes),
        randomPlies: integerArg(program, '--random-plies', opts.randomPlies, 0, 100, d.randomPlies),
        maxOpeningScore: integerArg(program, '--max-opening-score', opts.maxOpeningScore, 0, undefined, d.maxOpeningScore),
        book: opts.book === undefined ? [] : readOpenings(program, opts.book),
      };
      if (settings.hardNodes < settings.softNodes) program.error('error: --hard-nodes must be at least --soft-nodes');
      const hours = opts.hours === undefined ? undefined : Number(opts.hours);
      if (hours !== undefined && !(hours > 0)) program.error(`error: --hours must be a positive number, got '${opts.hours}'`);
      const games = opts.games === undefined ? undefined : integerArg(program, '--games', opts.games, 1);
      const positions = opts.positions === undefined ? undefined : integerArg(program, '--positions', opts.positions, 1);
      if (games === undefined && positions === undefined && hours === undefined)
        program.error('error: say when to stop: --games, --positions or --hours');
      let network: (NetworkChoice & { file?: Uint8Array }) | undefined;
      if (opts.network === 'none') network = { use: false, net: null };
      else if (opts.network === 'built-in') network = { use: true, net: null };
      else if (opts.network !== undefined) {
        try {
          const file = new Uint8Array(readFileSync(opts.network));
          network = { use: true, net: decodeNetwork(file), file };
        } catch (e) {
          program.error(`error: cannot use the network ${opts.network}: ${errorText(e)}`);
        }
      }
      if (opts.store !== undefined && !isStore(opts.store)) program.error(`error: no data store at ${opts.store} (no ${MANIFEST} there)`);
      let done: { games: number; positions: number };
      try {
        done = await runSelfPlay({
          network,
          out: opts.out,
          threads: integerArg(program, '--threads', opts.threads, 1, 64),
          seed: integerArg(program, '--seed', opts.seed, 0, 0xffffffff),
          games,
          positions,
          hours,
          settings,
          store: opts.store,
          chunkMinutes: integerArg(program, '--chunk-minutes', opts.chunkMinutes, 1),
        });
      } catch (e) {
        program.error(`error: ${errorText(e)}`);
      }
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
        program.error(`error: ${errorText(e)}`);
      }
    });

  program
    .command('data-info')
    .description('count the complete games, positions and bytes of viriformat files, as a data manifest records them')
    .argument(
      '<paths...>',
      "viriformat files (selfplay, convert-pgn), the data store's chunks (.vfc) or a data store (a folder); .xz and .gz files are read unpacked",
    )
    .option('--games <n>', 'count only the first n games of each file (the prefix that selfplay --games n remakes)')
    .option('--verify', 'check every chunk of a data store against its manifest row (games, positions, bytes, sha256)')
    .action((paths: string[], opts: { games?: string; verify?: boolean }) => {
      const first = opts.games === undefined ? undefined : integerArg(program, '--games', opts.games, 0);
      const total = { games: 0, positions: 0, bytes: 0 };
      let files = 0;
      let problems = 0;
      for (const path of paths) {
        if (isStore(path)) {
          try {
            if (opts.verify) {
              const found = verifyStore(path, (line) => process.stdout.write(`${line}\n`));
              for (const p of found) process.stdout.write(`PROBLEM: ${p}\n`);
              process.stdout.write(
                `${path}: ${found.length === 0 ? 'every chunk agrees with the manifest' : `${found.length} problems`}\n`,
              );
              problems += found.length;
            } else for (const line of storeSummary(path)) process.stdout.write(`${path}: ${line}\n`);
          } catch (e) {
            program.error(`error: ${errorText(e)}`);
          }
          continue;
        }
        if (opts.verify) program.error(`error: --verify checks a data store (a folder with a ${MANIFEST}); ${path} is not one`);
        let source: GameSource;
        try {
          source = readGameSource(path);
        } catch (e) {
          program.error(`error: ${errorText(e)}`);
        }
        const all = source.index.offsets.length;
        const s = summariseGames(source.index, first);
        const notes: string[] = [];
        if (first !== undefined && first > all) notes.push(`only ${all} games there`);
        const torn = source.bytes.length - source.index.completeBytes;
        if (torn > 0) notes.push(`then ${torn} bytes of a half-written game`);
        const tail = notes.length > 0 ? ` (${notes.join('; ')})` : '';
        process.stdout.write(`${path}: ${s.games} games, ${s.positions} positions, ${s.bytes} bytes${tail}\n`);
        total.games += s.games;
        total.positions += s.positions;
        total.bytes += s.bytes;
        files++;
      }
      if (files > 1) process.stdout.write(`total: ${total.games} games, ${total.positions} positions, ${total.bytes} bytes\n`);
      if (problems > 0) process.exitCode = 1;
    });

  program
    .command('data-add')
    .description(
      'add games of a viriformat file to a data store as a new chunk, with its manifest row (self-play with --store does this itself)',
    )
    .argument('<file>', 'viriformat file (.xz and .gz read unpacked)')
    .requiredOption('--store <dir>', "the data store (the repository's data/)")
    .requiredOption('--network <name>', "the network that played the games: kestrel-<hash>, or 'hce' for the hand-crafted evaluation")
    .requiredOption('--bundle <commit>', 'the commit of the bundle that played them')
    .option('--seed <n>', "self-play's run seed: the settings are then self-play's, from the options below")
    .option('--soft-nodes <n>', 'with --seed: as selfplay', String(d.softNodes))
    .option('--hard-nodes <n>', 'with --seed: as selfplay', String(d.hardNodes))
    .option('--random-plies <n>', 'with --seed: as selfplay', String(d.randomPlies))
    .option('--max-opening-score <cp>', 'with --seed: as selfplay', String(d.maxOpeningScore))
    .option('--settings <text>', 'without --seed: how the games were played, in a few words')
    .option('--from-game <n>', "the file's first game to add (default: with --seed, the first the store lacks; else 0)")
    .option('--games <n>', "add only up to the file's first n games")
    .option('--file <path>', "the chunk's path inside the store (default with --seed: <network>-s<seed>/<first>-<last>.vfc)")
    .option('--held-out', 'a test file no network is trained on (the manifest\'s "Held out" table)')
    .action((file: string, o: Record<string, string | undefined> & { heldOut?: boolean }) => {
      const store = o.store!;
      if (!isStore(store)) program.error(`error: no data store at ${store} (no ${MANIFEST} there)`);
      if (!/^(hce|kestrel-[0-9a-f]{12})$/.test(o.network!))
        program.error(`error: --network must be kestrel-<12 hex digits> or hce, got '${o.network}'`);
      let seed = '-';
      let settings = o.settings;
      if (o.seed !== undefined) {
        seed = String(integerArg(program, '--seed', o.seed, 0, 0xffffffff));
        settings = settingsText({
          ...d,
          softNodes: integerArg(program, '--soft-nodes', o.softNodes, 1, undefined, d.softNodes),
          hardNodes: integerArg(program, '--hard-nodes', o.hardNodes, 1, undefined, d.hardNodes),
          randomPlies: integerArg(program, '--random-plies', o.randomPlies, 0, 100, d.randomPlies),
          maxOpeningScore: integerArg(program, '--max-opening-score', o.maxOpeningScore, 0, undefined, d.maxOpeningScore),
        });
      } else if (settings === undefined || settings.includes('|'))
        program.error('error: without --seed, say how the games were played: --settings <text> (no |)');
      let source: GameSource;
      try {
        source = readGameSource(file);
      } catch (e) {
        program.error(`error: ${errorText(e)}`);
      }
      const run: RunKey = { network: o.network!, seed, settings: settings! };
      let from = 0;
      try {
        if (o.fromGame !== undefined) from = integerArg(program, '--from-game', o.fromGame, 0);
        else if (seed !== '-' && !o.heldOut) from = runRows(readManifest(store), run).reduce((n, r) => n + r.games, 0);
      } catch (e) {
        program.error(`error: ${errorText(e)}`);
      }
      const { offsets, completeBytes } = source.index;
      const to = o.games === undefined ? offsets.length : integerArg(program, '--games', o.games, 1, offsets.length);
      if (from >= to) program.error(`error: no games to add: the file has ${offsets.length}, the chunk would start at game ${from}`);
      let name = o.file;
      if (name === undefined) {
        if (seed === '-') program.error('error: without --seed, name the chunk: --file <path inside the store>');
        name = runChunkPath(run, from, to - from);
      }
      if (!name.endsWith(CHUNK_SUFFIX)) program.error(`error: a chunk's name ends in ${CHUNK_SUFFIX}`);
      const end = to < offsets.length ? offsets[to] : completeBytes;
      try {
        const row = addChunk(store, source.bytes.subarray(offsets[from], end), { ...run, bundle: o.bundle!, first: from }, name, o.heldOut);
        process.stdout.write(
          `row ${row.id}: ${row.file}, games ${row.first}-${row.first + row.games - 1}, ${row.positions} positions, ${row.bytes} bytes packed to ${row.packed}\n`,
        );
      } catch (e) {
        program.error(`error: ${errorText(e)}`);
      }
    });

  const t = DEFAULT_TRAIN_SETTINGS;
  program
    .command('train')
    .description(
      `train the network (${shapeText({ hidden: 'H', buckets: 'output buckets' })}) on viriformat games, and write it quantised with a loss chart`,
    )
    .requiredOption(
      '--data <paths...>',
      "viriformat files (selfplay, convert-pgn; .xz and .gz read unpacked), chunks (.vfc), or a data store (a folder): its training chunks in the manifest's order",
    )
    .option('--rows <list>', "from a data store, only these manifest rows (such as '1-12,15')")
    .option('--seeds <list>', 'from a data store, only the chunks of these seeds (comma-separated)')
    .option('--networks <list>', 'from a data store, only the chunks played by these networks (comma-separated names)')
    .option('--out-dir <dir>', 'where the network, its loss chart (.svg) and record (.json) go', 'nets')
    .option('--hidden <n>', 'neurons per perspective', String(t.hidden))
    .option('--buckets <n>', 'output buckets by piece count', String(t.buckets))
    .option(
      '--king-buckets <layout>',
      `inputs by the own king's square: ${KING_LAYOUT_NAMES.join(', ')} (mirror: files e-h see the board mirrored; 4 and 8 buckets mirror too)`,
      'none',
    )
    .option('--epochs <n>', 'passes over the training positions', String(t.epochs))
    .option('--batch <n>', 'positions per optimiser step', String(t.batch))
    .option('--lr <x>', 'learning rate at the start (cosine decay to lr * --lr-final)', String(t.lr))
    .option('--lr-final <x>', 'final learning rate, as a fraction of --lr', String(t.lrFinal))
    .option(
      '--lr-drops <epochs>',
      'instead of the cosine: multiply the learning rate by --lr-gamma after each of these epochs (comma-separated)',
    )
    .option('--lr-gamma <x>', 'the factor of each --lr-drops step', String(t.lrGamma))
    .option('--wdl <x>', 'weight of the game result in the target (the rest: the search score)', String(t.wdl))
    .option('--scale <cp>', "centipawns per unit of the network's output", String(t.scale))
    .option(
      '--sigmoid-scale <cp>',
      'centipawns that turn a score into an expected result, sigmoid(score / cp), in the loss and the target (bench/fit-scale.ts fits it)',
      String(t.sigmoidScale),
    )
    .option('--weight-decay <x>', 'AdamW weight decay', String(t.weightDecay))
    .option('--max-score <cp>', 'leave out positions scored further from 0', String(t.filter.maxScore))
    .option(
      '--mirror',
      `also train on positions without castling rights mirrored left to right (files a-h swapped)${t.filter.mirror ? ' (the default)' : ''}`,
    )
    .option('--no-mirror', 'train on the positions as they are')
    .option('--valid <percent>', 'percent of the games held out for validation', String(t.validPercent))
    .option('--threads <n>', 'worker threads computing gradients', String(t.threads))
    .option('--seed <n>', 'seed of the initial weights and the shuffles', String(t.seed))
    .option(
      '--init <file>',
      'start from these weights instead of random ones: a .f32 an earlier train wrote, or a network (.nnue; a narrower one is widened, its new neurons starting with zero output weights)',
    )
    .option('--kernel <name>', "gradients in 'wasm' (WebAssembly SIMD) or 'ts' (the TypeScript reference)", t.kernel)
    .action(async (o: Record<string, string> & { data: string[]; mirror?: boolean }) => {
      if (o.kernel !== 'wasm' && o.kernel !== 'ts') program.error(`error: --kernel must be 'wasm' or 'ts', got '${o.kernel}'`);
      let kings: KingBuckets | null = null;
      try {
        kings = kingLayout(o.kingBuckets);
      } catch (e) {
        program.error(`error: --king-buckets: ${errorText(e)}`);
      }
      const hidden = integerArg(program, '--hidden', o.hidden, 8, 4096);
      if (hidden % 8 !== 0) program.error('error: --hidden must be a multiple of 8');
      let data: string[] = [];
      try {
        data = expandDataPaths(o.data, { rows: o.rows, seeds: o.seeds?.split(','), networks: o.networks?.split(',') });
      } catch (e) {
        program.error(`error: ${errorText(e)}`);
      }
      if (data.length === 0) program.error('error: no data files selected');
      const settings: TrainSettings = {
        ...t,
        data,
        outDir: o.outDir,
        hidden,
        buckets: integerArg(program, '--buckets', o.buckets, 1, 16),
        kings,
        epochs: integerArg(program, '--epochs', o.epochs, 1, 10000),
        batch: integerArg(program, '--batch', o.batch, 1, 1 << 24),
        lr: numberArg(program, '--lr', o.lr, 0, 1),
        lrFinal: numberArg(program, '--lr-final', o.lrFinal, 0, 1),
        wdl: numberArg(program, '--wdl', o.wdl, 0, 1),
        scale: numberArg(program, '--scale', o.scale, 1, 10000),
        weightDecay: numberArg(program, '--weight-decay', o.weightDecay, 0, 1),
        sigmoidScale: numberArg(program, '--sigmoid-scale', o.sigmoidScale, 1, 10000),
        lrDrops: o.lrDrops === undefined ? [] : o.lrDrops.split(',').map((e) => integerArg(program, '--lr-drops', e, 1)),
        lrGamma: numberArg(program, '--lr-gamma', o.lrGamma, 0, 1),
        filter: { ...t.filter, maxScore: numberArg(program, '--max-score', o.maxScore, 0, 32767), mirror: o.mirror ?? t.filter.mirror },
        validPercent: numberArg(program, '--valid', o.valid, 0.01, 50),
        threads: integerArg(program, '--threads', o.threads, 1, 64),
        seed: integerArg(program, '--seed', o.seed, 0, 0xffffffff),
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
        program.error(`error: ${errorText(e)}`);
      }
    });
}
