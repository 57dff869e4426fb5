// The network's evaluation in plain TypeScript, from scratch: the reference
// that the incremental and WebAssembly versions are tested against.

import type { Position } from '../../board/position.js';
import { type Network, activationOf, inputIndex, kingKey, outputBucket, outputCentipawns } from './network.js';

/** Accumulator of one perspective with the given inputs (its own indices): b1 plus their W1 rows. */
export function accumulatorOf(net: Network, inputs: ArrayLike<number>, count: number, out: Int16Array): void {
  const h = net.hidden;
  out.set(net.b1);
  for (let k = 0; k < count; k++) {
    const row = inputs[k] * h;
    for (let j = 0; j < h; j++) out[j] += net.w1[row + j];
  }
}

/** The output in centipawns from the two accumulators (us: the side to move's) and the bucket. */
export function outputOf(net: Network, us: Int16Array, them: Int16Array, bucket: number): number {
  const h = net.hidden;
  const qa = net.qa;
  const w2 = bucket * 2 * h;
  let sum = 0;
  for (let j = 0; j < h; j++) {
    const u = us[j] < 0 ? 0 : us[j] > qa ? qa : us[j];
    const t = them[j] < 0 ? 0 : them[j] > qa ? qa : them[j];
    sum += activationOf(net.activation, u) * net.w2[w2 + j] + activationOf(net.activation, t) * net.w2[w2 + h + j];
  }
  return outputCentipawns(net, sum, bucket);
}

/** Perspective side's input indices of the pieces of pos, into out; returns how many. */
function positionInputs(net: Network, pos: Position, side: number, out: Int32Array): number {
  const key = kingKey(net.kings, side, pos.kingSq[side]);
  let n = 0;
  for (let sq = 0; sq < 64; sq++) {
    const piece = pos.board[sq];
    if (piece !== 0) out[n++] = inputIndex(side, piece, sq, key);
  }
  return n;
}

/** The network's evaluation of pos from scratch, centipawns from the side to move's view. */
export function evaluateReference(net: Network, pos: Position): number {
  const inputs = new Int32Array(32);
  const white = new Int16Array(net.hidden);
  const black = new Int16Array(net.hidden);
  accumulatorOf(net, inputs, positionInputs(net, pos, 0, inputs), white);
  const n = positionInputs(net, pos, 1, inputs);
  accumulatorOf(net, inputs, n, black);
  const bucket = outputBucket(n, net.buckets);
  return pos.side === 0 ? outputOf(net, white, black, bucket) : outputOf(net, black, white, bucket);
}
