// Just enough PGN for opening books and training data: games split from
// text, tags, the main line's SAN moves (variations, NAGs and
// move numbers dropped) and the comment after each move (where match
// programs write the engine's score, e.g. fastchess `{+0.15/8 0.228s}`),
// resolved by board/san.ts.

import { MoveError } from '../board/notation.js';
import type { Position } from '../board/position.js';
import { parseSan } from '../board/san.js';

export interface PgnGame {
  tags: Record<string, string>;
  /** Main-line moves in SAN, as written. */
  moves: string[];
  /** '1-0', '0-1', '1/2-1/2' or '*'. */
  result: string;
  /** comments[i]: the first comment after moves[i] on the main line ('' when none). */
  comments?: string[];
  /** Tag lines that could not be read (present only when there are some). */
  badTags?: string[];
}

const RESULTS = new Set(['1-0', '0-1', '1/2-1/2', '*']);

/** Stands for comment n of the main line in the cleaned movetext. */
const COMMENT_MARK = '\u0001';

/** The SAN tokens of a movetext, main line only, and the comment following each move. */
export function movetextTokens(text: string): { moves: string[]; result: string | null; comments: string[] } {
  let depth = 0;
  let clean = '';
  const texts: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '{') {
      const end = text.indexOf('}', i);
      if (depth === 0) {
        clean += ` ${COMMENT_MARK}${texts.length} `;
        texts.push(text.slice(i + 1, end < 0 ? text.length : end).trim());
      } else {
        clean += ' ';
      }
      i = end < 0 ? text.length : end;
    } else if (ch === ';') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      clean += ' ';
    } else if (ch === '(') {
      depth++;
    } else if (ch === ')') {
      depth = Math.max(0, depth - 1);
      clean += ' ';
    } else if (depth === 0) {
      clean += ch === COMMENT_MARK ? ' ' : ch; // the input's own mark characters would name comments that are not there
    }
  }
  const moves: string[] = [];
  const comments: string[] = [];
  let result: string | null = null;
  for (let token of clean.split(/\s+/)) {
    if (token === '' || token.startsWith('$')) continue;
    if (token.startsWith(COMMENT_MARK)) {
      const n = moves.length - 1;
      if (n >= 0 && comments[n] === '') comments[n] = texts[Number(token.slice(1))];
      continue;
    }
    if (RESULTS.has(token)) {
      result = token;
      continue;
    }
    token = token.replace(/^\d+\.+/, ''); // "12." "12..." "12.e4"
    if (token === '' || /^\d+$/.test(token)) continue;
    moves.push(token);
    comments.push('');
  }
  return { moves, result, comments };
}

function finishGame(tagLines: string[], moveLines: string[]): PgnGame {
  const tags: Record<string, string> = {};
  const badTags: string[] = [];
  for (const line of tagLines) {
    const m = /^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]/.exec(line);
    if (m) tags[m[1]] = m[2].replace(/\\(.)/g, '$1');
    else badTags.push(line);
  }
  const { moves, result, comments } = movetextTokens(moveLines.join('\n'));
  const game: PgnGame = { tags, moves, result: result ?? tags.Result ?? '*' };
  if (comments.some((c) => c !== '')) game.comments = comments;
  if (badTags.length > 0) game.badTags = badTags;
  return game;
}

/** Splits PGN lines into games (a tag line after movetext starts a new game). */
export function* pgnGamesFromLines(lines: Iterable<string>): Generator<PgnGame> {
  let tagLines: string[] = [];
  let moveLines: string[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      if (moveLines.length > 0) {
        yield finishGame(tagLines, moveLines);
        tagLines = [];
        moveLines = [];
      }
      tagLines.push(line);
    } else if (line !== '' && !line.startsWith('%')) {
      moveLines.push(line);
    }
  }
  if (moveLines.length > 0 || tagLines.length > 0) yield finishGame(tagLines, moveLines);
}

/** The games of a PGN text. */
export function parsePgn(text: string): PgnGame[] {
  return [...pgnGamesFromLines(text.split(/\r?\n/))];
}

/** The legal move of pos written as `san` (see board/san.ts for what is accepted), or 0 when none or several match. */
export function sanToMove(pos: Position, san: string): number {
  try {
    return parseSan(pos, san);
  } catch (e) {
    if (e instanceof MoveError) return 0;
    throw e;
  }
}
