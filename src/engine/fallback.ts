// The move the host plays by itself when the search worker cannot answer
// (it crashed, hangs, or overran its time) and no search line is known: a
// two-ply look with the static evaluation. Emergencies only.

import { generateMoves } from '../board/movegen.js';
import { moveToUci, NO_MOVE_UCI } from '../board/notation.js';
import { Position } from '../board/position.js';
import { MAX_MOVES } from '../board/types.js';
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
