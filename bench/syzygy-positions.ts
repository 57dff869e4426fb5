// Positions for the tablebase matches, written as EPD:
//   won:   random legal positions of the given tables that White, to move,
//          wins by the tables (DTZ at least --min-dtz plies, fifty-move counter
//          0): the conversion test, Kestrel with tables as White against
//          Kestrel without (fastchess -noswap);
//   endgames: positions of self-play games (the data store) with 6 to 8
//          pieces, no castling rights, scored within --max-score of level:
//          openings for Kestrel with tables against Kestrel without.
//
//   npx tsx bench/syzygy-positions.ts won <tables folder> --tables KQRvKR,KBBvKN [--count 50] [--min-dtz 20] > won.epd
//   npx tsx bench/syzygy-positions.ts endgames [--data data/] [--count 200] [--max-score 150] > endgames.epd

import { popcount64 } from '../src/board/bitboard.js';
import { generateMoves } from '../src/board/movegen.js';
import { Position } from '../src/board/position.js';
import { MAX_MOVES } from '../src/board/types.js';
import { expandDataPaths, readGameSource, replayGames } from '../src/train/nnue-data.js';
import { xorshift32 } from '../src/util/random.js';
import { numberOption, positionals, repeatedOption, requireFile } from './args.js';
import { openTables, randomTablePosition } from './syzygy-common.js';

const args = process.argv.slice(2);
const [kind, folder] = positionals(args);
const count = numberOption(args, '--count', kind === 'won' ? 50 : 200);
const random = xorshift32(numberOption(args, '--seed', 11));
const next = (n: number): number => random() % n;
const out: string[] = [];

if (kind === 'won') {
  if (folder === undefined) throw new Error('usage: syzygy-positions.ts won <tables folder> --tables A,B');
  const tb = openTables(folder);
  const tables = (repeatedOption(args, '--tables')[0] ?? '').split(',').filter((t) => t !== '');
  const minDtz = numberOption(args, '--min-dtz', 20);
  const moves = new Int32Array(MAX_MOVES);
  // The same number of each table's (the first ones one more when they do not divide evenly).
  tables.forEach((table, t) => {
    const wanted = Math.floor(count / tables.length) + (t < count % tables.length ? 1 : 0);
    let made = 0;
    for (let k = 0; made < wanted && k < wanted * 20000; k++) {
      const fen = randomTablePosition(table, next, { side: 'w', enPassant: false, counter: false });
      if (fen === null) continue;
      const pos = new Position(fen);
      if (generateMoves(pos, moves, 0, false) === 0 || tb.probeWdl(pos) !== 2 || tb.probeDtz(pos) < minDtz) continue;
      out.push(`${fen.split(' ').slice(0, 4).join(' ')} ; ${table}, won by the tables, DTZ ${tb.probeDtz(pos)}`);
      made++;
    }
  });
} else if (kind === 'endgames') {
  const data = repeatedOption(args, '--data')[0] ?? 'data/';
  requireFile(data, "the data store (the repository's data/)");
  const maxScore = numberOption(args, '--max-score', 150);
  const seen = new Set<string>();
  for (const file of expandDataPaths([data]).reverse()) {
    if (out.length >= count) break;
    let lastGame = -1;
    replayGames([readGameSource(file)], (pos, _move, score, _result, game) => {
      const n = popcount64(pos.bb[0] | pos.bb[16], pos.bb[1] | pos.bb[17]);
      if (out.length >= count || game === lastGame || n < 6 || n > 8 || pos.castling !== 0 || Math.abs(score) > maxScore) return;
      if (next(3) !== 0) return;
      const fen = pos.fen().split(' ').slice(0, 4).join(' ');
      if (seen.has(fen)) return;
      seen.add(fen);
      lastGame = game;
      out.push(`${fen} ; ${n} pieces, self-play score ${score} cp`);
    });
  }
} else {
  console.error('usage: syzygy-positions.ts won <tables folder> --tables A,B | endgames [--data data/]');
  process.exit(2);
}
process.stdout.write(`${out.join('\n')}\n`);
console.error(`${out.length} positions`);
