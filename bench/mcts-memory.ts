// The memory of the mcts drivers' tree: after a search of a fixed number of
// playouts (from an empty tree, in a pool too large to fill), the bytes in
// use per playout, split into nodes and edge blocks, and how many playouts a
// tree of 16 MB would hold at that rate. Counts, not timings: the same on
// any machine.
//
//   npx tsx bench/mcts-memory.ts [--playouts 20000] [--drivers mcts,mcts-qs] [--wac 20]
//
// Rows: a few named positions, then the mean over the first --wac positions
// of test/data/wac.epd.

import { Position } from '../src/board/position.js';
import { SearchControl } from '../src/search/control.js';
import { SEARCH_DRIVERS, type SearchDriver } from '../src/search/driver-list.js';
import { DEFAULT_SEARCH_OPTIONS } from '../src/search/limits.js';
import { EDGE_BYTES, NODE_BYTES } from '../src/search/mcts/tree.js';
import { Driver } from '../src/search/driver.js';
import { numberOption } from './args.js';
import { readEpdSuite } from './epd.js';

const args = process.argv.slice(2);
const playouts = numberOption(args, '--playouts', 20000);
const wacCount = numberOption(args, '--wac', 20);
const driversAt = args.indexOf('--drivers');
const drivers = (driversAt >= 0 ? args[driversAt + 1] : 'mcts,mcts-qs').split(',') as SearchDriver[];
if (drivers.some((d) => !SEARCH_DRIVERS.includes(d) || !d.startsWith('mcts'))) {
  console.error('usage: mcts-memory.ts [--playouts 20000] [--drivers mcts,mcts-qs] [--wac 20]');
  process.exit(2);
}

const NAMED: Array<[string, string]> = [
  ['start position', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'],
  ['kiwipete', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'],
  ['QGD middlegame', 'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8'],
  ['rook endgame', '8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1'],
  ['pawn endgame', '8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 50'],
];
/** Large enough that no search here fills it. */
const HASH_MB = 512;
const MB16 = 16 * 1024 * 1024;

interface Use {
  nodeBytes: number;
  edgeBytes: number;
  playouts: number;
}

const searcher = new Driver(HASH_MB);
function measure(fen: string, driver: SearchDriver): Use {
  searcher.clear();
  searcher.go({
    pos: new Position(fen),
    params: { nodes: playouts, infinite: false, ponder: false, searchmoves: [] },
    options: { ...DEFAULT_SEARCH_OPTIONS, driver },
    control: new SearchControl(),
  });
  const tree = searcher.mctsTree!;
  return { nodeBytes: tree.nodeCount * NODE_BYTES, edgeBytes: tree.bytesUsed() - tree.nodeCount * NODE_BYTES, playouts: tree.visits(0) };
}

function row(name: string, driver: string, use: Use): void {
  const perPlayout = (use.nodeBytes + use.edgeBytes) / use.playouts;
  console.log(
    `${name.padEnd(22)} ${driver.padEnd(15)} ${String(use.playouts).padStart(8)}` +
      ` ${(use.nodeBytes / use.playouts).toFixed(0).padStart(6)} ${(use.edgeBytes / use.playouts).toFixed(0).padStart(6)}` +
      ` ${perPlayout.toFixed(0).padStart(6)} ${String(Math.floor(MB16 / perPlayout)).padStart(10)}`,
  );
}

console.log(`Tree memory after ${playouts} playouts (node ${NODE_BYTES} B, edge ${EDGE_BYTES} B; bytes per playout)`);
console.log('position               driver          playouts  nodes  edges  total  in 16 MB');
const wac = readEpdSuite('test/data/wac.epd', wacCount).map((p) => p.fen);
for (const driver of drivers) {
  for (const [name, fen] of NAMED) row(name, driver, measure(fen, driver));
  const sum: Use = { nodeBytes: 0, edgeBytes: 0, playouts: 0 };
  for (const fen of wac) {
    const use = measure(fen, driver);
    sum.nodeBytes += use.nodeBytes;
    sum.edgeBytes += use.edgeBytes;
    sum.playouts += use.playouts;
  }
  if (wac.length > 0) row(`WAC 1-${wac.length} (all)`, driver, sum);
}
