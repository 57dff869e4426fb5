// The games of a PGN text for analysis: each with the line it starts on,
// replayed move by move, or refused with the game number, the line and the
// reason (a bad FEN tag, an unreadable or illegal move), so that one bad game
// does not stop the others.

import { moveToUci } from '../board/notation.js';
import { type PgnGame, movetextTokens, pgnGamesFromLines, sanToMove } from '../board/pgn.js';
import { Position, START_FEN } from '../board/position.js';
import { moveToSan } from '../board/san.js';
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
  let start = 0;
  let sawMoves = false;
  const flush = (end: number): void => {
    const lines = all.slice(start, end);
    if (lines.every((l) => l.trim() === '')) return;
    for (const game of pgnGamesFromLines(lines)) {
      const first = lines.findIndex((l) => l.trim() !== '');
      games.push({ number: games.length + 1, line: start + first + 1, lines, firstLine: start + 1, game });
    }
  };
  for (let i = 0; i < all.length; i++) {
    const line = all[i].trim();
    if (line.startsWith('[') && sawMoves) {
      flush(i);
      start = i;
      sawMoves = false;
    }
    if (line !== '' && !line.startsWith('[') && !line.startsWith('%')) sawMoves = true;
  }
  flush(all.length);
  return games;
}

/** The 1-based file line on which move `index` (0-based, main line) of the game is written. */
function lineOfMove(source: GameText, index: number): number {
  let movetext = '';
  for (let i = 0; i < source.lines.length; i++) {
    const line = source.lines[i].trim();
    if (line.startsWith('[') || line.startsWith('%')) continue;
    movetext += `${source.lines[i]}\n`;
    if (movetextTokens(movetext).moves.length > index) return source.firstLine + i;
  }
  return source.line;
}

/** Replays a game's moves from its start position, or says what is wrong with it. */
export function replayGame(source: GameText): ReplayedGame | GameProblem {
  const { game } = source;
  if (game.badTags !== undefined && game.badTags.length > 0) {
    const at = source.lines.findIndex((l) => l.trim() === game.badTags![0]);
    return {
      number: source.number,
      line: at < 0 ? source.line : source.firstLine + at,
      message: `unreadable tag ${clip(game.badTags[0])}`,
    };
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
  const startFen = pos.fen();
  if (game.moves.length === 0) return { number: source.number, line: source.line, message: 'no moves' };
  const uci: string[] = [];
  const san: string[] = [];
  for (const [i, text] of game.moves.entries()) {
    const move = sanToMove(pos, text);
    if (move === 0) {
      const number = `${pos.fullmove}${pos.side === 0 ? '.' : '...'}`;
      return { number: source.number, line: lineOfMove(source, i), message: `move ${number} ${clip(text)} is not legal here` };
    }
    uci.push(moveToUci(pos, move));
    san.push(moveToSan(pos, move));
    pos.makeMove(move);
  }
  return { source, startFen, uci, san };
}

function clip(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max)}...`;
}
