// Search speed of two revisions of the engine in one process: each
// revision's search is bundled as a library, both are loaded side by side,
// and every bench position is searched by one and then the other (the order
// alternating), so that both always meet the machine in the same mood. On a
// shared machine whose speed drifts by ±10% from minute to minute this
// resolves differences of a percent, where alternating whole processes
// (compare-builds.ts) does not.
//
//   npx tsx bench/compare-revisions.ts <base-rev> <new-rev> [--depth 10] [--rounds 5] [--hash 16 ...] [--inlining 2000] [--hce]
//
// --hce: both revisions search with the hand-crafted evaluation, also one
// whose default is the network (UseNNUE false), so that search speed is
// compared like for like across the change of default.
//
// Each search is timed twice: by the wall clock and by the process's CPU
// time (process.cpuUsage: user + system of every thread). Other tenants'
// load slows the wall clock but barely the CPU time, so on a shared machine
// quote the CPU figures: nodes per CPU second, and CPU time to the depth
// (which also counts a change that alters the tree). The table is cleared
// before each search, outside the timing. --hash (repeatable) measures at
// each table size in turn (default 16 MB): a larger table is slower per
// node because its probes miss the caches.
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
import { numberOption, positionals, repeatedOption } from './args.js';

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
const hashSizes = repeatedOption(args, '--hash').map(Number);
if (hashSizes.length === 0) hashSizes.push(16);

/**
 * What the harness needs of a revision's search (the API as it has been
 * since 2026-11; Searcher.go takes one request object since 2026-12, five
 * arguments before: see runGo).
 */
interface Engine {
  Position: new (fen: string) => unknown;
  Searcher: new (mb: number) => { clear(): void; nodes: number; go(...args: unknown[]): unknown };
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
console.log(`evaluation: ${handCrafted ? 'hand-crafted in both' : "each revision's default"}; Hash ${hashSizes.join(', ')} MB`);
const controls = engines.map((e) => new e.SearchControl());
const positions = engines[0].BENCH_POSITIONS;

/** What one search took. */
interface Took {
  nodes: number;
  ms: number;
  cpuMs: number;
}

/** A revision's Searcher.go: with one request object (a function of one parameter), else with the arguments in a row. */
function runGo(s: InstanceType<Engine['Searcher']>, pos: unknown, params: unknown, options: unknown, control: unknown): void {
  if (s.go.length <= 1) s.go({ pos, params, options, control });
  else s.go(pos, params, options, control, () => {});
}

/** One search of position i by engine e with searcher s, timed by wall clock and CPU. */
function search(e: number, s: InstanceType<Engine['Searcher']>, i: number, d: number): Took {
  const engine = engines[e];
  s.clear();
  controls[e].reset();
  const pos = new engine.Position(positions[i]);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  runGo(s, pos, { depth: d, infinite: false, ponder: false, searchmoves: [] }, engine.DEFAULT_SEARCH_OPTIONS, controls[e]);
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { nodes: s.nodes, ms, cpuMs: (c.user + c.system) / 1000 };
}

const add = (a: Took, b: Took): Took => ({ nodes: a.nodes + b.nodes, ms: a.ms + b.ms, cpuMs: a.cpuMs + b.cpuMs });
const zero = (): Took => ({ nodes: 0, ms: 0, cpuMs: 0 });
const fmt = (x: number): string => x.toFixed(3);
const middle = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

for (const hash of hashSizes) {
  const searchers = engines.map((e) => new e.Searcher(hash));
  // Warm both up, as a game's first moves do.
  for (let i = 0; i < positions.length; i++) for (let e = 0; e < 2; e++) search(e, searchers[e], i, Math.min(depth, 7));
  const totals = [zero(), zero()];
  const npsRatios: number[] = [];
  const cpuRatios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const round = [zero(), zero()];
    for (let i = 0; i < positions.length; i++) {
      const order = (r + i) % 2 === 0 ? [0, 1] : [1, 0];
      for (const e of order) round[e] = add(round[e], search(e, searchers[e], i, depth));
    }
    const cpuNps = round.map((t) => (t.nodes * 1000) / t.cpuMs);
    npsRatios.push(cpuNps[1] / cpuNps[0]);
    cpuRatios.push(round[1].cpuMs / round[0].cpuMs);
    for (let e = 0; e < 2; e++) totals[e] = add(totals[e], round[e]);
    console.log(
      `hash ${hash} round ${r + 1}: nodes/CPU s base ${Math.round(cpuNps[0])}, new ${Math.round(cpuNps[1])}, new/base ${fmt(npsRatios[r])}; ` +
        `CPU time new/base ${fmt(cpuRatios[r])}; wall nodes/s new/base ${fmt((round[1].nodes / round[1].ms) * (round[0].ms / round[0].nodes))}`,
    );
  }
  const [b, n] = totals;
  console.log(`hash ${hash}: nodes per search set: base ${b.nodes / rounds}, new ${n.nodes / rounds}`);
  console.log(
    `hash ${hash}: CPU time to depth ${depth}, new/base ${fmt(n.cpuMs / b.cpuMs)} (base ${Math.round(b.cpuMs / rounds)} ms, new ${Math.round(n.cpuMs / rounds)} ms a round; round median ${fmt(middle(cpuRatios))})`,
  );
  console.log(
    `hash ${hash}: nodes per CPU second, new/base ${fmt((n.nodes / n.cpuMs) * (b.cpuMs / b.nodes))} (base ${Math.round((b.nodes * 1000) / b.cpuMs)}, new ${Math.round((n.nodes * 1000) / n.cpuMs)}; round median ${fmt(middle(npsRatios))}; ` +
      `wall new/base ${fmt((n.nodes / n.ms) * (b.ms / b.nodes))}) over ${rounds} rounds of ${positions.length} positions`,
  );
}
