// The network's kernel in WebAssembly with SIMD (kernel.wat): the weights
// and the accumulator ring live in the module's memory, and the Kernel's
// acc is a view of it, so the evaluator works the same over either kernel.

import type { Kernel } from './evaluator.js';
import { KERNEL_WASM_BASE64 } from './kernel-wasm.js';
import { ACTIVATION_SCRELU_SQUARE_FIRST, type Network, maxOutputWeight, outputCentipawns } from './network.js';

interface Exports {
  update(dst: number, src: number, a0: number, a1: number, s0: number, s1: number, na: number, ns: number, h: number): void;
  refresh(dst: number, b: number, rows: number, n: number, h: number): void;
  output(us: number, them: number, w2: number, h: number, qa: number): number;
  outputSquareFirst(us: number, them: number, w2: number, h: number, qa: number): number;
}

const compiled = new Map<string, WebAssembly.Module | null>();

/** The module of these base64 bytes, compiled once per thread, or null where WebAssembly SIMD is not available. */
export function compileWasm(base64: string): WebAssembly.Module | null {
  let module = compiled.get(base64);
  if (module === undefined) {
    try {
      module = new WebAssembly.Module(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    } catch {
      module = null;
    }
    compiled.set(base64, module);
  }
  return module;
}

/** The engine's kernel (kernel.wat), compiled. */
function kernelModule(): WebAssembly.Module | null {
  return compileWasm(KERNEL_WASM_BASE64);
}

/**
 * Whether the WebAssembly kernel can run this network exactly: SIMD
 * available, at most 256 hidden neurons (the output's int32 lanes), and
 * output weights within ±128 for activation 1 (v * w must fit int16), within
 * ±4096 for activation 2 (the int32 lanes' sums).
 */
export function wasmKernelFits(net: Network): boolean {
  if (kernelModule() === null || net.hidden > 256 || net.hidden % 8 !== 0) return false;
  const limit = maxOutputWeight(net.activation);
  for (let i = 0; i < net.w2.length; i++) if (net.w2[i] > limit || net.w2[i] < -limit) return false;
  return true;
}

export class WasmKernel implements Kernel {
  readonly acc: Int16Array;
  private readonly k: Exports;
  private readonly h: number;
  /** Element offsets in the module's memory (int16 units). */
  private readonly b1: number;
  private readonly w2: number;
  private readonly accBase: number;
  /** Byte offset of the row list refresh() reads. */
  private readonly rowsAt: number;
  private readonly rows: Int32Array;
  /** Activation 2: the module's outputSquareFirst instead of output. */
  private readonly squareFirst: boolean;

  /** ringSlots: accumulator slots of H int16 each (the evaluator's ring: 2 per ply). */
  constructor(
    private readonly net: Network,
    ringSlots: number,
  ) {
    const module = kernelModule();
    if (module === null) throw new Error('WebAssembly SIMD is not available');
    const h = net.hidden;
    this.h = h;
    this.squareFirst = net.activation === ACTIVATION_SCRELU_SQUARE_FIRST;
    this.b1 = net.w1.length;
    this.w2 = this.b1 + h;
    this.accBase = this.w2 + net.w2.length;
    const accEnd = this.accBase + ringSlots * h;
    this.rowsAt = Math.ceil((accEnd * 2) / 16) * 16;
    const bytes = this.rowsAt + 32 * 4;
    const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536) });
    const mem16 = new Int16Array(memory.buffer);
    mem16.set(net.w1, 0);
    mem16.set(net.b1, this.b1);
    mem16.set(net.w2, this.w2);
    this.acc = new Int16Array(memory.buffer, this.accBase * 2, ringSlots * h);
    this.rows = new Int32Array(memory.buffer, this.rowsAt, 32);
    this.k = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as Exports;
  }

  update(dst: number, src: number, adds: Int32Array, nAdds: number, subs: Int32Array, nSubs: number): void {
    this.k.update(dst + this.accBase, src + this.accBase, adds[0], adds[1], subs[0], subs[1], nAdds, nSubs, this.h);
  }

  refresh(dst: number, rows: Int32Array, n: number): void {
    for (let k = 0; k < n; k++) this.rows[k] = rows[k];
    this.k.refresh(dst + this.accBase, this.b1, this.rowsAt, n, this.h);
  }

  output(us: number, them: number, bucket: number): number {
    const net = this.net;
    const w2 = this.w2 + bucket * 2 * this.h;
    const sum = this.squareFirst
      ? this.k.outputSquareFirst(us + this.accBase, them + this.accBase, w2, this.h, net.qa)
      : this.k.output(us + this.accBase, them + this.accBase, w2, this.h, net.qa);
    return outputCentipawns(net, sum, bucket);
  }
}
