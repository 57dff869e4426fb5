// The library's tablebase probe (Engine.probe): what the tables say of a
// position, its DTZ and a move that keeps the result, never guessed where
// they cannot answer.

import { generateMoves } from '../board/movegen.js';
import type { Position } from '../board/position.js';
import { MAX_MOVES } from '../board/types.js';
import { rankRootMoves } from '../syzygy/root.js';
import { PROBE_FAILED, type Tablebases, wdlFromDtz } from '../syzygy/tablebases.js';
import { describeMove } from './position.js';
import type { TablebaseProbe } from './types.js';

/** Engine.probe()'s answer: what the tables can say of pos, null where they cannot. */
export function probeTables(tb: Tablebases, pos: Position): TablebaseProbe | null {
  const w0 = tb.probeWdl(pos);
  if (w0 === PROBE_FAILED) return null;
  const d = tb.probeDtz(pos);
  const dtz = d === PROBE_FAILED ? null : d;
  const wdl = dtz === null ? w0 : wdlFromDtz(dtz, pos.halfmove);
  const moves = new Int32Array(MAX_MOVES);
  const n = generateMoves(pos, moves, 0, false);
  const ranks = new Int32Array(n);
  const values = new Int32Array(n);
  let best = -1;
  // By DTZ where it can be read for every move, else by WDL; no move when some move cannot be probed at all.
  const rank = (byDtz: boolean): boolean => rankRootMoves(tb, pos, moves.subarray(0, n), n, ranks, byDtz, true, false, values);
  if (n > 0 && ((dtz !== null && rank(true)) || rank(false))) {
    for (let i = 0; i < n; i++) {
      if (best < 0 || ranks[i] > ranks[best]) best = i;
      // Among equals: the quickest zeroing win, the longest defence.
      else if (ranks[i] === ranks[best] && values[i] < values[best]) best = i;
    }
  }
  return {
    wdl: (['loss', 'blessed-loss', 'draw', 'cursed-win', 'win'] as const)[wdl + 2],
    dtz,
    bestMove: best < 0 ? null : describeMove(pos, moves[best]),
  };
}
