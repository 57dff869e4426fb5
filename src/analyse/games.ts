// The games of a PGN text for analysis: each with the line it starts on,
// replayed move by move, or refused with the game number, the line and the
// reason (a bad FEN tag, an unreadable or illegal move), so that one bad game
// does not stop the others.

import { MoveError, moveToUci } from '../board/notation.js';
import { type PgnGame, gameProblem, isChess960, movetextTokens, pgnGamesFromLines } from '../board/pgn.js';
import { Position, START_FEN } from '../board/position.js';
import { moveToSan, parseSan } from '../board/san.js';
import { errorText } from '../util/errors.js';

export interface GameText {
  /** 1-based, in file order. */
  number: number;
  /** 1-based line of the game's first line. */
  line: number;
  /** The game's part of the file, from `firstLine` (1-based line of lines[0], maybe blank). */
  lines: string[];
  firstLine: number;
  game: PgnGame;
}

export interface ReplayedGame {
  source: GameText;
  startFen: string;
  chess960: boolean;
  /** The moves in UCI and in SAN as Kestrel writes it. */
  uci: string[];
  san: string[];
}

/** A game that cannot be analysed, and where. */
export interface GameProblem {
  number: number;
  line: number;
  message: string;
}

/** Splits PGN text into games, as board/pgn.ts does, keeping each game's lines and first line number. */
export function splitGames(text: string): GameText[] {
  const all = text.split(/\r?\n/);
  const games: GameText[] = [];
  for (const game of pgnGamesFromLines(all)) {
    const first = game.firstLine ?? 1;
    const lines = all.slice(first - 1, game.lastLine ?? all.length);
    games.push({ number: games.length + 1, line: first, lines, firstLine: first, game });
  }
  return games;
}

/** The 1-based file line on which move `index` (0-based, main line) of the game is written. */
function lineOfMove(source: GameText, index: number): number {
  let movetext = '';
  for (let i = 0; i < source.lines.length; i++) {
    const line = source.lines[i].trim();
    // Tag lines come before the movetext; after it, a line starting with '[' continues a comment.
    if ((movetext === '' && line.startsWith('[')) || line.startsWith('%')) continue;
    movetext += `${source.lines[i]}\n`;
    if (movetextTokens(movetext).moves.length > index) return source.firstLine + i;
  }
  return source.line;
}

/** Replays a game's moves from its start position, or says what is wrong with it. */
export function replayGame(source: GameText): ReplayedGame | GameProblem {
  const { game } = source;
  const problem = gameProblem(game);
  if (problem !== null) {
    const bad = game.badTags?.[0];
    const at = bad === undefined ? -1 : source.lines.findIndex((l) => l.trim() === bad);
    return { number: source.number, line: at < 0 ? source.line : source.firstLine + at, message: problem };
  }
  const pos = new Position();
  const fen = game.tags.FEN ?? START_FEN;
  try {
    pos.setFen(fen);
  } catch (e) {
    return {
      number: source.number,
      line: source.line,
      message: `bad FEN tag '${clip(fen)}': ${errorText(e)}`,
    };
  }
  pos.chess960 = isChess960(game);
  const startFen = pos.fen();
  if (game.moves.length === 0) return { number: source.number, line: source.line, message: 'no moves' };
  const uci: string[] = [];
  const san: string[] = [];
  for (const [i, text] of game.moves.entries()) {
    let move: number;
    try {
      move = parseSan(pos, text);
    } catch (e) {
      if (!(e instanceof MoveError)) throw e;
      const number = `${pos.fullmove}${pos.side === 0 ? '.' : '...'}`;
      // parseSan says more after a colon for an ambiguous move or a promotion without its piece.
      const colon = e.message.indexOf(': ');
      const detail = colon < 0 ? '' : `: ${e.message.slice(colon + 2)}`;
      const why = e.message.startsWith('ambiguous') ? ` is ambiguous${detail}` : ` is not legal here${detail}`;
      return { number: source.number, line: lineOfMove(source, i), message: `move ${number} ${clip(text)}${why}` };
    }
    uci.push(moveToUci(pos, move));
    san.push(moveToSan(pos, move));
    pos.makeMove(move);
  }
  return { source, startFen, chess960: pos.chess960, uci, san };
}

function clip(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max)}...`;
}
