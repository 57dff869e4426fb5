// Writing PGN: tags (the Seven Tag Roster first, as the standard asks), then
// the movetext with move numbers, glyphs (?!, ?, ??), comments ({[%eval
// 0.25]}, the form lichess and ChessBase read) and variations, wrapped at 80
// columns, ending with the result.
import { clockText } from '../util/duration.js';

/** One move of a line: SAN, an optional glyph, a comment after it, and variations replacing it. */
export interface PgnMove {
  san: string;
  /** '!', '?', '!?', '?!', '??' or '!!'; written right after the SAN. */
  glyph?: string;
  comment?: string;
  /** Alternatives to this move, each a line starting in this move's place. */
  variations?: PgnMove[][];
}

export interface PgnRecord {
  /** Tags in order; the Seven Tag Roster is written first whatever the order here. */
  tags: ReadonlyArray<readonly [string, string]>;
  /** Full move number and side to move ('w' or 'b') of the first move. */
  fullmove: number;
  side: 'w' | 'b';
  moves: PgnMove[];
  /** '1-0', '0-1', '1/2-1/2' or '*'. */
  result: string;
  /** A comment before the first move (e.g. a summary). */
  comment?: string;
}

const ROSTER = ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result'];
const WIDTH = 80;

/** A tag value with backslashes and quotes escaped. */
function escapeTag(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** A comment's text as it may stand between braces. */
function commentText(text: string): string {
  return text.replace(/[{}]/g, '').replace(/\s+/g, ' ').trim();
}

/** The movetext tokens of a line starting at ply `ply` (0: white's first move of move 1). */
function lineTokens(moves: readonly PgnMove[], ply: number, out: string[]): void {
  let needNumber = true;
  for (const [i, move] of moves.entries()) {
    const p = ply + i;
    const number = Math.floor(p / 2) + 1;
    if (p % 2 === 0) out.push(`${number}.`);
    else if (needNumber) out.push(`${number}...`);
    out.push(move.san + (move.glyph ?? ''));
    needNumber = false;
    if (move.comment !== undefined && commentText(move.comment) !== '') {
      out.push(`{${commentText(move.comment)}}`);
      needNumber = true;
    }
    for (const variation of move.variations ?? []) {
      if (variation.length === 0) continue;
      const inner: string[] = [];
      lineTokens(variation, p, inner);
      inner[0] = `(${inner[0]}`;
      inner[inner.length - 1] = `${inner[inner.length - 1]})`;
      out.push(...inner);
      needNumber = true;
    }
  }
}

/** Joins tokens into lines of at most WIDTH characters (a longer token stands alone). */
function wrap(tokens: readonly string[]): string[] {
  const lines: string[] = [];
  let line = '';
  for (const token of tokens) {
    // Comments may be split at their spaces, but not inside a [%...] command.
    for (const word of token.startsWith('{') ? (token.match(/\{?\[%[^\]]*\]\}?|\S+/g) ?? [token]) : [token]) {
      if (line === '') line = word;
      else if (line.length + 1 + word.length <= WIDTH) line += ` ${word}`;
      else {
        lines.push(line);
        line = word;
      }
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The game as PGN text (ending with a newline). */
export function writePgn(game: PgnRecord): string {
  const tags = new Map<string, string>();
  for (const name of ROSTER) tags.set(name, name === 'Result' ? game.result : '?');
  for (const [name, value] of game.tags) tags.set(name, value);
  tags.set('Result', game.result);
  const head = [...tags].map(([name, value]) => `[${name} "${escapeTag(value)}"]`);
  const tokens: string[] = [];
  if (game.comment !== undefined && commentText(game.comment) !== '') tokens.push(`{${commentText(game.comment)}}`);
  lineTokens(game.moves, 2 * (game.fullmove - 1) + (game.side === 'b' ? 1 : 0), tokens);
  tokens.push(game.result);
  return `${head.join('\n')}\n\n${wrap(tokens).join('\n')}\n`;
}

/** Today's date as PGN writes it (YYYY.MM.DD). */
export function pgnDate(date = new Date()): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}.${pad(date.getMonth() + 1)}.${pad(date.getDate())}`;
}

/** An evaluation as a `[%eval ...]` command: pawns with two decimals from white's view, or `#n` (negative: black mates). */
export function evalCommand(whiteScore: { cp: number } | { mate: number }): string {
  if ('mate' in whiteScore) return `[%eval #${whiteScore.mate}]`;
  return `[%eval ${(whiteScore.cp / 100).toFixed(2)}]`;
}

/** A clock reading as a `[%clk h:mm:ss]` command. */
export function clockCommand(ms: number): string {
  return `[%clk ${clockText(Math.floor(ms / 1000), 'always')}]`;
}
