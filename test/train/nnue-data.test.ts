// The trainer's loader: filters, and the left-right mirror augmentation.

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import {
  DEFAULT_FILTER,
  MAX_FEATURES,
  type PositionSet,
  isValidationGame,
  loadPositions,
  readDataFile,
  readGameSource,
  storedOf,
  whiteInputs,
} from '../../src/train/nnue-data.js';
import { RESULT_DRAW, encodeGame } from '../../src/train/viriformat.js';
import { scratchDir } from '../scratch.js';

/** A viriformat file of one game from `fen` with these moves, scored 10 cp unless `scores` says otherwise. */
function gameFile(fen: string, uci: string[], scores = uci.map(() => 10)): string {
  const pos = new Position(fen);
  const moves = uci.map((u) => {
    const m = parseUciMove(pos, u);
    pos.makeMove(m);
    return m;
  });
  const file = join(scratchDir('kestrel-data-'), 'game.vf');
  writeFileSync(file, encodeGame(new Position(fen), RESULT_DRAW, moves, scores, uci.length));
  return file;
}

function features(set: PositionSet, i: number): number[] {
  const out = new Int32Array(MAX_FEATURES);
  return [...out.subarray(0, whiteInputs(set, i, out))].sort((a, b) => a - b);
}

describe('loadPositions', () => {
  // Game 0 of a load goes to the training set at 1% validation.
  it('is set up with a training game', () => expect(isValidationGame(0, 1)).toBe(false));

  it('leaves out positions in check, positions whose move captures or promotes, and huge scores', () => {
    const file = gameFile(
      '4k3/8/8/8/8/p7/1P6/R3K3 w - - 0 1',
      // A quiet move scored beyond 3,000 cp; a quiet move; a capture; a quiet move; a check; the reply out of it.
      ['b2b3', 'e8d7', 'a1a3', 'd7e6', 'a3a6', 'e6e5'],
      [5000, 10, 10, 10, 10, 10],
    );
    const data = loadPositions([file], DEFAULT_FILTER, 1);
    expect(data.read).toBe(6);
    expect([data.bigScore, data.noisy, data.inCheck]).toEqual([1, 1, 1]);
    expect(data.train.count).toBe(3);
    const none = loadPositions([file], { ...DEFAULT_FILTER, skipInCheck: false, skipNoisy: false, maxScore: 10_000 }, 1);
    expect(none.train.count).toBe(6);
  });

  it('adds the mirror image of each position without castling rights, and only with --mirror', () => {
    const file = gameFile('4k3/8/8/8/8/8/1P6/R3K3 w - - 0 1', ['b2b3', 'e8d7', 'a1a7']);
    const plain = loadPositions([file], DEFAULT_FILTER, 1);
    expect(plain.train.count).toBe(3);
    expect(plain.mirrored).toBe(0);
    const mirrored = loadPositions([file], { ...DEFAULT_FILTER, mirror: true }, 1);
    expect(mirrored.train.count).toBe(6);
    expect(mirrored.mirrored).toBe(3);
    for (let i = 0; i < 3; i++) {
      const original = features(mirrored.train, 2 * i);
      expect(original).toEqual(features(plain.train, i));
      // Same piece, square with its file flipped (index & 63 is the square from White's side).
      const flipped = original.map((f) => (f & ~63) | ((f & 63) ^ 7)).sort((a, b) => a - b);
      expect(features(mirrored.train, 2 * i + 1)).toEqual(flipped);
      // The mirror image is the same stored position, read with its files swapped.
      expect(storedOf(mirrored.train, 2 * i + 1)).toBe(storedOf(mirrored.train, 2 * i));
    }
  });

  it('leaves positions with castling rights as they are', () => {
    const file = gameFile('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', ['e1d1', 'e8d8', 'a1a2']);
    // After e1d1 White has no rights, but Black keeps kq until e8d8: only the last position is rights-free.
    const data = loadPositions([file], { ...DEFAULT_FILTER, mirror: true }, 1);
    expect(data.mirrored).toBe(1);
    expect(data.train.count).toBe(4);
  });
});

describe('readDataFile', () => {
  const file = gameFile('4k3/8/8/8/8/8/1P6/R3K3 w - - 0 1', ['b2b3', 'e8d7']);
  const bytes = readFileSync(file);

  it('reads .gz files unpacked', () => {
    writeFileSync(`${file}.gz`, gzipSync(bytes));
    expect(Buffer.from(readDataFile(`${file}.gz`)).equals(bytes)).toBe(true);
  });

  it('reads .xz files unpacked (where the xz program is installed)', () => {
    try {
      execFileSync('xz', ['-k', file]);
    } catch {
      return; // no xz here: readDataFile says so in its error
    }
    expect(Buffer.from(readDataFile(`${file}.xz`)).equals(bytes)).toBe(true);
  });

  it('names a missing file', () => {
    expect(() => readDataFile(join(tmpdir(), 'no-such-kestrel-data.vf.xz'))).toThrow(/no-such-kestrel-data/);
  });
});

describe('readGameSource', () => {
  const file = gameFile('4k3/8/8/8/8/8/1P6/R3K3 w - - 0 1', ['b2b3', 'e8d7']);
  const bytes = readFileSync(file);
  const dir = scratchDir('kestrel-source-');

  it('reads games, and a half-written game after them', () => {
    expect(readGameSource(file).index.plies).toEqual([2]);
    const torn = join(dir, 'torn.vf');
    writeFileSync(torn, Buffer.concat([bytes, bytes.subarray(0, bytes.length - 4)]));
    expect(readGameSource(torn).index.plies).toEqual([2]);
  });

  it('rejects what is not viriformat games, or has junk after them', () => {
    const junk = join(dir, 'junk.vf');
    writeFileSync(junk, Buffer.concat([bytes, Buffer.alloc(40, 0xff)]));
    expect(() => readGameSource(junk)).toThrow(
      `junk.vf is not viriformat training data (no valid starting position at byte ${bytes.length} (`,
    );
    const huge = join(dir, 'huge.vf');
    writeFileSync(huge, Buffer.concat([bytes, Buffer.alloc(70_000, 1)]));
    expect(() => readGameSource(huge)).toThrow(/huge\.vf is not viriformat training data \(70000 bytes after the last complete game/);
  });

  it('says what a store is when given a folder that is not one', () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    expect(() => readGameSource(empty)).toThrow(/empty is an empty folder: neither a data store \(a folder whose README\.md is a manifest/);
    expect(() => readGameSource(dir)).toThrow(/is a folder without a README\.md: neither a data store/);
  });

  it('names a missing file', () => {
    expect(() => readGameSource(join(dir, 'none.vf'))).toThrow(/^cannot read .*none\.vf: no such file$/);
  });
});
