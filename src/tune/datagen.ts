// Training data from played games: every quiet position of each finished game
// (after move 8: earlier moves come from the opening book rather than the
// engines, and games set up from a FEN count from its move number), labelled with the game's result, one `<fen> | <result>` a line.
// The games come from PGN files, e.g. fastchess/cutechess match output; the
// engine's own self-play will produce PGN the same way.

import { createWriteStream } from 'node:fs';
import { Position, START_FEN } from '../board/position.js';
import type { Labelled } from './dataset.js';
import { type PgnGame, readPgnFile, sanToMove } from './pgn.js';
import { isQuiet } from './quiet.js';

export interface DatagenOptions {
  /** Positions up to this full-move number are not used (default 8): they come from the opening book, not the engines. */
  skipMoves?: number;
  /** Keep each usable position with this probability (default 1), for fewer, less correlated positions. */
  sample?: number;
  /** Seed for the sampling. */
  seed?: number;
}

export interface GameStats {
  games: number;
  skippedGames: number;
  positions: number;
  badMoves: number;
}

const RESULT_FOR_WHITE: Record<string, number> = { '1-0': 1, '0-1': 0, '1/2-1/2': 0.5 };

/** Deterministic xorshift32 in [0, 1). */
function random01(state: Int32Array): number {
  let s = state[0];
  s ^= s << 13;
  s ^= s >>> 17;
  s ^= s << 5;
  state[0] = s;
  return (s >>> 0) / 4294967296;
}

/** Extracts the labelled quiet positions of one game (none if it has no result). */
export function gamePositions(game: PgnGame, options: DatagenOptions, stats: GameStats, rng = Int32Array.of(options.seed ?? 1)): Labelled[] {
  const result = RESULT_FOR_WHITE[game.result];
  if (result === undefined) {
    stats.skippedGames++;
    return [];
  }
  const skipMoves = options.skipMoves ?? 8;
  const sample = options.sample ?? 1;
  const pos = new Position(game.tags.FEN ?? START_FEN);
  pos.chess960 = (game.tags.Variant ?? '').toLowerCase().includes('960');
  const out: Labelled[] = [];
  stats.games++;
  for (let ply = 0; ply < game.moves.length; ply++) {
    if (pos.fullmove > skipMoves && (sample >= 1 || random01(rng) < sample) && isQuiet(pos)) {
      out.push({ fen: pos.fen(), result });
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

export function formatLabelled(item: Labelled): string {
  return `${item.fen} | ${item.result.toFixed(1)}`;
}

/** Converts PGN files into a labelled data file (or stdout when out is '-'). */
export async function pgnToData(pgnFiles: readonly string[], out: string, options: DatagenOptions = {}): Promise<GameStats> {
  const stats: GameStats = { games: 0, skippedGames: 0, positions: 0, badMoves: 0 };
  const sink = out === '-' ? process.stdout : createWriteStream(out, 'utf8');
  const rng = Int32Array.of(options.seed ?? 1);
  for (const file of pgnFiles) {
    for await (const game of readPgnFile(file)) {
      const lines = gamePositions(game, options, stats, rng).map(formatLabelled);
      if (lines.length > 0 && !sink.write(lines.join('\n') + '\n')) {
        await new Promise<void>((resolve) => sink.once('drain', () => resolve()));
      }
    }
  }
  if (sink !== process.stdout) await new Promise<void>((resolve) => (sink as NodeJS.WritableStream).end(() => resolve()));
  return stats;
}
