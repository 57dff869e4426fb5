// Search speed of two builds of the library (dist/node/index.js), as a
// program using it sees it: each build's Engine analyses every bench
// position to a fixed depth; a build's figure is the nodes of the searches
// over the sum of their times. The builds run in alternating pairs, and the
// median of the pairs' ratios (new/base) is the figure to quote.
//
//   npx tsx bench/compare-library.ts <base/node/index.js> <new/node/index.js> [--rounds 6] [--depth 10]
//
// A build is the dist/ folder of `npm run build` (copy it aside first: its
// node/index.js and node/worker.js belong together).

import { pathToFileURL } from 'node:url';
import { BENCH_POSITIONS } from '../src/search/bench.js';
import { numberOption, positionals, requireFile } from './args.js';
import { median } from './stats.js';

interface LibraryEngine {
  analyse(position: { fen: string }, limits: { depth: number }): Promise<{ nodes: number; timeMs: number }>;
  newGame(): void;
  close(): Promise<void>;
}

const args = process.argv.slice(2);
const builds = positionals(args);
if (builds.length !== 2) {
  console.error('usage: compare-library.ts <base/node/index.js> <new/node/index.js> [--rounds n] [--depth d]');
  process.exit(2);
}
for (const build of builds) requireFile(build, "a library build's node/index.js (copy dist/ aside after npm run build)");
const rounds = numberOption(args, '--rounds', 6);
const depth = numberOption(args, '--depth', 10);
const libraries = await Promise.all(builds.map(async (b) => (await import(pathToFileURL(b).href)) as { Engine: new () => LibraryEngine }));

/** Analyses every bench position with a fresh engine; returns nodes per second. */
async function run(i: number): Promise<number> {
  const engine = new libraries[i].Engine();
  let nodes = 0;
  let ms = 0;
  for (const fen of BENCH_POSITIONS) {
    engine.newGame();
    const result = await engine.analyse({ fen }, { depth });
    nodes += result.nodes;
    ms += result.timeMs;
  }
  await engine.close();
  return Math.round((nodes * 1000) / Math.max(1, ms));
}

const ratios: number[] = [];
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [0, 1] : [1, 0];
  const nps = [0, 0];
  for (const i of order) nps[i] = await run(i);
  ratios.push(nps[1] / nps[0]);
  console.log(`round ${r + 1}: base ${nps[0]} nodes/s, new ${nps[1]} nodes/s, new/base ${(nps[1] / nps[0]).toFixed(3)}`);
}
console.log(`pair ratios (new/base): median ${median(ratios).toFixed(3)} over ${rounds} rounds`);
