// Search speed with the network against the hand-crafted evaluation, in one
// process: every bench position is searched with one evaluation and then
// the other (the order alternating), and nodes per second are compared.
// The trees differ (the evaluations differ), so this compares speed per
// node, not time to depth.
//
//   npx tsx bench/nnue-speed.ts [--net file.nnue] [--kernel auto|wasm|ts] [--depth 10] [--rounds 3]

import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { Position } from '../src/board/position.js';
import { decodeNetwork, embeddedNetwork, networkInUse, useNetwork } from '../src/eval/index.js';
import { BENCH_POSITIONS } from '../src/search/bench.js';
import { SearchControl } from '../src/search/control.js';
import { DEFAULT_SEARCH_OPTIONS } from '../src/search/limits.js';
import { Searcher } from '../src/search/search.js';
import { numberOption, requireFile } from './args.js';

const args = process.argv.slice(2);
const value = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const depth = numberOption(args, '--depth', 10);
const rounds = numberOption(args, '--rounds', 3);
const netFile = value('--net');
const kernel = (value('--kernel') ?? 'auto') as 'auto' | 'wasm' | 'ts';
const net =
  netFile === undefined
    ? embeddedNetwork().net
    : decodeNetwork(new Uint8Array(readFileSync(requireFile(netFile, 'a network file made by kestrel train'))));

setFlagsFromString('--max-inlined-bytecode-size-cumulative=2000');
const searcher = new Searcher(16);
const control = new SearchControl();

/** One search of position i with the network (true) or without: [nodes, ms]. */
function search(withNet: boolean, i: number, d: number): [number, number] {
  useNetwork(withNet ? net : null, kernel);
  searcher.clear();
  control.reset();
  const t0 = performance.now();
  searcher.go({
    pos: new Position(BENCH_POSITIONS[i]),
    params: { depth: d, infinite: false, ponder: false, searchmoves: [] },
    options: DEFAULT_SEARCH_OPTIONS,
    control,
  });
  return [searcher.nodes, performance.now() - t0];
}

useNetwork(net, kernel);
console.log(`network 768 -> 2x${net.hidden} -> ${net.buckets}, ${networkInUse()?.kernelName} kernel; depth ${depth}, ${rounds} rounds`);
for (let i = 0; i < BENCH_POSITIONS.length; i++) for (const w of [false, true]) search(w, i, Math.min(depth, 7));
const totals = [
  [0, 0],
  [0, 0],
];
for (let r = 0; r < rounds; r++) {
  const round = [
    [0, 0],
    [0, 0],
  ];
  for (let i = 0; i < BENCH_POSITIONS.length; i++) {
    for (const w of (r + i) % 2 === 0 ? [0, 1] : [1, 0]) {
      const [n, ms] = search(w === 1, i, depth);
      round[w][0] += n;
      round[w][1] += ms;
    }
  }
  const nps = round.map(([n, ms]) => (n * 1000) / ms);
  console.log(
    `round ${r + 1}: hand-crafted ${Math.round(nps[0])} nps, network ${Math.round(nps[1])} nps, ratio ${(nps[1] / nps[0]).toFixed(3)}`,
  );
  for (let w = 0; w < 2; w++) {
    totals[w][0] += round[w][0];
    totals[w][1] += round[w][1];
  }
}
const nps = totals.map(([n, ms]) => (n * 1000) / ms);
console.log(`network/hand-crafted nodes per second: ${(nps[1] / nps[0]).toFixed(3)} (${Math.round(nps[1])} against ${Math.round(nps[0])})`);
