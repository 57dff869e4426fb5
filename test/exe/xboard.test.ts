// A real GUI: XBoard, on a virtual screen (Xvfb), plays a short game of
// Kestrel against itself through its Polyglot adapter for UCI engines
// (-fUCI), as scripts/xboard-screenshot.sh does for docs/xboard.png. Needs
// Debian's xvfb, xboard and polyglot; skipped, with a message, without them.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchDir } from '../scratch.js';
import { ROOT } from '../uci/engine-process.js';

/** A program on the PATH or in /usr/games (where Debian puts xboard and polyglot). */
function find(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/games'].filter((dir) => dir !== '');
  return dirs.map((dir) => join(dir, name)).find((path) => existsSync(path));
}
const [XVFB, XBOARD, POLYGLOT] = ['Xvfb', 'xboard', 'polyglot'].map(find);
const missing = [
  ['Xvfb', XVFB],
  ['xboard', XBOARD],
  ['polyglot', POLYGLOT],
].filter(([, path]) => path === undefined);
const skip =
  process.platform !== 'linux'
    ? 'XBoard runs here on Linux only'
    : missing.length > 0
      ? `${missing.map(([name]) => name).join(', ')} not installed (Debian: apt-get install xvfb xboard polyglot)`
      : null;
if (skip !== null) console.warn(`\n*** SKIPPED: XBoard playing Kestrel: ${skip} ***\n`);

const KESTREL = join(ROOT, 'dist', 'kestrel.js');

describe.skipIf(skip !== null)('XBoard', () => {
  const started: Array<{ kill: () => boolean }> = [];
  afterEach(() => {
    for (const child of started.splice(0)) child.kill();
  });

  it('plays a short game of Kestrel against Kestrel through Polyglot', async () => {
    const dir = scratchDir('kestrel-xboard-');
    // Xvfb chooses a free display and writes its number on file descriptor 3.
    const xvfb = spawn(XVFB!, ['-displayfd', '3', '-screen', '0', '1024x768x24', '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    });
    started.push(xvfb);
    const display = await new Promise<string>((resolve, reject) => {
      let text = '';
      xvfb.stdio[3]!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\n')) resolve(text.trim());
      });
      xvfb.on('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
    });

    const engine = `${process.execPath} ${KESTREL}`;
    const pgn = join(dir, 'game.pgn');
    const args = ['-fcp', engine, '-fd', dir, '-fUCI', '-scp', engine, '-sd', dir, '-sUCI'];
    // One game at 10 seconds each, called a draw after 8 moves if it is not over; no dialogs, no saved settings.
    args.push('-mg', '1', '-tc', '0:10', '-inc', '0', '-adjudicateDrawMoves', '8', '-xexit', '-sgf', pgn);
    args.push('-saveSettingsFile', join(dir, 'xboardrc'), '-saveSettingsOnExit', 'false');
    const env = { ...process.env, DISPLAY: `:${display}`, PATH: `${process.env.PATH}${delimiter}${dirname(POLYGLOT!)}` };
    const xboard = spawn(XBOARD!, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(xboard);
    let output = '';
    xboard.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    xboard.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => xboard.on('exit', resolve));

    expect(code, output).toBe(0);
    expect(output).toMatch(/Match Kestrel \S+ vs\. Kestrel \S+: final score/);
    const game = readFileSync(pgn, 'utf8');
    expect(game).toMatch(/^\[White "Kestrel /m);
    expect(game).toMatch(/^\[Black "Kestrel /m);
    expect(game).toMatch(/^\[Result "(1-0|0-1|1\/2-1\/2)"\]$/m);
    expect(game).toMatch(/\b8\.\s+[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8]|\b8\.\s+O-O/); // the game reached move 8
  }, 120_000);
});
