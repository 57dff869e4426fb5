// Scores and lines as a chess player reads them: +0.25, #-3 (from White's
// side), and SAN with move numbers.

import { parseUciMove } from '../board/notation.js';
import type { Position } from '../board/position.js';
import { moveToSan } from '../board/san.js';
import { WHITE } from '../board/types.js';
import type { UciScore } from '../engine/search-lines.js';

/** +0.25 / -1.30 (pawns) or #3 / #-2 (mate in moves; negative: being mated). */
export function formatScore(score: UciScore): string {
  if ('mate' in score) return `#${score.mate}`;
  return `${score.cp > 0 ? '+' : score.cp < 0 ? '-' : ''}${(Math.abs(score.cp) / 100).toFixed(2)}`;
}

/** A score from the side to move's view, turned to White's view. */
export function whiteView(score: UciScore, side: number): UciScore {
  return side === WHITE ? score : negateScore(score);
}

/** The same score from the other side's view. */
export function negateScore(score: UciScore): UciScore {
  return 'mate' in score ? { mate: 0 - score.mate } : { cp: 0 - score.cp };
}

/**
 * A line of UCI moves from pos in SAN with move numbers ("12. Nf3 Nc6" or
 * "12... Nc6 13. Nf3"), `number` being the first move's ("12." or "12...").
 * Stops at a move that is not legal. pos is left as it was.
 */
export function lineToSan(pos: Position, uciMoves: readonly string[], number: string): string {
  const parts: string[] = [];
  const m = /^(\d+)(\.+)$/.exec(number);
  let fullmove = m === null ? pos.fullmove : Number(m[1]);
  let white = m === null ? pos.side === 0 : m[2] === '.';
  let made = 0;
  try {
    for (const [i, uci] of uciMoves.entries()) {
      const move = parseUciMove(pos, uci);
      if (white) parts.push(`${fullmove}.`);
      else if (i === 0) parts.push(`${fullmove}...`);
      parts.push(moveToSan(pos, move));
      pos.makeMove(move);
      made++;
      if (!white) fullmove++;
      white = !white;
    }
  } catch {
    // A stale or broken line: what was read so far.
  } finally {
    for (let i = 0; i < made; i++) pos.unmakeMove();
  }
  return parts.join(' ');
}
