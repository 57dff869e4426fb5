// The tuning build (`make TUNE=1`, docs/openbench.md): every search parameter
// of src/search/params.ts is a UCI option, clamped to its range and used from
// the next search on; `spsa` prints OpenBench's SPSA input. A normal build
// lists only the usual options. Built once (one esbuild bundle) into a
// temporary folder.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as params from '../../src/search/params.js';
import { ROOT } from '../uci/engine-process.js';
import { scratchDir } from '../scratch.js';

const dir = scratchDir('kestrel-tune-');
const tuning = join(dir, 'Kestrel-7E57E7E5');
const hasMake = spawnSync('make', ['--version']).status === 0;
const names = Object.keys(params);

/** Runs the product with these UCI lines, ending once `until` is printed; returns its output. */
function session(lines: string[], until: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tuning, [], { cwd: dir });
    let out = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no ${until} in time:\n${out}`));
    }, 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (until.test(out)) {
        clearTimeout(timer);
        child.stdin.end('quit\n');
        resolve(out);
      }
    });
    child.stdin.write(`${lines.join('\n')}\n`);
  });
}

async function benchNodes(lines: string[]): Promise<number> {
  const out = await session([...lines, 'bench 5'], /Nodes searched: \d+/);
  return Number(/Nodes searched: (\d+)/.exec(out)![1]);
}

describe('the tuning build', () => {
  beforeAll(() => {
    if (hasMake) execFileSync('make', ['-j', `EXE=${tuning}`, 'CC=node', 'TUNE=1'], { cwd: ROOT, stdio: 'pipe' });
    else execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--script', tuning, '--tune'], { cwd: ROOT, stdio: 'pipe' });
  }, 120_000);

  it('lists every search parameter after the usual options; a normal build does not', async () => {
    const out = await session(['uci'], /^uciok$/m);
    const listed = [...out.matchAll(/^option name (\w+) type spin default (\S+) min (\S+) max (\S+)$/gm)];
    for (const name of names) expect(listed.some((m) => m[1] === name)).toBe(true);
    expect(out).toMatch(/^option name Hash type spin/m);
    const normal = execFileSync(process.execPath, [join(ROOT, 'dist', 'kestrel.js'), 'uci', 'quit'], { encoding: 'utf8' });
    for (const name of names) expect(normal).not.toContain(`option name ${name} `);
  });

  it("prints OpenBench's SPSA input: well-formed, inside the ranges", () => {
    const lines = execFileSync(tuning, ['spsa'], { encoding: 'utf8' }).trim().split('\n');
    expect(lines.map((l) => l.split(', ')[0])).toEqual(names);
    for (const line of lines) {
      // OpenBench/spsa_utils.py: name, dtype, value, min_value, max_value, c_end, r_end = map(str.strip, line.split(','))
      const fields = line.split(',').map((f) => f.trim());
      expect(fields, line).toHaveLength(7);
      const [name, type, value, min, max, c, r] = fields;
      expect(['int', 'float']).toContain(type);
      const n = [value, min, max, c, r].map(Number);
      for (const x of n) expect(Number.isFinite(x), line).toBe(true);
      expect(n[1]).toBeLessThanOrEqual(n[0]);
      expect(n[0]).toBeLessThanOrEqual(n[2]);
      expect(n[0]).toBe((params as Record<string, number>)[name]);
      if (type === 'int') for (const x of n.slice(0, 3)) expect(Number.isInteger(x), line).toBe(true);
      expect(n[3]).toBeGreaterThan(0);
      expect(n[4]).toBeGreaterThan(0);
    }
    const normal = spawnSync(process.execPath, [join(ROOT, 'dist', 'kestrel.js'), 'spsa'], { encoding: 'utf8' });
    expect(normal.status).not.toBe(0);
    expect(normal.stderr).toMatch(/not a tuning build/);
  });

  it('a parameter set changes the next search, clamped; its default gives the same bench again', async () => {
    const base = await benchNodes([]);
    const bundle = execFileSync(process.execPath, [join(ROOT, 'dist', 'kestrel.js'), 'bench', '5'], { encoding: 'utf8' });
    expect(base).toBe(Number(/Nodes searched: (\d+)/.exec(bundle)![1]));
    const changed = await benchNodes(['setoption name LMR_BASE value 1.2', 'setoption name FUTILITY_MARGIN value 60']);
    expect(changed).not.toBe(base);
    expect(
      await benchNodes([
        'setoption name LMR_BASE value 1.2',
        'setoption name FUTILITY_MARGIN value 60',
        `setoption name LMR_BASE value ${params.LMR_BASE}`,
        `setoption name FUTILITY_MARGIN value ${params.FUTILITY_MARGIN}`,
      ]),
    ).toBe(base);
    const clamped = await session(
      ['setoption name RFP_MARGIN value 100000', 'setoption name NMP_MIN_DEPTH value x', 'isready'],
      /^readyok$/m,
    );
    expect(clamped).toMatch(/^info string setoption: RFP_MARGIN 100000 is taken as 160 /m);
    expect(clamped).toMatch(/^info string setoption: NMP_MIN_DEPTH needs a number/m);
  });
});
