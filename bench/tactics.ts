// Tactical test suite runner: searches every position of an EPD file with
// `bm` (best move) / `am` (avoid move) operations for a fixed time and counts
// the positions where the engine's move is a best move (and no avoid move).
//
//   npx tsx bench/tactics.ts ../shared/data/tactical/wac.epd [--ms 1000 | --nodes n] [--hash 16] [--limit n]
//       [--driver pvs|mtdf|mcts|mcts-qs|mcts-uniform|mcts-qs-uniform]
//
// Positions are searched one after another with a fresh table (and tree),
// single-threaded, with the search driver given (default pvs). With --nodes
// each search stops after that many nodes (playouts for the mcts drivers)
// instead of a time: the result is then the same on every machine and every
// run, so two builds can be compared on a busy machine.
//
// Besides the count it prints the nodes (playouts) per second over all
// searches, and for the positions solved the time to the best move: when the
// search's reported line first started with the move it finally played, if
// every later line agreed (the median and mean over the solved positions).

import { moveToUci } from '../src/board/notation.js';
import { Position } from '../src/board/position.js';
import { parseSan } from '../src/board/san.js';
import { SearchControl } from '../src/search/control.js';
import { SEARCH_DRIVERS, type SearchDriver } from '../src/search/driver-list.js';
import { DEFAULT_SEARCH_OPTIONS, type SearchEvent } from '../src/search/limits.js';
import { Searcher } from '../src/search/search.js';
import { numberOption, positionals } from './args.js';
import { readEpdSuite } from './epd.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => numberOption(args, name, fallback);
const file = positionals(args)[0];
const driverAt = args.indexOf('--driver');
const driver = (driverAt >= 0 ? args[driverAt + 1] : 'pvs') as SearchDriver;
if (file === undefined || !SEARCH_DRIVERS.includes(driver)) {
  console.error(`usage: tactics.ts <suite.epd> [--ms 1000 | --nodes n] [--hash 16] [--limit n] [--driver ${SEARCH_DRIVERS.join('|')}]`);
  process.exit(2);
}
const ms = option('--ms', 1000);
const nodes = option('--nodes', 0);
const limits = nodes > 0 ? { nodes } : { movetime: ms };
const limit = option('--limit', Infinity);

const searcher = new Searcher(option('--hash', 16));
const problems = readEpdSuite(file, limit);
let solved = 0;
let totalNodes = 0;
let searchMs = 0;
const toBest: number[] = [];
const failed: string[] = [];
const t0 = performance.now();
for (const problem of problems) {
  const pos = new Position(problem.fen);
  const best = problem.best.map((san) => parseSan(pos, san));
  const avoid = problem.avoid.map((san) => parseSan(pos, san));
  searcher.clear();
  // The best line's first move and time of every line reported, and the final nodes.
  const firstMoves: { move: number; timeMs: number }[] = [];
  let lastNodes = 0;
  const report = (e: SearchEvent): void => {
    if (e.type !== 'line' || e.multipv !== 1 || e.bound !== 'exact') return;
    lastNodes = e.nodes;
    if (e.pv.length > 0) firstMoves.push({ move: e.pv[0], timeMs: e.timeMs });
  };
  const started = performance.now();
  const result = searcher.go({
    pos,
    params: { ...limits, infinite: false, ponder: false, searchmoves: [] },
    options: { ...DEFAULT_SEARCH_OPTIONS, moveOverhead: 0, driver },
    control: new SearchControl(),
    report,
  });
  searchMs += performance.now() - started;
  totalNodes += lastNodes;
  const played = result.move;
  const ok = (best.length === 0 || best.includes(played)) && !avoid.includes(played);
  if (ok) {
    solved++;
    // The first line of the final run of lines that start with the move played.
    let i = firstMoves.length;
    while (i > 0 && firstMoves[i - 1].move === played) i--;
    if (i < firstMoves.length) toBest.push(firstMoves[i].timeMs);
  } else
    failed.push(`${problem.id} (played ${moveToUci(pos, played)}, expected ${problem.best.join(' ') || `not ${problem.avoid.join(' ')}`})`);
}
const seconds = (performance.now() - t0) / 1000;
const sorted = [...toBest].sort((a, b) => a - b);
const median = sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)];
const mean = sorted.length === 0 ? 0 : sorted.reduce((s, x) => s + x, 0) / sorted.length;
const unit = driver.startsWith('mcts') ? 'playouts' : 'nodes';
console.log(
  `Solved ${solved} of ${problems.length} at ${nodes > 0 ? `${nodes} ${unit}` : `${ms} ms`} per position, driver ${driver} (${seconds.toFixed(0)} s in all)`,
);
console.log(`${unit[0].toUpperCase()}${unit.slice(1)} per second: ${Math.round((totalNodes * 1000) / Math.max(1, searchMs))}`);
console.log(`Time to the best move (solved positions): median ${median} ms, mean ${Math.round(mean)} ms`);
if (failed.length > 0) console.log(`Not solved: ${failed.join(', ')}`);
