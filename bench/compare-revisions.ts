// Search speed of two revisions of the engine in one process: each
// revision's search is bundled as a library, both are loaded side by side,
// and every bench position is searched by one and then the other (the order
// alternating), so that both always meet the machine in the same mood. On a
// shared machine whose speed drifts by ±10% from minute to minute this
// resolves differences of a percent, where alternating whole processes
// (compare-builds.ts) does not.
//
//   npx tsx bench/compare-revisions.ts <base-rev> <new-rev> [--depth 10] [--rounds 5] [--inlining 2000] [--hce] [--hash 16] [--cpu]
//
// --hce: both revisions search with the hand-crafted evaluation, also one
// whose default is the network (UseNNUE false), so that search speed is
// compared like for like across the change of default.
// --hash: the transposition table's size in MB (default 16).
// --cpu: nodes per second of CPU time (process.cpuUsage around each search)
// instead of wall time: steadier on a machine that other work shares.
//
// A revision is anything git understands (a commit, a branch, HEAD), `work`
// for the working tree, or a folder that holds a copy of a revision's src/
// (e.g. made with `git archive <rev> src | tar -x -C <folder>`). Each round searches every position with both;
// the report gives each round's new/base ratio of nodes per second, and the
// ratio over all rounds.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { build } from 'esbuild';
import { numberOption, positionals } from './args.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const revs = positionals(args);
if (revs.length !== 2) {
  console.error('usage: compare-revisions.ts <base-rev> <new-rev> [--depth 10] [--rounds 5]');
  process.exit(2);
}
const depth = numberOption(args, '--depth', 10);
const rounds = numberOption(args, '--rounds', 5);
/** V8's inlining budget, as src/platform/node.ts's tuneCompiler() sets it (both revisions share one process, so one setting). */
const inlining = numberOption(args, '--inlining', 2000);
const handCrafted = args.includes('--hce');
const hashMb = numberOption(args, '--hash', 16);
const cpuTime = args.includes('--cpu');

/** What the harness needs of a revision's search (the API as it has been since 2026-11). */
interface Engine {
  Position: new (fen: string) => unknown;
  Searcher: new (
    mb: number,
  ) => { clear(): void; nodes: number; go(pos: unknown, params: unknown, options: unknown, control: unknown, report: unknown): unknown };
  SearchControl: new () => { reset(): void };
  DEFAULT_SEARCH_OPTIONS: unknown;
  BENCH_POSITIONS: readonly string[];
  /** Revisions with a network: chooses the evaluation (null: hand-crafted). */
  useNetwork?: (net: null) => void;
}

const work = mkdtempSync(join(tmpdir(), 'kestrel-revs-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

/** Bundles a revision's search as an ES module and loads it. */
async function load(rev: string, name: string): Promise<Engine> {
  let src = join(ROOT, 'src');
  if (existsSync(join(rev, 'src/search/search.ts'))) src = join(rev, 'src');
  else if (rev !== 'work') {
    const dir = join(work, name);
    execFileSync('git', ['worktree', 'add', '--detach', dir, rev], { cwd: ROOT, stdio: 'ignore' });
    process.on('exit', () => execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT, stdio: 'ignore' }));
    src = join(dir, 'src');
  }
  if (!existsSync(join(src, 'search/search.ts'))) throw new Error(`${rev}: no src/search/search.ts`);
  const entry = join(work, `${name}-entry.ts`);
  writeFileSync(
    entry,
    [
      `export { Position } from ${JSON.stringify(join(src, 'board/position.ts'))};`,
      `export { Searcher } from ${JSON.stringify(join(src, 'search/search.ts'))};`,
      `export { SearchControl } from ${JSON.stringify(join(src, 'search/control.ts'))};`,
      `export { DEFAULT_SEARCH_OPTIONS } from ${JSON.stringify(join(src, 'search/limits.ts'))};`,
      `export { BENCH_POSITIONS } from ${JSON.stringify(join(src, 'search/bench.ts'))};`,
      ...(hasNetwork(src) ? [`export { useNetwork } from ${JSON.stringify(join(src, 'eval/index.ts'))};`] : []),
    ].join('\n'),
  );
  const out = join(work, `${name}.mjs`);
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'warning' });
  return (await import(pathToFileURL(out).href)) as Engine;
}

/** Whether a revision's evaluation can be switched between the network and the hand-crafted one. */
function hasNetwork(src: string): boolean {
  const index = join(src, 'eval/index.ts');
  return existsSync(index) && readFileSync(index, 'utf8').includes('export function useNetwork');
}

// The engine's own V8 setting (tuneCompiler() in src/platform/node.ts), before any search code is compiled.
setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${inlining}`);
const engines = [await load(revs[0], 'base'), await load(revs[1], 'new')];
if (handCrafted) for (const e of engines) e.useNetwork?.(null);
console.log(
  `evaluation: ${handCrafted ? 'hand-crafted in both' : "each revision's default"}; Hash ${hashMb} MB; nodes per ${cpuTime ? 'CPU' : 'wall'} second`,
);
const searchers = engines.map((e) => new e.Searcher(hashMb));
const controls = engines.map((e) => new e.SearchControl());
const positions = engines[0].BENCH_POSITIONS;

/** One search of position i by engine e: [nodes, ms]. */
function search(e: number, i: number, d: number): [number, number] {
  const engine = engines[e];
  const searcher = searchers[e];
  searcher.clear();
  controls[e].reset();
  const pos = new engine.Position(positions[i]);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  searcher.go(pos, { depth: d, infinite: false, ponder: false, searchmoves: [] }, engine.DEFAULT_SEARCH_OPTIONS, controls[e], () => {});
  const cpu = process.cpuUsage(cpu0);
  return [searcher.nodes, cpuTime ? (cpu.user + cpu.system) / 1000 : performance.now() - t0];
}

// Warm both up, as a game's first moves do.
for (let i = 0; i < positions.length; i++) for (let e = 0; e < 2; e++) search(e, i, Math.min(depth, 7));

const totals = [
  [0, 0],
  [0, 0],
];
const ratios: number[] = [];
for (let r = 0; r < rounds; r++) {
  const round = [
    [0, 0],
    [0, 0],
  ];
  for (let i = 0; i < positions.length; i++) {
    const order = (r + i) % 2 === 0 ? [0, 1] : [1, 0];
    for (const e of order) {
      const [nodes, ms] = search(e, i, depth);
      round[e][0] += nodes;
      round[e][1] += ms;
    }
  }
  const nps = round.map(([n, ms]) => (n * 1000) / ms);
  ratios.push(nps[1] / nps[0]);
  for (let e = 0; e < 2; e++) {
    totals[e][0] += round[e][0];
    totals[e][1] += round[e][1];
  }
  console.log(`round ${r + 1}: base ${Math.round(nps[0])} nps, new ${Math.round(nps[1])} nps, new/base ${(nps[1] / nps[0]).toFixed(3)}`);
}
const nps = totals.map(([n, ms]) => (n * 1000) / ms);
const sorted = [...ratios].sort((a, b) => a - b);
console.log(`nodes per round: base ${totals[0][0] / rounds}, new ${totals[1][0] / rounds}`);
console.log(
  `new/base nodes/second: ${(nps[1] / nps[0]).toFixed(3)} over ${rounds} rounds of ${positions.length} positions at depth ${depth} ` +
    `(round ratios ${sorted[0].toFixed(3)} to ${sorted[sorted.length - 1].toFixed(3)}, median ${sorted[sorted.length >> 1].toFixed(3)})`,
);
