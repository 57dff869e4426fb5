// Nodes a second of Kestrel against other UCI engines on the same
// positions and time: every engine is started once (one thread, 16 MB), and
// each bench position is searched by each engine in turn with `go movetime`,
// the order rotating from position to position, so that all meet the
// machine in the same mood. Two figures per engine: nodes over the engines'
// own reported time (what a GUI shows), and nodes per CPU second of the
// engine's process, read from /proc (Linux) when its last info line came
// (the line whose nodes are counted), which other tenants' load barely
// moves. Each is given as a ratio to the first engine.
//
//   npx tsx bench/engines-nps.ts [--movetime 1000] [--positions 50] \
//     [--engine "Kestrel=node dist/kestrel.js"] [--engine "Ethereal=/usr/games/ethereal-chess"] ...
//
// Without --engine: Kestrel's dist/kestrel.js, Ethereal 12 (Debian's
// ethereal-chess) and Lozza (LOZZA=<checkout of op12no2/lozza>), those found.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BENCH_POSITIONS } from '../src/search/bench.js';
import { numberOption } from './args.js';
import { median } from './stats.js';

const args = process.argv.slice(2);
const movetime = numberOption(args, '--movetime', 1000);
const count = numberOption(args, '--positions', BENCH_POSITIONS.length);

function engineSpecs(): { name: string; command: string[] }[] {
  const given: string[] = [];
  for (let i = 0; i < args.length; i++) if (args[i] === '--engine') given.push(args[++i]);
  if (given.length > 0) {
    return given.map((spec) => {
      const eq = spec.indexOf('=');
      return { name: spec.slice(0, eq), command: spec.slice(eq + 1).split(' ') };
    });
  }
  const specs = [{ name: 'Kestrel', command: ['node', 'dist/kestrel.js'] }];
  if (existsSync('/usr/games/ethereal-chess')) specs.push({ name: 'Ethereal', command: ['/usr/games/ethereal-chess'] });
  else console.log('Ethereal: /usr/games/ethereal-chess not found (apt-get install ethereal-chess); left out');
  const lozza = process.env.LOZZA;
  if (lozza !== undefined && existsSync(join(lozza, 'lozza.js'))) specs.push({ name: 'Lozza', command: ['node', join(lozza, 'lozza.js')] });
  else console.log('Lozza: set LOZZA=<a checkout of op12no2/lozza> to include it; left out');
  return specs;
}

/** The process's user + system CPU time in seconds (Linux: /proc/<pid>/stat, clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

class Uci {
  private readonly child: ChildProcessWithoutNullStreams;
  private waiting: { prefix: string; resolve: () => void } | null = null;
  private last = '';
  /** The process's CPU seconds when the last info line with a node count came. */
  private lastCpu = 0;

  constructor(command: string[]) {
    this.child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      if (line.startsWith('info') && line.includes(' nodes ')) {
        this.last = line;
        this.lastCpu = cpuSeconds(this.child.pid!);
      }
      if (this.waiting !== null && line.startsWith(this.waiting.prefix)) {
        const w = this.waiting;
        this.waiting = null;
        w.resolve();
      }
    });
  }

  private ask(command: string, prefix: string): Promise<void> {
    return new Promise((resolve) => {
      this.waiting = { prefix, resolve };
      this.child.stdin.write(`${command}\n`);
    });
  }

  async start(): Promise<void> {
    await this.ask('uci', 'uciok');
    this.child.stdin.write('setoption name Threads value 1\nsetoption name Hash value 16\n');
    await this.ask('isready', 'readyok');
  }

  /** Searches fen for movetime ms: nodes, the engine's own time (ms) and the process's CPU seconds. */
  async search(fen: string): Promise<{ nodes: number; ms: number; cpu: number }> {
    this.child.stdin.write(`ucinewgame\nposition fen ${fen}\n`);
    await this.ask('isready', 'readyok');
    this.last = '';
    const before = cpuSeconds(this.child.pid!);
    await this.ask(`go movetime ${movetime}`, 'bestmove');
    const cpu = this.lastCpu - before;
    const nodes = Number(/ nodes (\d+)/.exec(this.last)?.[1] ?? 0);
    const ms = Number(/ time (\d+)/.exec(this.last)?.[1] ?? movetime);
    return { nodes, ms, cpu };
  }

  quit(): void {
    this.child.stdin.write('quit\n');
  }
}

const specs = engineSpecs();
const engines = specs.map((spec) => new Uci(spec.command));
for (const engine of engines) await engine.start();
const totals = specs.map(() => ({ nodes: 0, ms: 0, cpu: 0 }));
const ratios = specs.map(() => [] as number[]);
const positions = BENCH_POSITIONS.slice(0, count);
for (let p = 0; p < positions.length; p++) {
  const perCpu: number[] = [];
  for (let k = 0; k < engines.length; k++) {
    const e = (p + k) % engines.length;
    const r = await engines[e].search(positions[p]);
    totals[e].nodes += r.nodes;
    totals[e].ms += r.ms;
    totals[e].cpu += r.cpu;
    perCpu[e] = r.cpu > 0 ? r.nodes / r.cpu : 0;
  }
  for (let e = 0; e < engines.length; e++) ratios[e].push(perCpu[e] / perCpu[0]);
}
for (const engine of engines) engine.quit();

console.log(`${positions.length} bench positions, go movetime ${movetime}, one thread, 16 MB, engines alternating`);
for (let e = 0; e < specs.length; e++) {
  const t = totals[e];
  const nps = (t.nodes / t.ms) * 1000;
  const perCpu = t.nodes / t.cpu;
  const vs =
    e === 0
      ? ''
      : `; against ${specs[0].name}: nodes/s ${(nps / ((totals[0].nodes / totals[0].ms) * 1000)).toFixed(2)}, nodes/CPU s ${(perCpu / (totals[0].nodes / totals[0].cpu)).toFixed(2)} (position median ${median(ratios[e]).toFixed(2)})`;
  console.log(`${specs[e].name}: ${Math.round(nps)} nodes/s, ${Math.round(perCpu)} nodes/CPU s${vs}`);
}
