// Text for people and for UCI: a probed position as a table, and the lines
// that announce a book move.

import { moveToUci } from '../board/notation.js';
import type { Position } from '../board/position.js';
import { moveToSan } from '../board/san.js';
import type { BookChoice, BookEntry } from './reader.js';

export interface ProbeRow {
  uci: string;
  san: string;
  weight: number;
  learn: number;
  /** Share of the total weight, in percent (0 when the total is 0). */
  percent: number;
}

/** The entries of a probe as rows, in file order. */
export function probeRows(pos: Position, entries: readonly BookEntry[]): ProbeRow[] {
  const total = entries.reduce((sum, e) => sum + e.weight, 0);
  return entries.map((e) => ({
    uci: moveToUci(pos, e.move),
    san: moveToSan(pos, e.move),
    weight: e.weight,
    learn: e.learn,
    percent: total === 0 ? 0 : (100 * e.weight) / total,
  }));
}

/** A table of the rows: move (UCI), SAN, weight, percent; then a total line. */
export function formatProbeTable(rows: readonly ProbeRow[]): string[] {
  if (rows.length === 0) return ['no book moves for this position'];
  const total = rows.reduce((sum, r) => sum + r.weight, 0);
  const sanWidth = Math.max(3, ...rows.map((r) => r.san.length));
  const weightWidth = Math.max(6, String(total).length);
  const lines = [`move   ${'san'.padEnd(sanWidth)}  ${'weight'.padStart(weightWidth)}  percent`];
  for (const r of rows) {
    lines.push(
      `${r.uci.padEnd(6)} ${r.san.padEnd(sanWidth)}  ${String(r.weight).padStart(weightWidth)}  ${r.percent.toFixed(2).padStart(6)}%`,
    );
  }
  lines.push(`${rows.length} move${rows.length === 1 ? '' : 's'}, total weight ${total}`);
  return lines;
}

/**
 * What the engine prints when it plays a book move, before `bestmove`: an
 * info string naming the move and its weight, then an info line with the move
 * as the principal variation (so GUIs show it like a searched move).
 */
export function bookMoveInfoLines(pos: Position, choice: BookChoice): string[] {
  const uci = moveToUci(pos, choice.move);
  return [
    `info string book move ${uci} (weight ${choice.weight} of total ${choice.total})`,
    `info depth 0 score cp 0 time 0 nodes 0 pv ${uci}`,
  ];
}
