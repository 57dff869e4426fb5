// Training data from played games: every quiet position of each finished game
// (after move 8: earlier moves come from the opening book rather than the
// engines, and games set up from a FEN count from its move number), labelled
// with the game's result and numbered by game, one `<fen> | <result> | <game>`
// a line (games numbered from 0 in the order read; the tuner splits training
// and validation data by these numbers).
// The games come from PGN files, e.g. fastchess/cutechess match output
// (`kestrel selfplay` writes viriformat for the network, not PGN).
//
// Repeated games are dropped: at a fixed node count the engine is
// deterministic, so with fastchess -repeat both games of an opening pair are
// the same moves (K1 vs K2 and K2 vs K1 are one engine), and the copy adds
// nothing but a leak between training and validation data.

import { createWriteStream, openSync } from 'node:fs';
import { FenError, Position, START_FEN } from '../board/position.js';
import type { Labelled } from './dataset.js';
import { type PgnGame, gameProblem, isChess960, sanToMove } from '../board/pgn.js';
import { checkReadable, readPgnFile } from '../platform/pgn-file.js';
import { isQuiet } from './quiet.js';
import { unitInterval, xorshift32 } from '../util/random.js';

export interface DatagenOptions {
  /** Positions up to this full-move number are not used (default 8): they come from the opening book, not the engines. */
  skipMoves?: number;
  /** Keep each usable position with this probability (default 1), for fewer, less correlated positions. */
  sample?: number;
  /** Seed for the sampling. */
  seed?: number;
  /** Keep games whose start position, moves and result repeat an earlier game (default false: dropped). */
  keepDuplicates?: boolean;
}

export interface GameStats {
  games: number;
  skippedGames: number;
  positions: number;
  badMoves: number;
}

const RESULT_FOR_WHITE: Record<string, number> = { '1-0': 1, '0-1': 0, '1/2-1/2': 0.5 };

/** Scores beyond this (and mates) are written as +-MAX_SCORE. */
const MAX_SCORE = 3000;

/**
 * The search score in a move comment, in centipawns from the mover's side,
 * or null: `+0.15/8 0.228s`, `-1.20/12`, `0.00`, `+M5/20` (mate: +-MAX_SCORE);
 * cutechess/fastchess write pawns. Book moves (`book`) and other text: null.
 */
export function commentScore(comment: string): number | null {
  const m = /^([+-]?)(M?)(\d+(?:\.\d+)?)(?:\/\d+)?(?:\s|$)/.exec(comment.trim());
  if (m === null) return null;
  const sign = m[1] === '-' ? -1 : 1;
  if (m[2] === 'M') return sign * MAX_SCORE;
  return sign * Math.min(MAX_SCORE, Math.round(Number(m[3]) * 100));
}

/** Extracts the labelled quiet positions of one game (none if it has no result). */
export function gamePositions(
  game: PgnGame,
  options: DatagenOptions,
  stats: GameStats,
  random = unitInterval(xorshift32(options.seed ?? 1)),
): Labelled[] {
  const result = RESULT_FOR_WHITE[game.result];
  const pos = new Position();
  try {
    pos.setFen(game.tags.FEN ?? START_FEN);
  } catch (e) {
    if (!(e instanceof FenError)) throw e;
    stats.skippedGames++;
    return [];
  }
  if (result === undefined || gameProblem(game) !== null) {
    stats.skippedGames++;
    return [];
  }
  const skipMoves = options.skipMoves ?? 8;
  const sample = options.sample ?? 1;
  pos.chess960 = isChess960(game);
  const out: Labelled[] = [];
  stats.games++;
  for (let ply = 0; ply < game.moves.length; ply++) {
    if (pos.fullmove > skipMoves && (sample >= 1 || random() < sample) && isQuiet(pos)) {
      const score = commentScore(game.comments?.[ply] ?? '');
      if (score === null) out.push({ fen: pos.fen(), result });
      else out.push({ fen: pos.fen(), result, score: pos.side === 0 ? score : -score });
    }
    const move = sanToMove(pos, game.moves[ply]);
    if (move === 0) {
      stats.badMoves++;
      break;
    }
    pos.makeMove(move);
    // The undo stack is not needed here; keep it from filling up in long games.
    pos.clearHistory();
  }
  stats.positions += out.length;
  return out;
}

/** One data line: `<fen> | <result>`, then ` | <game>` when the game number is known and ` | <score>` when also the score is. */
export function formatLabelled(item: Labelled): string {
  const line = `${item.fen} | ${item.result.toFixed(1)}`;
  if (item.game === undefined) return line;
  return item.score === undefined ? `${line} | ${item.game}` : `${line} | ${item.game} | ${Math.round(item.score)}`;
}

export interface DatagenStats extends GameStats {
  /** Games dropped as repeats of an earlier game. */
  duplicateGames: number;
}

/** Converts PGN files into a labelled data file (or stdout when out is '-'), positions numbered by game. */
export async function pgnToData(pgnFiles: readonly string[], out: string, options: DatagenOptions = {}): Promise<DatagenStats> {
  const stats: GameStats = { games: 0, skippedGames: 0, positions: 0, badMoves: 0 };
  let duplicateGames = 0;
  const seen = new Set<string>();
  checkReadable(pgnFiles); // before out is emptied
  // Opened at once, so that a path that cannot be written throws here (a stream would report it later, as an unhandled event).
  const sink = out === '-' ? process.stdout : createWriteStream('', { fd: openSync(out, 'w'), encoding: 'utf8' });
  const random = unitInterval(xorshift32(options.seed ?? 1));
  for (const file of pgnFiles) {
    for await (const game of readPgnFile(file)) {
      if (!options.keepDuplicates && game.result !== '*') {
        const key = `${game.tags.FEN ?? START_FEN}|${game.result}|${game.moves.join(' ')}`;
        if (seen.has(key)) {
          duplicateGames++;
          continue;
        }
        seen.add(key);
      }
      const number = stats.games;
      const lines = gamePositions(game, options, stats, random).map((item) => formatLabelled({ ...item, game: number }));
      if (lines.length > 0 && !sink.write(`${lines.join('\n')}\n`)) {
        await new Promise<void>((resolve) => sink.once('drain', () => resolve()));
      }
    }
  }
  if (sink !== process.stdout) await new Promise<void>((resolve) => (sink as NodeJS.WritableStream).end(() => resolve()));
  return { ...stats, duplicateGames };
}
