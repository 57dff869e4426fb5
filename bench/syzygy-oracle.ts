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
import { writeFileSync } from 'node:fs';
import { generateMoves } from '../src/board/movegen.js';
import { Position } from '../src/board/position.js';
import { MAX_MOVES } from '../src/board/types.js';
import { PROBE_FAILED, wdlFromDtz } from '../src/syzygy/tablebases.js';
import { xorshift32 } from '../src/util/random.js';
import { numberOption, positionals, repeatedOption, requireFile } from './args.js';
import { openTables, randomTablePosition } from './syzygy-common.js';

const args = process.argv.slice(2);
const [folder, oracle] = positionals(args);
if (folder === undefined || oracle === undefined) {
  console.error('usage: syzygy-oracle.ts <tables folder> <oracle> [--per-table 1000] [--seed 1] [--write <file>] [--tables KQvK,KRvK]');
  process.exit(2);
}
requireFile(oracle, 'the oracle: gcc -O2 -o oracle contrib/syzygy/oracle.c -lfathom (apt-get install libfathom-dev)');
const perTable = numberOption(args, '--per-table', 1000);
const random = xorshift32(numberOption(args, '--seed', 1));
const next = (n: number): number => random() % n;
const write = repeatedOption(args, '--write')[0];
const only = repeatedOption(args, '--tables')[0]?.split(',');

const tb = openTables(folder);

const fens: string[] = [];
const names = tb.tableNames().filter((name) => only === undefined || only.includes(name));
for (const name of names) {
  let made = 0;
  for (let tries = 0; made < perTable && tries < perTable * 100; tries++) {
    const fen = randomTablePosition(name, next, { enPassant: true, counter: true });
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
  `${fens.length} positions (${eps} with en passant, ${counters} with a fifty-move counter) of ${names.length} tables: ` +
    `${differ} differ; Kestrel probed WDL and DTZ of each in ${(ms / fens.length).toFixed(3)} ms`,
);
if (write !== undefined) {
  writeFileSync(write, `${fens.map((f, i) => `${f};${answers[i]}`).join('\n')}\n`);
  console.log(`written to ${write}`);
}
