// Evaluation speed: evaluates a fixed set of positions many times and prints
// evaluations per second, next to legal move generation (generateMoves) on the
// same positions in the same run, so the relative cost is visible.
//   npx tsx bench/eval.ts [seconds-per-measurement, default 0.5]

import { readFileSync } from 'node:fs';
import { generateMoves } from '../src/board/movegen.js';
import { Position } from '../src/board/position.js';
import { evaluate, traceEvaluate } from '../src/eval/evaluate.js';

function fens(relative: string, limit: number): string[] {
  const text = readFileSync(new URL(`../test/data/${relative}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 4)
    .slice(0, limit)
    .map((f) => `${f.slice(0, 4).join(' ')} 0 1`);
}

// Openings, middlegames (WAC) and the odd endgame (perft suite): 300 positions.
const positions = [...fens('perftsuite.epd', 100), ...fens('uho-sample.epd', 100), ...fens('wac.epd', 100)].map((f) => new Position(f));
const seconds = Number(process.argv[2] ?? 0.5);
const moves = new Int32Array(256);

/** Runs `body` over all positions until `seconds` pass; returns calls per second. */
function measure(body: (pos: Position) => number): { rate: number; check: number } {
  let calls = 0;
  let check = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < seconds * 1000) {
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < positions.length; i++) check += body(positions[i]);
    }
    calls += 20 * positions.length;
    elapsed = performance.now() - start;
  }
  return { rate: (calls / elapsed) * 1000, check };
}

const evalBody = (pos: Position): number => evaluate(pos);
const genBody = (pos: Position): number => generateMoves(pos, moves, 0, false);
const traceBody = (pos: Position): number => traceEvaluate(pos);

measure(evalBody); // warm-up
measure(genBody);
// Interleave short measurements and keep the best of each, so load from other
// processes on the machine disturbs the ratio as little as possible.
let ev = 0;
let gen = 0;
let tr = 0;
const ratios: number[] = [];
let check = 0;
for (let rep = 0; rep < 5; rep++) {
  const e = measure(evalBody);
  const g = measure(genBody);
  const t = measure(traceBody);
  check += e.check + g.check + t.check;
  ev = Math.max(ev, e.rate);
  gen = Math.max(gen, g.rate);
  tr = Math.max(tr, t.rate);
  ratios.push(g.rate / e.rate);
}
ratios.sort((a, b) => a - b);
const fmt = (r: number): string => `${(r / 1e6).toFixed(2)}M/s`;
console.log(`positions ${positions.length}, 5 x ${seconds}s per measurement (best shown), node ${process.version}`);
console.log(`evaluate        ${fmt(ev)}  (${(1e9 / ev).toFixed(0)} ns/eval)`);
console.log(`generateMoves   ${fmt(gen)}  (${(1e9 / gen).toFixed(0)} ns/call)`);
console.log(`traceEvaluate   ${fmt(tr)}  (tuner/explain path, not for search)`);
console.log(`evaluate costs ${ratios[2].toFixed(2)}x a full legal move generation (median of 5)`);
if (check === 0.5) console.log('');
