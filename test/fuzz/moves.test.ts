// SAN and UCI moves by machine: in positions from real FENs and random play,
// mutated moves and random text either read as a legal move of the position
// or are refused with a MoveError, and the position is left as it was.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { MoveError, moveToUci, parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { moveToSan, parseSan } from '../../src/board/san.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { FUZZ_TIMEOUT, REAL_FENS, fuzzParams, mutated, playedFen, randomText } from './inputs.js';

const scratch = new Int32Array(MAX_MOVES);

function legal(pos: Position): number[] {
  return Array.from(scratch.subarray(0, generateMoves(pos, scratch, 0, false)));
}

const MOVE_CHARS: readonly string[] = [...'NBRQKPnbrqkpabcdefgh12345678xX:-=+#!?O0o eEpP.'];
const MOVE_TOKENS: readonly string[] = [
  'O-O',
  'O-O-O',
  '0-0',
  'e.p.',
  'ep',
  '=Q',
  '+',
  '#',
  '!?',
  'e2e4',
  'e7e8q',
  'Nf3',
  'exd6',
  '0000',
  '--',
];

/** A position (random play from a real FEN), as FEN and chess960 flag, and move texts written for it. */
const caseArb = fc.tuple(fc.oneof(fc.constantFrom(...REAL_FENS), playedFen), fc.boolean()).chain(([fen, chess960]) => {
  const pos = new Position();
  pos.chess960 = chess960;
  pos.setFen(fen);
  const written = legal(pos).flatMap((m) => [moveToSan(pos, m), moveToUci(pos, m)]);
  const corpus = written.length > 0 ? written : ['e4', 'e2e4', 'O-O'];
  return fc.record({
    fen: fc.constant(fen),
    chess960: fc.constant(chess960),
    texts: fc.array(
      fc.oneof(
        { weight: 1, arbitrary: fc.constantFrom(...corpus) },
        { weight: 4, arbitrary: mutated(corpus, MOVE_CHARS, MOVE_TOKENS) },
        {
          weight: 2,
          arbitrary: randomText(MOVE_CHARS, MOVE_TOKENS, 12),
        },
      ),
      { minLength: 1, maxLength: 20 },
    ),
  });
});

/** Reads text with parse; the result must be a legal move of pos, or a MoveError; pos must not change. */
function check(pos: Position, text: string, parse: (pos: Position, text: string) => number): void {
  const fen = pos.fen();
  const key = pos.keyHex();
  const moves = legal(pos);
  try {
    const move = parse(pos, text);
    expect(moves, `${JSON.stringify(text)} in ${fen}`).toContain(move);
  } catch (e) {
    if (!(e instanceof MoveError)) throw new Error(`${parse.name}(${JSON.stringify(text)}) in ${fen} threw ${String(e)}`);
    expect(e.message.length).toBeGreaterThan(0);
  }
  expect(pos.fen()).toBe(fen);
  expect(pos.keyHex()).toBe(key);
}

describe('move text fuzzing', () => {
  it(
    'SAN and UCI readers return a legal move or throw a MoveError',
    () => {
      const pos = new Position();
      fc.assert(
        fc.property(caseArb, ({ fen, chess960, texts }) => {
          pos.chess960 = chess960;
          pos.setFen(fen);
          for (const text of texts) {
            check(pos, text, parseSan);
            check(pos, text, parseUciMove);
          }
        }),
        fuzzParams(300),
      );
    },
    FUZZ_TIMEOUT,
  );

  it(
    'reads every legal move back from its SAN with the marks PGN files add',
    () => {
      const pos = new Position();
      fc.assert(
        fc.property(playedFen, fc.boolean(), fc.constantFrom('', '+', '#', '!', '?!', '!!', ' '), (fen, chess960, mark) => {
          pos.chess960 = chess960;
          pos.setFen(fen);
          for (const move of legal(pos)) {
            const san = moveToSan(pos, move);
            expect(parseSan(pos, san.replace(/[+#]$/, '') + mark), `${san}${mark} in ${fen}`).toBe(move);
            expect(
              parseUciMove(
                pos,
                moveToUci(pos, move)
                  .toUpperCase()
                  .replace(/^(..)(..)/, (s) => s.toLowerCase()),
              ),
            ).toBe(move);
          }
        }),
        fuzzParams(300),
      );
    },
    FUZZ_TIMEOUT,
  );
});
