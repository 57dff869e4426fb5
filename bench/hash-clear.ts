// How long a GUI waits for `readyok` after resizing and clearing a large
// transposition table: `setoption name Hash`, then `ucinewgame` on the fresh
// table, then a search (go depth), then `ucinewgame` after the search has
// written to it; with the engine's resident memory after each step.
//   npx tsx bench/hash-clear.ts [dist/kestrel.js] [--mb 4096] [--depth 10]

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { numberOption, positionals, requireFile } from './args.js';

const args = process.argv.slice(2);
const bundle = requireFile(positionals(args)[0] ?? 'dist/kestrel.js', 'build it with npm run build');
const mb = numberOption(args, '--mb', 4096);
const depth = numberOption(args, '--depth', 10);

const engine = spawn(process.execPath, [bundle], { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: engine.stdout });
const waiting: Array<{ prefix: string; resolve: () => void }> = [];
lines.on('line', (line) => {
  if (line.startsWith('info string')) console.log(line);
  const i = waiting.findIndex((w) => line.startsWith(w.prefix));
  if (i >= 0) waiting.splice(i, 1)[0].resolve();
});
const send = (text: string): void => void engine.stdin.write(`${text}\n`);
const until = (prefix: string): Promise<void> => new Promise((resolve) => waiting.push({ prefix, resolve }));

/** Milliseconds from sending `commands` to the `answer` line. */
async function timed(commands: string[], answer = 'readyok'): Promise<number> {
  const t0 = performance.now();
  const done = until(answer);
  for (const c of commands) send(c);
  await done;
  return performance.now() - t0;
}

/** The engine process's resident memory in MB (Linux). */
const rss = (): string => {
  try {
    return `${Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${engine.pid}/status`, 'utf8'))?.[1]) / 1024)} MB`;
  } catch {
    return '?';
  }
};

send('uci');
await until('uciok');
await timed(['isready']);
console.log(`RSS at start: ${rss()}`);
console.log(
  `Hash ${mb} MB, then isready:          ${Math.round(await timed([`setoption name Hash value ${mb}`, 'isready']))} ms, RSS ${rss()}`,
);
console.log(`ucinewgame on the fresh table:       ${Math.round(await timed(['ucinewgame', 'isready']))} ms`);
console.log(
  `position startpos, go depth ${depth}:       bestmove after ${Math.round(await timed(['position startpos', `go depth ${depth}`], 'bestmove'))} ms, RSS ${rss()}`,
);
console.log(`ucinewgame after a search wrote to it: ${Math.round(await timed(['ucinewgame', 'isready']))} ms, RSS ${rss()}`);
send('quit');
