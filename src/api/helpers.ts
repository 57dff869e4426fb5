// Small synchronous helpers on the engine's own rules code: legal moves,
// FEN validation, perft, the static evaluation, how a game stands.

import { Perft } from '../board/perft.js';
import { gameOutcome } from '../board/rules.js';
import { WHITE } from '../board/types.js';
import { evaluate as staticEval } from '../eval/index.js';
import { InvalidFenError } from './errors.js';
import { describeMove, legalMoveNumbers, positionFromFen, readPosition } from './position.js';
import type { Move, PositionInput } from './types.js';

export interface RulesOptions {
  /** Read castling rights and write castling moves as Chess960 does (default false). */
  chess960?: boolean;
}

/** The legal moves of a position, in UCI and SAN. Throws InvalidFenError or IllegalMoveError for a bad position. */
export function legalMoves(position: PositionInput, options: RulesOptions = {}): Move[] {
  const { pos } = readPosition(position, options.chess960 ?? false);
  return legalMoveNumbers(pos).map((m) => describeMove(pos, m));
}

/** Whether a FEN is valid; if so, its normal form, else the reason. Never throws for a string. */
export function validateFen(fen: string, options: RulesOptions = {}): { valid: true; fen: string } | { valid: false; reason: string } {
  try {
    return { valid: true, fen: positionFromFen(fen, options.chess960 ?? false).fen() };
  } catch (e) {
    if (e instanceof InvalidFenError) return { valid: false, reason: e.reason };
    throw e;
  }
}

/** The number of leaf nodes of the legal move tree `depth` plies deep (the standard move-generator check). */
export function perft(position: PositionInput, depth: number, options: RulesOptions = {}): number {
  if (!Number.isInteger(depth) || depth < 0 || depth > 64) throw new RangeError(`perft depth must be an integer in 0..64, not ${depth}`);
  const { pos } = readPosition(position, options.chess960 ?? false);
  return new Perft(depth).count(pos, depth);
}

/** The static evaluation (no search) in centipawns, from the side to move's point of view. */
export function evaluate(position: PositionInput, options: RulesOptions = {}): number {
  const { pos } = readPosition(position, options.chess960 ?? false);
  return staticEval(pos);
}

/** How a game stands: side to move, check, and the result when the rules end it. */
export interface GameStatus {
  fen: string;
  turn: 'white' | 'black';
  inCheck: boolean;
  /** The result when the game is over by the rules (repetition counts only positions reached through the moves given). */
  outcome: {
    result: '1-0' | '0-1' | '1/2-1/2';
    reason: 'checkmate' | 'stalemate' | 'threefold repetition' | 'fifty-move rule' | 'insufficient material';
  } | null;
}

export function gameStatus(position: PositionInput, options: RulesOptions = {}): GameStatus {
  const { pos } = readPosition(position, options.chess960 ?? false);
  return { fen: pos.fen(), turn: pos.side === WHITE ? 'white' : 'black', inCheck: pos.inCheck(), outcome: gameOutcome(pos) };
}
