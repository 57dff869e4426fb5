// Parallel search through the UCI protocol: the built engine with Threads > 1
// must behave like with one thread (bestmove after stop, legal moves, isready
// answered during the search, a clean exit), and Threads can change between
// searches.

import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { Position, START_FEN } from '../../src/board/position.js';
import { legalMoves } from '../board/helpers.js';
import { useEngines } from './engine-process.js';

const BESTMOVE = /^bestmove /;
const MIDDLEGAME = 'r1bq1rk1/ppp2ppp/5n2/2bp4/2NPP3/2P5/PP3PPP/RNBQK2R w KQ - 0 9';

const engine = useEngines();

/** The legal moves (UCI) of a FEN followed by moves. */
function legalUci(fen: string, moves: string[] = []): string[] {
  const pos = new Position(fen);
  for (const m of moves) pos.makeMove(parseUciMove(pos, m));
  return legalMoves(pos).map((m) => moveToUci(pos, m));
}

/** Checks `bestmove X [ponder Y]`: X legal in the position, Y legal after X. */
function expectLegalBestmove(line: string, fen: string): void {
  const t = line.split(' ');
  expect(legalUci(fen)).toContain(t[1]);
  if (t[2] === 'ponder') expect(legalUci(fen, [t[1]])).toContain(t[3]);
}

describe('Threads', () => {
  it('Threads 2: go infinite / stop, then Threads 1: go depth 8, then quit exits with code 0', async () => {
    const e = await engine();
    e.send('setoption name Threads value 2');
    expect(await e.sync(15000)).toEqual([]);
    e.send('position startpos');
    e.send('go infinite');
    await e.waitFor(/^info depth 3 /);
    await new Promise((r) => setTimeout(r, 200));
    expect(e.lines.some((l) => BESTMOVE.test(l))).toBe(false);
    e.send('stop');
    expectLegalBestmove(await e.waitFor(BESTMOVE, 2000), START_FEN);
    e.send('setoption name Threads value 1');
    expect(await e.sync(15000)).toEqual([]);
    e.send('go depth 8');
    const lines = await e.collectUntil(BESTMOVE, 15000);
    expect(lines.some((l) => /^info depth 8 .* pv /.test(l))).toBe(true);
    expectLegalBestmove(lines[lines.length - 1], START_FEN);
    e.send('quit');
    expect(await e.waitExit(5000)).toBe(0);
  }, 40000);

  it('Threads 2: go depth and go movetime play legal moves; isready is answered during the search', async () => {
    const e = await engine();
    e.send('setoption name Threads value 2');
    await e.sync(15000);
    e.send(`position fen ${MIDDLEGAME}`);
    e.send('go depth 9');
    const lines = await e.collectUntil(BESTMOVE, 20000);
    expect(lines.some((l) => /^info depth 9 /.test(l))).toBe(true);
    expectLegalBestmove(lines[lines.length - 1], MIDDLEGAME);

    e.send('position startpos moves e2e4 e7e5 g1f3');
    const t0 = performance.now();
    e.send('go movetime 400');
    e.send('isready');
    // readyok comes at once, before bestmove.
    const early = await e.collectUntil(/^readyok$/, 2000);
    expect(early.some((l) => BESTMOVE.test(l))).toBe(false);
    const best = await e.waitFor(BESTMOVE, 5000);
    expect(performance.now() - t0).toBeLessThan(3000);
    const t = best.split(' ');
    expect(legalUci(START_FEN, ['e2e4', 'e7e5', 'g1f3'])).toContain(t[1]);

    // The info lines count the nodes of both threads: more than the main thread alone would search.
    e.send('ucinewgame');
    e.send('position startpos');
    e.send('go nodes 20000');
    const counted = await e.collectUntil(BESTMOVE, 10000);
    const last = counted.filter((l) => / nodes \d+/.test(l)).pop()!;
    // `go nodes` counts the nodes of all threads (a few thousand over at most).
    expect(Number(/ nodes (\d+)/.exec(last)![1])).toBeLessThan(20000 + 8192);
    e.send('quit');
    expect(await e.waitExit(5000)).toBe(0);
  }, 60000);

  it('Threads 4 with MultiPV 2, searchmoves and ponder behave as with one thread', async () => {
    const e = await engine();
    e.send('setoption name Threads value 4');
    e.send('setoption name MultiPV value 2');
    await e.sync(20000);
    e.send('position startpos');
    e.send('go depth 6 searchmoves a2a3 h2h3 b1c3');
    const lines = await e.collectUntil(BESTMOVE, 20000);
    expect(lines.some((l) => / multipv 2 /.test(l))).toBe(true);
    expect(['a2a3', 'h2h3', 'b1c3']).toContain(lines[lines.length - 1].split(' ')[1]);
    e.send('setoption name MultiPV value 1');
    e.send('go ponder wtime 1000 btime 1000');
    await e.waitFor(/^info depth 2 /, 5000);
    await new Promise((r) => setTimeout(r, 200));
    expect(e.lines.slice(e.cursor).some((l) => BESTMOVE.test(l))).toBe(false);
    e.send('ponderhit');
    expectLegalBestmove(await e.waitFor(BESTMOVE, 3000), START_FEN);
    // A Hash change re-creates the table and the helpers; searching goes on.
    e.send('setoption name Hash value 32');
    await e.sync(20000);
    e.send('go depth 5');
    await e.waitFor(BESTMOVE, 10000);
    e.send('go infinite');
    await e.waitFor(/^info depth 2 /, 5000);
    e.send('quit');
    expect(await e.waitExit(5000)).toBe(0);
    expect(BESTMOVE.test(e.lines[e.lines.length - 1])).toBe(true);
  }, 60000);

  it('Threads 8: readyok comes with every helper up, and the search with 8 threads plays a legal move', async () => {
    const e = await engine();
    const threads = (): number => (existsSync(`/proc/${e.child.pid}/task`) ? readdirSync(`/proc/${e.child.pid}/task`).length : 0);
    const before = threads();
    e.send('setoption name Threads value 8');
    // Nothing said: no helper failed or was left out.
    expect(await e.sync(60000)).toEqual([]);
    if (before > 0) expect(threads()).toBeGreaterThanOrEqual(before + 7);
    e.send(`position fen ${MIDDLEGAME}`);
    e.send('go depth 8');
    const lines = await e.collectUntil(BESTMOVE, 30000);
    expect(lines.filter((l) => l.startsWith('info string'))).toEqual([]);
    expect(lines.some((l) => /^info depth 8 .* pv /.test(l))).toBe(true);
    expectLegalBestmove(lines[lines.length - 1], MIDDLEGAME);
    e.send('quit');
    expect(await e.waitExit(5000)).toBe(0);
  }, 90000);

  it.runIf(existsSync('/proc/self/task'))(
    'going back to Threads 1 ends the helper threads (Linux: counts the process threads)',
    async () => {
      const e = await engine();
      const threads = (): number => readdirSync(`/proc/${e.child.pid}/task`).length;
      const before = threads();
      e.send('setoption name Threads value 4');
      await e.sync(20000);
      expect(threads()).toBeGreaterThanOrEqual(before + 3);
      e.send('setoption name Threads value 1');
      await e.sync(20000);
      // Worker threads end asynchronously after terminate(): give them a moment.
      for (let i = 0; i < 50 && threads() > before; i++) await new Promise((r) => setTimeout(r, 100));
      expect(threads()).toBeLessThanOrEqual(before);
    },
    40000,
  );
});
