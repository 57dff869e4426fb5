// What quantisation costs a network: its float weights (the .f32 file that
// `kestrel train` writes beside the .nnue) quantised again with a chosen QB,
// output weights beyond ±127 (what the WebAssembly kernel allows for
// activation 1) clipped unless --no-clip (then only the TypeScript kernel can
// run it). With --activation 2 (squared first, network.ts) the QB may be up
// to 1024 and nothing is clipped. Measure the result with network-fit.ts
// (docs/records/networks.md, "What the quantisation costs"):
// The network's king buckets come from the .json record beside the .f32
// (or --king-buckets <layout> without one).
//   npx tsx bench/requantise.ts <net.f32> <qb> <out.nnue> [--hidden 128] [--buckets 1] [--no-clip] [--activation 2] [--king-buckets none]

import { readFileSync, writeFileSync } from 'node:fs';
import { ACTIVATION_SCRELU, type KingBuckets, encodeNetwork, kingLayout, maxOutputWeight, shapeText } from '../src/eval/nnue/network.js';
import { layoutOf, quantise } from '../src/train/nnue-model.js';
import { DEFAULT_TRAIN_SETTINGS, recordedKings } from '../src/train/nnue-train.js';
import { numberOption, positionals, repeatedOption, requireFile } from './args.js';

const args = process.argv.slice(2);
const [f32, qbText, out] = positionals(args);
if (f32 === undefined || qbText === undefined || out === undefined) {
  console.error(
    'usage: requantise.ts <net.f32> <qb> <out.nnue> [--hidden 128] [--buckets 1] [--no-clip] [--activation 2] [--king-buckets none]',
  );
  process.exit(2);
}
requireFile(f32, 'the float weights kestrel train writes beside a network (<name>.f32)');
let kings: KingBuckets | null = null;
try {
  const recorded = recordedKings(f32);
  kings = recorded !== undefined ? recorded : kingLayout(repeatedOption(args, '--king-buckets').at(-1) ?? 'none');
} catch (e) {
  console.error(`--king-buckets: ${(e as Error).message}`);
  process.exit(2);
}
const shape = { hidden: numberOption(args, '--hidden', 128), buckets: numberOption(args, '--buckets', 1), kings };
const bytes = readFileSync(f32);
const params = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
if (params.length !== layoutOf(shape).size) {
  console.error(`${f32}: ${params.length} weights, not a ${shapeText(shape)} network`);
  process.exit(2);
}
const activation = numberOption(args, '--activation', ACTIVATION_SCRELU);
const { qa, scale } = DEFAULT_TRAIN_SETTINGS;
const net = quantise(shape, params, qa, Number(qbText), scale, activation);
// The bound quantise keeps to: one inside the kernel's.
const bound = maxOutputWeight(ACTIVATION_SCRELU) - 1;
let clipped = 0;
if (activation === ACTIVATION_SCRELU && !args.includes('--no-clip')) {
  for (let i = 0; i < net.w2.length; i++) {
    if (Math.abs(net.w2[i]) > bound) {
      net.w2[i] = Math.sign(net.w2[i]) * bound;
      clipped++;
    }
  }
}
writeFileSync(out, encodeNetwork(net));
console.log(`${out}: activation ${net.activation}, QA ${net.qa}, QB ${net.qb}, ${clipped} output weights clipped to ±${bound}`);
