// What tablebases cost and give the search: WDL probes per second on self-
// play positions in the tables (each probe with its capture resolution), and the
// search's nodes per second with and without the tables on endgames of self-
// play (positions of a few more pieces than the tables hold, from the data
// store), searched to a fixed depth by one searcher and then the other,
// alternating, in one run.
//
//   npx tsx bench/syzygy-speed.ts <tables folder> [--data data/] [--positions 60] [--depth 12] [--pieces 6]

import { popcount64 } from '../src/board/bitboard.js';
import { generateMoves } from '../src/board/movegen.js';
import { Position } from '../src/board/position.js';
import { MAX_MOVES } from '../src/board/types.js';
import { DEFAULT_TABLEBASE_USE } from '../src/engine/settings.js';
import { SearchControl } from '../src/search/control.js';
import { DEFAULT_SEARCH_OPTIONS, type GoParams } from '../src/search/limits.js';
import { Searcher } from '../src/search/search.js';
import { PROBE_FAILED } from '../src/syzygy/tablebases.js';
import { expandDataPaths, readGameSource, replayGames } from '../src/train/nnue-data.js';
import { xorshift32 } from '../src/util/random.js';
import { numberOption, positionals, repeatedOption, requireFile } from './args.js';
import { openTables } from './syzygy-common.js';

const args = process.argv.slice(2);
const [folder] = positionals(args);
if (folder === undefined) {
  console.error('usage: syzygy-speed.ts <tables folder> [--data data/] [--positions 60] [--depth 12] [--pieces 6]');
  process.exit(2);
}
const data = repeatedOption(args, '--data')[0] ?? 'data/';
requireFile(data, "the data store (the repository's data/) or viriformat games");
const count = numberOption(args, '--positions', 60);
const depth = numberOption(args, '--depth', 12);
const random = xorshift32(numberOption(args, '--seed', 3));

const tb = openTables(folder);
const pieces = numberOption(args, '--pieces', tb.maxPieces + 2);

// Endgames of self-play: positions of `pieces` pieces, no castling rights, one per game, every third game.
const fens: string[] = [];
const inTables: Position[] = [];
const piecesOf = (pos: Position): number => popcount64(pos.bb[0] | pos.bb[16], pos.bb[1] | pos.bb[17]);
for (const file of expandDataPaths([data]).reverse()) {
  if (fens.length >= count && inTables.length >= 2000) break;
  let lastGame = -1;
  replayGames([readGameSource(file)], (pos, _move, _score, _result, game) => {
    if (pos.castling !== 0) return;
    const n = piecesOf(pos);
    if (n <= tb.maxPieces && inTables.length < 2000 && random() % 4 === 0) {
      const copy = new Position(pos.fen());
      if (tb.probeWdl(copy) !== PROBE_FAILED) inTables.push(copy); // its table is in the folder
    }
    if (n === pieces && game !== lastGame && game % 3 === 0 && fens.length < count) {
      fens.push(pos.fen());
      lastGame = game;
    }
  });
}
console.log(`${fens.length} positions of ${pieces} pieces, ${inTables.length} in the tables, from ${data}`);

// 1. Probes.
let probes = 0;
const t0 = performance.now();
while (performance.now() - t0 < 3000) {
  for (const pos of inTables) tb.probeWdl(pos);
  probes += inTables.length;
}
const probeMs = performance.now() - t0;
console.log(
  `WDL probes (capture resolution included): ${Math.round((probes * 1000) / probeMs)} a second over ${inTables.length} self-play positions in the tables`,
);

// 2. Search with and without.
const params: GoParams = { depth, infinite: false, ponder: false, searchmoves: [] };
const with_ = new Searcher(16);
with_.setTablebases(tb, DEFAULT_TABLEBASE_USE);
const without = new Searcher(16);
const control = new SearchControl();
const totals = { with: [0, 0], without: [0, 0] }; // nodes, ms
let hits = 0;
const moves = new Int32Array(MAX_MOVES);
for (let i = 0; i < fens.length; i++) {
  const pos = new Position(fens[i]);
  if (generateMoves(pos, moves, 0, false) === 0) continue;
  const order = i % 2 === 0 ? ([with_, without] as const) : ([without, with_] as const);
  for (const s of order) {
    s.clear();
    control.reset();
    const t = performance.now();
    let tbhits = 0;
    s.go({
      pos: new Position(fens[i]),
      params,
      options: DEFAULT_SEARCH_OPTIONS,
      control,
      report: (e) => {
        if (e.type === 'line' && e.tbhits !== null) tbhits = e.tbhits;
      },
    });
    const ms = performance.now() - t;
    const key = s === with_ ? 'with' : 'without';
    totals[key][0] += s.nodes;
    totals[key][1] += ms;
    if (s === with_) hits += tbhits;
  }
}
const nps = (k: 'with' | 'without'): number => Math.round((totals[k][0] * 1000) / totals[k][1]);
console.log(
  `depth ${depth}: with tables ${totals.with[0]} nodes, ${nps('with')} nodes a second, ${hits} tbhits; ` +
    `without ${totals.without[0]} nodes, ${nps('without')} nodes a second; with/without nodes a second ${(nps('with') / nps('without')).toFixed(3)}, ` +
    `time ${(totals.with[1] / totals.without[1]).toFixed(3)}`,
);
