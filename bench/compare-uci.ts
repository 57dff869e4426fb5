// Search speed of two engine builds through the UCI process, as a GUI sees
// it: each build is started as `node <bundle>`, and each bench position is
// searched with `ucinewgame`, `position fen ...`, `go depth <d>`; a build's
// figure is the nodes of every search's last info line over the sum of
// their times. The builds run in alternating pairs, and the median of the
// pairs' ratios (new/base) is the figure to quote. Unlike compare-revisions,
// which bundles only the Searcher, this measures the whole path: the UCI
// loop, the engine host, the search worker and its messages.
//
//   npx tsx bench/compare-uci.ts <base.js> <new.js> [--rounds 6] [--depth 10]
//
// A build is a bundle made by `npm run build` (copy dist/kestrel.js aside first).

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BENCH_POSITIONS } from '../src/search/bench.js';
import { numberOption, positionals, requireFile } from './args.js';
import { median } from './stats.js';

const args = process.argv.slice(2);
const builds = positionals(args);
if (builds.length !== 2) {
  console.error('usage: compare-uci.ts <base.js> <new.js> [--rounds n] [--depth d]');
  process.exit(2);
}
for (const build of builds) requireFile(build, 'a bundle made by npm run build (copy dist/kestrel.js aside first)');
const rounds = numberOption(args, '--rounds', 6);
const depth = numberOption(args, '--depth', 10);

/** Searches every bench position over UCI; returns total nodes and milliseconds (the engine's own `time`). */
async function run(build: string): Promise<{ nodes: number; ms: number }> {
  const child = spawn('node', [build], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  let waiting: { pattern: RegExp; resolve: (line: string) => void } | null = null;
  let last = '';
  lines.on('line', (line) => {
    if (line.startsWith('info depth') && line.includes(' nodes ')) last = line;
    if (waiting?.pattern.test(line)) {
      const w = waiting;
      waiting = null;
      w.resolve(line);
    }
  });
  const ask = (command: string, pattern: RegExp): Promise<string> =>
    new Promise((resolve) => {
      waiting = { pattern, resolve };
      child.stdin.write(`${command}\n`);
    });
  await ask('uci', /^uciok/);
  await ask('isready', /^readyok/);
  let nodes = 0;
  let ms = 0;
  for (const fen of BENCH_POSITIONS) {
    child.stdin.write('ucinewgame\n');
    await ask('isready', /^readyok/);
    child.stdin.write(`position fen ${fen}\n`);
    last = '';
    await ask(`go depth ${depth}`, /^bestmove/);
    nodes += Number(/ nodes (\d+)/.exec(last)?.[1] ?? 0);
    ms += Number(/ time (\d+)/.exec(last)?.[1] ?? 0);
  }
  child.stdin.write('quit\n');
  await new Promise((resolve) => child.on('exit', resolve));
  return { nodes, ms };
}

const ratios: number[] = [];
const nps: [number[], number[]] = [[], []];
for (let r = 0; r < rounds; r++) {
  // Alternate which build goes first, so neither always meets the machine's mood first.
  const order = r % 2 === 0 ? [0, 1] : [1, 0];
  const pair: number[] = [0, 0];
  for (const i of order) {
    const { nodes, ms } = await run(builds[i]);
    pair[i] = Math.round((nodes * 1000) / Math.max(1, ms));
    nps[i].push(pair[i]);
    console.log(`round ${r + 1} ${i === 0 ? 'base' : 'new '} ${nodes} nodes ${ms} ms ${pair[i]} nodes/s`);
  }
  ratios.push(pair[1] / pair[0]);
}
console.log(`base median ${median(nps[0])} nodes/s, new median ${median(nps[1])} nodes/s`);
console.log(`pair ratios (new/base): ${ratios.map((x) => x.toFixed(3)).join(' ')}; median ${median(ratios).toFixed(3)}`);
