// Shared inputs of the training data tests: random legal games, and an empty data store.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateMoves } from '../../src/board/movegen.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { encodeGame } from '../../src/train/viriformat.js';
import { PERFT_FENS, rng } from '../eval/fixtures.js';

/** Random legal games from the perft suite's positions (castling, en passant, promotions, Chess960), with scores of every size. */
export function randomGames(count: number, seed: number): Uint8Array {
  const next = rng(seed);
  const list = new Int32Array(MAX_MOVES);
  const starts = [...PERFT_FENS, 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'];
  const parts: Uint8Array[] = [];
  for (let g = 0; g < count; g++) {
    const start = new Position(starts[next(starts.length)]);
    const pos = new Position(start.fen());
    const moves: number[] = [];
    const scores: number[] = [];
    const plies = next(4) === 0 ? 0 : next(120);
    for (let ply = 0; ply < plies; ply++) {
      const n = generateMoves(pos, list, 0, false);
      if (n === 0) break;
      const m = list[next(n)];
      moves.push(m);
      const kind = next(4);
      scores.push(kind === 0 ? next(65535) - 32767 : kind === 1 ? (next(2) ? 32767 : -32767) : next(400) - 200);
      pos.makeMove(m);
    }
    parts.push(encodeGame(start, next(3), moves, scores, moves.length));
  }
  return Uint8Array.from(parts.flatMap((p) => [...p]));
}

const HEADER =
  '| # | file | network | bundle | seed | settings | first game | games | positions | bytes | packed | sha256 |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n';
/** An empty store: the manifest's two tables and nothing else. */
export function emptyStore(dir: string): string {
  writeFileSync(join(dir, 'README.md'), `# Data\n\n## Training chunks\n\n${HEADER}\n## Held out\n\n${HEADER}`);
  return dir;
}
