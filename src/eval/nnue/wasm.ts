// The network's kernel in WebAssembly with SIMD (kernel.wat): the weights
// and the accumulator ring live in the module's memory, and the Kernel's
// acc is a view of it, so the evaluator works the same over either kernel.
//
// The threads of a parallel search share one memory (a WasmShare): the
// weights once, from offset 0, then a region per thread for its accumulator
// ring and scratch. It is shared between threads (the kernel assembled with
// a shared memory) where the host allows it. A kernel made without a share
// gets one of its own, of one region.

import type { Kernel } from './evaluator.js';
import { KERNEL_SHARED_WASM_BASE64, KERNEL_WASM_BASE64 } from './kernel-wasm.js';
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
 * available, a hidden size that is a multiple of 8, output weights within
 * ±128 for activation 1 (v * w must fit int16) and ±4096 for activation 2,
 * and output sums that fit the kernel's int32 lanes (laneSumsFit).
 */
export function wasmKernelFits(net: Network): boolean {
  if (kernelModule() === null || net.hidden % 8 !== 0) return false;
  let largest = 0;
  for (let i = 0; i < net.w2.length; i++) largest = Math.max(largest, Math.abs(net.w2[i]));
  return largest <= maxOutputWeight(net.activation) && laneSumsFit(net.hidden, net.activation, net.qa, largest);
}

/**
 * Whether the output's int32 lanes hold every possible sum: each of the
 * four lanes adds h / 2 products (two per dot instruction, one instruction
 * per perspective for each 8 neurons), each at most the largest activation
 * (QA², or (QA² + 128) >> 8 squared first) times the largest |weight|. With
 * QA 255 that allows 512 neurons for activation 1 at weights of 128, and
 * 4096 (the file format's most) for activation 2 at 4096.
 */
export function laneSumsFit(hidden: number, activation: number, qa: number, largestWeight: number): boolean {
  const activationMax = activation === ACTIVATION_SCRELU_SQUARE_FIRST ? (qa * qa + 128) >> 8 : qa * qa;
  return (hidden / 2) * activationMax * largestWeight <= 2 ** 31 - 1;
}

/**
 * A network's weights in WebAssembly memory, with a region for each of
 * `slots` threads' accumulators. It travels to other threads in a message
 * without a copy (the memory is shared, and a compiled module can be sent).
 */
export interface WasmShare {
  readonly memory: WebAssembly.Memory;
  /** The kernel compiled for this memory (shared or not). */
  readonly module: WebAssembly.Module;
  readonly slots: number;
  /** Accumulator slots (H int16 each) of a region. */
  readonly ringSlots: number;
}

function align16(n: number): number {
  return Math.ceil(n / 16) * 16;
}

/** Bytes from the start of the memory to the first region: the weights (W1, b1, W2), rounded up to 16. */
function weightBytes(net: Network): number {
  return align16((net.w1.length + net.b1.length + net.w2.length) * 2);
}

/** Bytes of a region: the accumulator ring, then the row list refresh() reads (32 int32). */
function regionBytes(net: Network, ringSlots: number): number {
  return align16(ringSlots * net.hidden * 2) + 32 * 4;
}

/**
 * The network's weights copied once into a new memory with a region for
 * each of `slots` threads (ringSlots accumulators each): a memory shared
 * between threads where the host allows it, else one for this thread only.
 * Throws where WebAssembly SIMD is not available.
 */
export function newWasmShare(net: Network, ringSlots: number, slots: number): WasmShare {
  const pages = Math.ceil((weightBytes(net) + slots * regionBytes(net, ringSlots)) / 65536);
  let memory: WebAssembly.Memory | null = null;
  let module = compileWasm(KERNEL_SHARED_WASM_BASE64);
  if (module !== null) {
    try {
      memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
    } catch {
      // A host without shared memory (a page that is not cross-origin isolated).
    }
  }
  if (memory === null) {
    module = kernelModule();
    memory = new WebAssembly.Memory({ initial: pages });
  }
  if (module === null) throw new Error('WebAssembly SIMD is not available');
  const mem16 = new Int16Array(memory.buffer);
  mem16.set(net.w1, 0);
  mem16.set(net.b1, net.w1.length);
  mem16.set(net.w2, net.w1.length + net.b1.length);
  return { memory, module, slots, ringSlots };
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

  /**
   * ringSlots: accumulator slots of H int16 each (the evaluator's ring: 2
   * per ply). The kernel works in region `slot` of `share` (the network's
   * weights in memory that other threads use too), or without a share in a
   * memory of its own.
   */
  constructor(
    private readonly net: Network,
    ringSlots: number,
    share: WasmShare | null = null,
    slot = 0,
  ) {
    const s = share ?? newWasmShare(net, ringSlots, 1);
    if (s.ringSlots !== ringSlots || !(slot >= 0 && slot < s.slots)) throw new Error(`no region ${slot} of ${s.slots} in this share`);
    const h = net.hidden;
    this.h = h;
    this.squareFirst = net.activation === ACTIVATION_SCRELU_SQUARE_FIRST;
    this.b1 = net.w1.length;
    this.w2 = this.b1 + h;
    const region = weightBytes(net) + slot * regionBytes(net, ringSlots);
    this.accBase = region / 2;
    this.rowsAt = region + align16(ringSlots * h * 2);
    this.acc = new Int16Array(s.memory.buffer, region, ringSlots * h);
    this.rows = new Int32Array(s.memory.buffer, this.rowsAt, 32);
    this.k = new WebAssembly.Instance(s.module, { env: { memory: s.memory } }).exports as unknown as Exports;
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
