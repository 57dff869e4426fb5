// The network as the search uses it: accumulators kept incrementally along
// the line being searched. For each ply there is a slot of two accumulators
// (White's and Black's perspective) in a ring; a slot is valid for the
// position whose stamp (Position.stamp) it carries. To evaluate, the
// evaluator walks back to the nearest ply with a valid slot and replays the
// moves' changes (Position.moveChanges) forward: two or three weight rows added
// or subtracted per perspective and move. Moves that are never evaluated
// below cost nothing. No allocation per call.
//
// The arithmetic is done by a Kernel: plain TypeScript here (the reference),
// or WebAssembly with SIMD (wasm.ts), which must give the same numbers.

import type { Position } from '../../board/position.js';
import { ACTIVATION_SCRELU_SQUARE_FIRST, type Network, inputIndex, outputBucket, outputCentipawns } from './network.js';
import { WasmKernel, wasmKernelFits } from './wasm.js';

/** Plies of accumulators kept; at least the search's maximum depth. */
const RING = 256;
/** Replaying more moves than this costs more than computing the accumulators afresh. */
const MAX_REPLAY = 12;
/** The evaluation is clamped to ±this, far from the search's mate scores (30000 less the plies). */
const MAX_EVAL = 20000;

/** The integer work of the network over one Int16 array of accumulator slots. */
export interface Kernel {
  /** acc[dst..dst+H) = acc[src..src+H) + the W1 rows `adds` - the rows `subs` (row offsets into W1, input * H). */
  update(dst: number, src: number, adds: Int32Array, nAdds: number, subs: Int32Array, nSubs: number): void;
  /** acc[dst..dst+H) = b1 + the W1 rows `rows`. */
  refresh(dst: number, rows: Int32Array, n: number): void;
  /** The network's output in centipawns from the accumulators at us (the side to move's) and them. */
  output(us: number, them: number, bucket: number): number;
  /** The accumulator slots, H int16 each: ring slot s has White's at s * 2H and Black's at s * 2H + H. */
  readonly acc: Int16Array;
}

/** The reference kernel, in TypeScript over the network's own arrays. */
class TsKernel implements Kernel {
  readonly acc: Int16Array;

  constructor(
    private readonly net: Network,
    slots: number,
  ) {
    this.acc = new Int16Array(slots * net.hidden);
  }

  update(dst: number, src: number, adds: Int32Array, nAdds: number, subs: Int32Array, nSubs: number): void {
    const acc = this.acc;
    const w1 = this.net.w1;
    const h = this.net.hidden;
    if (nAdds === 1 && nSubs === 1) {
      const a = adds[0];
      const s = subs[0];
      for (let j = 0; j < h; j++) acc[dst + j] = acc[src + j] + w1[a + j] - w1[s + j];
      return;
    }
    for (let j = 0; j < h; j++) acc[dst + j] = acc[src + j];
    for (let k = 0; k < nAdds; k++) {
      const a = adds[k];
      for (let j = 0; j < h; j++) acc[dst + j] += w1[a + j];
    }
    for (let k = 0; k < nSubs; k++) {
      const s = subs[k];
      for (let j = 0; j < h; j++) acc[dst + j] -= w1[s + j];
    }
  }

  refresh(dst: number, rows: Int32Array, n: number): void {
    const acc = this.acc;
    const w1 = this.net.w1;
    const h = this.net.hidden;
    for (let j = 0; j < h; j++) acc[dst + j] = this.net.b1[j];
    for (let k = 0; k < n; k++) {
      const r = rows[k];
      for (let j = 0; j < h; j++) acc[dst + j] += w1[r + j];
    }
  }

  output(us: number, them: number, bucket: number): number {
    const acc = this.acc;
    const net = this.net;
    const h = net.hidden;
    const qa = net.qa;
    const w2 = net.w2;
    const base = bucket * 2 * h;
    let sum = 0;
    if (net.activation !== ACTIVATION_SCRELU_SQUARE_FIRST) {
      for (let j = 0; j < h; j++) {
        const u = acc[us + j] < 0 ? 0 : acc[us + j] > qa ? qa : acc[us + j];
        const t = acc[them + j] < 0 ? 0 : acc[them + j] > qa ? qa : acc[them + j];
        sum += u * u * w2[base + j] + t * t * w2[base + h + j];
      }
    } else {
      for (let j = 0; j < h; j++) {
        const u = acc[us + j] < 0 ? 0 : acc[us + j] > qa ? qa : acc[us + j];
        const t = acc[them + j] < 0 ? 0 : acc[them + j] > qa ? qa : acc[them + j];
        sum += ((u * u + 128) >> 8) * w2[base + j] + ((t * t + 128) >> 8) * w2[base + h + j];
      }
    }
    return outputCentipawns(net, sum, bucket);
  }
}

/** Which kernel does the arithmetic: WebAssembly where it fits the network (auto), or TypeScript. */
export type KernelChoice = 'auto' | 'wasm' | 'ts';

/** Evaluates positions with a network, keeping accumulators along the line. */
export class NnueEvaluator {
  private readonly hidden: number;
  private readonly kernel: Kernel;
  /** 'wasm' or 'ts': the kernel in use. */
  readonly kernelName: string;
  /** The stamp of the position each ring slot holds (0: none). */
  private readonly slotStamp = new Int32Array(RING);
  private readonly adds = new Int32Array(4);
  private readonly subs = new Int32Array(4);
  private readonly rows = new Int32Array(32);
  private readonly changes = new Int32Array(4);

  constructor(
    readonly net: Network,
    choice: KernelChoice = 'auto',
  ) {
    this.hidden = net.hidden;
    const wasm = choice === 'wasm' || (choice === 'auto' && wasmKernelFits(net));
    this.kernel = wasm ? new WasmKernel(net, RING * 2) : new TsKernel(net, RING * 2);
    this.kernelName = wasm ? 'wasm' : 'ts';
  }

  /** Forgets every accumulator (after the network's weights change). */
  reset(): void {
    this.slotStamp.fill(0);
  }

  /** The network's evaluation of pos, centipawns from the side to move's view. */
  evaluate(pos: Position): number {
    const ply = pos.ply;
    const stamp = pos.stamp;
    const slots = this.slotStamp;
    // The nearest ply at or before this one whose accumulators are at hand.
    const oldest = Math.max(0, ply - MAX_REPLAY);
    let p = ply;
    while (p >= oldest && slots[p & (RING - 1)] !== stamp[p]) p--;
    if (p < oldest) {
      this.refresh(pos);
    } else {
      for (let q = p; q < ply; q++) this.replay(pos, q);
    }
    const slot = (ply & (RING - 1)) * 2 * this.hidden;
    const white = slot;
    const black = slot + this.hidden;
    let bucket = 0;
    if (this.net.buckets > 1) {
      let pieces = 0;
      for (let c = 0; c < 16; c++) pieces += pos.pieceCount[c];
      bucket = outputBucket(pieces, this.net.buckets);
    }
    const v = pos.side === 0 ? this.kernel.output(white, black, bucket) : this.kernel.output(black, white, bucket);
    // Far from the search's mate scores whatever the weights.
    return v > MAX_EVAL ? MAX_EVAL : v < -MAX_EVAL ? -MAX_EVAL : v;
  }

  /** Both accumulators of the current position, from its pieces. */
  private refresh(pos: Position): void {
    const h = this.hidden;
    const slot = (pos.ply & (RING - 1)) * 2 * h;
    for (let side = 0; side < 2; side++) {
      let n = 0;
      for (let sq = 0; sq < 64; sq++) {
        const piece = pos.board[sq];
        if (piece !== 0) this.rows[n++] = inputIndex(side, piece, sq) * h;
      }
      this.kernel.refresh(slot + side * h, this.rows, n);
    }
    this.slotStamp[pos.ply & (RING - 1)] = pos.stamp[pos.ply];
  }

  /** The accumulators of ply q + 1 from those of ply q and the changes of the move between. */
  private replay(pos: Position, q: number): void {
    const h = this.hidden;
    const src = (q & (RING - 1)) * 2 * h;
    const dst = ((q + 1) & (RING - 1)) * 2 * h;
    const n = pos.moveChanges(q, this.changes);
    for (let side = 0; side < 2; side++) {
      let nAdds = 0;
      let nSubs = 0;
      for (let k = 0; k < n; k++) {
        const c = this.changes[k];
        const row = inputIndex(side, c >> 7, (c >> 1) & 63) * h;
        if ((c & 1) !== 0) this.adds[nAdds++] = row;
        else this.subs[nSubs++] = row;
      }
      this.kernel.update(dst + side * h, src + side * h, this.adds, nAdds, this.subs, nSubs);
    }
    this.slotStamp[(q + 1) & (RING - 1)] = pos.stamp[q + 1];
  }
}
