// The network's evaluation in plain TypeScript, from scratch: the reference
// that the incremental and WebAssembly versions are tested against.

import type { Position } from '../../board/position.js';
import { type Network, activationOf, inputIndex, outputBucket, outputCentipawns } from './network.js';

/** Accumulator of perspective `side` for the given White-perspective inputs: b1 plus their W1 rows. */
export function refreshAccumulator(net: Network, side: number, whiteInputs: ArrayLike<number>, count: number, out: Int16Array): void {
  const h = net.hidden;
  out.set(net.b1);
  for (let k = 0; k < count; k++) {
    const white = whiteInputs[k];
    const input = side === 0 ? white : (white < 384 ? white + 384 : white - 384) ^ 56;
    const row = input * h;
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

/** White-perspective input indices of the pieces of pos, into out; returns how many. */
function positionInputs(pos: Position, out: Uint16Array | number[]): number {
  let n = 0;
  for (let sq = 0; sq < 64; sq++) {
    const piece = pos.board[sq];
    if (piece !== 0) out[n++] = inputIndex(0, piece, sq);
  }
  return n;
}

/** The network's evaluation of pos from scratch, centipawns from the side to move's view. */
export function evaluateReference(net: Network, pos: Position): number {
  const inputs = new Uint16Array(32);
  const n = positionInputs(pos, inputs);
  const white = new Int16Array(net.hidden);
  const black = new Int16Array(net.hidden);
  refreshAccumulator(net, 0, inputs, n, white);
  refreshAccumulator(net, 1, inputs, n, black);
  const bucket = outputBucket(n, net.buckets);
  return pos.side === 0 ? outputOf(net, white, black, bucket) : outputOf(net, black, white, bucket);
}
