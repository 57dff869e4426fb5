// Reading the library's position inputs with the engine's own rules code.

import { generateMoves } from '../board/movegen.js';
import { MoveError, moveToUci, NO_MOVE_UCI, parseUciMove } from '../board/notation.js';
import { FenError, Position, START_FEN } from '../board/position.js';
import { moveToSan, parseSan } from '../board/san.js';
import { MAX_MOVES } from '../board/types.js';
// The evaluation fills the piece-square tables Position sums: load it before any Position is built.
import '../eval/index.js';
import { MAX_HISTORY, type PositionSpec, appendSpecMove } from '../engine/messages.js';
import { IllegalMoveError, InvalidFenError } from './errors.js';
import type { Move, PositionInput } from './types.js';

/** UCI's `position startpos`. */
const STARTPOS = 'startpos';

/** A position read from input, and the same as the search worker rebuilds it. */
export interface ReadPosition {
  pos: Position;
  spec: PositionSpec;
}

/** Sets up a position from a FEN; throws InvalidFenError. */
export function positionFromFen(fen: string, chess960 = false): Position {
  if (typeof fen !== 'string') throw new TypeError(`a FEN must be a string, not ${typeof fen}`);
  const pos = new Position();
  pos.chess960 = chess960;
  const text = fen.trim();
  try {
    pos.setFen(text === STARTPOS ? START_FEN : text);
  } catch (e) {
    if (e instanceof FenError) throw new InvalidFenError(fen, e.message);
    throw e;
  }
  return pos;
}

/** A move given in UCI or SAN, as the position's move; throws IllegalMoveError. */
export function readMove(pos: Position, text: string): number {
  if (typeof text !== 'string') throw new TypeError(`a move must be a string, not ${typeof text}`);
  const t = text.trim();
  try {
    return parseUciMove(pos, t);
  } catch (uciError) {
    // Not UCI: SAN, if it reads as SAN; else the UCI reason (for text that looks like UCI).
    try {
      return parseSan(pos, t);
    } catch (sanError) {
      const looksUci = /^[a-h][1-8][a-h][1-8][nbrq]?$/i.test(t);
      const reason = (looksUci ? uciError : sanError) as Error;
      if (reason instanceof MoveError) throw new IllegalMoveError(text, pos.fen(), reason.message);
      throw reason;
    }
  }
}

/** Reads a PositionInput: the position after the moves, and its spec for the search worker. */
export function readPosition(input: PositionInput, chess960 = false): ReadPosition {
  if (typeof input !== 'string' && (input === null || typeof input !== 'object' || Array.isArray(input))) {
    const what = input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input;
    throw new TypeError(`a position must be a FEN string, 'startpos' or { fen?, moves? }, not ${what}`);
  }
  const fen = typeof input === 'string' ? input : (input.fen ?? START_FEN);
  const moves = typeof input === 'string' ? [] : (input.moves ?? []);
  if (!Array.isArray(moves)) throw new TypeError('moves must be an array of strings');
  const pos = positionFromFen(fen, chess960);
  const spec: PositionSpec = { fen: pos.fen(), moves: [], chess960 };
  for (const text of moves) {
    const move = readMove(pos, text);
    const uci = moveToUci(pos, move);
    pos.makeMove(move);
    appendSpecMove(spec, pos, uci);
    if (pos.ply >= MAX_HISTORY) pos.clearHistory();
  }
  return { pos, spec };
}

const scratch = new Int32Array(MAX_MOVES);

/** The legal moves of pos, as move numbers. */
export function legalMoveNumbers(pos: Position): number[] {
  const n = generateMoves(pos, scratch, 0, false);
  return Array.from(scratch.subarray(0, n));
}

/** A move of pos in both notations. */
export function describeMove(pos: Position, move: number): Move {
  return { uci: moveToUci(pos, move), san: moveToSan(pos, move) };
}

/** A UCI move the engine answered in pos, in both notations; null for '0000' or one that is not legal. */
export function describeUci(pos: Position, uci: string | null): Move | null {
  if (uci === null || uci === NO_MOVE_UCI) return null;
  try {
    return describeMove(pos, parseUciMove(pos, uci));
  } catch {
    return null;
  }
}
