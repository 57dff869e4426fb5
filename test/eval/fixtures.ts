// Shared test positions for the evaluation tests: the perft suite, the first
// openings of UHO, Win-at-Chess, and positions reached by random legal walks.

import { generateMoves } from '../../src/board/movegen.js';
import { Position } from '../../src/board/position.js';
import { xorshift32 } from '../../src/util/random.js';
import { readTestData } from '../data.js';

function epdFens(relative: string, limit: number): string[] {
  const text = readTestData(relative);
  const fens: string[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 4) continue;
    fens.push(`${fields.slice(0, 4).join(' ')} 0 1`);
    if (fens.length >= limit) break;
  }
  return fens;
}

/** Deterministic random numbers in [0, n) (xorshift32; seed 0 counts as 1). */
export function rng(seed: number): (n: number) => number {
  const random = xorshift32(seed | 0 || 1);
  return (n: number): number => random() % n;
}

/** FENs of positions met on random legal walks of up to `plies` from each start FEN. */
function walkFens(starts: readonly string[], plies: number, seed: number): string[] {
  const next = rng(seed);
  const moves = new Int32Array(256);
  const out: string[] = [];
  for (const fen of starts) {
    const pos = new Position(fen);
    for (let ply = 0; ply < plies; ply++) {
      const n = generateMoves(pos, moves, 0, false);
      if (n === 0) break;
      pos.makeMove(moves[next(n)]);
      if (ply % 4 === 3) out.push(pos.fen());
    }
  }
  return out;
}

export const PERFT_FENS = epdFens('perftsuite.epd', 1000);
export const UHO_FENS = epdFens('uho-sample.epd', 300);
export const WAC_FENS = epdFens('wac.epd', 300);
/** Random walks (long enough to reach endgames) from a sample of the suites. */
export const WALK_FENS = walkFens([...PERFT_FENS, ...UHO_FENS.slice(0, 60), ...WAC_FENS.slice(0, 60)], 120, 12345);
export const ALL_FENS = [...PERFT_FENS, ...UHO_FENS, ...WAC_FENS, ...WALK_FENS];

/** The colour-flipped position: ranks mirrored, colours and side to move swapped. */
export function mirrorFen(fen: string): string {
  const [placement, side, castling, ep, ...rest] = fen.trim().split(/\s+/);
  const swapCase = (s: string): string => s.replace(/[a-zA-Z]/g, (ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase()));
  const ranks = placement.split('/').reverse().map(swapCase).join('/');
  const flippedEp = ep === '-' ? '-' : ep[0] + String(9 - Number(ep[1]));
  // White's rights first, as FEN writes them.
  const swapped = [...swapCase(castling)];
  const flippedCastling = castling === '-' ? '-' : [...swapped.filter((ch) => ch < 'a'), ...swapped.filter((ch) => ch >= 'a')].join('');
  return [ranks, side === 'w' ? 'b' : 'w', flippedCastling, flippedEp, ...rest].join(' ');
}
