// Tactical test suite runner: searches every position of an EPD file with
// `bm` (best move) / `am` (avoid move) operations for a fixed time and counts
// the positions where the engine's move is a best move (and no avoid move).
//
//   npx tsx bench/tactics.ts ../shared/data/tactical/wac.epd [--ms 1000 | --nodes n] [--hash 16] [--limit n]
//
// Positions are searched one after another with a fresh table, single-threaded.
// With --nodes each search stops after that many nodes instead of a time:
// the result is then the same on every machine and every run, so two builds
// can be compared on a busy machine.

import { parseSan } from '../src/board/san.js';
import { Position } from '../src/board/position.js';
import { moveToUci } from '../src/board/notation.js';
import { SearchControl } from '../src/search/control.js';
import { DEFAULT_SEARCH_OPTIONS } from '../src/search/limits.js';
import { Searcher } from '../src/search/search.js';
import { numberOption, positionals } from './args.js';
import { readEpdSuite } from './epd.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => numberOption(args, name, fallback);
const file = positionals(args)[0];
if (file === undefined) {
  console.error('usage: tactics.ts <suite.epd> [--ms 1000 | --nodes n] [--hash 16] [--limit n]');
  process.exit(2);
}
const ms = option('--ms', 1000);
const nodes = option('--nodes', 0);
const limits = nodes > 0 ? { nodes } : { movetime: ms };
const limit = option('--limit', Infinity);

const searcher = new Searcher(option('--hash', 16));
const problems = readEpdSuite(file, limit);
let solved = 0;
const failed: string[] = [];
const t0 = performance.now();
for (const problem of problems) {
  const pos = new Position(problem.fen);
  const best = problem.best.map((san) => parseSan(pos, san));
  const avoid = problem.avoid.map((san) => parseSan(pos, san));
  searcher.clear();
  const result = searcher.go(
    pos,
    { ...limits, infinite: false, ponder: false, searchmoves: [] },
    { ...DEFAULT_SEARCH_OPTIONS, moveOverhead: 0 },
    new SearchControl(),
    () => {},
  );
  const played = result.move;
  const ok = (best.length === 0 || best.includes(played)) && !avoid.includes(played);
  if (ok) solved++;
  else
    failed.push(`${problem.id} (played ${moveToUci(pos, played)}, expected ${problem.best.join(' ') || `not ${problem.avoid.join(' ')}`})`);
}
const seconds = (performance.now() - t0) / 1000;
console.log(
  `Solved ${solved} of ${problems.length} at ${nodes > 0 ? `${nodes} nodes` : `${ms} ms`} per position (${seconds.toFixed(0)} s in all)`,
);
if (failed.length > 0) console.log(`Not solved: ${failed.join(', ')}`);
