// The network's evaluation: incremental accumulators against a fresh
// computation, the WebAssembly kernel against the TypeScript one, colour
// symmetry, and the file format's checks.

import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES, isPromotion, moveFrom, moveKind, moveTo } from '../../src/board/types.js';
import { NnueEvaluator } from '../../src/eval/nnue/evaluator.js';
import {
  ACTIVATION_SCRELU,
  ACTIVATION_SCRELU_SQUARE_FIRST,
  KING_LAYOUTS,
  type KingBuckets,
  type Network,
  NetworkError,
  activationOf,
  decodeNetwork,
  encodeNetwork,
  inputCount,
  kingKey,
  outputCentipawns,
} from '../../src/eval/nnue/network.js';
import { evaluateReference } from '../../src/eval/nnue/reference.js';
import { laneSumsFit, wasmKernelFits } from '../../src/eval/nnue/wasm.js';
import { initParams, quantise } from '../../src/train/nnue-model.js';
import { ALL_FENS, PERFT_FENS, mirrorFen, rng } from './fixtures.js';

/** A network of random weights (as training starts), quantised: every input and neuron has some weight. */
function randomNetwork(hidden: number, buckets = 1, seed = 5, activation = ACTIVATION_SCRELU, kings: KingBuckets | null = null): Network {
  const shape = { hidden, buckets, kings };
  const params = new Float32Array(inputCount(kings) * hidden + hidden + buckets * 2 * hidden + buckets);
  initParams(shape, params, seed);
  // Larger weights than an initial network's, so that activations saturate too and clamping is tested.
  for (let i = 0; i < params.length; i++) params[i] *= 4;
  return quantise(shape, params, 255, 64, 400, activation);
}

const ACTIVATIONS = [ACTIVATION_SCRELU, ACTIVATION_SCRELU_SQUARE_FIRST];

const FRC = 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9';
/** Positions where an en-passant capture is possible at once. */
const EP = [
  'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3',
  'rnbqkbnr/pppp1ppp/8/8/3PpP2/8/PPP1P1PP/RNBQKBNR b KQkq f3 0 3',
  'rnbqkbnr/1pp1pppp/8/p2pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3',
  '8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1',
];

/** The cases of the incremental test: each kernel and activation without king buckets, and each kernel with two layouts of them. */
const INCREMENTAL_CASES = [
  ...ACTIVATIONS.flatMap((a) => (['ts', 'wasm'] as const).map((k) => [k, a, 'none'] as const)),
  ...(['ts', 'wasm'] as const).flatMap((k) =>
    (['4', 'mirror'] as const).map((layout) => [k, ACTIVATION_SCRELU_SQUARE_FIRST, layout] as const),
  ),
];

describe('NNUE evaluation', () => {
  for (const [kernel, activation, layout] of INCREMENTAL_CASES) {
    it(`${kernel}, activation ${activation}, king buckets ${layout}: incremental accumulators equal a fresh computation after every move of long random games`, () => {
      const kings = KING_LAYOUTS[layout];
      const net = randomNetwork(32, 3, 5, activation, kings);
      const evaluator = new NnueEvaluator(net, kernel);
      expect(evaluator.kernelName).toBe(kernel);
      const next = rng(2024);
      const moves = new Int32Array(MAX_MOVES);
      const seen = { kingside: 0, queenside: 0, chess960: 0, ep: 0, promoCapture: 0, nulls: 0, kingKeyChanges: 0 };
      for (const fen of [...PERFT_FENS, FRC, ...EP]) {
        const pos = new Position(fen);
        pos.chess960 = fen === FRC;
        for (let ply = 0; ply < 60; ply++) {
          const n = generateMoves(pos, moves, 0, false);
          if (n === 0) break;
          expect(evaluator.evaluate(pos)).toBe(evaluateReference(net, pos));
          // Now and then a null move (as the search makes), or a move back.
          if (!pos.inCheck() && next(10) === 0) {
            pos.makeNullMove();
            seen.nulls++;
            expect(evaluator.evaluate(pos)).toBe(evaluateReference(net, pos));
            pos.unmakeNullMove();
          }
          // Prefer the rare kinds of move so that each is met.
          let m = moves[next(n)];
          for (let i = 0; i < n; i++) {
            const k = moveKind(moves[i]);
            if (k === 2 || k === 3 || (isPromotion(moves[i]) && pos.board[(moves[i] >> 6) & 63] !== 0)) m = moves[i];
          }
          if (moveKind(m) === 2) {
            // Towards the h-file (the king's or rook's square, whichever the move names) is the king's side.
            if ((moveTo(m) & 7) > (moveFrom(m) & 7)) seen.kingside++;
            else seen.queenside++;
            if (pos.chess960) seen.chess960++;
          }
          if (moveKind(m) === 3) seen.ep++;
          if (isPromotion(m) && pos.board[(m >> 6) & 63] !== 0) seen.promoCapture++;
          const keys = [0, 1].map((side) => kingKey(kings, side, pos.kingSq[side]));
          pos.makeMove(m);
          for (const side of [0, 1]) if (kingKey(kings, side, pos.kingSq[side]) !== keys[side]) seen.kingKeyChanges++;
          if (next(8) === 0) {
            pos.unmakeMove();
            expect(evaluator.evaluate(pos)).toBe(evaluateReference(net, pos));
            pos.makeMove(m);
          }
        }
      }
      expect(seen.kingside).toBeGreaterThan(5);
      expect(seen.queenside).toBeGreaterThan(5);
      expect(seen.chess960).toBeGreaterThan(0);
      expect(seen.ep).toBeGreaterThan(3);
      expect(seen.promoCapture).toBeGreaterThan(3);
      expect(seen.nulls).toBeGreaterThan(50);
      // With king buckets, kings change bucket or mirroring often enough that the refreshes are tested.
      if (kings !== null) expect(seen.kingKeyChanges).toBeGreaterThan(20);
    });
  }

  it('the WebAssembly kernel gives exactly the TypeScript numbers on thousands of positions, at several sizes', () => {
    for (const [hidden, activation] of [8, 64, 256, 512].flatMap((h) => ACTIVATIONS.map((a) => [h, a]))) {
      const net = randomNetwork(hidden, 2, hidden, activation);
      expect(wasmKernelFits(net)).toBe(true);
      const ts = new NnueEvaluator(net, 'ts');
      const wasm = new NnueEvaluator(net, 'wasm');
      const pos = new Position();
      for (const fen of ALL_FENS) {
        pos.setFen(fen);
        expect(wasm.evaluate(pos)).toBe(ts.evaluate(pos));
      }
    }
  }, 120_000);

  it('the WebAssembly kernel is exact at the largest sums its int32 lanes allow, and is not used beyond them', () => {
    // Every neuron clamped at QA and every output weight at the limit: the largest sum a lane can get.
    const saturated = (hidden: number, activation: number, weight: number): Network => {
      const net = randomNetwork(hidden, 1, 7, activation);
      net.w1.fill(0);
      net.b1.fill(net.qa + 100);
      net.w2.fill(weight);
      return net;
    };
    for (const [hidden, activation, weight] of [
      [512, ACTIVATION_SCRELU, 128],
      [512, ACTIVATION_SCRELU, -128],
      [4096, ACTIVATION_SCRELU_SQUARE_FIRST, 4096],
      [4096, ACTIVATION_SCRELU_SQUARE_FIRST, -4096],
    ]) {
      const net = saturated(hidden, activation, weight);
      expect(wasmKernelFits(net)).toBe(true);
      const pos = new Position(ALL_FENS[0]);
      expect(new NnueEvaluator(net, 'wasm').evaluate(pos)).toBe(new NnueEvaluator(net, 'ts').evaluate(pos));
    }
    expect(wasmKernelFits(saturated(1024, ACTIVATION_SCRELU, 128))).toBe(false);
    expect(wasmKernelFits(saturated(1024, ACTIVATION_SCRELU, 64))).toBe(true);
    expect(laneSumsFit(520, ACTIVATION_SCRELU, 255, 128)).toBe(false);
  });

  for (const layout of ['none', '8'] as const) {
    it(`a colour-flipped position evaluates the same from the side to move (king buckets ${layout})`, () => {
      const net = randomNetwork(64, 1, 5, ACTIVATION_SCRELU, KING_LAYOUTS[layout]);
      const evaluator = new NnueEvaluator(net);
      let nonZero = 0;
      for (const fen of ALL_FENS) {
        const a = evaluator.evaluate(new Position(fen));
        expect(evaluator.evaluate(new Position(mirrorFen(fen)))).toBe(a);
        if (a !== 0) nonZero++;
      }
      expect(nonZero).toBeGreaterThan(ALL_FENS.length / 2);
    });
  }

  it('with mirroring king buckets, a position mirrored left to right (no castling rights) evaluates the same', () => {
    const net = randomNetwork(32, 2, 7, ACTIVATION_SCRELU, KING_LAYOUTS['4']);
    const evaluator = new NnueEvaluator(net);
    const fens = [
      '4k3/pp3ppp/2n5/3p4/3P4/2N5/PP3PPP/4K3 w - - 0 1',
      '6k1/5pp1/2b5/8/8/3Q4/6PP/1R4K1 b - - 0 1',
      'r6k/8/8/8/8/8/1P5P/K6R w - - 0 1',
    ];
    for (const fen of fens) {
      const [board, ...rest] = fen.split(' ');
      const mirrored = board
        .split('/')
        .map((rank) =>
          [...rank.replace(/\d/g, (d) => '.'.repeat(Number(d)))]
            .reverse()
            .join('')
            .replace(/\.+/g, (e) => String(e.length)),
        )
        .join('/');
      expect(evaluator.evaluate(new Position([mirrored, ...rest].join(' ')))).toBe(evaluator.evaluate(new Position(fen)));
    }
  });

  it('reads back what it writes, and refuses bad files with the reason', () => {
    const net = randomNetwork(16, 2);
    const bytes = encodeNetwork(net);
    expect(decodeNetwork(bytes)).toEqual(net);
    const bad = (b: Uint8Array, message: RegExp): void => {
      expect(() => decodeNetwork(b)).toThrow(NetworkError);
      expect(() => decodeNetwork(b)).toThrow(message);
    };
    bad(bytes.slice(0, 20), /too short/);
    bad(bytes.slice(0, bytes.length - 10), /wrong size.*truncated/);
    const magic = bytes.slice();
    magic[0] ^= 0xff;
    bad(magic, /bad magic/);
    const flipped = bytes.slice();
    flipped[100] ^= 1;
    bad(flipped, /bad checksum/);
    const arch = bytes.slice();
    new DataView(arch.buffer).setUint32(8, 640, true);
    bad(arch, /640 inputs/);
    const version = bytes.slice();
    new DataView(version.buffer).setUint32(4, 9, true);
    bad(version, /format version 9/);
    const activation = bytes.slice();
    new DataView(activation.buffer).setUint32(20, 3, true);
    bad(activation, /unsupported activation 3/);
    const squareFirst = randomNetwork(16, 2, 5, ACTIVATION_SCRELU_SQUARE_FIRST);
    expect(squareFirst.qb).toBe(1024);
    expect(decodeNetwork(encodeNetwork(squareFirst))).toEqual(squareFirst);
    // King buckets: format 2, the map in the payload, the mirroring in the flags.
    const kings = randomNetwork(16, 2, 5, ACTIVATION_SCRELU_SQUARE_FIRST, KING_LAYOUTS['8']);
    const kingBytes = encodeNetwork(kings);
    expect(new DataView(kingBytes.buffer).getUint32(4, true)).toBe(2);
    expect(new DataView(kingBytes.buffer).getUint32(8, true)).toBe(768 * 8);
    expect(decodeNetwork(kingBytes)).toEqual(kings);
    const kingArch = kingBytes.slice();
    new DataView(kingArch.buffer).setUint32(8, 768, true);
    bad(kingArch, /768 inputs.*6144 for 8 king bucket/);
  });
});

describe('the output arithmetic', () => {
  const net = { qa: 255, qb: 64, scale: 400, b2: Int32Array.of(0) } as Network;
  it('gives 0, never -0 (which V8 would box on the heap), for outputs between -1 and 0', () => {
    expect(Object.is(outputCentipawns(net, -100, 0), 0)).toBe(true);
    expect(outputCentipawns(net, -255 * 255 * 64 * 10, 0)).toBe(-400 * 10);
  });
  it('does not wrap around for sums beyond 2^31, which a file may hold', () => {
    expect(outputCentipawns(net, 2 ** 40, 0)).toBe(Math.trunc((Math.trunc(2 ** 40 / 255) * 400) / (255 * 64)));
  });
  it('activation 2 squares first, rounding to units of 256 / QA², and scales its sum back', () => {
    expect([0, 1, 11, 12, 255].map((v) => activationOf(ACTIVATION_SCRELU_SQUARE_FIRST, v))).toEqual([0, 0, 0, 1, 254]);
    expect(activationOf(ACTIVATION_SCRELU, 255)).toBe(65025);
    const squareFirst = { ...net, activation: ACTIVATION_SCRELU_SQUARE_FIRST } as Network;
    const plain = { ...net, activation: ACTIVATION_SCRELU } as Network;
    for (const sum of [-123457, -1, 0, 99, 254 * 64 * 300])
      expect(outputCentipawns(squareFirst, sum, 0)).toBe(outputCentipawns(plain, sum * 256, 0));
  });
});

describe('the WebAssembly kernel', () => {
  it('in the bundle is kernel.wat assembled (npm run build:wasm after editing the .wat)', async () => {
    const { readFileSync } = await import('node:fs');
    // @ts-expect-error: a plain JavaScript module without types
    const { assemble, sharedMemoryText } = await import('../../scripts/build-wasm.mjs');
    const { KERNEL_SHARED_WASM_BASE64, KERNEL_WASM_BASE64 } = await import('../../src/eval/nnue/kernel-wasm.js');
    const text = readFileSync(new URL('../../src/eval/nnue/kernel.wat', import.meta.url), 'utf8');
    const bytes: Buffer = await assemble(text);
    expect(bytes.toString('base64')).toBe(KERNEL_WASM_BASE64);
    // The search threads' variant: the same code over a memory shared between threads.
    const shared: Buffer = await assemble(sharedMemoryText(text));
    expect(shared.toString('base64')).toBe(KERNEL_SHARED_WASM_BASE64);
  });
});
