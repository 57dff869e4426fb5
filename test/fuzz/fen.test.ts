// FEN by machine: random and mutated FENs either set the position or are
// refused with a FenError (the position kept as it was), and every position
// accepted prints a FEN that reads back to the same position: same FEN, same
// Zobrist key, same legal moves, each of which survives UCI and SAN and
// make/unmake.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { FenError, Position } from '../../src/board/position.js';
import { moveToSan, parseSan } from '../../src/board/san.js';
import { MAX_MOVES } from '../../src/board/types.js';
import {
  CHESS_CHARS,
  FEN_TOKENS,
  FUZZ_TIMEOUT,
  REAL_FENS,
  editedFen,
  fuzzParams,
  mutated,
  playedFen,
  randomFen,
  randomText,
} from './inputs.js';

const moves = new Int32Array(MAX_MOVES);
/** The largest move counter a FEN may give (position.ts). */
const MAX_COUNTER = 2 ** 30;

function legal(pos: Position): number[] {
  return Array.from(moves.subarray(0, generateMoves(pos, moves, 0, false)));
}

/** Sets fen on pos; returns whether it was accepted, failing on anything but a FenError (and on a changed position after one). */
function trySetFen(pos: Position, fen: string): boolean {
  const before = pos.fen();
  const key = pos.keyHex();
  try {
    pos.setFen(fen);
    return true;
  } catch (e) {
    if (!(e instanceof FenError)) throw new Error(`setFen(${JSON.stringify(fen)}) threw ${String(e)}`);
    expect(e.message.length).toBeGreaterThan(0);
    expect(pos.fen()).toBe(before);
    expect(pos.keyHex()).toBe(key);
    return false;
  }
}

/** The round trip and the move checks on an accepted position. */
function checkPosition(pos: Position): void {
  const fen = pos.fen();
  const again = new Position();
  again.chess960 = pos.chess960;
  again.setFen(fen);
  expect(again.fen()).toBe(fen);
  expect(again.keyHex()).toBe(pos.keyHex());
  const [lo, hi] = pos.computeKey();
  expect([lo, hi]).toEqual([pos.keyLo, pos.keyHi]);
  const list = legal(pos);
  expect(legal(again)).toEqual(list);

  for (const move of list) {
    const uci = moveToUci(pos, move);
    expect(parseUciMove(pos, uci), uci).toBe(move);
    const san = moveToSan(pos, move);
    expect(parseSan(pos, san), `${san} in ${fen}`).toBe(move);
    pos.makeMove(move);
    const [l, h] = pos.computeKey();
    expect([l, h], `key after ${uci} in ${fen}`).toEqual([pos.keyLo, pos.keyHi]);
    // The position after the move prints a FEN that reads back as well,
    // unless the move took a counter past what a FEN may give.
    const after = pos.fen();
    if (pos.halfmove <= MAX_COUNTER && pos.fullmove <= MAX_COUNTER) {
      again.setFen(after);
      expect(again.fen()).toBe(after);
      expect(again.keyHex()).toBe(pos.keyHex());
    }
    pos.unmakeMove();
    expect(pos.fen()).toBe(fen);
  }
}

/** Anything: mutated real FENs, edited ones, random boards, random text. */
const fenInputs = fc.oneof(
  { weight: 3, arbitrary: mutated(REAL_FENS, CHESS_CHARS, FEN_TOKENS) },
  { weight: 3, arbitrary: editedFen },
  { weight: 2, arbitrary: randomFen },
  { weight: 1, arbitrary: randomText(CHESS_CHARS, FEN_TOKENS) },
);

/** Mostly positions that parse: edited FENs and random play from real and edited ones. */
const positionInputs = fc.oneof({ weight: 2, arbitrary: editedFen }, { weight: 1, arbitrary: playedFen });

describe('FEN fuzzing', () => {
  it(
    'accepts or refuses with a FenError, keeping the old position',
    () => {
      const pos = new Position();
      fc.assert(
        fc.property(fenInputs, fc.boolean(), (fen, chess960) => {
          pos.chess960 = chess960;
          trySetFen(pos, fen);
        }),
        fuzzParams(20000),
      );
    },
    FUZZ_TIMEOUT,
  );

  it(
    'every FEN accepted reads back to the same position, key and legal moves',
    () => {
      const pos = new Position();
      let accepted = 0;
      fc.assert(
        fc.property(positionInputs, fc.boolean(), (fen, chess960) => {
          pos.chess960 = chess960;
          if (!trySetFen(pos, fen)) return;
          accepted++;
          checkPosition(pos);
        }),
        fuzzParams(800),
      );
      // The inputs are not all refused: the property saw many real positions.
      expect(accepted).toBeGreaterThan(200);
    },
    FUZZ_TIMEOUT,
  );
});
