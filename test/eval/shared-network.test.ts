// The threads of a parallel search share one copy of the network: its weights
// are in shared memory, a helper's evaluation crosses to another thread
// without a copy, and evaluators over regions of one WebAssembly memory
// give each the numbers of an evaluator of its own.

import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import {
  type ThreadEvaluation,
  applyNetworkChoice,
  embeddedNetwork,
  evaluate,
  evaluationForThreads,
  useThreadEvaluation,
} from '../../src/eval/index.js';
import { NnueEvaluator } from '../../src/eval/nnue/evaluator.js';
import { ALL_FENS } from './fixtures.js';

/** What another thread receives of `value` (a real message between ports: structured cloning, shared memory kept shared). */
async function sent<T>(value: T): Promise<T> {
  const { port1, port2 } = new MessageChannel();
  const received = new Promise<T>((resolve) => port2.once('message', (m: T) => resolve(m)));
  port1.postMessage(value);
  try {
    return await received;
  } finally {
    port1.close();
    port2.close();
  }
}

describe('the network shared by threads', () => {
  it('the built-in network is decoded into shared memory, read in place', () => {
    const { net } = embeddedNetwork();
    for (const part of [net.w1, net.b1, net.w2, net.b2]) expect(part.buffer).toBeInstanceOf(SharedArrayBuffer);
    // One buffer for all: the file's bytes themselves, not a copy per part.
    expect(new Set([net.w1.buffer, net.b1.buffer, net.w2.buffer, net.b2.buffer]).size).toBe(1);
    expect(embeddedNetwork().net).toBe(net);
  });

  it("a helper's evaluation crosses to another thread without copying the weights", async () => {
    applyNetworkChoice({ use: true, net: null });
    const evaluation = evaluationForThreads(8);
    expect(evaluation.net).toBe(embeddedNetwork().net);
    expect(evaluation.wasm).not.toBeNull();
    const wasm = evaluation.wasm!;
    expect(wasm.slots).toBe(8);
    expect(wasm.memory.buffer).toBeInstanceOf(SharedArrayBuffer);
    const received: ThreadEvaluation = await sent(evaluation);
    // The same memory on both sides: a word written on one side (past the weights, in the last region) is read on the other.
    const last = wasm.memory.buffer.byteLength - 4;
    new Int32Array(received.wasm!.memory.buffer)[last / 4] = 0x1234567;
    expect(new Int32Array(wasm.memory.buffer)[last / 4]).toBe(0x1234567);
    new Int32Array(wasm.memory.buffer)[last / 4] = 0;
    expect(received.net!.w1.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(received.wasm!.module).toBeInstanceOf(WebAssembly.Module);
  });

  it('evaluators over the regions of one shared memory, used in turn, each give the numbers of an evaluator of its own', () => {
    const { net } = embeddedNetwork();
    const own = new NnueEvaluator(net, 'ts');
    const shared = new NnueEvaluator(net).shareNetwork(3)!;
    const evaluators = [0, 1, 2].map((slot) => new NnueEvaluator(net, 'wasm', { wasm: shared, slot }));
    const positions = ALL_FENS.slice(0, 60).map((fen) => new Position(fen));
    for (let i = 0; i < positions.length; i++) {
      for (let k = 0; k < 3; k++) {
        const pos = positions[(i + k * 7) % positions.length];
        expect(evaluators[k].evaluate(pos)).toBe(own.evaluate(pos));
      }
    }
  });

  it('a thread evaluates as the evaluation it was given says', () => {
    const pos = new Position('r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4');
    applyNetworkChoice({ use: true, net: null });
    const expected = evaluate(pos);
    const evaluation = evaluationForThreads(2);
    applyNetworkChoice({ use: false, net: null });
    const handCrafted = evaluate(pos);
    useThreadEvaluation(evaluation, 1);
    expect(evaluate(pos)).toBe(expected);
    useThreadEvaluation({ net: null, wasm: null }, 0);
    expect(evaluate(pos)).toBe(handCrafted);
    applyNetworkChoice({ use: true, net: null });
    expect(evaluate(pos)).toBe(expected);
  });
});
