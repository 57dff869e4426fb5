// The UCI engine by machine: the built bundle, fed thousands of random and
// mutated lines between real commands (position, go, stop, setoption,
// ucinewgame, isready, d, eval, bench), keeps answering every isready with
// readyok, never reports an internal error or dies, gives each go exactly one
// bestmove with a legal move (and a legal ponder move), and quits with code 0.
//
// The script is made by fast-check from the fixed seed, then played against
// one engine process. Lines that would start a job (go, bench, go perft) are
// sent only when no job runs, and waited for; lines that could run for
// minutes (bench at the default depth, deep perft, Hash of gigabytes, dozens
// of threads, `quit`) are left out of the noise.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { parseGo } from '../../src/uci/go-params.js';
import { UCI_COMMANDS } from '../../src/uci/commands.js';
import { OptionValues, optionLines } from '../../src/uci/options.js';
import { type EngineProcess, useEngines } from '../uci/engine-process.js';
import { FUZZ_TIMEOUT, REAL_FENS, REAL_UCI, SEED, editedFen, fuzzCount, mutated, playedFen, randomText } from './inputs.js';

/** The tokens of a line, and its command and arguments, as the UCI loop reads them. */
function commandOf(line: string): { cmd: string | null; args: string[] } {
  const tokens = line
    .trim()
    .split(/\s+/)
    .filter((t) => t !== '');
  const at = tokens.findIndex((t) => UCI_COMMANDS.has(t.toLowerCase()));
  return at < 0 ? { cmd: null, args: [] } : { cmd: tokens[at].toLowerCase(), args: tokens.slice(at + 1) };
}

const OPTION_NAMES = optionLines().map((l) => /^option name (.+?) type /.exec(l)![1]);
/** Files the engine may be pointed at: missing ones, a folder, and files that are not books or networks. */
const SAFE_FILES = ['/no/such/file.bin', 'test', 'package.json', 'test/data/wac.epd', '<empty>', '<built-in>'];

const UCI_TOKENS: readonly string[] = [
  ...UCI_COMMANDS,
  'name',
  'value',
  'fen',
  'startpos',
  'moves',
  'depth',
  'nodes',
  'movetime',
  'wtime',
  'btime',
  'searchmoves',
  'infinite',
  'ponder',
  'perft',
  ...OPTION_NAMES,
  'e2e4',
  'e7e5',
  'e1g1',
  'a7a8q',
  '0000',
  '-1',
  '99999999999',
  'true',
  'NaN',
];
const UCI_CHARS: readonly string[] = [...'abcdefghnpqrkNBRQK0123456789/- '];

/** Whether an option line is safe to send at any time (no Hash of gigabytes, no dozens of threads, no odd files). */
function safeOption(args: string[]): boolean {
  const { name, value } = new OptionValues().set(args);
  if (name === 'Hash') return (value as number) <= 64;
  if (name === 'Threads') return (value as number) <= 2;
  if (name === 'EvalFile' || name === 'BookFile') return SAFE_FILES.includes(value as string) || !/[/\\]/.test(value as string);
  return true;
}

const scratch = new Int32Array(MAX_MOVES);

/** `position ...` with real moves: from the start or a FEN, some moves played at random, sometimes a bad one at the end. */
const positionLine: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(fc.constant('startpos'), playedFen, editedFen),
    fc.array(fc.nat(), { maxLength: 30 }),
    fc.oneof(fc.constant(''), fc.constantFrom('e2e5', 'zz', 'e1g1', 'a7a8', '0000')),
  )
  .map(([start, picks, bad]) => {
    const pos = new Position();
    try {
      pos.setFen(start === 'startpos' ? REAL_FENS[0] : start);
    } catch {
      return `position fen ${start}${bad === '' ? '' : ` moves ${bad}`}`;
    }
    const moves: string[] = [];
    for (const pick of picks) {
      const n = generateMoves(pos, scratch, 0, false);
      if (n === 0) break;
      const move = scratch[pick % n];
      moves.push(moveToUci(pos, move));
      pos.makeMove(move);
    }
    if (bad !== '') moves.push(bad);
    return `position ${start === 'startpos' ? 'startpos' : `fen ${start}`}${moves.length > 0 ? ` moves ${moves.join(' ')}` : ''}`;
  });

/** `setoption` with a real name (any case, odd spacing) and a value that fits or not. */
const setoptionLine: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...OPTION_NAMES),
    fc.boolean(),
    fc.oneof(
      fc.integer({ min: -10, max: 300 }).map(String),
      fc.constantFrom(
        'true',
        'false',
        'TRUE',
        'maybe',
        '',
        '<empty>',
        'pvs',
        'mtdf',
        'best',
        'random',
        '1e3',
        '+5',
        '-0',
        '99999999999999999999',
      ),
      fc.constantFrom(...SAFE_FILES),
      randomText(UCI_CHARS, UCI_TOKENS, 12),
    ),
  )
  .map(([name, upper, value]) => `setoption name ${upper ? name.toUpperCase() : name.replace(/ /g, '  ')} value ${value}`);

/** A line of noise: mutated real lines, real lines, random text, setoption and position lines. */
const noiseLine: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 5, arbitrary: mutated(REAL_UCI, UCI_CHARS, UCI_TOKENS) },
    { weight: 2, arbitrary: randomText(UCI_CHARS, UCI_TOKENS, 60) },
    { weight: 2, arbitrary: fc.constantFrom(...REAL_UCI) },
    { weight: 2, arbitrary: setoptionLine },
    { weight: 2, arbitrary: positionLine },
    { weight: 1, arbitrary: fc.constantFrom('isready', 'd', 'eval', 'ucinewgame', 'stop', 'uci') },
  )
  // One line each: the engine's reader splits at \n and \r.
  .map((line) => line.replace(/[\r\n]/g, ' '));

/** `go` lines: finite ones a search ends by itself, and any other (mutated) one, stopped by the script. */
const FINITE_GO = [
  'go depth 1',
  'go depth 2',
  'go nodes 2000',
  'go movetime 30',
  'go wtime 300 btime 300',
  'go wtime 0 btime 0 winc 0',
  'go depth 3 mate 1',
];
const goLine: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...FINITE_GO) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'go infinite',
      'go ponder',
      'go depth 1 searchmoves e2e4 d2d4 zz',
      'go perft 2',
      'go perft 3',
      'bench 1',
      'bench 2 extra args',
    ),
  },
  {
    weight: 4,
    arbitrary: mutated(
      [...FINITE_GO, 'go infinite', 'go ponder wtime 1000 btime 1000', 'go perft 2', 'go searchmoves e2e4 depth 2', 'bench 1'],
      UCI_CHARS,
      UCI_TOKENS,
    ).map((line) => line.replace(/[\r\n]/g, ' ')),
  },
);

type Step =
  | { kind: 'line'; text: string }
  | { kind: 'ready' }
  /** A job: `go` (search), perft or bench. `during`: lines sent while it runs; stop: send `stop` after them. */
  | { kind: 'job'; text: string; job: 'search' | 'perft' | 'bench'; during: string[]; stop: boolean };

/** What a noise line may be sent as: a plain line, or nothing (it would start a job or quit). */
function plainLine(text: string): boolean {
  const { cmd, args } = commandOf(text);
  if (cmd === 'quit' || cmd === 'go' || cmd === 'bench') return false;
  return cmd !== 'setoption' || safeOption(args);
}

/** A job line as a step, or null for one that could run for minutes. */
function jobStep(text: string, during: string[], jobNoise: string[], stopIt: boolean): Step | null {
  const { cmd, args } = commandOf(text);
  if (cmd === 'bench') {
    // Bench takes no stop: only depths 1 and 2 (odd words after them are fine).
    if (!/^[12]$/.test(args[0] ?? '')) return null;
    return { kind: 'job', text, job: 'bench', during, stop: false };
  }
  if (cmd !== 'go') return null;
  const { params, perft } = parseGo(args, (t) => t);
  if (perft !== null) return perft <= 3 ? { kind: 'job', text, job: 'perft', during, stop: false } : null;
  if (params.infinite) {
    // Nothing but stop ends it: lines that would start a job are sent during it, and refused.
    const held = during.filter((l) => commandOf(l).cmd !== 'stop');
    return { kind: 'job', text, job: 'search', during: [...held, ...jobNoise], stop: true };
  }
  const finite = FINITE_GO.includes(text);
  return { kind: 'job', text, job: 'search', during, stop: !finite || stopIt };
}

/** The script: noise lines, a job now and then, an isready check every few lines. */
function makeScript(lines: number): Step[] {
  const noise = fc.sample(noiseLine, { seed: SEED, numRuns: lines });
  const gos = fc.sample(goLine, { seed: SEED + 1, numRuns: Math.ceil(lines / 25) });
  const choices = fc.sample(fc.tuple(fc.nat(6), fc.boolean()), { seed: SEED + 2, numRuns: gos.length });
  const steps: Step[] = [];
  let g = 0;
  for (let i = 0; i < noise.length; i++) {
    const text = noise[i];
    if (plainLine(text)) steps.push({ kind: 'line', text });
    else if (g < gos.length) gos.push(text); // a noise line that would start a job becomes one more job
    if (i % 25 === 24 && g < gos.length) {
      const [count, stopIt] = choices[g % choices.length];
      const during = noise.slice(i + 1, i + 1 + count).filter(plainLine);
      // Job lines of any kind (also bench at the default depth): refused while a search runs.
      const jobNoise = gos.slice(0, 3).concat(['bench', 'go perft 20', `go depth 5 ${noise[i].slice(0, 20)}`]);
      const step = jobStep(gos[g++], during, jobNoise, stopIt);
      if (step !== null) steps.push(step);
    }
    if (i % 10 === 9) steps.push({ kind: 'ready' });
  }
  // The jobs made from noise lines, at the end.
  while (g < gos.length) {
    const step = jobStep(gos[g++], [], [], true);
    if (step !== null) steps.push(step);
  }
  return steps;
}

/** Lines the engine prints for trouble that a loaded machine can cause (the watchdog), not a bug. */
const LOAD_ERRORS = /^info string error: (the search overran its time|the search did not answer stop|the search worker is not responding)/;

class Driver {
  readonly sent: string[] = [];
  /** The lines sent and, as '# wait ...', where the script waited (for KESTREL_FUZZ_TRANSCRIPT). */
  readonly log: string[] = [];
  isreadySent = 0;
  searches = 0;
  jobs = { search: 0, perft: 0, bench: 0 };
  private marks = 0;

  constructor(readonly engine: EngineProcess) {}

  send(line: string): void {
    this.sent.push(line);
    this.log.push(line);
    if (commandOf(line).cmd === 'isready') this.isreadySent++;
    this.engine.send(line);
  }

  /** What was sent last, for a failure message. */
  recent(): string {
    return this.sent
      .slice(-40)
      .map((l) => (l.length > 160 ? `${l.slice(0, 160)}...` : l))
      .join('\n');
  }

  count(re: RegExp): number {
    return this.engine.lines.filter((l) => re.test(l)).length;
  }

  /** Waits until every isready sent has its readyok. */
  async ready(timeoutMs = 20000): Promise<void> {
    this.log.push('# wait readyok');
    const deadline = performance.now() + timeoutMs;
    while (this.count(/^readyok$/) < this.isreadySent) {
      if (this.engine.exitCode !== null || performance.now() > deadline) {
        throw new Error(
          `${this.isreadySent} isready, ${this.count(/^readyok$/)} readyok (exit ${this.engine.exitCode}); sent last:\n${this.recent()}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** The engine's current position, from `d` (after a marker line, so that no earlier `d` is read). */
  async currentFen(): Promise<string> {
    const mark = `fuzz-mark-${++this.marks}`;
    this.send(mark);
    this.send('d');
    this.log.push('# wait fen');
    await this.engine.waitFor(new RegExp(`^info string unknown command: ${mark}$`), 20000);
    return (await this.engine.waitFor(/^Fen: /, 20000)).slice(5);
  }

  async job(step: Extract<Step, { kind: 'job' }>): Promise<void> {
    const fen = step.job === 'search' ? await this.currentFen() : null;
    this.engine.cursor = this.engine.lines.length;
    this.send(step.text);
    for (const line of step.during) this.send(line);
    if (step.stop) this.send('stop');
    this.jobs[step.job]++;
    this.log.push(`# wait ${step.job === 'search' ? 'bestmove' : 'nodes'}`);
    if (step.job !== 'search') {
      await this.engine.waitFor(/^Nodes searched: /, 60000);
      return;
    }
    this.searches++;
    const answer = await this.engine.waitFor(/^bestmove /, 30000);
    checkBestMove(fen!, answer, `${step.text} (then ${step.during.length} lines${step.stop ? ', stop' : ''})`);
  }
}

/** A bestmove is legal in the position searched ('0000' only when there is no legal move), and so is its ponder move after it. */
function checkBestMove(fen: string, answer: string, what: string): void {
  const m = /^bestmove (\S+)(?: ponder (\S+))?$/.exec(answer);
  expect(m, `'${answer}' after ${what}`).not.toBeNull();
  const pos = new Position(fen); // standard mode reads castling both as king-takes-rook and as the king's step
  const legal = generateMoves(pos, scratch, 0, false);
  if (m![1] === '0000') {
    expect(legal, `bestmove 0000 in ${fen} after ${what}`).toBe(0);
    return;
  }
  const move = parseUciMove(pos, m![1]); // throws if not legal
  if (m![2] !== undefined) {
    pos.makeMove(move);
    parseUciMove(pos, m![2]);
  }
}

describe('UCI engine process fuzzing', () => {
  const start = useEngines();

  it(
    'thousands of random lines: isready answered, no error, one legal bestmove per go',
    async () => {
      const script = makeScript(fuzzCount(2500));
      const engine = await start();
      const driver = new Driver(engine);
      try {
        for (const step of script) {
          if (step.kind === 'line') driver.send(step.text);
          else if (step.kind === 'ready') {
            driver.send('isready');
            await driver.ready();
          } else await driver.job(step);
          if (engine.exitCode !== null) throw new Error(`the engine exited with ${engine.exitCode}`);
        }
        driver.send('stop');
        driver.send('isready');
        await driver.ready();
      } catch (e) {
        throw new Error(`${(e as Error).message}\nsent last:\n${driver.recent()}\nstderr:\n${engine.stderr.slice(0, 2000)}`);
      }
      if (process.env.KESTREL_FUZZ_TRANSCRIPT) {
        const { writeFileSync } = await import('node:fs');
        writeFileSync(`${process.env.KESTREL_FUZZ_TRANSCRIPT}.in`, driver.log.join('\n'));
        writeFileSync(`${process.env.KESTREL_FUZZ_TRANSCRIPT}.out`, engine.lines.join('\n'));
      }
      // Every go had exactly one bestmove; every isready one readyok.
      expect(driver.count(/^bestmove /)).toBe(driver.searches);
      expect(driver.count(/^readyok$/)).toBe(driver.isreadySent);
      const errors = engine.lines.filter((l) => l.startsWith('info string error') && !LOAD_ERRORS.test(l));
      expect(errors).toEqual([]);
      expect(engine.stderr).toBe('');
      // A refused go is said so.
      expect(driver.count(/go ignored \(send stop first\)/)).toBeGreaterThan(0);
      expect(driver.jobs.search).toBeGreaterThan(50);

      driver.send('quit');
      expect(await engine.waitExit(10000)).toBe(0);
      console.log(
        `uci fuzz: ${driver.sent.length} lines sent, ${driver.jobs.search} searches, ${driver.jobs.perft} perfts, ${driver.jobs.bench} benches, ` +
          `${engine.lines.length} lines received, ${engine.lines.filter((l) => LOAD_ERRORS.test(l)).length} watchdog lines`,
      );
    },
    8 * FUZZ_TIMEOUT,
  );
});
