// The single executable (npm run build:exe): built into a temporary folder
// and run with no `node` on its command line. Skipped, loudly, where this
// Node.js cannot make one (older than 20.12, or built without the fuse
// single executables need).

import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../uci/engine-process.js';
import { scratchDir } from '../scratch.js';

const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const [major, minor] = process.versions.node.split('.').map(Number);
const canBuild = (major > 20 || (major === 20 && minor >= 12)) && readFileSync(process.execPath).includes(FUSE);
if (!canBuild) {
  console.warn(`\n*** SKIPPED: the single-executable test: ${process.execPath} (${process.version}) cannot make one ***\n`);
}

const dir = canBuild ? scratchDir('kestrel-exe-') : '';
const exe = join(dir, process.platform === 'win32' ? 'kestrel.exe' : 'kestrel');

function run(input: string, args: string[] = []): string {
  const r = spawnSync(exe, args, { input, encoding: 'utf8', timeout: 60000 });
  if (r.status !== 0) throw new Error(`${exe} ${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  return r.stdout;
}

describe.skipIf(!canBuild)('the single executable', () => {
  beforeAll(() => {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-exe.mjs'), '--out', exe], { cwd: ROOT, stdio: 'pipe' });
  }, 120000);

  it('is one file that speaks UCI, with the book and helper threads inside', () => {
    expect(statSync(exe).size).toBeGreaterThan(10 * 1024 * 1024);
    const out = run(
      [
        'uci',
        'setoption name Threads value 2',
        'setoption name OwnBook value true',
        'isready',
        'position startpos',
        'go depth 4',
        'position startpos moves a2a3 h7h6 h2h3',
        'go depth 6',
        'quit',
        '',
      ].join('\n'),
    );
    expect(out).toMatch(/^id name Kestrel /m);
    expect(out).toMatch(/^option name BookFile type string default <built-in>$/m);
    expect(out).toMatch(/^uciok$/m);
    expect(out).toMatch(/^readyok$/m);
    expect(out).toMatch(/^info string book move /m);
    expect(out).not.toMatch(/error/);
    const bestmoves = out.match(/^bestmove \S+/gm) ?? [];
    expect(bestmoves).toHaveLength(2);
  });

  it('runs bench and the other commands', () => {
    expect(run('', ['bench', '5'])).toMatch(/^Nodes searched: \d+$/m);
    expect(run('', ['perft', '3'])).toMatch(/^Nodes searched: 8902$/m);
  });
});
