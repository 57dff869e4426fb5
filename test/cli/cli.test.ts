// The built command line (dist/kestrel.js, made by `npm run build`), run as a
// user would: output, exit codes, and one-line errors without stack traces.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../scratch.js';
import { randomGames } from '../train/fixtures.js';

const KESTREL = fileURLToPath(new URL('../../dist/kestrel.js', import.meta.url));
const PACKAGE_VERSION = (await import('../../package.json', { with: { type: 'json' } })).default.version;

function kestrel(args: string[], input = ''): { status: number | null; stdout: string; stderr: string } {
  if (!existsSync(KESTREL)) throw new Error(`${KESTREL} is missing: run npm run build first`);
  const r = spawnSync(process.execPath, [KESTREL, ...args], { input, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A failure as the user sees it: non-zero exit, one line of error, no stack trace. */
function expectCleanError(result: ReturnType<typeof kestrel>, message: RegExp): void {
  expect(result.status).not.toBe(0);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
}

const dir = scratchDir('kestrel-cli-');

function epd(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const FRC = 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9';

describe('kestrel perft', () => {
  it('counts the start position to depth 3', () => {
    const r = kestrel(['perft', '3']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Nodes searched: 8902\nTime: \d+ ms\nNodes\/second: \d+\n$/);
  });

  it('divides by root move, sorted, then totals', () => {
    const r = kestrel(['perft', '2', '--divide', '--fen', '4k3/8/8/8/8/8/8/R3K3 w Q - 0 1']);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('e1c1: 3');
    expect(lines).toContain('a1a8: 3');
    const rows = lines.slice(0, lines.indexOf(''));
    expect(rows.length).toBe(16);
    expect([...rows].sort()).toEqual(rows);
    expect(r.stdout).toContain('Nodes searched: 71\n');
  });

  it('writes Chess960 castling king-takes-rook with --chess960, and refuses it without', () => {
    const r = kestrel(['perft', '1', '--divide', '--chess960', '--fen', '4k3/8/8/8/8/8/8/R3K3 w A - 0 1']);
    expect(r.stdout).toContain('e1a1: 1');
    expectCleanError(kestrel(['perft', '2', '--fen', FRC]), /^error: bad FEN .* need --chess960/);
    expect(kestrel(['perft', '2', '--chess960', '--fen', FRC]).stdout).toContain('Nodes searched: 528\n');
  });

  it.each([
    [['perft', 'abc'], /depth must be an integer from 1 to 20/],
    [['perft', '0'], /depth must be an integer from 1 to 20/],
    [['perft', '21'], /depth must be an integer from 1 to 20/],
    [['perft', '2.5'], /depth must be an integer from 1 to 20/],
    [['perft'], /missing required argument 'depth'/],
    [['perft', '3', '--fen', 'not a fen'], /^error: bad FEN 'not a fen': /],
    [['perft', '3', '--fen', '8/8/8/8/8/8/8/8 w - - 0 1'], /white has 0 kings/],
    [['perft', '3', '--nonsense'], /unknown option '--nonsense'/],
    [['pert', '3'], /unknown command 'pert'/],
  ])('%j fails cleanly', (args, message) => {
    expectCleanError(kestrel(args), message);
  });
});

describe('kestrel perft-suite', () => {
  const good = epd('good.epd', `# two positions\n${START} ;D1 20 ;D2 400 ;D3 8902\n\n${FRC} ;D1 21 ;D2 528\n`);

  it('passes a correct suite', () => {
    const r = kestrel(['perft-suite', good, '--chess960']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Positions: 2\n');
    expect(r.stdout).toContain('Counts checked: 5 (depths up to 3)\n');
    expect(r.stdout).toContain(`Nodes searched: ${20 + 400 + 8902 + 21 + 528}\n`);
    expect(r.stdout).toContain('Result: all counts match\n');
    expect(r.stderr).toBe(''); // no progress when stderr is not a terminal
  });

  it('limits the depth with --depth', () => {
    const r = kestrel(['perft-suite', good, '--chess960', '--depth', '1']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Counts checked: 2 (depths up to 1)\n');
  });

  it('reports each mismatch with its line, depth and FEN, and fails', () => {
    const bad = epd('bad.epd', `${START} ;D1 20 ;D2 401 ;D3 8902\n`);
    const r = kestrel(['perft-suite', bad]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`MISMATCH line 1 depth 2: expected 401, got 400\n  fen ${START}\n`);
    expect(r.stdout).toContain('Result: 1 of 3 counts differ\n');
  });

  it.each([
    [['perft-suite', join(dir, 'missing.epd')], /^error: cannot read .*missing\.epd/],
    [['perft-suite'], /missing required argument 'file'/],
    [['perft-suite', 'GOOD', '--depth', 'x'], /depth must be an integer from 1 to 20/],
    [['perft-suite', 'GOOD'], /line 4: bad FEN .* need --chess960/],
  ])('%j fails cleanly', (args, message) => {
    expectCleanError(kestrel(args.map((a) => (a === 'GOOD' ? good : a))), message);
  });

  it('names the line of a malformed entry', () => {
    const broken = epd('broken.epd', `${START} ;D1 20\n${START} ;depth 2 400\n`);
    expectCleanError(kestrel(['perft-suite', broken]), /line 2: expected ';D<depth> <nodes>', got ';depth 2 400'/);
    const badFen = epd('bad-fen.epd', `${START} ;D1 20\nrnbqkbnr/8 w - - ;D1 1\n`);
    expectCleanError(kestrel(['perft-suite', badFen]), /line 2: bad FEN 'rnbqkbnr\/8 w - -': piece placement has 2 ranks/);
  });
});

describe('kestrel bench', () => {
  it('searches the positions several times with --runs, one line per pass, the same nodes each time', () => {
    const r = kestrel(['bench', '3', '--runs', '2']);
    expect(r.status).toBe(0);
    expect(r.stdout.match(/^Position /gm)?.length).toBe(50);
    expect(r.stdout).toMatch(/Pass 1\/2: \d+ ms, \d+ nodes\/second\nPass 2\/2: \d+ ms, \d+ nodes\/second\n/);
    const nodes = /Nodes searched: (\d+)\n/.exec(r.stdout)?.[1];
    expect(kestrel(['bench', '3']).stdout).toContain(`Nodes searched: ${nodes}\n`);
  });

  it.each([
    [['bench', '0'], /bench depth must be an integer from 1 to 124/],
    [['bench', '3', '--runs', '0'], /--runs must be a positive integer, got '0'/],
  ])('%j fails cleanly', (args, message) => {
    expectCleanError(kestrel(args), message);
  });
});

describe('kestrel data-info and train --data', () => {
  // Both read data through one check: the same file, the same error.
  const games = randomGames(3, 7);
  const junkAfter = new Uint8Array(games.length + 100);
  junkAfter.set(games);
  junkAfter.fill(0xee, games.length);
  const cases: [string, string, RegExp][] = [
    [
      'text',
      'not games at all, just some text that is long enough to hold a board\n',
      /text\.vf is not viriformat training data \(no valid starting position at byte 0/,
    ],
    ['junk after games', '', /junk\.vf is not viriformat training data \(no valid starting position at byte \d+/],
    [
      'an empty folder',
      '',
      /empty is an empty folder: neither a data store \(a folder whose README\.md is a manifest .*\) nor a viriformat file/,
    ],
  ];
  it.each(cases)('reject %s with the same message', (what, text, message) => {
    let path: string;
    if (what === 'text') path = epd('text.vf', text);
    else if (what === 'junk after games') {
      path = join(dir, 'junk.vf');
      writeFileSync(path, junkAfter);
    } else {
      path = join(dir, 'empty');
      mkdirSync(path, { recursive: true });
    }
    const info = kestrel(['data-info', path]);
    expectCleanError(info, message);
    const train = kestrel(['train', '--data', path, '--out-dir', join(dir, 'nets')]);
    expectCleanError(train, message);
    expect(train.stderr).toBe(info.stderr);
  });
});

describe('kestrel', () => {
  it('prints its build name: the version, then the commit date and commit between releases', () => {
    const escaped = PACKAGE_VERSION.replace(/\./g, '\\.');
    const name = new RegExp(`^${escaped}(-dev-\\d{8}-[0-9a-f]{7}(-modified)?)?$`);
    for (const flag of ['--version', '-V']) {
      const r = kestrel([flag]);
      expect(r.status).toBe(0);
      expect(r.stdout.trim()).toMatch(name);
    }
    const uci = kestrel([], 'uci\nquit\n');
    expect(uci.stdout).toContain(`id name Kestrel ${kestrel(['--version']).stdout.trim()}\n`);
  });

  it("answers help in the UCI loop, and kestrel help is the tools' help", () => {
    const r = kestrel([], 'help\nquit\n');
    expect(r.stdout).toMatch(/^Kestrel speaks UCI/m);
    expect(r.stdout).toMatch(/^ {2}go depth/m);
    expect(kestrel(['help']).stdout).toMatch(/^Usage: kestrel/m);
  });

  it('runs a go given as an argument to its limit before the next argument', () => {
    // Standard input waits for the arguments: its go comes second.
    const r = kestrel(['position startpos', 'go depth 5 searchmoves e2e4'], 'go depth 2 searchmoves d2d4\nquit\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^info depth 5 .* pv e2e4/m);
    const bestmoves = r.stdout.split('\n').filter((l) => l.startsWith('bestmove'));
    expect(bestmoves.map((l) => l.split(' ')[1])).toEqual(['e2e4', 'd2d4']);
  });

  it('speaks UCI without a command', () => {
    const r = kestrel([], 'uci\nquit\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^id name Kestrel/m);
    expect(r.stdout).toMatch(/^uciok$/m);
  });
});
