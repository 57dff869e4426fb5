// `kestrel convert-pgn`: games with engine scores in their move comments
// (as fastchess and cutechess-cli write them, `{+0.37/7 0.079s}`: the
// mover's score in pawns, `+M5` for a mate) to viriformat training data.
// A file may be PGN, bzip2-compressed PGN, or a tar archive of either: the
// `<id>.pgn.tar` of `.pgn.bz2` files that OpenBench serves for a workload,
// whose comments its client has shortened to `+0.37/7` (COMPACT) or
// `+0.37/7 0.079s, n=..., sd=...` (VERBOSE). Leading moves marked `{book}`
// become part of the start position.

import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { type PgnGame, gameProblem, isChess960, pgnGamesFromLines, sanToMove } from '../board/pgn.js';
import { Position, START_FEN } from '../board/position.js';
import { WHITE } from '../board/types.js';
import { checkReadable, decodePgn, readPgnFile } from '../platform/pgn-file.js';
import { MATE } from '../search/score.js';
import { errorText } from '../util/errors.js';
import { bunzip2, isBzip2 } from './bzip2.js';
import { isTarHeader, tarMembers } from './tar.js';
import { RESULT_BLACK_WIN, RESULT_DRAW, RESULT_WHITE_WIN, encodeGame } from './viriformat.js';

const RESULTS: Record<string, number> = { '1-0': RESULT_WHITE_WIN, '0-1': RESULT_BLACK_WIN, '1/2-1/2': RESULT_DRAW };

/** The mover's score in centipawns of a comment like `+0.37/7 0.079s` or `-M5/12`, or null when it has none. */
export function moverScore(comment: string): number | null {
  const m = /^([+-]?)(M?)(\d+(?:\.\d+)?)(?:\/\d+)?(?:[\s,]|$)/.exec(comment.trim());
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

/** The games of a PGN text. */
function gamesOfText(bytes: Uint8Array): Generator<PgnGame> {
  return pgnGamesFromLines(decodePgn(bytes).split(/\r?\n/));
}

/** The games of a PGN file, a bzip2-compressed one, or a tar archive of either, each with the name of where it was read. */
async function* gamesOf(path: string): AsyncGenerator<{ source: string; game: PgnGame }> {
  const first = new Uint8Array(512);
  const fd = openSync(path, 'r');
  let length: number;
  try {
    length = readSync(fd, first, 0, first.length, 0);
  } finally {
    closeSync(fd);
  }
  if (isTarHeader(first.subarray(0, length))) {
    for (const member of tarMembers(path)) {
      const source = `${path}:${member.name}`;
      for (const game of gamesOfText(isBzip2(member.bytes) ? bunzip2(member.bytes) : member.bytes)) yield { source, game };
    }
  } else if (isBzip2(first.subarray(0, length))) {
    for (const game of gamesOfText(bunzip2(readFileSync(path)))) yield { source: path, game };
  } else {
    for await (const game of readPgnFile(path)) yield { source: path, game };
  }
}

/** Converts the games of pgnFiles into a new viriformat file `out`. */
export async function convertPgn(pgnFiles: readonly string[], out: string, log: (line: string) => void): Promise<ConvertStats> {
  const stats: ConvertStats = { games: 0, positions: 0, skipped: 0 };
  checkReadable(pgnFiles); // before out is emptied
  const fd = openSync(out, 'w');
  let moves = new Int32Array(1024);
  let scores = new Int32Array(1024);
  try {
    for (const file of pgnFiles) {
      let number = 0;
      let lastSource = '';
      for await (const { source, game } of gamesOf(file)) {
        number = source === lastSource ? number + 1 : 1;
        lastSource = source;
        const result = RESULTS[game.result];
        let problem = gameProblem(game) ?? (result === undefined ? 'no result' : null);
        const pos = new Position();
        try {
          pos.setFen(game.tags.FEN ?? START_FEN);
        } catch (e) {
          problem ??= `bad FEN tag: ${errorText(e)}`;
        }
        pos.chess960 = isChess960(game);
        let start: Position | null = null;
        let plies = 0;
        if (game.moves.length > moves.length) {
          moves = new Int32Array(game.moves.length);
          scores = new Int32Array(game.moves.length);
        }
        for (let i = 0; i < game.moves.length && problem === null; i++) {
          const move = sanToMove(pos, game.moves[i]);
          const comment = (game.comments?.[i] ?? '').trim();
          const score = moverScore(comment);
          if (move === 0) problem = `illegal or unreadable move '${game.moves[i]}'`;
          else if (start === null && comment === 'book') pos.makeMove(move);
          else if (score === null) problem = `no score after '${game.moves[i]}'`;
          else {
            if (start === null) {
              start = new Position(pos.fen());
              start.chess960 = pos.chess960;
            }
            moves[plies] = move;
            scores[plies] = pos.side === WHITE ? score : 0 - score;
            plies++;
            pos.makeMove(move);
          }
        }
        if (problem === null && start === null) problem = 'no scored move';
        if (problem !== null || start === null) {
          stats.skipped++;
          if (stats.skipped <= 10) log(`${source}: game ${number} left out: ${problem}`);
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
