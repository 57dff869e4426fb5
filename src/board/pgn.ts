// Just enough PGN for analysis, opening books and training data: games
// split from text (PgnReader), tags, the main line's SAN moves (variations, NAGs and
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
  /** A comment or variation that was never closed (the moves after it are lost). */
  problem?: string;
  /** 1-based lines of the game's first tag or move and of its last line. */
  firstLine?: number;
  lastLine?: number;
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
      // The input's own mark characters would name comments that are not
      // there; a NAG may follow its move without a space (`e4$1`).
      clean += ch === COMMENT_MARK ? ' ' : ch === '$' ? ' $' : ch;
    }
  }
  const moves: string[] = [];
  const comments: string[] = [];
  let result: string | null = null;
  for (let token of clean.split(/\s+/)) {
    if (token === '' || token.startsWith('$') || token === 'e.p.') continue;
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

/** One tag pair; a line may hold several. */
const TAG = /\s*\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]/y;

/** A line that is nothing but a whole tag pair. */
const TAG_LINE = /^\[\s*\w+\s+"(?:[^"\\]|\\.)*"\s*\]$/;

function finishGame(tagLines: string[], movetext: string, lines: [number, number], problem: string | null): PgnGame {
  const tags: Record<string, string> = {};
  const badTags: string[] = [];
  for (const line of tagLines) {
    TAG.lastIndex = 0;
    let end = 0;
    for (let m = TAG.exec(line); m !== null; m = TAG.exec(line)) {
      tags[m[1]] = m[2].replace(/\\(.)/g, '$1');
      end = TAG.lastIndex;
    }
    if (end === 0 || line.slice(end).trim() !== '') badTags.push(line);
  }
  const { moves, result, comments } = movetextTokens(movetext);
  const game: PgnGame = { tags, moves, result: result ?? tags.Result ?? '*', firstLine: lines[0], lastLine: lines[1] };
  if (comments.some((c) => c !== '')) game.comments = comments;
  if (badTags.length > 0) game.badTags = badTags;
  if (problem !== null) game.problem = problem;
  return game;
}

/**
 * Reads PGN a line at a time and hands over each game as soon as it has
 * ended: at its result token, at a tag line after its movetext, or at the
 * end of the input. Games need no tags. Inside a brace comment a line that
 * starts with '[' belongs to the comment (programs wrap
 * `{[%eval 0.2] [%clk 0:03:00]}` across lines) unless it is a whole tag
 * pair: then the comment was never closed, and the game says so.
 */
export class PgnReader {
  private tagLines: string[] = [];
  private movetext = '';
  private lineNumber = 0;
  /** Line of the game's first tag or movetext (0: no game begun). */
  private firstLine = 0;
  private sawMovetext = false;
  private inComment = false;
  private commentLine = 0;
  private depth = 0;
  private variationLine = 0;
  /** The depth-0 token being read, to find the result that ends the game. */
  private token = '';

  /** Reads the next line; returns the games it ended (most lines end none). */
  push(raw: string): PgnGame[] {
    this.lineNumber++;
    const ended: PgnGame[] = [];
    const line = raw.trim();
    if (this.inComment) {
      if (TAG_LINE.test(line)) {
        this.finish(ended, `comment opened on line ${this.commentLine} is not closed`);
        this.addTagLine(line);
      } else {
        this.scan(raw, ended);
      }
    } else if (line.startsWith('[')) {
      if (this.sawMovetext) this.finish(ended, this.unclosed());
      this.addTagLine(line);
    } else if (line !== '' && !line.startsWith('%')) {
      this.scan(raw, ended);
    }
    return ended;
  }

  /** Ends the input; returns the last game if one was begun. */
  end(): PgnGame[] {
    const ended: PgnGame[] = [];
    this.finish(ended, this.unclosed());
    return ended;
  }

  private unclosed(): string | null {
    if (this.inComment) return `comment opened on line ${this.commentLine} is not closed`;
    if (this.depth > 0) return `variation opened on line ${this.variationLine} is not closed`;
    return null;
  }

  private addTagLine(line: string): void {
    if (this.firstLine === 0) this.firstLine = this.lineNumber;
    this.tagLines.push(line);
  }

  /** Reads movetext, ending the game at a result token outside comments and variations. */
  private scan(text: string, ended: PgnGame[]): void {
    let from = 0;
    for (let i = 0; i <= text.length; i++) {
      const ch = i < text.length ? text[i] : '\n';
      if (this.inComment) {
        if (ch === '}') this.inComment = false;
        continue;
      }
      const space = ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
      if (space || ch === '{' || ch === '(' || ch === ')' || ch === ';') {
        if (this.token !== '' && RESULTS.has(this.token)) {
          this.movetext += text.slice(from, i);
          from = i;
          this.finish(ended, null);
        }
        this.token = '';
      } else if (this.depth === 0) {
        this.token += ch;
      }
      if (!space && this.firstLine === 0) this.firstLine = this.lineNumber;
      if (!space) this.sawMovetext = true;
      if (ch === '{') {
        this.inComment = true;
        this.commentLine = this.lineNumber;
      } else if (ch === '(') {
        if (this.depth++ === 0) this.variationLine = this.lineNumber;
      } else if (ch === ')') {
        this.depth = Math.max(0, this.depth - 1);
      } else if (ch === ';') {
        break; // the rest of the line is a comment
      }
    }
    this.movetext += `${text.slice(from)}\n`;
  }

  private finish(ended: PgnGame[], problem: string | null): void {
    if (this.firstLine !== 0) {
      const game = finishGame(this.tagLines, this.movetext, [this.firstLine, this.lineNumber], problem);
      // Without tags or moves there is no game: a comment about the file, or a repeated result token.
      if (this.tagLines.length > 0 || game.moves.length > 0 || problem !== null) ended.push(game);
    }
    this.tagLines = [];
    this.movetext = '';
    this.firstLine = 0;
    this.sawMovetext = false;
    this.inComment = false;
    this.depth = 0;
    this.token = '';
  }
}

/** Splits PGN lines into games (see PgnReader). */
export function* pgnGamesFromLines(lines: Iterable<string>): Generator<PgnGame> {
  const reader = new PgnReader();
  for (const line of lines) yield* reader.push(line);
  yield* reader.end();
}

/** The games of a PGN text. */
export function parsePgn(text: string): PgnGame[] {
  return [...pgnGamesFromLines(text.split(/\r?\n/))];
}

/**
 * Why a game cannot be replayed as chess or Chess960 (an unreadable tag,
 * an unclosed comment or variation, another variant), or null.
 */
export function gameProblem(game: PgnGame): string | null {
  if (game.badTags !== undefined) return `unreadable tag ${JSON.stringify(clip(game.badTags[0]))}`;
  if (game.problem !== undefined) return game.problem;
  const variant = game.tags.Variant;
  if (variant !== undefined && !/^(standard|chess|normal|from position|)$/i.test(variant.trim()) && !isChess960(game))
    return `variant "${clip(variant)}" is not chess or Chess960`;
  return null;
}

/** Whether a game's Variant tag names Chess960 (Fischer random). */
export function isChess960(game: PgnGame): boolean {
  const variant = (game.tags.Variant ?? '').toLowerCase();
  return variant.includes('960') || variant.includes('fischer');
}

function clip(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max)}...`;
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
