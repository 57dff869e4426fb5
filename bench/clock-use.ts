// How each engine of a match spent its clock: from the move times that
// fastchess and cutechess-cli write in the move comments (`{+0.15/8 0.228s}`),
// per engine the median time used a game, the median clock left at the end
// (the time control's base plus its increments, less the time used), the
// median number of moves and the median depth reached; and the least clock
// any move left (after the move, before its increment), which says how near a
// time plan runs to a loss. A time plan that leaves seconds on the clock gives
// away depth (docs/records/matches.md, "Clock use").
//
//   npx tsx bench/clock-use.ts <games.pgn>...

import { readFileSync } from 'node:fs';
import { parsePgn } from '../src/board/pgn.js';
import { positionals, requireFile } from './args.js';
import { median } from './stats.js';

interface Use {
  used: number[];
  left: number[];
  /** The least clock after a move, before its increment, one per game. */
  lowest: number[];
  moves: number[];
  depths: number[];
}

const files = positionals(process.argv.slice(2));
if (files.length === 0) {
  console.error('usage: clock-use.ts <games.pgn>...');
  process.exit(2);
}

const byEngine = new Map<string, Use>();
let skipped = 0;
for (const file of files) {
  requireFile(file, 'a PGN written by fastchess or cutechess-cli');
  for (const game of parsePgn(readFileSync(file, 'utf8'))) {
    const tc = /^(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$/.exec(game.tags.TimeControl ?? '');
    if (tc === null || game.comments === undefined) {
      skipped++;
      continue;
    }
    const blackFirst = / b /.test(game.tags.FEN ?? '');
    const names = blackFirst ? [game.tags.Black, game.tags.White] : [game.tags.White, game.tags.Black];
    const used = [0, 0];
    const moves = [0, 0];
    const lowest = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
    const [base, inc] = [Number(tc[1]), Number(tc[2])];
    /** The clock of `side` after its moves so far, before the last one's increment. */
    const clock = (side: number): number => base + inc * moves[side] - used[side];
    for (let i = 0; i < game.comments.length; i++) {
      const m = /\/(\d+) (\d+(?:\.\d+)?)s/.exec(game.comments[i]);
      if (m === null) continue;
      const side = i & 1;
      used[side] += Number(m[2]);
      lowest[side] = Math.min(lowest[side], clock(side));
      moves[side]++;
      const use = byEngine.get(names[side]) ?? { used: [], left: [], lowest: [], moves: [], depths: [] };
      byEngine.set(names[side], use);
      use.depths.push(Number(m[1]));
    }
    for (let side = 0; side < 2; side++) {
      const use = byEngine.get(names[side]);
      if (use === undefined) continue;
      use.used.push(used[side]);
      use.left.push(clock(side));
      if (moves[side] > 0) use.lowest.push(lowest[side]);
      use.moves.push(moves[side]);
    }
  }
}

for (const [name, use] of byEngine) {
  console.log(
    `${name}: ${use.used.length} games, time used a game ${median(use.used).toFixed(1)} s, ` +
      `left at the end ${median(use.left).toFixed(1)} s, moves ${median(use.moves)}, depth ${median(use.depths)} (medians); ` +
      `least clock after a move ${(Math.min(...use.lowest) * 1000).toFixed(0)} ms (median of games ${(median(use.lowest) * 1000).toFixed(0)} ms)`,
  );
}
if (skipped > 0) console.log(`${skipped} games without a time control or move times skipped`);
