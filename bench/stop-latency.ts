// Stop latency over UCI: how long after `stop` the engine answers `bestmove`,
// for each search driver, as a GUI sees it (worker thread, output and all).
// For every position the drivers take turns (interleaved, so that a busy
// machine weighs on all alike): `position fen`, `go infinite`, a wait, `stop`,
// and the time from writing `stop` to reading `bestmove`. Prints, per driver,
// the median, 90th percentile and largest latency, and the median's ratio
// to the first driver's (pvs by default) measured in the same run.
//
//   npx tsx bench/stop-latency.ts [--drivers pvs,mcts,mcts-qs] [--positions 20] [--after 300]
//       [--hash 64] [--engine dist/kestrel.js]
//
// --after: milliseconds between `go infinite` and `stop` (the tree and table
// have grown by then); --positions: how many of the first positions of
// test/data/wac.epd. Build first (`npm run build`).

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { numberOption } from './args.js';
import { readEpdSuite } from './epd.js';

const args = process.argv.slice(2);
const textOption = (name: string, fallback: string): string => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const drivers = textOption('--drivers', 'pvs,mcts,mcts-qs').split(',');
const count = numberOption(args, '--positions', 20);
const afterMs = numberOption(args, '--after', 300);
const hash = numberOption(args, '--hash', 64);
const enginePath = textOption('--engine', 'dist/kestrel.js');

const fens = readEpdSuite('test/data/wac.epd', count).map((p) => p.fen);
const engine = spawn(process.execPath, [enginePath], { stdio: ['pipe', 'pipe', 'inherit'] });
let waiting: { prefix: string; resolve: (at: number) => void } | null = null;
createInterface({ input: engine.stdout }).on('line', (line) => {
  const at = performance.now();
  if (waiting !== null && line.startsWith(waiting.prefix)) {
    const w = waiting;
    waiting = null;
    w.resolve(at);
  }
});
const send = (line: string): void => void engine.stdin.write(`${line}\n`);
/** When the next line starting with prefix arrived. */
const next = (prefix: string): Promise<number> => new Promise((resolve) => (waiting = { prefix, resolve }));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function sync(): Promise<void> {
  const ready = next('readyok');
  send('isready');
  await ready;
}

const latencies = new Map<string, number[]>(drivers.map((d) => [d, []]));
send('uci');
await next('uciok');
send(`setoption name Hash value ${hash}`);
await sync();
for (const [i, fen] of fens.entries()) {
  for (const driver of drivers) {
    send(`setoption name SearchDriver value ${driver}`);
    send('ucinewgame');
    send(`position fen ${fen}`);
    await sync();
    send('go infinite');
    await sleep(afterMs);
    const answered = next('bestmove');
    const stoppedAt = performance.now();
    send('stop');
    latencies.get(driver)!.push((await answered) - stoppedAt);
  }
  process.stdout.write(`\rpositions: ${i + 1}/${fens.length}`);
}
send('quit');
console.log('');

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const base = quantile(latencies.get(drivers[0])!, 0.5);
console.log(`stop latency, ms (go infinite, stop after ${afterMs} ms, Hash ${hash}, ${fens.length} positions)`);
console.log('driver             median      p90      max   median / first');
for (const [driver, xs] of latencies) {
  const median = quantile(xs, 0.5);
  console.log(
    `${driver.padEnd(16)} ${median.toFixed(1).padStart(8)} ${quantile(xs, 0.9).toFixed(1).padStart(8)} ${Math.max(...xs)
      .toFixed(1)
      .padStart(8)}   ${(median / Math.max(0.001, base)).toFixed(2).padStart(14)}`,
  );
}
