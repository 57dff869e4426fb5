// `kestrel convert-pgn`: games with engine scores in their move comments
// (as fastchess and cutechess-cli write them, `{+0.37/7 0.079s}`: the
// mover's score in pawns, `+M5` for a mate) to viriformat training data.

import { closeSync, openSync, writeSync } from 'node:fs';
import { sanToMove } from '../board/pgn.js';
import { Position, START_FEN } from '../board/position.js';
import { WHITE } from '../board/types.js';
import { readPgnFile } from '../platform/pgn-file.js';
import { MATE } from '../search/search.js';
import { RESULT_BLACK_WIN, RESULT_DRAW, RESULT_WHITE_WIN, encodeGame } from './viriformat.js';

const RESULTS: Record<string, number> = { '1-0': RESULT_WHITE_WIN, '0-1': RESULT_BLACK_WIN, '1/2-1/2': RESULT_DRAW };

/** The mover's score in centipawns of a comment like `+0.37/7 0.079s` or `-M5/12`, or null when it has none. */
export function moverScore(comment: string): number | null {
  const m = /^([+-]?)(M?)(\d+(?:\.\d+)?)(?:\/\d+)?(?:\s|$)/.exec(comment.trim());
  if (m === null) return null;
  const sign = m[1] === '-' ? -1 : 1;
  // A mate in n moves: the mate score of 2n - 1 plies, as the search gives it.
  if (m[2] === 'M') return sign * (MATE - (2 * Number(m[3]) - 1));
  return Math.round(sign * Number(m[3]) * 100);
}

export interface ConvertStats {
  games: number;
  positions: number;
  /** Games left out: no result, an unreadable move or a move without a score. */
  skipped: number;
}

/** Converts the games of pgnFiles into a new viriformat file `out`. */
export async function convertPgn(pgnFiles: readonly string[], out: string, log: (line: string) => void): Promise<ConvertStats> {
  const stats: ConvertStats = { games: 0, positions: 0, skipped: 0 };
  const fd = openSync(out, 'w');
  const moves = new Int32Array(1024);
  const scores = new Int32Array(1024);
  try {
    for (const file of pgnFiles) {
      let number = 0;
      for await (const game of readPgnFile(file)) {
        number++;
        const result = RESULTS[game.result];
        const start = new Position(game.tags.FEN ?? START_FEN);
        const pos = new Position(start.fen());
        let plies = 0;
        let problem: string | null = result === undefined ? 'no result' : null;
        for (let i = 0; i < game.moves.length && problem === null && plies < moves.length; i++) {
          const move = sanToMove(pos, game.moves[i]);
          const score = moverScore(game.comments?.[i] ?? '');
          if (move === 0) problem = `illegal or unreadable move '${game.moves[i]}'`;
          else if (score === null) problem = `no score after '${game.moves[i]}'`;
          else {
            moves[plies] = move;
            scores[plies] = pos.side === WHITE ? score : 0 - score;
            plies++;
            pos.makeMove(move);
          }
        }
        if (problem !== null) {
          stats.skipped++;
          if (stats.skipped <= 10) log(`${file}: game ${number} left out: ${problem}`);
          continue;
        }
        writeSync(fd, encodeGame(start, result, moves, scores, plies));
        stats.games++;
        stats.positions += plies;
      }
    }
  } finally {
    closeSync(fd);
  }
  return stats;
}
