// The library's position readers by machine (src/api/position.ts, as the
// helpers and the Engine use them): any value as a position, FEN or move
// either reads or throws one of the documented errors (InvalidFenError,
// IllegalMoveError, or TypeError for a value of the wrong type), and what
// reads is what the search worker will rebuild from the spec.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { moveToUci } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { moveToSan } from '../../src/board/san.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { IllegalMoveError, InvalidFenError } from '../../src/api/errors.js';
import { validateFen } from '../../src/api/helpers.js';
import { readPosition } from '../../src/api/position.js';
import { loadPosition } from '../../src/engine/messages.js';
import { CHESS_CHARS, FEN_TOKENS, FUZZ_TIMEOUT, REAL_FENS, editedFen, fuzzParams, mutated, playedFen, randomText } from './inputs.js';

const scratch = new Int32Array(MAX_MOVES);
const MOVE_CHARS: readonly string[] = [...'NBRQKabcdefgh12345678x=+#O-0 '];

/** Moves for a FEN: legal ones in UCI and SAN, mutated ones, junk, and now and then a value that is not a string. */
function movesFor(fen: string): fc.Arbitrary<unknown[]> {
  const pos = new Position();
  try {
    pos.setFen(fen);
  } catch {
    pos.setFen(REAL_FENS[0]);
  }
  // A legal game from there: each move written in UCI or SAN.
  const line: string[][] = [];
  for (let ply = 0; ply < 12; ply++) {
    const n = generateMoves(pos, scratch, 0, false);
    if (n === 0) break;
    const move = scratch[(ply * 7) % n];
    line.push([moveToUci(pos, move), moveToSan(pos, move)]);
    pos.makeMove(move);
  }
  const written = line.flat();
  const corpus = written.length > 0 ? written : ['e4'];
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.nat(line.length), fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }))
        .map(([k, sans]) => line.slice(0, k).map((m, i) => m[sans[i] ? 1 : 0])),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.nat(line.length), mutated(corpus, MOVE_CHARS, ['O-O', 'e8=Q', '0000']))
        .map(([k, bad]) => [...line.slice(0, k).map((m) => m[0]), bad]),
    },
    { weight: 1, arbitrary: fc.array(randomText(MOVE_CHARS, corpus, 8), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.array(fc.oneof(fc.constantFrom(...corpus), fc.anything()), { maxLength: 4 }) },
  );
}

const fenText = fc.oneof(
  fc.constantFrom(...REAL_FENS, 'startpos', ' startpos ', 'STARTPOS'),
  playedFen,
  editedFen,
  mutated(REAL_FENS, CHESS_CHARS, FEN_TOKENS),
  randomText(CHESS_CHARS, FEN_TOKENS),
);

/** Anything a caller might pass as a PositionInput. */
const positionInput: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 2, arbitrary: fenText },
  {
    weight: 6,
    arbitrary: fenText.chain((fen) =>
      fc.record({ fen: fc.oneof(fc.constant(fen), fc.anything()), moves: fc.oneof(movesFor(fen), fc.anything()) }, { requiredKeys: [] }),
    ),
  },
  { weight: 1, arbitrary: fc.anything() },
);

/** Whether e is one of the errors the library documents for bad input. */
function documented(e: unknown): boolean {
  if (e instanceof InvalidFenError || e instanceof IllegalMoveError) return e.message.length > 0;
  return e instanceof TypeError && /^(a position must be|a FEN must be|a move must be|moves must be)/.test(e.message);
}

describe('library position readers', () => {
  it(
    'read a position or throw a documented error; the spec rebuilds the same position',
    () => {
      const worker = new Position();
      let read = 0;
      fc.assert(
        fc.property(positionInput, fc.boolean(), (input, chess960) => {
          let result: ReturnType<typeof readPosition>;
          try {
            result = readPosition(input as never, chess960);
          } catch (e) {
            if (!documented(e)) throw new Error(`readPosition(${fc.stringify(input)}) threw ${String(e)}`);
            return;
          }
          // Only a string, an object or nothing (the start position) reads.
          const shaped =
            input === null || input === undefined || typeof input === 'string' || (typeof input === 'object' && !Array.isArray(input));
          expect(shaped, `readPosition(${fc.stringify(input)}) read`).toBe(true);
          loadPosition(worker, result.spec);
          expect(worker.fen()).toBe(result.pos.fen());
          expect(worker.keyHex()).toBe(result.pos.keyHex());
          read++;
        }),
        fuzzParams(800),
      );
      expect(read).toBeGreaterThan(100);
    },
    FUZZ_TIMEOUT,
  );

  it(
    'validateFen never throws for a string, and its normal form is valid and stable',
    () => {
      fc.assert(
        fc.property(fenText, fc.boolean(), (fen, chess960) => {
          const result = validateFen(fen, { chess960 });
          if (!result.valid) {
            expect(result.reason.length).toBeGreaterThan(0);
            return;
          }
          expect(validateFen(result.fen, { chess960 })).toEqual({ valid: true, fen: result.fen });
        }),
        fuzzParams(2000),
      );
    },
    FUZZ_TIMEOUT,
  );
});
