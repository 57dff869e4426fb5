// Kestrel's Syzygy prober against an independent one: Fathom (Debian's
// libfathom-dev), through contrib/syzygy/oracle.c. For every table found
// in the folder, random legal positions of its material (either side to
// move, some with an en passant capture, some with a fifty-move counter)
// are probed by both, and three values compared: the WDL at a counter of
// 0, the WDL once the position's counter is counted, and |DTZ| (or mate,
// stalemate). Prints each disagreement and the count.
//
//   gcc -O2 -o oracle contrib/syzygy/oracle.c -lfathom
//   npx tsx bench/syzygy-oracle.ts <tables folder> <oracle> [--per-table 1000] [--seed 1] [--write <file>] [--tables KQvK,KRvK]
//
// --write saves the positions and Fathom's answers (what test/syzygy reads).

import { execFileSync } from 'node:child_process';
import { fstatSync, openSync, readSync, readdirSync, writeFileSync } from 'node:fs';
import { generateMoves } from '../src/board/movegen.js';
import { Position } from '../src/board/position.js';
import { MAX_MOVES } from '../src/board/types.js';
import { PROBE_FAILED, Tablebases, wdlFromDtz } from '../src/syzygy/tablebases.js';
import { xorshift32 } from '../src/util/random.js';
import { numberOption, positionals, repeatedOption, requireFile } from './args.js';

const args = process.argv.slice(2);
const [folder, oracle] = positionals(args);
if (folder === undefined || oracle === undefined) {
  console.error('usage: syzygy-oracle.ts <tables folder> <oracle> [--per-table 1000] [--seed 1] [--write <file>] [--tables KQvK,KRvK]');
  process.exit(2);
}
requireFile(folder, 'a folder of Syzygy tables (docs/syzygy.md says how to make them)');
requireFile(oracle, 'the oracle: gcc -O2 -o oracle contrib/syzygy/oracle.c -lfathom (apt-get install libfathom-dev)');
const perTable = numberOption(args, '--per-table', 1000);
const random = xorshift32(numberOption(args, '--seed', 1));
const next = (n: number): number => random() % n;
const write = repeatedOption(args, '--write')[0];
const only = repeatedOption(args, '--tables')[0]?.split(',');

const tb = new Tablebases({
  list: (f) => readdirSync(f),
  open: (p) => {
    const fd = openSync(p, 'r');
    return { size: fstatSync(fd).size, read: (into, o, l, pos) => readSync(fd, into, o, l, pos) };
  },
});
const scan = tb.scan(folder);
console.log(`${folder}: ${scan.wdl} tables (${scan.dtz} with DTZ) up to ${scan.maxPieces} pieces`);

/** A random legal position of a table's material, or null (the caller tries again). */
function randomPosition(name: string): string | null {
  const board: string[] = new Array(64).fill('');
  const [white, black] = name.split('v');
  const place = (c: string, isWhite: boolean): void => {
    for (;;) {
      const sq = next(64);
      if (board[sq] !== '' || (c === 'P' && (sq < 8 || sq >= 56))) continue;
      board[sq] = isWhite ? c : c.toLowerCase();
      return;
    }
  };
  const side = next(2) === 0 ? 'w' : 'b';
  let ep = '-';
  let whitePieces = white;
  let blackPieces = black;
  // Now and then an en passant capture: a pawn that has just advanced two squares, beside one of the side to move.
  if (white.includes('P') && black.includes('P') && next(3) === 0) {
    const f = next(8);
    const beside = f === 0 ? 1 : f === 7 ? 6 : f + (next(2) === 0 ? -1 : 1);
    const rank = side === 'w' ? 4 : 3; // where the pawn that moved stands
    board[rank * 8 + f] = side === 'w' ? 'p' : 'P';
    board[rank * 8 + beside] = side === 'w' ? 'P' : 'p';
    // The squares it passed are empty (the rest are placed after).
    const passed = side === 'w' ? [rank * 8 + f + 8, rank * 8 + f + 16] : [rank * 8 + f - 8, rank * 8 + f - 16];
    for (const sq of passed) board[sq] = '-';
    ep = String.fromCharCode(97 + f) + String((passed[0] >> 3) + 1);
    whitePieces = white.replace('P', '');
    blackPieces = black.replace('P', '');
  }
  for (const c of whitePieces) place(c, true);
  for (const c of blackPieces) place(c, false);
  for (let sq = 0; sq < 64; sq++) if (board[sq] === '-') board[sq] = '';
  let fen = '';
  for (let r = 7; r >= 0; r--) {
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = board[r * 8 + f];
      if (p === '') empty++;
      else {
        if (empty > 0) fen += empty;
        empty = 0;
        fen += p;
      }
    }
    if (empty > 0) fen += empty;
    if (r > 0) fen += '/';
  }
  const counter = next(3) === 0 ? next(100) : 0;
  fen += ` ${side} - ${ep} ${ep === '-' ? counter : 0} 1`;
  const kings = [board.indexOf('K'), board.indexOf('k')];
  if (Math.abs((kings[0] >> 3) - (kings[1] >> 3)) <= 1 && Math.abs((kings[0] & 7) - (kings[1] & 7)) <= 1) return null;
  try {
    const pos = new Position(fen); // refuses a side not to move in check
    if (ep !== '-' && pos.ep < 0) return null;
  } catch {
    return null;
  }
  return fen;
}

const fens: string[] = [];
for (const name of tb.tableNames()) {
  if (only !== undefined && !only.includes(name)) continue;
  let made = 0;
  for (let tries = 0; made < perTable && tries < perTable * 100; tries++) {
    const fen = randomPosition(name);
    if (fen === null) continue;
    fens.push(fen);
    made++;
  }
}
const answers = execFileSync(oracle, [folder], { input: `${fens.join('\n')}\n`, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'ignore'] })
  .toString()
  .trim()
  .split('\n');

/** Kestrel's answer in the oracle's words. */
const moves = new Int32Array(MAX_MOVES);
function kestrel(fen: string): string {
  const pos = new Position(fen);
  const w0 = tb.probeWdl(pos);
  const first = w0 === PROBE_FAILED ? 'fail' : String(w0);
  if (generateMoves(pos, moves, 0, false) === 0) return `${first} ${pos.inCheck() ? 'mate' : 'stalemate'}`;
  const dtz = tb.probeDtz(pos);
  return `${first} ${dtz === PROBE_FAILED ? 'fail' : `${wdlFromDtz(dtz, pos.halfmove)} ${Math.abs(dtz)}`}`;
}

let differ = 0;
const t0 = performance.now();
for (let i = 0; i < fens.length; i++) {
  const mine = kestrel(fens[i]);
  if (mine === answers[i]) continue;
  differ++;
  if (differ <= 20) console.log(`${fens[i]}: Kestrel '${mine}', Fathom '${answers[i]}'`);
}
const ms = performance.now() - t0;
const eps = fens.filter((f) => f.split(' ')[3] !== '-').length;
const counters = fens.filter((f) => f.split(' ')[4] !== '0').length;
console.log(
  `${fens.length} positions (${eps} with en passant, ${counters} with a fifty-move counter) of ${tb.tableNames().length} tables: ` +
    `${differ} differ; Kestrel probed WDL and DTZ of each in ${(ms / fens.length).toFixed(3)} ms`,
);
if (write !== undefined) {
  writeFileSync(write, `${fens.map((f, i) => `${f};${answers[i]}`).join('\n')}\n`);
  console.log(`written to ${write}`);
}
