// The network as the search uses it: accumulators kept incrementally along
// the line being searched. For each ply there is a slot of two accumulators
// (White's and Black's perspective) in a ring; each half is valid for the
// position whose stamp (Position.stamp) it carries, and was computed under
// the king key (network.ts: kingKey) it records. To evaluate, the evaluator
// walks back, per perspective, to the nearest ply whose accumulator is valid
// and, if it has the perspective's king key of now, replays the moves'
// changes (Position.moveChanges) forward: two or three weight rows added or
// subtracted per move. A perspective whose king has changed bucket since
// (another key) is computed afresh, and the accumulators between stay as
// they are for their own positions. Moves that are never evaluated below
// cost nothing. No allocation per call.
//
// The arithmetic is done by a Kernel: plain TypeScript here (the reference),
// or WebAssembly with SIMD (wasm.ts), which must give the same numbers.

import type { Position } from '../../board/position.js';
import {
  ACTIVATION_SCRELU_SQUARE_FIRST,
  type KingBuckets,
  type Network,
  inputIndex,
  kingKey,
  outputBucket,
  outputCentipawns,
} from './network.js';
import { WasmKernel, type WasmShare, newWasmShare, wasmKernelFits } from './wasm.js';

/** Plies of accumulators kept; at least the search's maximum depth. */
const RING = 256;
/** Replaying more moves than this costs more than computing the accumulators afresh. */
const MAX_REPLAY = 12;
/** Which perspectives replay() updates: bit 0 White's, bit 1 Black's. */
const WHITE_ONLY = 1;
const BLACK_ONLY = 2;
const BOTH = 3;
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
  private readonly kings: KingBuckets | null;
  private readonly kernel: Kernel;
  /** 'wasm' or 'ts': the kernel in use. */
  readonly kernelName: string;
  /** Per ring slot and perspective ([slot * 2 + side]): the stamp of the position it holds (0: none). */
  private readonly slotStamp = new Int32Array(RING * 2);
  /** ...and the king key it was computed with. */
  private readonly slotKey = new Int32Array(RING * 2);
  private readonly adds = new Int32Array(4);
  private readonly subs = new Int32Array(4);
  private readonly rows = new Int32Array(32);
  private readonly changes = new Int32Array(4);

  /**
   * With `share` (made by shareNetwork for several threads), the WebAssembly
   * kernel over region `slot` of its memory: the weights are not copied.
   */
  constructor(
    readonly net: Network,
    choice: KernelChoice = 'auto',
    share: { wasm: WasmShare; slot: number } | null = null,
  ) {
    this.hidden = net.hidden;
    this.kings = net.kings;
    let kernel: Kernel | null = null;
    if (share !== null || choice === 'wasm') kernel = new WasmKernel(net, RING * 2, share?.wasm ?? null, share?.slot ?? 0);
    else if (choice === 'auto' && wasmKernelFits(net)) {
      try {
        kernel = new WasmKernel(net, RING * 2);
      } catch {
        // No WebAssembly memory to be had (a process limited in address space): the TypeScript kernel computes the same.
      }
    }
    this.kernel = kernel ?? new TsKernel(net, RING * 2);
    this.kernelName = kernel !== null ? 'wasm' : 'ts';
  }

  /** The weights of this evaluator's network in WebAssembly memory for `threads` threads' evaluators (null: it uses the TypeScript kernel). */
  shareNetwork(threads: number): WasmShare | null {
    return this.kernelName === 'wasm' ? newWasmShare(this.net, RING * 2, threads) : null;
  }

  /** Forgets every accumulator (after the network's weights change). */
  reset(): void {
    this.slotStamp.fill(0);
  }

  /** The network's evaluation of pos, centipawns from the side to move's view. */
  evaluate(pos: Position): number {
    const ply = pos.ply;
    // Per perspective, the nearest ply at or before this one whose accumulator is at hand.
    const oldest = Math.max(0, ply - MAX_REPLAY);
    const keyWhite = kingKey(this.kings, 0, pos.kingSq[0]);
    const keyBlack = kingKey(this.kings, 1, pos.kingSq[1]);
    const white = this.nearest(pos, 0, keyWhite, oldest);
    const black = this.nearest(pos, 1, keyBlack, oldest);
    if (white === black && white >= oldest) {
      // The usual case: both perspectives replay the same moves.
      for (let q = white; q < ply; q++) this.replay(pos, q, keyWhite, keyBlack, BOTH);
    } else {
      if (white < oldest) this.refresh(pos, 0, keyWhite);
      else for (let q = white; q < ply; q++) this.replay(pos, q, keyWhite, keyBlack, WHITE_ONLY);
      if (black < oldest) this.refresh(pos, 1, keyBlack);
      else for (let q = black; q < ply; q++) this.replay(pos, q, keyWhite, keyBlack, BLACK_ONLY);
    }
    const slot = (ply & (RING - 1)) * 2 * this.hidden;
    let bucket = 0;
    if (this.net.buckets > 1) {
      let pieces = 0;
      for (let c = 0; c < 16; c++) pieces += pos.pieceCount[c];
      bucket = outputBucket(pieces, this.net.buckets);
    }
    const v = pos.side === 0 ? this.kernel.output(slot, slot + this.hidden, bucket) : this.kernel.output(slot + this.hidden, slot, bucket);
    // Far from the search's mate scores whatever the weights.
    return v > MAX_EVAL ? MAX_EVAL : v < -MAX_EVAL ? -MAX_EVAL : v;
  }

  /**
   * The nearest ply from pos.ply back to oldest whose accumulator of side is
   * valid, if it was computed under king key `key`; else oldest - 1 (compute
   * it afresh).
   */
  private nearest(pos: Position, side: number, key: number, oldest: number): number {
    const stamp = pos.stamp;
    let p = pos.ply;
    while (p >= oldest && this.slotStamp[(p & (RING - 1)) * 2 + side] !== stamp[p]) p--;
    return p >= oldest && this.slotKey[(p & (RING - 1)) * 2 + side] === key ? p : oldest - 1;
  }

  /** The accumulator of perspective side of the current position, from its pieces. */
  private refresh(pos: Position, side: number, key: number): void {
    const h = this.hidden;
    const at = (pos.ply & (RING - 1)) * 2 + side;
    let n = 0;
    for (let sq = 0; sq < 64; sq++) {
      const piece = pos.board[sq];
      if (piece !== 0) this.rows[n++] = inputIndex(side, piece, sq, key) * h;
    }
    this.kernel.refresh(at * h, this.rows, n);
    this.slotStamp[at] = pos.stamp[pos.ply];
    this.slotKey[at] = key;
  }

  /**
   * The accumulators of ply q + 1 from those of ply q and the changes of the
   * move between, for the perspectives in `sides` (WHITE_ONLY, BLACK_ONLY,
   * BOTH), each under its king key.
   */
  private replay(pos: Position, q: number, keyWhite: number, keyBlack: number, sides: number): void {
    const h = this.hidden;
    const n = pos.moveChanges(q, this.changes);
    for (let side = 0; side < 2; side++) {
      if ((sides & (1 << side)) === 0) continue;
      const key = side === 0 ? keyWhite : keyBlack;
      let nAdds = 0;
      let nSubs = 0;
      for (let k = 0; k < n; k++) {
        const c = this.changes[k];
        const row = inputIndex(side, c >> 7, (c >> 1) & 63, key) * h;
        if ((c & 1) !== 0) this.adds[nAdds++] = row;
        else this.subs[nSubs++] = row;
      }
      const src = (q & (RING - 1)) * 2 + side;
      const dst = ((q + 1) & (RING - 1)) * 2 + side;
      this.kernel.update(dst * h, src * h, this.adds, nAdds, this.subs, nSubs);
      this.slotStamp[dst] = pos.stamp[q + 1];
      this.slotKey[dst] = key;
    }
  }
}
