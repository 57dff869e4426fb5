// Speed of two engine builds, measured side by side in one run: each build's
// `bench` is run in alternating pairs several times, and the ratio of each
// pair's nodes/second (new/base) is reported with its median, the figure
// to quote, since a pair shares the machine's mood of the moment. Use it for
// every search or evaluation speed claim.
//
//   npx tsx bench/compare-builds.ts <base.js> <new.js> [--runs 5] [--depth 10] [--passes 1]
//
// --passes n (n > 1) runs `bench --runs n` in each process, so each figure is
// the median pass of a process: the speed once the JIT has compiled the
// search, rather than the first pass's mix of cold and compiled code. Both
// builds must know `bench --runs`.
//
// A build is a bundle made by `npm run build` (copy dist/kestrel.js aside first).

import { execFileSync } from 'node:child_process';
import { numberOption, positionals, requireFile } from './args.js';
import { median } from './stats.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => numberOption(args, name, fallback);
const builds = positionals(args);
if (builds.length !== 2) {
  console.error('usage: compare-builds.ts <base.js> <new.js> [--runs n] [--depth d]');
  process.exit(2);
}
for (const build of builds) requireFile(build, 'a bundle made by npm run build (copy dist/kestrel.js aside first)');
const runs = option('--runs', 5);
const depth = option('--depth', 10);
const passes = option('--passes', 1);

function bench(build: string): { nodes: number; nps: number } {
  const out = execFileSync('node', [build, 'bench', String(depth), ...(passes > 1 ? ['--runs', String(passes)] : [])], {
    encoding: 'utf8',
  });
  const nodes = Number(/Nodes searched: (\d+)/.exec(out)?.[1]);
  const nps = Number(/Nodes\/second: (\d+)/.exec(out)?.[1]);
  return { nodes, nps };
}

const nps: number[][] = [[], []];
const nodes = [0, 0];
const ratios: number[] = [];
for (let r = 0; r < runs; r++) {
  // Alternate which build goes first, so that neither always runs on a machine just warmed or cooled by the other.
  const order = r % 2 === 0 ? [0, 1] : [1, 0];
  const pair = [0, 0];
  for (const b of order) {
    const result = bench(builds[b]);
    nps[b].push(result.nps);
    pair[b] = result.nps;
    nodes[b] = result.nodes;
  }
  ratios.push(pair[1] / pair[0]);
}
for (let b = 0; b < 2; b++) {
  console.log(
    `${b === 0 ? 'base' : 'new '} ${builds[b]}: bench ${depth} nodes ${nodes[b]}, median ${Math.round(median(nps[b]))} nps over ${runs} runs${passes > 1 ? ` of ${passes} passes` : ''} (${nps[b].join(', ')})`,
  );
}
console.log(`pair ratios new/base: ${ratios.map((x) => x.toFixed(3)).join(' ')}`);
console.log(
  `new/base nodes/second: median of pair ratios ${median(ratios).toFixed(3)}, ratio of medians ${(median(nps[1]) / median(nps[0])).toFixed(3)}; new/base nodes: ${(nodes[1] / nodes[0]).toFixed(3)}`,
);
