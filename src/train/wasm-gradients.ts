// The trainer's forward and backward pass in WebAssembly with SIMD
// (train-kernel.wat), for the worker threads: the same losses and gradients
// as lossAndGradients in nnue-model.ts (the reference, and the test oracle),
// to float32 rounding.
//
// The module's memory holds a copy of the weights, the worker's gradients,
// two accumulators and the row list of the position at hand. Each call
// copies the weights in and adds the gradients out: about a megabyte each
// way for H = 256, against some thousands of positions' work.

import { outputBucket } from '../eval/nnue/network.js';
import { MAX_FEATURES, type PositionSet, flipInput } from './nnue-data.js';
import { type LossSettings, type Shape, layoutOf, sigmoid, targetOf } from './nnue-model.js';
import { TRAIN_KERNEL_WASM_BASE64 } from './train-kernel-wasm.js';

interface Exports {
  setup(b1: number, accUs: number, accThem: number, rows: number, delta: number, h: number): void;
  forward(n: number, w2: number): number;
  backward(g: number, n: number, w2: number): void;
}

let compiled: WebAssembly.Module | null | undefined;

/** The compiled kernel, or null where WebAssembly SIMD is not available. */
function kernelModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(Uint8Array.from(atob(TRAIN_KERNEL_WASM_BASE64), (c) => c.charCodeAt(0)));
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** Whether the WebAssembly trainer can run here. */
export function wasmTrainerAvailable(): boolean {
  return kernelModule() !== null;
}

const align16 = (bytes: number): number => Math.ceil(bytes / 16) * 16;

export class WasmGradients {
  private readonly k: Exports;
  private readonly shape: Shape;
  private readonly params: Float32Array;
  private readonly grads: Float32Array;
  private readonly rows: Int32Array;

  constructor(shape: Shape) {
    const module = kernelModule();
    if (module === null) throw new Error('WebAssembly SIMD is not available');
    this.shape = shape;
    const size = layoutOf(shape).size;
    const h = shape.hidden;
    const gradsAt = align16(size * 4);
    const accUs = gradsAt + align16(size * 4);
    const accThem = accUs + h * 4;
    const rows = accThem + h * 4;
    const memory = new WebAssembly.Memory({ initial: Math.ceil((rows + 2 * MAX_FEATURES * 4) / 65536) });
    this.params = new Float32Array(memory.buffer, 0, size);
    this.grads = new Float32Array(memory.buffer, gradsAt, size);
    this.rows = new Int32Array(memory.buffer, rows, 2 * MAX_FEATURES);
    this.k = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as Exports;
    this.k.setup(layoutOf(shape).b1 * 4, accUs, accThem, rows, gradsAt, h);
  }

  /** As lossAndGradients (nnue-model.ts): adds the gradients of positions order[from..to) of set to grads (unless null) and returns their summed loss. */
  run(
    params: Float32Array,
    grads: Float32Array | null,
    set: PositionSet,
    order: Int32Array | null,
    from: number,
    to: number,
    loss: LossSettings,
  ): number {
    const { hidden: h, buckets } = this.shape;
    const l = layoutOf(this.shape);
    const rowBytes = h * 4;
    const features = set.features;
    const rows = this.rows;
    const k = this.k;
    this.params.set(params);
    if (grads !== null) this.grads.fill(0);
    let total = 0;
    for (let n = from; n < to; n++) {
      const p = order === null ? n : order[n];
      const side = set.sides[p];
      const base = p * MAX_FEATURES;
      const count = set.counts[p];
      for (let i = 0; i < count; i++) {
        const white = features[base + i];
        const black = flipInput(white);
        rows[i] = (side === 0 ? white : black) * rowBytes;
        rows[MAX_FEATURES + i] = (side === 0 ? black : white) * rowBytes;
      }
      const bucket = outputBucket(count, buckets);
      const w2 = (l.w2 + bucket * 2 * h) * 4;
      const prediction = sigmoid(k.forward(count, w2) + this.params[l.b2 + bucket]);
      const error = prediction - targetOf(set, p, loss);
      total += error * error;
      if (grads === null) continue;
      const g = 2 * error * prediction * (1 - prediction);
      this.grads[l.b2 + bucket] += g;
      k.backward(g, count, w2);
    }
    if (grads !== null) {
      const mine = this.grads;
      for (let i = 0; i < mine.length; i++) grads[i] += mine[i];
    }
    return total;
  }
}
