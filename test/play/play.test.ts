// `kestrel play` as a person uses it: a whole short game in a real terminal
// (tmux: keys sent, the screen read back), and the same with piped standard
// input; clocks, draws, resignation and Ctrl-C.

import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../uci/engine-process.js';
import { scratchDir } from '../scratch.js';

const KESTREL = join(ROOT, 'dist', 'kestrel.js');
/** The build's name, as `kestrel --version` prints it (the version, and between releases the commit). */
const NAME = spawnSync(process.execPath, [KESTREL, '--version'], { encoding: 'utf8' }).stdout.trim();
const dir = scratchDir('kestrel-play-');

/** White: Kf6, Ra1; Black: Kh8. 1. Kg6 Kg8 (forced) 2. Ra8#. */
const MATE_IN_TWO = '7k/8/5K2/8/8/8/8/R7 w - - 0 1';

function play(args: string[], input: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [KESTREL, 'play', ...args], { input, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const ESCAPE = '\u001b';

describe('kestrel play with piped input', () => {
  it('plays a whole game: an illegal move, undo, hint, mate and save; letters, no escape codes', () => {
    const pgn = join(dir, 'piped.pgn');
    const r = play(
      ['--fen', MATE_IN_TWO, '--level', '3', '--seed', '7'],
      ['Kg7', 'Kg6', 'undo', 'hint', 'Kg6', 'Ra8#', `save ${pgn}`, ''].join('\n'),
    );
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain(ESCAPE);
    expect(r.stdout).toContain(`Kestrel ${NAME}: you play White; Kestrel plays at level 3 (about 795 Elo). Seed 7.`);
    expect(r.stdout).toContain('Kg7 is not legal: your king would be in check on g7. Try: ');
    expect(r.stdout).toContain('Took back Kg6 Kg8.');
    expect(r.stdout).toMatch(/Hint: 1\. \S+ \(/);
    // The engine's thinking, once, then its move.
    expect(r.stdout).toMatch(/Kestrel thinks: depth \d+ {2}#1 {2}1\.\.\. Kg8 2\. Ra8#\nKestrel plays 1\.\.\. Kg8 \(depth \d+, #1\)/);
    expect(r.stdout).toContain('Checkmate: White wins. (1-0)');
    expect(r.stdout).toContain('Type save <file> to keep the game as PGN');
    // The board in letters, the last move bracketed, the mated king starred.
    expect(r.stdout).toContain('8 [R] .  .  .  .  . *k* . ');
    expect(r.stdout).toContain('   a  b  c  d  e  f  g  h ');
    const saved = readFileSync(pgn, 'utf8');
    expect(saved).toContain('[White "Human"]\n[Black "Kestrel level 3"]\n[Result "1-0"]');
    expect(saved).toContain('[FEN "7k/8/5K2/8/8/8/8/R7 w - - 0 1"]');
    expect(saved).toMatch(/\n1\. Kg6 Kg8 \{\[%eval #1\]\} 2\. Ra8# \{Checkmate: White wins\.\} 1-0\n$/);
  }, 60_000);

  it('two people at one keyboard: fool’s mate, forgiving input', () => {
    const r = play(['--white', 'human', '--black', 'human'], ['f3', 'e7e5', 'g4??', 'Qh4+', 'fen', ''].join('\n'));
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('two players at one keyboard');
    expect(r.stdout).toContain('Checkmate: Black wins. (0-1)');
    expect(r.stdout).toContain('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3');
  }, 30_000);

  it('two engines play to the end with no input at all', () => {
    const r = play(['--white', 'engine', '--black', 'engine', '--fen', MATE_IN_TWO, '--level', '8'], '');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Kestrel against itself at level 8');
    expect(r.stdout).toContain('Checkmate: White wins. (1-0)');
  }, 30_000);

  it('at full strength the engine searches with the driver asked for; the levels say they keep to pvs', () => {
    const r = play(['--white', 'engine', '--black', 'engine', '--fen', MATE_IN_TWO, '--level', '20', '--driver', 'mcts'], '');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Checkmate: White wins. (1-0)');
    expect(r.stdout).not.toContain('The levels search with pvs');
    const levels = play(['--fen', MATE_IN_TWO, '--level', '5', '--driver', 'mcts-qs'], 'quit\n');
    expect(levels.stdout).toContain(
      'The levels search with pvs, with which they were measured: the mcts-qs driver plays at full strength (level 20).',
    );
  }, 60_000);

  it('two engines from the start: the same game for the same seed, another for another seed', () => {
    const game = (seed: string): string => play(['--white', 'engine', '--black', 'engine', '--level', '6', '--seed', seed], '').stdout;
    const a = game('5');
    expect(a).toMatch(/(Checkmate|Draw|Stalemate)[^\n]*\((1-0|0-1|1\/2-1\/2)\)/);
    expect(game('5')).toBe(a);
    expect(game('6').replace('Seed 6', 'Seed 5')).not.toBe(a);
  }, 60_000);

  it('a position that is over already says so', () => {
    const r = play(['--fen', '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'], '');
    expect(r.stdout).toContain('Stalemate: a draw. (1/2-1/2)');
  });

  it('resign, new game, level, and a draw offer declined early', () => {
    const r = play(['--seed', '1', '--level', '1200'], ['e4', 'draw', 'resign', 'pgn', 'new', 'level 25', 'level 4', 'quit'].join('\n'));
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Kestrel plays at Elo 1200 (between levels 6 and 7)');
    expect(r.stdout).toContain('Kestrel declines: it is early in the game');
    expect(r.stdout).toContain('White resigns: Black wins. (0-1)');
    expect(r.stdout).toMatch(/\[Result "0-1"\][\s\S]*1\. e4 \S+ \{White resigns: Black wins\.\} 0-1/);
    expect(r.stdout).toContain('A new game.');
    expect(r.stdout).toMatch(/level: give a Skill Level from 0 to 20/);
    expect(r.stdout).toContain('Kestrel now plays at level 4 (about 880 Elo).');
  }, 30_000);

  it('late in the game, Kestrel accepts a draw when its evaluation is near zero, and declines when it is winning', () => {
    const level = play(['--fen', '4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 40'], 'draw\n');
    expect(level.stdout).toContain('Draw agreed. (1/2-1/2)');
    const winning = play(['--fen', '4k3/8/8/8/8/8/q7/4K3 w - - 0 40'], 'draw\n');
    expect(winning.stdout).toMatch(/Kestrel declines the draw \(it sees -\d+\.\d\d\)\./);
  }, 30_000);

  it('a flag fall is a draw when the other side cannot mate', async () => {
    const child = spawn(process.execPath, [KESTREL, 'play', '--fen', MATE_IN_TWO, '--time', '0.02+0']);
    const out = await waitForOutput(child, /time is up/, 20_000);
    child.stdin.end('quit\n');
    expect(out).toContain("White's time is up, but Black cannot mate: a draw. (1/2-1/2)");
  }, 30_000);

  it('two engines whose clock runs out end the program at end of input', () => {
    // Found by a probe: the flag fell while an engine thought, and no turn came after it to notice the closed input.
    const r = play(['--white', 'engine', '--black', 'engine', '--level', '7', '--time', '0.001+0', '--seed', '3'], '');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/time is up/);
  }, 70_000);

  it('refuses bad options in one line', () => {
    for (const [args, message] of [
      [['--level', '21'], /--level must be a Skill Level from 0 to 20/],
      [['--white', 'robot'], /--white must be human or engine/],
      [['--time', 'blitz'], /--time must be minutes\+seconds/],
      [['--fen', 'nonsense'], /bad FEN 'nonsense'/],
      [['--driver', 'alphabeta'], /--driver must be one of pvs, mtdf, mcts/],
    ] as const) {
      const r = play([...args], '');
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n').length).toBe(1);
    }
  });
});

/** Collects a child's output until it matches `pattern`. */
function waitForOutput(child: ChildProcessWithoutNullStreams, pattern: RegExp, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in:\n${text}`)), ms);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      text += chunk;
      if (pattern.test(text)) {
        clearTimeout(timer);
        resolve(text);
      }
    });
  });
}

/** A tmux server of the test's own, a terminal 100 columns by 40 rows. */
let terminals = 0;

class Terminal {
  private readonly socket = `kestrel-test-${process.pid}-${++terminals}`;
  private readonly session = 'play';

  constructor(command: string) {
    this.tmux('new-session', '-d', '-s', this.session, '-x', '100', '-y', '40', command);
  }

  private tmux(...args: string[]): string {
    const r = spawnSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`tmux ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  }

  /** Types a line and presses Enter. */
  type(text: string): void {
    this.tmux('send-keys', '-t', this.session, '-l', text);
    this.tmux('send-keys', '-t', this.session, 'Enter');
  }

  key(name: string): void {
    this.tmux('send-keys', '-t', this.session, name);
  }

  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', this.session);
  }

  /** The screen once it matches `pattern` (polled). */
  async waitFor(pattern: RegExp, ms = 20_000): Promise<string> {
    const end = Date.now() + ms;
    for (;;) {
      const text = this.screen();
      if (pattern.test(text)) return text;
      if (Date.now() > end) throw new Error(`no ${pattern} on the screen:\n${text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  close(): void {
    spawnSync('tmux', ['-L', this.socket, 'kill-server']);
  }
}

describe.skipIf(!hasTmux)('kestrel play in a terminal (tmux)', () => {
  const shell = (args: string): string =>
    `${process.execPath} ${KESTREL} play ${args}; echo "EXIT=$?"; stty -a | grep -o -- '-\\?icanon '; sleep 60`;

  it('a whole game: colours and Unicode pieces, an illegal move, undo, hint, mate, save', async () => {
    const pgn = join(dir, 'tmux.pgn');
    const term = new Terminal(shell(`--fen '${MATE_IN_TWO}' --level 3 --seed 7 --time 10+5`));
    try {
      let screen = await term.waitFor(/1\. Your move>\s*$/m);
      expect(screen).toContain('♚');
      expect(screen).toMatch(/\[White (9:5\d|10:00) {2}Black 10:00\] 1\. Your move>/);
      term.type('Kg7');
      await term.waitFor(/Kg7 is not legal: your king would be in check on g7\. Try: /);
      term.type('Kg6');
      screen = await term.waitFor(/Kestrel plays 1\.\.\. Kg8/);
      expect(screen).toContain('1. Kg6 Kg8');
      term.type('undo');
      await term.waitFor(/Took back Kg6 Kg8\./);
      term.type('hint');
      await term.waitFor(/Hint: 1\. \S+ \(/);
      term.type('Kg6');
      await term.waitFor(/Kestrel plays 1\.\.\. Kg8/);
      term.type('Ra8');
      screen = await term.waitFor(/Checkmate: White wins\. \(1-0\)/);
      expect(screen).toContain('Type save <file> to keep the game as PGN');
      term.type(`save ${pgn}`);
      await term.waitFor(/Saved the game \(3 plies\)/);
      term.type('quit');
      // Exit code 0, and the terminal back in canonical (line) mode.
      await term.waitFor(/EXIT=0\s+icanon\s*$/m);
      const saved = readFileSync(pgn, 'utf8');
      expect(saved).toContain('[TimeControl "600+5"]');
      expect(saved).toMatch(/\n1\. Kg6 \{\[%clk 0:\d\d:\d\d\]\} 1\.\.\. Kg8 \{\[%eval \S+\] \[%clk 0:10:\d\d\]\} 2\. Ra8#/);
    } finally {
      term.close();
    }
  }, 60_000);

  it('Ctrl-C while the engine thinks ends at once and restores the terminal', async () => {
    const term = new Terminal(shell('--level 20 --no-book --seed 1'));
    try {
      await term.waitFor(/Your move>\s*$/m);
      term.type('e4');
      await term.waitFor(/Kestrel thinks: depth \d+/);
      term.key('C-c');
      await term.waitFor(/EXIT=130\s+icanon\s*$/m, 5_000);
    } finally {
      term.close();
    }
  }, 30_000);

  it('quit typed while the engine thinks is answered at once', async () => {
    const term = new Terminal(shell('--level 20 --no-book --time 60+0'));
    try {
      await term.waitFor(/Your move>\s*$/m);
      term.type('d4');
      await term.waitFor(/Kestrel thinks: depth \d+/);
      term.type('quit');
      await term.waitFor(/EXIT=0/, 5_000);
    } finally {
      term.close();
    }
  }, 30_000);
});

expect(existsSync(KESTREL)).toBe(true);
