// What Threads costs over UCI: for each thread count, the time from
// `setoption name Threads value N` + `isready` to `readyok`, the engine
// process's resident memory once it answered, and a `go movetime` after it
// (its bestmove's delay, and whether the engine said anything went wrong);
// then how long `quit` takes while the largest count's helpers are still
// booting (at once, after a while, with a search waiting). Each count is measured in a process of its own (the first being
// Threads 1, the baseline for memory per extra thread).
//
//   npx tsx bench/threads-boot.ts [dist/kestrel.js] [--threads 1,2,8,16,64] [--movetime 1000]
//
// Latencies are wall time: on a shared machine say what else was running.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { numberOption, positionals, requireFile } from './args.js';

const args = process.argv.slice(2);
const bundle = requireFile(positionals(args)[0] ?? 'dist/kestrel.js', 'build it with npm run build');
const ti = args.indexOf('--threads');
const counts = (ti >= 0 ? args[ti + 1] : '1,2,8,16,64').split(',').map(Number);
const movetime = numberOption(args, '--movetime', 1000);

interface Engine {
  send(text: string): void;
  /** Resolves with the milliseconds until a line starting with prefix (from now). */
  until(prefix: string): Promise<number>;
  /** Lines seen that start with `info string`. */
  notes: string[];
  rssMb(): number;
  /** CPU time (user + system) of the engine process so far, in ms. */
  cpuMs(): number;
  exited: Promise<number>;
}

function start(): Engine {
  const child = spawn(process.execPath, [bundle], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const waiting: Array<{ prefix: string; t0: number; resolve: (ms: number) => void }> = [];
  const notes: string[] = [];
  lines.on('line', (line) => {
    if (line.startsWith('info string')) notes.push(line);
    const i = waiting.findIndex((w) => line.startsWith(w.prefix));
    if (i >= 0) {
      const w = waiting.splice(i, 1)[0];
      w.resolve(performance.now() - w.t0);
    }
  });
  const t0 = performance.now();
  const exited = new Promise<number>((resolve) => child.on('exit', () => resolve(performance.now() - t0)));
  return {
    send: (text) => void child.stdin.write(`${text}\n`),
    until: (prefix) => new Promise((resolve) => waiting.push({ prefix, t0: performance.now(), resolve })),
    notes,
    rssMb: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
    },
    cpuMs: () => {
      // Fields 14 and 15 of /proc/<pid>/stat (after the command name, which ends with ')'), in clock ticks (100 per second).
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    exited,
  };
}

async function measure(threads: number): Promise<void> {
  const e = start();
  e.send('uci');
  await e.until('uciok');
  const ready0 = e.until('readyok');
  e.send('isready');
  await ready0;
  const rss0 = e.rssMb();
  const cpu0 = e.cpuMs();
  const ready = e.until('readyok');
  e.send(`setoption name Threads value ${threads}`);
  e.send('isready');
  const readyMs = await ready;
  const cpuMs = e.cpuMs() - cpu0;
  // Let anything started in the background settle before reading memory.
  await new Promise((r) => setTimeout(r, 300));
  const rss = e.rssMb();
  const best = e.until('bestmove');
  e.send('position startpos');
  e.send(`go movetime ${movetime}`);
  const bestMs = await best;
  const rssAfter = e.rssMb();
  e.send('quit');
  await e.exited;
  const problems = e.notes.filter((n) => /error|did not|overran/.test(n));
  console.log(
    `Threads ${String(threads).padStart(3)}: readyok ${String(Math.round(readyMs)).padStart(6)} ms (CPU ${String(cpuMs).padStart(5)} ms), ` +
      `RSS ${rss0.toFixed(0)} MB before, ${rss.toFixed(0)} MB at readyok, ${rssAfter.toFixed(0)} MB after the search; ` +
      `go movetime ${movetime}: bestmove after ${Math.round(bestMs)} ms${problems.length > 0 ? `; ${problems.join(' | ')}` : ''}`,
  );
}

for (const n of counts) await measure(n);

// quit while the helpers boot: at once, after 200 ms and after 1 s, and with a search waiting for them.
const most = Math.max(...counts);
for (const [delay, withGo] of [
  [0, false],
  [200, false],
  [1000, false],
  [200, true],
] as const) {
  const e = start();
  e.send('uci');
  await e.until('uciok');
  e.send(`setoption name Threads value ${most}`);
  e.send('isready');
  if (withGo) e.send('go movetime 2000');
  await new Promise((r) => setTimeout(r, delay));
  const t0 = performance.now();
  e.send('quit');
  await e.exited;
  console.log(
    `quit ${delay} ms after setoption Threads ${most} + isready${withGo ? ' + go movetime 2000' : ''}: the process ended ${Math.round(performance.now() - t0)} ms later`,
  );
}
