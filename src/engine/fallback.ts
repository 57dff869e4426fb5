// The move played in place of the search's when the search cannot answer
// (the worker crashed, hangs, or overran its time) or answers a move it may
// not play: the best move its lines showed among those it may play
// (ShownMove), else a two-ply look with the static evaluation. Emergencies
// only.

import { generateMoves } from '../board/movegen.js';
import { moveToUci, NO_MOVE_UCI } from '../board/notation.js';
import { Position } from '../board/position.js';
import { MAX_MOVES } from '../board/types.js';
import type { SearchLine } from '../search/limits.js';
import { evaluate } from '../eval/index.js';
import { loadPosition, type PositionSpec } from './messages.js';

/** The score of a move that mates, in EmergencyChoice. */
export const EMERGENCY_MATE = 1_000_000;

/** The emergency look's choice: the move, and its score for the side to move (centipawns, or EMERGENCY_MATE when it mates); null if unknown. */
export interface EmergencyChoice {
  move: string;
  score: number | null;
}

/** The best of `allowed` (UCI moves, legal in spec) by a two-ply static look; move '0000' when empty. */
export function emergencyMove(spec: PositionSpec, allowed: string[]): EmergencyChoice {
  if (allowed.length === 0) return { move: NO_MOVE_UCI, score: null };
  try {
    const pos = new Position();
    loadPosition(pos, spec);
    const moves = new Int32Array(2 * MAX_MOVES);
    const n = generateMoves(pos, moves, 0, false);
    let best = allowed[0];
    let bestScore = -Infinity;
    for (let i = 0; i < n; i++) {
      const name = moveToUci(pos, moves[i]);
      if (!allowed.includes(name)) continue;
      pos.makeMove(moves[i]);
      // Our score after their best reply.
      const end = generateMoves(pos, moves, MAX_MOVES, false);
      let score: number;
      if (end === MAX_MOVES) {
        score = pos.inCheck() ? EMERGENCY_MATE : 0;
      } else {
        score = Infinity;
        for (let j = MAX_MOVES; j < end; j++) {
          pos.makeMove(moves[j]);
          score = Math.min(score, evaluate(pos));
          pos.unmakeMove();
        }
      }
      pos.unmakeMove();
      if (score > bestScore) {
        bestScore = score;
        best = name;
      }
    }
    return { move: best, score: Number.isFinite(bestScore) ? bestScore : null };
  } catch {
    return { move: allowed[0], score: null };
  }
}

/**
 * The best move a search's lines have shown among the moves it may play:
 * the deepest line's, at the same depth the best ranked (multipv), and of
 * equals the latest; null while none has. The lines of MultiPV's later
 * moves count once their iteration is complete (exact), not while their
 * windows fail: the first line of that depth is not shown yet.
 */
export class ShownMove {
  move: string | null = null;
  private depth = -1;
  private multipv = 0;

  /** A line of the search, its first move in UCI notation (if any); allowed: the moves the search may play. */
  see(line: Pick<SearchLine, 'depth' | 'multipv' | 'bound'>, first: string | undefined, allowed: readonly string[]): void {
    if (first === undefined || !allowed.includes(first) || (line.multipv > 1 && line.bound !== 'exact')) return;
    if (line.depth < this.depth || (line.depth === this.depth && line.multipv > this.multipv)) return;
    this.move = first;
    this.depth = line.depth;
    this.multipv = line.multipv;
  }
}
