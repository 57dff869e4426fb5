// `kestrel analyse`: every move of every game of a PGN file searched, the
// games written back annotated (evaluations, ?!/?/??, better lines,
// accuracy), and an evaluation graph per game as SVG.

import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { analyseGame } from '../analyse/analyse.js';
import { annotatedPgn, playerSummary } from '../analyse/annotate.js';
import { type ReplayedGame, replayGame, splitGames } from '../analyse/games.js';
import { evaluationGraph, graphFileName } from '../analyse/graph.js';
import { Progress } from '../analyse/progress.js';
import { EngineHost } from '../engine/host.js';
import { SEARCH_DRIVERS } from '../search/driver-list.js';
import { engineVersion } from '../engine/version.js';
import { DEFAULT_TABLEBASE_USE, SETTINGS, defaultIn } from '../engine/settings.js';
import { integerArg, readTextFile } from './args.js';
import { decodePgn } from '../platform/pgn-file.js';

/** The time a move is searched when neither --movetime nor --depth is given, and the most it may be. */
const DEFAULT_MOVETIME_MS = 500;
const MAX_MOVETIME_MS = 3_600_000;

interface AnalyseOptions {
  movetime?: string;
  depth?: string;
  out?: string;
  svg?: string;
  threads: string;
  hash: string;
  driver: string;
  syzygy?: string;
}

export function registerAnalyseCommands(program: Command): void {
  program
    .command('analyse')
    .alias('analyze')
    .argument('<pgn>', 'a PGN file of one or more games')
    .description(
      'search every move of every game; write the games annotated (evaluations, ?!/?/??, better lines, accuracy) and an evaluation graph per game',
    )
    .option('--movetime <ms>', `search each position this long (default ${DEFAULT_MOVETIME_MS})`)
    .option('--depth <n>', 'search each position to this depth instead')
    .option('--out <file>', 'write the annotated games here (default: standard output)')
    .option('--svg <dir>', 'write an evaluation graph (SVG) per game into this folder')
    .option('--threads <n>', 'search threads', String(SETTINGS.threads.default))
    .option('--hash <mb>', 'transposition table size (and, with an mcts driver, its tree)', String(defaultIn(SETTINGS.hash, 'analyse')))
    .option('--driver <name>', `the search driver: ${SEARCH_DRIVERS.join(', ')} (docs/mcts.md)`, 'pvs')
    .option('--syzygy <path>', 'Syzygy tablebases: folders of .rtbw/.rtbz files (docs/syzygy.md)')
    .action(async (path: string, opts: AnalyseOptions) => {
      if (opts.movetime !== undefined && opts.depth !== undefined) program.error('error: give --movetime or --depth, not both');
      const movetime = opts.movetime === undefined ? undefined : integerArg(program, '--movetime', opts.movetime, 1, MAX_MOVETIME_MS);
      const depth =
        opts.depth === undefined ? undefined : integerArg(program, '--depth', opts.depth, SETTINGS.depth.min, SETTINGS.depth.max);
      const threads = integerArg(program, '--threads', opts.threads, SETTINGS.threads.min, SETTINGS.threads.max);
      const hashMb = integerArg(program, '--hash', opts.hash, SETTINGS.hash.min, SETTINGS.hash.max);
      const driver = SEARCH_DRIVERS.find((d) => d === opts.driver.toLowerCase());
      if (driver === undefined) program.error(`error: --driver must be one of ${SEARCH_DRIVERS.join(', ')}, got '${opts.driver}'`);
      const text = readTextFile(program, path, path, decodePgn);
      const games: ReplayedGame[] = [];
      let problems = 0;
      for (const source of splitGames(text)) {
        const replayed = replayGame(source);
        if ('message' in replayed) {
          problems++;
          process.stderr.write(`${path}: game ${replayed.number}, line ${replayed.line}: ${replayed.message}; game skipped\n`);
        } else games.push(replayed);
      }
      if (games.length === 0) program.error(`error: no game in ${path} can be analysed`);
      if (opts.svg !== undefined) mkdirSync(opts.svg, { recursive: true });
      if (opts.out !== undefined) writeFileSync(opts.out, '');

      const limits = depth !== undefined ? { depth, driver } : { movetime: movetime ?? DEFAULT_MOVETIME_MS, driver };
      const searched = depth !== undefined ? `depth ${depth}` : `${limits.movetime} ms`;
      const annotator = `Kestrel ${engineVersion()}${driver === 'pvs' ? '' : ` (${driver})`}, ${searched} a move`;
      const total = games.reduce((sum, g) => sum + g.uci.length + 1, 0);
      const progress = new Progress(process.stderr, games.length, total, depth !== undefined ? null : (limits.movetime ?? null));
      const engine = new EngineHost({
        hashMb,
        threads,
        keepAlive: 'always',
        stopGraceMs: defaultIn(SETTINGS.stopGraceMs, 'analyse'),
        onNote: (text) => progress.line(text),
      });
      let finished = 0;
      try {
        if (opts.syzygy !== undefined) {
          // The search worker opens the tables and says what it found (its notes), before the first search. It is
          // started first: a worker that boots with the tables says nothing (a restart).
          engine.warm();
          engine.configure({ type: 'syzygy', settings: { path: opts.syzygy, use: DEFAULT_TABLEBASE_USE } });
          await new Promise<void>((resolve) => engine.afterApplied(resolve));
        }
        for (const [i, game] of games.entries()) {
          const positions = game.uci.length + 1;
          const analysis = await analyseGame(engine, game, limits, (done) => progress.update(i + 1, done, positions, finished));
          finished += positions;
          const pgn = annotatedPgn(analysis, annotator);
          if (opts.out !== undefined) appendFileSync(opts.out, `${i > 0 ? '\n' : ''}${pgn}`);
          else process.stdout.write(`${i > 0 ? '\n' : ''}${pgn}`);
          const tags = game.source.game.tags;
          let graph = '';
          if (opts.svg !== undefined) {
            const file = join(opts.svg, graphFileName(game.source.number, tags.White ?? '', tags.Black ?? ''));
            writeFileSync(file, evaluationGraph(analysis));
            graph = `; graph ${file}`;
          }
          progress.line(
            `game ${game.source.number}: ${tags.White ?? '?'} - ${tags.Black ?? '?'} ${game.source.game.result}: ` +
              `White ${playerSummary(analysis, 'white')}; Black ${playerSummary(analysis, 'black')}${graph}`,
          );
        }
      } finally {
        progress.finish();
        await engine.close();
      }
      if (problems > 0) process.stderr.write(`${problems} game${problems === 1 ? '' : 's'} of ${path} could not be read (see above)\n`);
      process.exitCode = problems > 0 ? 1 : 0;
    });
}
