// The trainer learns: on positions labelled by material alone, the
// validation loss falls well below its start, and the network it writes
// values a queen above a rook; quantise() gives the output weights as much
// precision as the kernel allows.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES, WHITE } from '../../src/board/types.js';
import { decodeNetwork, inputIndex } from '../../src/eval/nnue/network.js';
import { evaluateReference } from '../../src/eval/nnue/reference.js';
import { DEFAULT_FILTER, type LoadedData, MAX_FEATURES, type PositionSet, allocatePositions } from '../../src/train/nnue-data.js';
import { DEFAULT_TRAIN_SETTINGS, train } from '../../src/train/nnue-train.js';
import { initParams, layoutOf, quantise } from '../../src/train/nnue-model.js';
import { PERFT_FENS, rng } from '../eval/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'kestrel-train-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const VALUE = [0, 100, 300, 300, 500, 900, 0];

/** Positions of random walks, scored by material (White's view); the result follows the score's sign. */
function materialSet(count: number, seed: number): PositionSet {
  const set = allocatePositions(count);
  const next = rng(seed);
  const moves = new Int32Array(MAX_MOVES);
  let n = 0;
  while (n < count) {
    const pos = new Position(PERFT_FENS[next(PERFT_FENS.length)]);
    for (let ply = 0; ply < 40 && n < count; ply++) {
      const k = generateMoves(pos, moves, 0, false);
      if (k === 0) break;
      pos.makeMove(moves[next(k)]);
      let material = 0;
      let f = 0;
      for (let sq = 0; sq < 64; sq++) {
        const p = pos.board[sq];
        if (p === 0) continue;
        material += (p >> 3 === WHITE ? 1 : -1) * VALUE[p & 7];
        set.features[n * MAX_FEATURES + f++] = inputIndex(WHITE, p, sq);
      }
      set.counts[n] = f;
      set.sides[n] = pos.side;
      set.scores[n] = Math.max(-3000, Math.min(3000, material));
      set.results[n] = material > 150 ? 2 : material < -150 ? 0 : 1;
      n++;
    }
  }
  return set;
}

describe('kestrel train', () => {
  it('learns material: the validation loss falls well below its start, and a queen is worth more than a rook', async () => {
    const data: LoadedData = {
      train: materialSet(30000, 1),
      valid: materialSet(3000, 2),
      games: 0,
      read: 33000,
      inCheck: 0,
      noisy: 0,
      bigScore: 0,
      mirrored: 0,
    };
    const lines: string[] = [];
    const result = await train(
      {
        ...DEFAULT_TRAIN_SETTINGS,
        data: [],
        outDir: dir,
        hidden: 16,
        epochs: 6,
        batch: 1024,
        lr: 0.01,
        threads: 2,
        filter: DEFAULT_FILTER,
      },
      (l) => lines.push(l),
      () => {},
      data,
    );
    const start = Number(/epoch 0: validation loss ([\d.]+)/.exec(lines.join('\n'))?.[1]);
    const end = result.history[result.history.length - 1].valid;
    expect(end).toBeLessThan(start / 3);
    expect(result.quantisation.meanAbs).toBeLessThan(10);
    expect(result.quantisation.withinTolerance).toBe(true);
    expect(lines.join('\n')).toMatch(/max \d+ cp: within the tolerance \(mean 10 cp, max 50 cp\)/);
    // The written network, read back as the engine reads it.
    const net = decodeNetwork(new Uint8Array(readFileSync(result.file)));
    // White's extra piece on d4 (a pawn too can stand there), Black to move.
    const withPiece = (letter: string): number => -evaluateReference(net, new Position(`4k3/8/8/8/3${letter}4/8/8/4K3 b - - 0 1`));
    expect(withPiece('Q')).toBeGreaterThan(withPiece('R'));
    expect(withPiece('R')).toBeGreaterThan(withPiece('P'));
    expect(readFileSync(result.file.replace(/\.nnue$/, '.svg'), 'utf8')).toMatch(/^<svg .*validation loss/s);
  }, 120_000);
});

describe('quantise', () => {
  const shape = { hidden: 8, buckets: 1 };
  const layout = layoutOf(shape);
  /** Random starting weights, output weights scaled by `w2Scale`, and one output weight set to `w2`. */
  function paramsWith(w2: number, w2Scale = 1): Float32Array {
    const params = new Float32Array(layout.size);
    initParams(shape, params, 7);
    for (let i = layout.w2; i < layout.b2; i++) params[i] *= w2Scale;
    params[layout.w2 + 3] = w2;
    return params;
  }

  it('scales the output weights by the largest QB that keeps them within ±127, powers of two or not', () => {
    const net = quantise(shape, paramsWith(-1.3885), 255, 64, 400);
    expect(net.qb).toBe(91);
    expect(Math.max(...Array.from(net.w2, Math.abs))).toBe(126);
  });

  it('keeps QB within [the minimum, 1024]', () => {
    expect(quantise(shape, paramsWith(-0.013885, 0.01), 255, 64, 400).qb).toBe(1024);
    expect(quantise(shape, paramsWith(1.98), 255, 64, 400).qb).toBe(64);
  });
});
