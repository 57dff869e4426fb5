// Perft speed of Kestrel against chessops (a clear, idiomatic TypeScript
// chess library), side by side on the same positions: `npm run bench:perft`.
//
// Both count the same way: the last ply in bulk from the length of the legal
// move list, a promotion counting as four moves. chessops' own `perft` does
// exactly this (allDests() per node, pawn moves to the last rank counted 4x,
// a copy of the position per move above the last ply). Counts must agree with
// each other and with the suite before any time is printed.

import { readFileSync } from 'node:fs';
import { Chess } from 'chessops/chess';
import { perft as chessopsPerft } from 'chessops/debug';
import { parseFen } from 'chessops/fen';
import { Perft } from '../src/board/perft.js';
import { Position, START_FEN } from '../src/board/position.js';
import { parsePerftSuite } from '../src/cli/perft-suite.js';

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -';
const SUITE = new URL('../test/data/perftsuite.epd', import.meta.url);
const SUITE_DEPTH = 5;
/** Kestrel is fast enough to take the median of several runs; chessops runs once. */
const KESTREL_RUNS = 5;
const CHESSOPS_RUNS = 1;

interface Case {
  name: string;
  fens: string[];
  depth: number;
  /** Known counts per position, when the suite gives them. */
  expected?: number[];
}

const suite = parsePerftSuite(readFileSync(SUITE, 'utf8'), false);
const CASES: Case[] = [
  { name: 'start position, depth 6', fens: [START_FEN], depth: 6 },
  { name: 'kiwipete, depth 5', fens: [KIWIPETE], depth: 5 },
  {
    name: `perftsuite.epd (${suite.length} positions), depth ${SUITE_DEPTH}`,
    fens: suite.map((e) => e.fen),
    depth: SUITE_DEPTH,
    expected: suite.map((e) => e.counts.find((c) => c.depth === SUITE_DEPTH)?.nodes ?? -1),
  },
];

const kestrelPerft = new Perft();
const kestrelPos = new Position();

function kestrelCounts(fens: string[], depth: number): number[] {
  return fens.map((fen) => {
    kestrelPos.setFen(fen);
    return kestrelPerft.count(kestrelPos, depth);
  });
}

function chessopsCounts(fens: string[], depth: number): number[] {
  return fens.map((fen) => chessopsPerft(Chess.fromSetup(parseFen(fen).unwrap()).unwrap(), depth));
}

interface Timing {
  counts: number[];
  ms: number;
}

/** Runs `count` `runs` times; the counts of every run and the median time. */
function measure(runs: number, count: () => number[]): Timing {
  const times: number[] = [];
  let counts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const c = count();
    times.push(performance.now() - t0);
    if (i > 0 && c.join() !== counts.join()) throw new Error('counts differ between runs');
    counts = c;
  }
  times.sort((a, b) => a - b);
  return { counts, ms: times[Math.floor(times.length / 2)] };
}

function firstDifference(a: number[], b: number[]): number {
  return a.findIndex((x, i) => x !== b[i]);
}

const sum = (xs: number[]): number => xs.reduce((s, x) => s + x, 0);
const mnps = (nodes: number, ms: number): number => nodes / ms / 1000;

const chessopsVersion = JSON.parse(readFileSync(new URL('../node_modules/chessops/package.json', import.meta.url), 'utf8')).version;
console.log(`Perft, Kestrel against chessops ${chessopsVersion} on Node ${process.version}`);
console.log(`Kestrel: median of ${KESTREL_RUNS} runs; chessops: ${CHESSOPS_RUNS} run (it is slow).`);
console.log('Kestrel/chessops: how many times faster Kestrel is (ratio of nodes per second).\n');
const header = ['test', 'nodes', 'Kestrel s', 'Kestrel Mnps', 'chessops s', 'chessops Mnps', 'Kestrel/chessops'];
const widths = [44, 11, 10, 13, 11, 14, 16];
const row = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' ');
console.log(row(header));

let failed = false;
for (const c of CASES) {
  const kestrel = measure(KESTREL_RUNS, () => kestrelCounts(c.fens, c.depth));
  const chessops = measure(CHESSOPS_RUNS, () => chessopsCounts(c.fens, c.depth));
  const references = [{ who: 'chessops', counts: chessops.counts }];
  if (c.expected) references.push({ who: 'the suite', counts: c.expected });
  const wrong = references.find((ref) => firstDifference(kestrel.counts, ref.counts) >= 0);
  if (wrong) {
    const i = firstDifference(kestrel.counts, wrong.counts);
    console.log(`${c.name}: counts disagree at ${c.fens[i]}: Kestrel ${kestrel.counts[i]}, ${wrong.who} ${wrong.counts[i]}`);
    failed = true;
    continue;
  }
  const nodes = sum(kestrel.counts);
  console.log(
    row([
      c.name,
      String(nodes),
      (kestrel.ms / 1000).toFixed(2),
      mnps(nodes, kestrel.ms).toFixed(1),
      (chessops.ms / 1000).toFixed(2),
      mnps(nodes, chessops.ms).toFixed(1),
      `${(chessops.ms / kestrel.ms).toFixed(1)}x`,
    ]),
  );
}
if (failed) process.exitCode = 1;
