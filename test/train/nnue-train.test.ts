// The trainer learns (with either kernel): on positions labelled by material
// alone, the validation loss falls well below its start, and the network it
// writes values a queen above a rook; the WebAssembly kernel gives the
// TypeScript reference's losses and gradients; quantise() gives the output
// weights as much precision as the engine's kernel allows, and dequantise()
// undoes it, so that training can start from a network file (--init), which
// a wider network takes in unchanged (widen).

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES, WHITE } from '../../src/board/types.js';
import { KING_LAYOUTS, decodeNetwork, encodeNetwork } from '../../src/eval/nnue/network.js';
import { evaluateReference } from '../../src/eval/nnue/reference.js';
import { DEFAULT_FILTER, type LoadedData, type PositionSet, allocatePositions, putPosition } from '../../src/train/nnue-data.js';
import { DEFAULT_TRAIN_SETTINGS, train } from '../../src/train/nnue-train.js';
import { ReferencePass, dequantise, initParams, layoutOf, quantise, widen } from '../../src/train/nnue-model.js';
import { WasmGradients } from '../../src/train/wasm-gradients.js';
import { PERFT_FENS, rng } from '../eval/fixtures.js';
import { scratchDir } from '../scratch.js';

const dir = scratchDir('kestrel-train-');

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
      for (let sq = 0; sq < 64; sq++) {
        const p = pos.board[sq];
        if (p !== 0) material += (p >> 3 === WHITE ? 1 : -1) * VALUE[p & 7];
      }
      const result = material > 150 ? 2 : material < -150 ? 0 : 1;
      putPosition(set, n++, pos.board, pos.side, result, Math.max(-3000, Math.min(3000, material)));
    }
  }
  return set;
}

/** Training and validation sets of materialSet, as the trainer's loader would give them. */
function materialData(trainCount: number, trainSeed: number, validCount: number, validSeed: number): LoadedData {
  const train = materialSet(trainCount, trainSeed);
  const valid = materialSet(validCount, validSeed);
  return { train, valid, games: 0, read: trainCount + validCount, inCheck: 0, noisy: 0, bigScore: 0, mirrored: 0 };
}

describe('kestrel train', () => {
  it.each(['wasm', 'ts'] as const)(
    '%s: learns material: the validation loss falls well below its start, and a queen is worth more than a rook',
    async (kernel) => {
      const data = materialData(30000, 1, 3000, 2);
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
          kernel,
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
    },
    120_000,
  );

  it('starts from a network file (--init x.nnue): its weights turned back into floats', async () => {
    const shape = { hidden: 16, buckets: 2 };
    const start = new Float32Array(layoutOf(shape).size);
    initParams(shape, start, 11);
    const net = quantise(shape, start, 255, 64, 400);
    const file = join(dir, 'start.nnue');
    writeFileSync(file, encodeNetwork(net));
    const data = materialData(2000, 3, 500, 4);
    const settings = {
      ...DEFAULT_TRAIN_SETTINGS,
      data: [],
      outDir: dir,
      ...shape,
      epochs: 1,
      batch: 512,
      lr: 0,
      threads: 1,
      filter: DEFAULT_FILTER,
    };
    // With a learning rate of 0 the weights written are the ones it started from.
    const result = await train(
      { ...settings, init: file },
      () => {},
      () => {},
      data,
    );
    const written = new Float32Array(new Uint8Array(readFileSync(result.file.replace(/\.nnue$/, '.f32'))).buffer);
    expect(Array.from(written)).toEqual(Array.from(dequantise(net, 400)));
    await expect(
      train(
        { ...settings, hidden: 8, init: file },
        () => {},
        () => {},
        data,
      ),
    ).rejects.toThrow(/start\.nnue is a 768 -> 2x16 -> 2 network; --hidden and --buckets ask for 768 -> 2x8 -> 2/);
  });

  it('widens a narrower network: the wider one evaluates every position exactly as it did', async () => {
    const shape = { hidden: 16, buckets: 2 };
    const wide = { hidden: 40, buckets: 2 };
    const narrow = new Float32Array(layoutOf(shape).size);
    initParams(shape, narrow, 12);
    const widened = widen(narrow, shape, wide, 13);
    const set = materialSet(300, 6);
    const small = new ReferencePass(shape);
    const large = new ReferencePass(wide);
    for (let p = 0; p < set.count; p++) expect(large.evaluate(widened, set, p)).toBeCloseTo(small.evaluate(narrow, set, p), 5);
    // The new neurons are live (their accumulators are not zero), so training can move their output weights.
    const l = layoutOf(wide);
    expect(widened[l.b1 + 20]).toBeGreaterThan(0);
    expect(widened[l.w1 + 5 * 40 + 30]).not.toBe(0);
    expect(widened[l.w2 + 40 + 3]).toBe(narrow[layoutOf(shape).w2 + 16 + 3]);
    expect(() => widen(narrow, shape, { hidden: 8, buckets: 2 }, 1)).toThrow(/cannot widen/);
  });
});

/** A FEN's position mirrored left to right (files a-h swapped; castling rights dropped). */
function mirrorFiles(fen: string): string {
  const [board, side, , ep, ...rest] = fen.split(' ');
  const ranks = board.split('/').map((rank) =>
    [...rank.replace(/\d/g, (d) => '.'.repeat(Number(d)))]
      .reverse()
      .join('')
      .replace(/\.+/g, (e) => String(e.length)),
  );
  const mirroredEp = ep === '-' ? '-' : String.fromCharCode(201 - ep.charCodeAt(0)) + ep[1];
  return [ranks.join('/'), side, '-', mirroredEp, ...rest].join(' ');
}

describe('king buckets in training', () => {
  it("the trainer's inputs are the engine's: the float network and the file it is quantised to agree on positions and their mirror images", () => {
    const kings = KING_LAYOUTS['4'];
    const shape = { hidden: 16, buckets: 2, kings };
    const params = new Float32Array(layoutOf(shape).size);
    initParams(shape, params, 21);
    for (let i = 0; i < params.length; i++) params[i] *= 3;
    const net = quantise(shape, params, 255, 64, 400);
    const float = dequantise(net, 400);
    const fens: string[] = [];
    const next = rng(77);
    const moves = new Int32Array(MAX_MOVES);
    for (const fen of PERFT_FENS) {
      const pos = new Position(fen);
      for (let ply = 0; ply < 30; ply++) {
        const k = generateMoves(pos, moves, 0, false);
        if (k === 0) break;
        pos.makeMove(moves[next(k)]);
        fens.push(pos.fen());
      }
    }
    const set = allocatePositions(fens.length);
    fens.forEach((fen, i) => {
      const pos = new Position(fen);
      putPosition(set, i, pos.board, pos.side, 1, 0);
    });
    const pass = new ReferencePass(shape);
    let worst = 0;
    let kingsAway = 0;
    fens.forEach((fen, i) => {
      const pos = new Position(fen);
      if ((pos.kingSq[0] & 7) >= 4 || (pos.kingSq[1] & 7) >= 4) kingsAway++;
      for (const [mirrored, engineFen] of [
        [0, fen],
        [1, mirrorFiles(fen)],
      ] as const) {
        set.entries[i] = i * 2 + mirrored;
        const trainer = pass.evaluate(float, set, i) * 400;
        worst = Math.max(worst, Math.abs(trainer - evaluateReference(net, new Position(engineFen))));
      }
    });
    expect(kingsAway).toBeGreaterThan(50);
    // The integer network rounds its activations: a few centipawns at most.
    expect(worst).toBeLessThan(3);
  });

  it('a network with king buckets learns material, and its file keeps the layout', async () => {
    const data = materialData(20000, 1, 2000, 2);
    const lines: string[] = [];
    const result = await train(
      {
        ...DEFAULT_TRAIN_SETTINGS,
        data: [],
        outDir: dir,
        hidden: 16,
        kings: KING_LAYOUTS['4'],
        epochs: 4,
        batch: 1024,
        lr: 0.01,
        threads: 2,
      },
      (l) => lines.push(l),
      () => {},
      data,
    );
    const start = Number(/epoch 0: validation loss ([\d.]+)/.exec(lines.join('\n'))?.[1]);
    expect(result.history[result.history.length - 1].valid).toBeLessThan(start / 2);
    expect(result.quantisation.withinTolerance).toBe(true);
    const net = decodeNetwork(new Uint8Array(readFileSync(result.file)));
    expect(net.kings).toEqual(KING_LAYOUTS['4']);
    const record = JSON.parse(readFileSync(result.file.replace(/\.nnue$/, '.json'), 'utf8'));
    expect(record.settings.kings).toMatchObject({ count: 4, mirror: true });
  }, 120_000);

  it('learns the buckets factored: from scratch every bucket starts with the same weights, a shared factor', async () => {
    const data = materialData(2000, 3, 500, 4);
    const kings = KING_LAYOUTS['4'];
    const shape = { hidden: 8, buckets: 1, kings };
    const result = await train(
      { ...DEFAULT_TRAIN_SETTINGS, data: [], outDir: dir, ...shape, epochs: 1, batch: 512, lr: 0, threads: 1 },
      () => {},
      () => {},
      data,
    );
    const written = new Float32Array(new Uint8Array(readFileSync(result.file.replace(/\.nnue$/, '.f32'))).buffer);
    const block = 768 * 8;
    const first = Array.from(written.subarray(0, block));
    expect(first.some((w) => w !== 0)).toBe(true);
    for (let b = 1; b < 4; b++) expect(Array.from(written.subarray(b * block, (b + 1) * block))).toEqual(first);
    // Its .f32 names no layout itself; the record beside it does, and another layout is refused.
    await expect(
      train(
        {
          ...DEFAULT_TRAIN_SETTINGS,
          data: [],
          outDir: dir,
          hidden: 8,
          buckets: 1,
          kings: KING_LAYOUTS['8'],
          epochs: 1,
          threads: 1,
          init: result.file.replace(/\.nnue$/, '.f32'),
        },
        () => {},
        () => {},
        data,
      ),
    ).rejects.toThrow(/768x4m -> 2x8 -> 1 network \(its \.json record\); --king-buckets asks for 768x8m -> 2x8 -> 1/);
  });
});

describe('the WebAssembly training kernel', () => {
  for (const shape of [
    { hidden: 32, buckets: 3 },
    { hidden: 64, buckets: 1 },
    { hidden: 32, buckets: 2, kings: KING_LAYOUTS['8'] },
  ]) {
    it(`gives the reference's loss and gradients to float32 rounding (2x${shape.hidden}, ${shape.buckets} buckets, ${shape.kings ? 'king buckets' : 'no king buckets'})`, () => {
      const set = materialSet(3000, 5);
      const size = layoutOf(shape).size;
      const params = new Float32Array(size);
      initParams(shape, params, 3);
      // Larger than initial weights, so that activations saturate and clamping is tested too.
      for (let i = 0; i < size; i++) params[i] *= 3;
      const order = new Int32Array(set.count).map((_, i) => (i * 7919) % set.count);
      const loss = { wdl: 0.3, scale: 400, sigmoidScale: 250 };
      const expected = new Float32Array(size);
      const reference = new ReferencePass(shape).run(params, expected, set, order, 100, 2900, loss);
      const wasm = new WasmGradients(shape);
      const actual = new Float32Array(size).fill(1);
      const got = wasm.run(params, actual, set, order, 100, 2900, loss);
      expect(Math.abs(got - reference)).toBeLessThan(1e-6 * reference);
      // Added to what grads held (here 1 everywhere).
      let largest = 0;
      let worst = 0;
      for (let i = 0; i < size; i++) {
        largest = Math.max(largest, Math.abs(expected[i]));
        worst = Math.max(worst, Math.abs(actual[i] - 1 - expected[i]));
      }
      expect(largest).toBeGreaterThan(1);
      expect(worst).toBeLessThanOrEqual(1e-6 * largest + 1e-6);
      // The loss alone, without gradients, is the same loss.
      expect(wasm.run(params, null, set, order, 100, 2900, loss)).toBe(got);
    });
  }

  it('differentiates the loss with a sigmoid scale of its own: the gradient of each output bias matches a finite difference', () => {
    const shape = { hidden: 16, buckets: 2 };
    const set = materialSet(500, 7);
    const l = layoutOf(shape);
    const params = new Float64Array(l.size);
    const p32 = new Float32Array(l.size);
    initParams(shape, p32, 5);
    params.set(p32);
    const loss = { wdl: 0.5, scale: 400, sigmoidScale: 180 };
    const pass = new ReferencePass(shape);
    const grads = new Float32Array(l.size);
    pass.run(Float32Array.from(params), grads, set, null, 0, set.count, loss);
    for (let b = 0; b < shape.buckets; b++) {
      const i = l.b2 + b;
      const eps = 1e-3;
      const at = (delta: number): number => {
        const q = Float32Array.from(params);
        q[i] += delta;
        return pass.run(q, null, set, null, 0, set.count, loss);
      };
      const numeric = (at(eps) - at(-eps)) / (2 * eps);
      expect(Math.abs(grads[i] - numeric)).toBeLessThan(1e-3 * Math.max(1, Math.abs(numeric)));
    }
  });

  it('in the bundle is train-kernel.wat assembled (npm run build:wasm after editing the .wat)', async () => {
    // @ts-expect-error: a plain JavaScript module without types
    const { assemble } = await import('../../scripts/build-wasm.mjs');
    const { TRAIN_KERNEL_WASM_BASE64 } = await import('../../src/train/train-kernel-wasm.js');
    const text = readFileSync(new URL('../../src/train/train-kernel.wat', import.meta.url), 'utf8');
    const bytes: Buffer = await assemble(text);
    expect(bytes.toString('base64')).toBe(TRAIN_KERNEL_WASM_BASE64);
  });
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

  it('is undone by dequantise to half a step, and dequantise rescales the output to another centipawn scale', () => {
    const params = paramsWith(-1.3885);
    const net = quantise(shape, params, 255, 64, 400);
    const back = dequantise(net, 400);
    const step = (i: number): number => (i < layout.w2 ? 1 / 255 : i < layout.b2 ? 1 / net.qb : 1 / (255 * net.qb));
    for (let i = 0; i < layout.size; i++) expect(Math.abs(back[i] - params[i])).toBeLessThanOrEqual(step(i) / 2 + 1e-6);
    const half = dequantise(net, 200);
    for (let i = layout.w2; i < layout.size; i++) expect(half[i]).toBeCloseTo(2 * back[i], 6);
    for (let i = 0; i < layout.w2; i++) expect(half[i]).toBe(back[i]);
  });

  it('keeps QB within [the minimum, 1024]', () => {
    expect(quantise(shape, paramsWith(-0.013885, 0.01), 255, 64, 400).qb).toBe(1024);
    expect(quantise(shape, paramsWith(1.98), 255, 64, 400).qb).toBe(64);
  });
});
