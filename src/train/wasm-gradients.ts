// The trainer's forward and backward pass in WebAssembly with SIMD
// (train-kernel.wat), for the worker threads: the same losses and gradients
// as ReferencePass in nnue-model.ts (the test oracle), to float32 rounding.
//
// The module's memory holds a copy of the weights, the worker's gradients,
// two accumulators and the row list of the position at hand. Each call
// copies the weights in and adds the gradients out: about a megabyte each
// way for H = 256, against some thousands of positions' work.

import { compileWasm } from '../eval/nnue/wasm.js';
import { MAX_FEATURES, type PositionSet, activeRows } from './nnue-data.js';
import { type GradientPass, type Layout, type LossSettings, type PositionPass, type Shape, layoutOf, passPositions } from './nnue-model.js';
import { TRAIN_KERNEL_WASM_BASE64 } from './train-kernel-wasm.js';

interface Exports {
  setup(b1: number, accUs: number, accThem: number, rows: number, delta: number, h: number): void;
  forward(n: number, w2: number): number;
  backward(g: number, n: number, w2: number): void;
}

/** Whether the WebAssembly trainer can run here. */
export function wasmTrainerAvailable(): boolean {
  return compileWasm(TRAIN_KERNEL_WASM_BASE64) !== null;
}

const align16 = (bytes: number): number => Math.ceil(bytes / 16) * 16;

export class WasmGradients implements PositionPass, GradientPass {
  private readonly k: Exports;
  private readonly shape: Shape;
  private readonly layout: Layout;
  private readonly params: Float32Array;
  private readonly grads: Float32Array;
  /** The row list the kernel reads: the side to move's rows, then (128 bytes on) the other side's. */
  private readonly rowsUs: Int32Array;
  private readonly rowsThem: Int32Array;
  private count = 0;

  constructor(shape: Shape) {
    const module = compileWasm(TRAIN_KERNEL_WASM_BASE64);
    if (module === null) throw new Error('WebAssembly SIMD is not available');
    // train-kernel.wat reads the other side's rows 128 bytes after the side to move's, and rows 16 bytes at a time.
    if (MAX_FEATURES !== 32 || shape.hidden % 4 !== 0)
      throw new Error('the WebAssembly trainer needs 32 input slots and a hidden size divisible by 4');
    this.shape = shape;
    this.layout = layoutOf(shape);
    const size = this.layout.size;
    const h = shape.hidden;
    const gradsAt = align16(size * 4);
    const accUs = gradsAt + align16(size * 4);
    const accThem = accUs + h * 4;
    const rows = accThem + h * 4;
    const memory = new WebAssembly.Memory({ initial: Math.ceil((rows + 2 * MAX_FEATURES * 4) / 65536) });
    this.params = new Float32Array(memory.buffer, 0, size);
    this.grads = new Float32Array(memory.buffer, gradsAt, size);
    this.rowsUs = new Int32Array(memory.buffer, rows, MAX_FEATURES);
    this.rowsThem = new Int32Array(memory.buffer, rows + MAX_FEATURES * 4, MAX_FEATURES);
    this.k = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as Exports;
    this.k.setup(this.layout.b1 * 4, accUs, accThem, rows, gradsAt, h);
  }

  forward(set: PositionSet, p: number, bucket: number): number {
    // Rows as byte offsets into the weights, which start at byte 0.
    this.count = activeRows(set, p, this.shape.hidden * 4, this.rowsUs, this.rowsThem, this.shape.kings ?? null);
    return this.k.forward(this.count, this.w2(bucket)) + this.params[this.layout.b2 + bucket];
  }

  backward(g: number, bucket: number): void {
    this.grads[this.layout.b2 + bucket] += g;
    this.k.backward(g, this.count, this.w2(bucket));
  }

  /** Byte offset of the bucket's output weights. */
  private w2(bucket: number): number {
    return (this.layout.w2 + bucket * 2 * this.shape.hidden) * 4;
  }

  /** As GradientPass says: the weights are copied in, the gradients added out. */
  run(
    params: Float32Array,
    grads: Float32Array | null,
    set: PositionSet,
    order: Int32Array | null,
    from: number,
    to: number,
    loss: LossSettings,
  ): number {
    this.params.set(params);
    if (grads !== null) this.grads.fill(0);
    const total = passPositions(this, this.shape.buckets, set, order, from, to, loss, grads !== null);
    if (grads !== null) {
      const mine = this.grads;
      for (let i = 0; i < mine.length; i++) grads[i] += mine[i];
    }
    return total;
  }
}
