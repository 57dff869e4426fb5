// The engine host's defences, seen through UCI, against a search that throws, returns nonsense,
// hangs or kills its worker: a bundle is built with test/uci/fake-search.ts
// in place of the real search Driver, and driven like a GUI would.

import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type EngineProcess, ROOT, startEngine } from './engine-process.js';
import { scratchDir } from '../scratch.js';

const BESTMOVE = /^bestmove /;
let dir = '';
let bundle = '';
let engines: EngineProcess[] = [];

beforeAll(async () => {
  dir = scratchDir('kestrel-fake-');
  bundle = join(dir, 'kestrel.js');
  await esbuild.build({
    entryPoints: [join(ROOT, 'src/cli/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    logLevel: 'warning',
    banner: { js: 'import { createRequire as __kestrelRequire } from "node:module"; const require = __kestrelRequire(import.meta.url);' },
    plugins: [
      {
        name: 'fake-search',
        setup(build) {
          build.onResolve({ filter: /search\/driver\.js$/ }, (args) =>
            args.importer.includes(join('src', 'engine')) ? { path: join(ROOT, 'test/uci/fake-search.ts') } : undefined,
          );
        },
      },
    ],
  });
}, 60000);

afterEach(() => {
  for (const e of engines) e.kill();
  engines = [];
});

async function fake(mode: string): Promise<EngineProcess> {
  const e = await startEngine({ engine: bundle, env: { KESTREL_FAKE: mode } });
  engines.push(e);
  return e;
}

describe('a misbehaving search', () => {
  it('throws: info string error and a legal bestmove (the last pv move)', async () => {
    const e = await fake('throw');
    e.send('go depth 3');
    const lines = await e.collectUntil(BESTMOVE);
    expect(lines).toContain('info string error: the search failed: boom');
    expect(lines[lines.length - 1]).toBe('bestmove g1f3');
  }, 20000);

  it('throws during go infinite: bestmove still waits for stop', async () => {
    const e = await fake('throw');
    e.send('go infinite');
    await e.waitFor(/^info string error: the search failed/);
    await new Promise((r) => setTimeout(r, 200));
    expect(e.lines.some((l) => BESTMOVE.test(l))).toBe(false);
    e.send('stop');
    expect(await e.waitFor(BESTMOVE)).toBe('bestmove g1f3');
  }, 20000);

  it('returns early from infinite and ponder: the worker holds bestmove until stop / ponderhit', async () => {
    const e = await fake('early');
    e.send('go infinite');
    await e.waitFor(/^info depth/);
    await new Promise((r) => setTimeout(r, 200));
    expect(e.lines.some((l) => BESTMOVE.test(l))).toBe(false);
    e.send('stop');
    await e.waitFor(BESTMOVE);
    e.send('go ponder wtime 1000 btime 1000');
    await e.waitFor(/^info depth/);
    await new Promise((r) => setTimeout(r, 200));
    expect(e.lines.slice(e.cursor).some((l) => BESTMOVE.test(l))).toBe(false);
    e.send('ponderhit');
    await e.waitFor(BESTMOVE);
  }, 20000);

  it('returns an illegal move or ponder move: replaced, with an info string', async () => {
    let e = await fake('illegal');
    e.send('go depth 1');
    let lines = await e.collectUntil(BESTMOVE);
    expect(lines).toContain('info string error: the search returned e2e5, not a move it may play here; playing g1f3');
    expect(lines[lines.length - 1]).toBe('bestmove g1f3');
    e = await fake('badponder');
    e.send('go depth 1');
    lines = await e.collectUntil(BESTMOVE);
    expect(lines[lines.length - 1]).toBe('bestmove e2e4');
  }, 20000);

  it('returns a move outside searchmoves: replaced by one inside', async () => {
    const e = await fake('illegal');
    e.send('go depth 1 searchmoves a2a3 b2b3');
    const lines = await e.collectUntil(BESTMOVE);
    expect(['bestmove a2a3', 'bestmove b2b3']).toContain(lines[lines.length - 1]);
  }, 20000);

  it('returns a move outside searchmoves: replaced by the best allowed move its lines showed', async () => {
    const e = await fake('second');
    e.send('go depth 1 searchmoves a2a3 b1c3');
    const lines = await e.collectUntil(BESTMOVE);
    expect(lines).toContain('info string error: the search returned g1f3, not a move it may play here; playing b1c3');
    expect(lines[lines.length - 1]).toBe('bestmove b1c3');
  }, 20000);

  it('returns a move outside searchmoves, no line showing one inside: the best of them by a quick look, not the first', async () => {
    // The king's move hangs the rook; the rook's does not.
    const e = await fake('illegal');
    e.send('position fen 4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1');
    e.send('go depth 1 searchmoves e1f1 d1c1');
    const lines = await e.collectUntil(BESTMOVE);
    expect(lines).toContain('info string error: the search returned e2e5, not a move it may play here; playing d1c1');
    expect(lines[lines.length - 1]).toBe('bestmove d1c1');
  }, 20000);

  it('kills its worker: fallback bestmove, and the next search works on a new worker', async () => {
    const e = await fake('exit');
    e.send('go infinite');
    const lines = await e.collectUntil(BESTMOVE);
    expect(lines.some((l) => /^info string error: the search worker stopped \(exit code 3\)/.test(l))).toBe(true);
    expect(lines[lines.length - 1]).toBe('bestmove g1f3');
    await e.sync();
    e.send('go depth 1');
    await e.waitFor(BESTMOVE);
  }, 20000);

  it('ignores stop: a fallback bestmove comes anyway, and a stuck worker is replaced', async () => {
    const e = await fake('hang');
    e.send('go infinite');
    await e.waitFor(/^info depth/);
    const t0 = performance.now();
    e.send('stop');
    const lines = await e.collectUntil(BESTMOVE, 3000);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(lines).toContain('info string error: the search did not answer stop; playing g1f3');
    expect(lines[lines.length - 1]).toBe('bestmove g1f3');
    await e.waitFor(/^info string error: the search worker is not responding; restarting it$/, 5000);
    await e.sync(10000);
  }, 20000);

  it('overruns its clock: a fallback bestmove before the time is out', async () => {
    const e = await fake('hang');
    const t0 = performance.now();
    e.send('go wtime 1000 btime 1000');
    await e.waitFor(BESTMOVE, 3000);
    expect(performance.now() - t0).toBeLessThan(1000);
  }, 20000);

  it('overruns its clock before any line: the fallback look is reported as an info line before bestmove', async () => {
    const e = await fake('mute');
    e.send('position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1');
    e.send('go wtime 1000 btime 1000');
    const lines = await e.collectUntil(BESTMOVE, 3000);
    const info = lines.filter((l) => l.startsWith('info') && !l.startsWith('info string'));
    expect(info).toEqual(['info depth 2 score mate 1 pv a1a8']);
    expect(lines).toContain('info string error: the search overran its time; playing a1a8');
    expect(lines[lines.length - 1]).toBe('bestmove a1a8');
  }, 20000);

  it('quit while the search hangs still exits at once with code 0', async () => {
    const e = await fake('hang');
    e.send('go infinite');
    await e.waitFor(/^info depth/);
    const t0 = performance.now();
    e.send('quit');
    expect(await e.waitExit(3000)).toBe(0);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(e.lines[e.lines.length - 1]).toBe('bestmove g1f3');
  }, 20000);

  it('a failed Hash resize is reported; the engine goes on', async () => {
    const e = await fake('stop');
    e.send('setoption name Hash value 77');
    expect(await e.sync()).toEqual([
      'info string error: resizing the hash to 77 MB failed: Array buffer allocation failed',
      'info string Hash: keeping the table of 16 MB and its entries',
    ]);
  }, 20000);
});
