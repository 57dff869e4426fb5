// A small network file (768 -> 2x16 -> 1, random weights) for the tests that
// load one: its bytes as `kestrel train` would write them.

import { encodeNetwork } from '../src/eval/nnue/network.js';
import { initParams, quantise } from '../src/train/nnue-model.js';

export function tinyNetworkFile(): Uint8Array {
  const shape = { hidden: 16, buckets: 1 };
  const params = new Float32Array(768 * 16 + 16 + 32 + 1);
  initParams(shape, params, 3);
  return encodeNetwork(quantise(shape, params, 255, 64, 400));
}
