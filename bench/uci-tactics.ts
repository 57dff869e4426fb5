// Tactical test suite over UCI: runs any UCI engine (Kestrel's bundle, or
// another engine to compare with) on an EPD file with `bm` / `am` operations,
// one `go movetime` per position, and counts the positions where the engine's
// bestmove is a best move (and no avoid move). Unlike tactics.ts, which calls
// the search in-process, this measures the engine as a GUI sees it: worker
// thread, time management, output and all.
//
//   npx tsx bench/uci-tactics.ts ../shared/data/tactical/wac.epd [--ms 1000] [--limit n]
//       [--option Name=Value ...] -- <engine command> [args...]
//
// First one search of the start position (not counted), then before each
// problem: ucinewgame, position fen, isready (so that clearing the hash is
// not timed). The SAN moves of the suite are read with Kestrel's
// own parser and compared as UCI moves.

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { moveToUci } from '../src/board/notation.js';
import { Position } from '../src/board/position.js';
import { parseSan } from '../src/board/san.js';
import { readEpdSuite } from './epd.js';
import { numberOption, positionals, repeatedOption } from './args.js';

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const args = dashes >= 0 ? argv.slice(0, dashes) : argv;
const command = dashes >= 0 ? argv.slice(dashes + 1) : [];
const file = positionals(args)[0];
if (file === undefined || command.length === 0) {
  console.error('usage: uci-tactics.ts <suite.epd> [--ms 1000] [--limit n] [--option Name=Value ...] -- <engine command> [args...]');
  process.exit(2);
}
const ms = numberOption(args, '--ms', 1000);
const limit = numberOption(args, '--limit', Infinity);
const options = repeatedOption(args, '--option');

const problems = readEpdSuite(file, limit).map((p) => {
  const pos = new Position(p.fen);
  const uci = (san: string): string => moveToUci(pos, parseSan(pos, san));
  return { id: p.id, fen: p.fen, best: p.best.map(uci), avoid: p.avoid.map(uci) };
});

const engine = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
engine.on('exit', (code) => {
  if (!finished) {
    console.error(`the engine exited (code ${code}) before the suite was done`);
    process.exit(1);
  }
});
let finished = false;
let engineName = command.join(' ');
let waiting: { prefix: string; resolve: (line: string) => void } | null = null;
createInterface({ input: engine.stdout }).on('line', (line) => {
  if (line.startsWith('id name ')) engineName = line.slice(8).trim();
  if (waiting !== null && line.startsWith(waiting.prefix)) {
    const w = waiting;
    waiting = null;
    w.resolve(line);
  }
});
const send = (line: string): void => void engine.stdin.write(`${line}\n`);
/** The next line that starts with prefix; with a timeout, null when it does not come in time. */
function expect(prefix: string, timeoutMs = 0): Promise<string | null> {
  return new Promise((resolve) => {
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            waiting = null;
            resolve(null);
          }, timeoutMs)
        : null;
    waiting = {
      prefix,
      resolve: (line) => {
        if (timer !== null) clearTimeout(timer);
        resolve(line);
      },
    };
  });
}

send('uci');
await expect('uciok');
for (const o of options) {
  const eq = o.indexOf('=');
  send(`setoption name ${o.slice(0, eq)} value ${o.slice(eq + 1)}`);
}
// One untimed search first, so that the first problem does not meet a cold JIT.
send('ucinewgame');
send('position startpos');
send('isready');
await expect('readyok');
send(`go movetime ${ms}`);
await expect('bestmove');
let solved = 0;
const failed: string[] = [];
const t0 = performance.now();
for (const p of problems) {
  send('ucinewgame');
  send(`position fen ${p.fen}`);
  send('isready');
  await expect('readyok');
  send(`go movetime ${ms}`);
  let reply = await expect('bestmove', ms + 5000);
  if (reply === null) {
    send('stop');
    reply = await expect('bestmove');
  }
  const played = reply!.split(/\s+/)[1];
  if ((p.best.length === 0 || p.best.includes(played)) && !p.avoid.includes(played)) solved++;
  else failed.push(`${p.id} (${played})`);
}
finished = true;
send('quit');
const seconds = (performance.now() - t0) / 1000;
console.log(`${engineName}: solved ${solved} of ${problems.length} at ${ms} ms per position (${seconds.toFixed(0)} s in all)`);
if (failed.length > 0) console.log(`Not solved: ${failed.join(', ')}`);
