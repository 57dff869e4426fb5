// Search speed with networks against the hand-crafted evaluation, in one
// process: every bench position is searched with the hand-crafted
// evaluation and with each network in turn (the order rotating), and nodes
// per CPU second are compared (process.cpuUsage: other tenants' load slows
// the wall clock but barely the CPU time). The trees differ (the
// evaluations differ), so this compares speed per node, not time to depth.
// Several --net files (say of 256, 384 and 512 neurons) compare widths.
//
//   npx tsx bench/nnue-speed.ts [--net file.nnue ...] [--kernel auto|wasm|ts] [--depth 10] [--rounds 3]

import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { Position } from '../src/board/position.js';
import { decodeNetwork, embeddedNetwork, networkInUse, useNetwork } from '../src/eval/index.js';
import type { Network } from '../src/eval/nnue/network.js';
import { BENCH_POSITIONS } from '../src/search/bench.js';
import { SearchControl } from '../src/search/control.js';
import { DEFAULT_SEARCH_OPTIONS } from '../src/search/limits.js';
import { Searcher } from '../src/search/search.js';
import { numberOption, repeatedOption, requireFile } from './args.js';

const args = process.argv.slice(2);
const value = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const depth = numberOption(args, '--depth', 10);
const rounds = numberOption(args, '--rounds', 3);
const kernel = (value('--kernel') ?? 'auto') as 'auto' | 'wasm' | 'ts';
const files = repeatedOption(args, '--net');
const nets: { name: string; net: Network }[] =
  files.length === 0
    ? [{ name: 'built in', net: embeddedNetwork().net }]
    : files.map((file) => ({
        name: file.split('/').pop() ?? file,
        net: decodeNetwork(new Uint8Array(readFileSync(requireFile(file, 'a network file made by kestrel train')))),
      }));

setFlagsFromString('--max-inlined-bytecode-size-cumulative=2000');
const searcher = new Searcher(16);
const control = new SearchControl();

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** One search of position i with evaluation e (0: hand-crafted, k: nets[k - 1]): [nodes, CPU ms]. */
function search(e: number, i: number, d: number): [number, number] {
  useNetwork(e === 0 ? null : nets[e - 1].net, kernel);
  searcher.clear();
  control.reset();
  const c0 = cpuMs();
  searcher.go({
    pos: new Position(BENCH_POSITIONS[i]),
    params: { depth: d, infinite: false, ponder: false, searchmoves: [] },
    options: DEFAULT_SEARCH_OPTIONS,
    control,
  });
  return [searcher.nodes, cpuMs() - c0];
}

const names = ['hand-crafted', ...nets.map(({ name, net }) => `${name} (2x${net.hidden})`)];
for (const { net } of nets) {
  useNetwork(net, kernel);
  console.log(`network 768 -> 2x${net.hidden} -> ${net.buckets}, ${networkInUse()?.kernelName} kernel`);
}
console.log(`depth ${depth}, ${rounds} rounds`);
// Warm-up: every evaluation through every position at a small depth.
for (let i = 0; i < BENCH_POSITIONS.length; i++) for (let e = 0; e < names.length; e++) search(e, i, Math.min(depth, 7));
const totals = names.map(() => [0, 0]);
const nps = (t: number[]): number => (t[0] * 1000) / t[1];
for (let r = 0; r < rounds; r++) {
  const round = names.map(() => [0, 0]);
  for (let i = 0; i < BENCH_POSITIONS.length; i++) {
    for (let k = 0; k < names.length; k++) {
      const e = (k + r + i) % names.length;
      const result = search(e, i, depth);
      for (let x = 0; x < 2; x++) {
        round[e][x] += result[x];
        totals[e][x] += result[x];
      }
    }
  }
  const parts = names.map((name, e) => `${name} ${Math.round(nps(round[e]))}`);
  console.log(`round ${r + 1}: nodes per CPU second: ${parts.join(', ')}`);
}
for (let e = 1; e < names.length; e++) {
  const vsFirst = e > 1 ? `, ${(nps(totals[e]) / nps(totals[1])).toFixed(3)} of ${names[1]}'s` : '';
  console.log(
    `${names[e]}: ${Math.round(nps(totals[e]))} nodes per CPU second, ${(nps(totals[e]) / nps(totals[0])).toFixed(3)} of the hand-crafted evaluation's${vsFirst}`,
  );
}
