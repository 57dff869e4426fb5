// Helpers shared by the board tests.

import { expect } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { MoveError } from '../../src/board/notation.js';
import type { Position } from '../../src/board/position.js';
import { MAX_MOVES } from '../../src/board/types.js';

/** The legal moves of pos, as an array. */
export function legalMoves(pos: Position): number[] {
  const out = new Int32Array(MAX_MOVES);
  return Array.from(out.subarray(0, generateMoves(pos, out, 0, false)));
}

/** The message of the MoveError that f throws (fails the test if it throws anything else, or nothing). */
export function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(MoveError);
    return (e as Error).message;
  }
  throw new Error('expected a MoveError');
}
