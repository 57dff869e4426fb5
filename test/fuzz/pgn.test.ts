// PGN by machine: mutated real games and random text never make the PGN
// reader throw; what it returns has the promised shape (tags and moves are
// strings, comments one per move), and replaying the moves with sanToMove
// either plays legal moves or stops at one it cannot read.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { type PgnGame, parsePgn, sanToMove } from '../../src/board/pgn.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { FUZZ_TIMEOUT, REAL_PGN, fuzzParams, mutated, randomText } from './inputs.js';

const PGN_CHARS: readonly string[] = [...'[]{}();%$!?"\\.\n\r 0123456789NBRQKOxabcdefgh+#=-/*', '\u0001', '1-0', '0-1', '1/2-1/2'];
const PGN_TOKENS: readonly string[] = [
  '[Event "x"]',
  '[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]',
  '{',
  '}',
  '(',
  ')',
  '1.',
  '1...',
  '$5',
  '*',
  'O-O',
  'e8=Q+',
  'exd6 e.p.',
  ';',
  '\n',
  '%',
];

const scratch = new Int32Array(MAX_MOVES);

function checkGame(game: PgnGame): void {
  expect(typeof game.result).toBe('string');
  for (const [name, value] of Object.entries(game.tags)) {
    expect(typeof name).toBe('string');
    expect(typeof value).toBe('string');
  }
  for (const move of game.moves) {
    expect(typeof move).toBe('string');
    expect(move).not.toBe('');
  }
  if (game.comments !== undefined) {
    expect(game.comments).toHaveLength(game.moves.length);
    for (const c of game.comments) expect(typeof c).toBe('string');
  }
  for (const line of game.badTags ?? []) expect(typeof line).toBe('string');

  // Replay from the start position: legal moves until one does not read.
  const pos = new Position();
  for (const san of game.moves) {
    const move = sanToMove(pos, san);
    if (move === 0) break;
    const n = generateMoves(pos, scratch, 0, false);
    expect(Array.from(scratch.subarray(0, n))).toContain(move);
    pos.makeMove(move);
  }
}

describe('PGN fuzzing', () => {
  it(
    'reads mutated games and random text without throwing',
    () => {
      const text = fc.oneof(
        { weight: 4, arbitrary: mutated(REAL_PGN, PGN_CHARS, PGN_TOKENS) },
        { weight: 1, arbitrary: randomText(PGN_CHARS, PGN_TOKENS, 200) },
        // Several games glued together, one of them mutated.
        {
          weight: 1,
          arbitrary: fc.tuple(mutated(REAL_PGN, PGN_CHARS, PGN_TOKENS), fc.constantFrom(...REAL_PGN)).map(([a, b]) => `${b}\n\n${a}\n${b}`),
        },
      );
      fc.assert(
        fc.property(text, (pgn) => {
          for (const game of parsePgn(pgn)) checkGame(game);
        }),
        fuzzParams(600),
      );
    },
    FUZZ_TIMEOUT,
  );
});
