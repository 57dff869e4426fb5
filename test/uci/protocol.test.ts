// The UCI protocol, end to end: the built engine is spawned and spoken to
// over pipes the way a GUI does. Timings are asserted loosely (the targets
// are far lower) so that a loaded machine does not make the suite flaky.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EngineProcess, ROOT, useEngines } from './engine-process.js';
import { scratchDir } from '../scratch.js';
import { tinyNetworkFile } from '../tiny-network.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const BESTMOVE = /^bestmove /;
const UCI_MOVE = /^[a-h][1-8][a-h][1-8][nbrq]?$/;

const engine = useEngines();

/** The moves of `bestmove X [ponder Y]`. */
function parseBestmove(line: string): { best: string; ponder: string | null } {
  const t = line.split(' ');
  return { best: t[1], ponder: t[2] === 'ponder' ? t[3] : null };
}

describe('handshake and options', () => {
  it('answers uci with id, every option and uciok, and isready with readyok', async () => {
    const e = await engine();
    e.send('uci');
    const lines = await e.collectUntil(/^uciok$/);
    // The build's name: the version, and between releases -dev with the commit's date and the commit.
    const escaped = VERSION.replace(/\./g, '\\.');
    expect(lines.find((l) => l.startsWith('id name '))).toMatch(
      new RegExp(`^id name Kestrel ${escaped}(-dev(-\\d{8}-[0-9a-f]{7}(-modified)?)?)?$`),
    );
    expect(lines).toContain('id author The Kestrel developers');
    const options = lines.filter((l) => l.startsWith('option '));
    expect(options).toEqual([
      'option name Hash type spin default 16 min 1 max 131072',
      'option name Clear Hash type button',
      'option name Threads type spin default 1 min 1 max 64',
      'option name MultiPV type spin default 1 min 1 max 256',
      'option name Ponder type check default false',
      'option name Move Overhead type spin default 100 min 0 max 5000',
      'option name UCI_Chess960 type check default false',
      'option name UCI_ShowWDL type check default false',
      'option name UCI_LimitStrength type check default false',
      'option name UCI_Elo type spin default 1500 min 700 max 2250',
      'option name Skill Level type spin default 20 min 0 max 20',
      'option name SearchDriver type combo default pvs var pvs var mtdf var mcts var mcts-qs var mcts-uniform var mcts-qs-uniform',
      'option name UseNNUE type check default true',
      'option name EvalFile type string default <built-in>',
      'option name SyzygyPath type string default <empty>',
      'option name SyzygyProbeDepth type spin default 1 min 1 max 100',
      'option name Syzygy50MoveRule type check default true',
      'option name SyzygyProbeLimit type spin default 7 min 0 max 7',
      'option name OwnBook type check default false',
      `option name BookFile type string default ${join(ROOT, 'books', 'kestrel.bin')}`,
      'option name BookMode type combo default weighted var best var weighted',
      'option name BookDepth type spin default 255 min 0 max 1024',
    ]);
    expect(await e.sync()).toEqual([]);
  }, 20000);

  it('accepts valid setoption silently (case-insensitive names, multi-word names)', async () => {
    const e = await engine();
    for (const line of [
      'setoption name Hash value 32',
      'setoption name hash value 8',
      'setoption name Clear Hash',
      'setoption name move   overhead value 100',
      'setoption name MultiPV value 2',
      'setoption name Ponder value true',
      'setoption name UCI_Chess960 value false',
      'setoption name uci_showwdl value TRUE',
      'setoption name SearchDriver value mtdf',
      'setoption name SearchDriver value MCTS-qs',
      'setoption name SearchDriver value PVS',
      'setoption name Threads value 1',
    ]) {
      e.send(line);
    }
    expect(await e.sync()).toEqual([]);
  }, 20000);

  it('reports bad setoption input: clamps out-of-range spins, keeps the old value otherwise', async () => {
    const e = await engine();
    e.send('setoption name Hash value 0');
    e.send('setoption name MultiPV value 999');
    e.send('setoption name Threads value 0');
    e.send('setoption name Move Overhead value fast');
    e.send('setoption name Ponder value maybe');
    e.send('setoption name SearchDriver value alphabeta');
    e.send('setoption name No Such Option value 3');
    e.send('setoption name Hash');
    e.send('setoption value 3');
    e.send('setoption');
    const lines = await e.sync();
    expect(lines).toEqual([
      'info string option Hash: 0 is outside 1..131072; set to 1',
      'info string option MultiPV: 999 is outside 1..256; set to 256',
      'info string option Threads: 0 is outside 1..64; set to 1',
      "info string option Move Overhead: 'fast' is not an integer; kept 100",
      "info string option Ponder: 'maybe' is not true or false; kept false",
      "info string option SearchDriver: 'alphabeta' is not one of pvs, mtdf, mcts, mcts-qs, mcts-uniform, mcts-qs-uniform; kept pvs",
      'info string unknown option: No Such Option',
      'info string option Hash needs a value; kept 1',
      'info string setoption: expected "setoption name <name> [value <value>]"',
      'info string setoption: expected "setoption name <name> [value <value>]"',
    ]);
  }, 20000);

  it('MultiPV 2 gives two lines per depth', async () => {
    const e = await engine();
    e.send('setoption name MultiPV value 2');
    e.send('position startpos');
    e.send('go depth 3');
    const lines = await e.collectUntil(BESTMOVE);
    expect(lines.some((l) => / multipv 2 /.test(l))).toBe(true);
  }, 20000);

  it('UCI_LimitStrength with UCI_Elo, or Skill Level, limit the search and print only the lines asked for', async () => {
    for (const settings of [
      ['setoption name UCI_LimitStrength value true', 'setoption name UCI_Elo value 900'],
      ['setoption name Skill Level value 3'],
      // UCI_LimitStrength wins over Skill Level.
      ['setoption name Skill Level value 20', 'setoption name UCI_LimitStrength value true', 'setoption name UCI_Elo value 1000'],
    ]) {
      const e = await engine();
      for (const line of settings) e.send(line);
      e.send('position startpos moves e2e4');
      e.send('go movetime 5000');
      const lines = await e.collectUntil(BESTMOVE);
      expect(lines.filter((l) => l.startsWith('info string'))).toEqual([]);
      const infos = lines.filter((l) => l.startsWith('info depth'));
      expect(infos.every((l) => / multipv 1 /.test(l))).toBe(true);
      const nodes = Number(/ nodes (\d+)/.exec(infos[infos.length - 1])![1]);
      expect(nodes).toBeLessThanOrEqual(4000);
      const best = parseBestmove(lines[lines.length - 1]).best;
      expect(best).toMatch(UCI_MOVE);
      expect(/ pv (\S+)/.exec(infos[infos.length - 1])![1]).toBe(best);
    }
  }, 30000);
});

describe('the network options', () => {
  const dir = scratchDir('kestrel-evalfile-');
  const good = tinyNetworkFile();
  const file = (name: string, bytes: Uint8Array): string => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };

  it('EvalFile loads a network and searches with it; a missing, corrupt or truncated file is reported and changes nothing', async () => {
    const e = await engine();
    e.send(`setoption name EvalFile value ${join(dir, 'missing.nnue')}`);
    e.send(`setoption name EvalFile value ${file('junk.nnue', new Uint8Array(100).fill(7))}`);
    e.send(`setoption name EvalFile value ${file('cut.nnue', good.subarray(0, 5000))}`);
    const bad = await e.sync();
    expect(bad).toEqual([
      expect.stringMatching(/^info string EvalFile: cannot use .*missing\.nnue: no such file; keeping /),
      expect.stringMatching(/^info string EvalFile: cannot use .*junk\.nnue: not a Kestrel network file \(bad magic\); keeping /),
      expect.stringMatching(/^info string EvalFile: cannot use .*cut\.nnue: wrong size: .*truncated.*; keeping /),
    ]);
    e.send('setoption name UseNNUE value true');
    e.send(`setoption name EvalFile value ${file('net.nnue', good)}`);
    expect(await e.sync()).toEqual(['info string EvalFile: using net.nnue (768 -> 2x16 -> 1)']);
    e.send('position startpos moves e2e4');
    e.send('eval');
    expect((await e.sync()).at(-1)).toMatch(
      /^NNUE \((wasm|ts) kernel, 768 -> 2x16 -> 1\): -?\d+\.\d\d \(White's view\): the engine's evaluation\.$/,
    );
    e.send('setoption name Threads value 2');
    e.send('go depth 6');
    expect(await e.waitFor(BESTMOVE, 15000)).toMatch(/^bestmove [a-h][1-8][a-h][1-8]/);
    e.send('setoption name UseNNUE value false');
    e.send('setoption name EvalFile value <built-in>');
    e.send('go depth 4');
    expect(await e.waitFor(BESTMOVE, 15000)).toMatch(/^bestmove /);
  }, 30000);
});

describe('responsiveness while searching', () => {
  it('answers isready at once during go infinite, and stop gives bestmove promptly', async () => {
    const e = await engine();
    e.send('position startpos');
    e.send('go infinite');
    await e.waitFor(/^info depth/);
    await new Promise((r) => setTimeout(r, 300));
    let t0 = performance.now();
    e.send('isready');
    await e.waitFor(/^readyok$/);
    expect(performance.now() - t0).toBeLessThan(500);
    expect(e.lines.some((l) => BESTMOVE.test(l))).toBe(false);

    t0 = performance.now();
    e.send('stop');
    const line = await e.waitFor(BESTMOVE);
    expect(performance.now() - t0).toBeLessThan(500); // the target is 50 ms
    expect(parseBestmove(line).best).toMatch(UCI_MOVE);

    // Nothing of that search after its bestmove.
    await new Promise((r) => setTimeout(r, 200));
    expect(await e.sync()).toEqual([]);
  }, 20000);

  it('ignores go while a search runs, with an info string, and prints one bestmove', async () => {
    const e = await engine();
    e.send('go infinite');
    await e.waitFor(/^info depth/);
    e.send('go depth 1');
    await e.waitFor(/^info string a search is running; go ignored/);
    e.send('stop');
    await e.waitFor(BESTMOVE);
    await new Promise((r) => setTimeout(r, 200));
    expect(await e.sync()).toEqual([]);
    expect(e.lines.filter((l) => BESTMOVE.test(l))).toHaveLength(1);
  }, 20000);

  it('runs a go sent after stop before the bestmove came, and answers both in order', async () => {
    const e = await engine();
    e.send('go infinite');
    await e.waitFor(/^info depth/);
    // A GUI that moves on at once: stop, the new position and go in one write.
    e.send('stop\nposition startpos moves e2e4\ngo depth 4');
    const first = parseBestmove(await e.waitFor(BESTMOVE));
    const second = parseBestmove(await e.waitFor(BESTMOVE, 10000));
    expect(first.best).toMatch(/^[a-h]2[a-h][34]$|^[bg]1[a-h]3$/); // White's first move
    expect(second.best).toMatch(/^[a-h]7[a-h][56]$|^[bg]8[a-h]6$/); // Black's reply to 1. e4
    expect(e.lines.some((l) => /ignored/.test(l))).toBe(false);
  }, 20000);

  it('a ponder miss sent at once: stop, position and a timed go get two bestmoves', async () => {
    const e = await engine();
    e.send('position startpos moves e2e4');
    e.send('go ponder wtime 5000 btime 5000');
    await e.waitFor(/^info depth/);
    e.send('stop\nposition startpos moves e2e4 c7c5\ngo wtime 1000 btime 1000');
    await e.waitFor(BESTMOVE);
    const t0 = performance.now();
    const { best } = parseBestmove(await e.waitFor(BESTMOVE, 3000));
    expect(performance.now() - t0).toBeLessThan(1500);
    expect(best).toMatch(/^[a-h][12][a-h][1-4]$/); // White's move
  }, 20000);

  it('a ponderhit for a ponder search queued behind a stopped one starts its clock', async () => {
    const e = await engine();
    e.send('position startpos moves e2e4');
    e.send('go ponder wtime 5000 btime 5000');
    await e.waitFor(/^info depth/);
    e.send('stop\nposition startpos moves e2e4 c7c5 g1f3\ngo ponder wtime 1000 btime 1000\nponderhit');
    await e.waitFor(BESTMOVE);
    const t0 = performance.now();
    const { best } = parseBestmove(await e.waitFor(BESTMOVE, 3000));
    expect(performance.now() - t0).toBeLessThan(1500);
    expect(best).toMatch(/^[a-h][578][a-h][1-6]$/); // Black's move
    expect(e.lines.some((l) => /ponderhit without/.test(l))).toBe(false);
  }, 20000);

  it('stop also ends a go queued behind a stopped search, each bestmove once', async () => {
    const e = await engine();
    e.send('go infinite');
    await e.waitFor(/^info depth/);
    e.send('stop\ngo infinite\nstop\ngo depth 1 searchmoves zz\nisready');
    await e.waitFor(/^readyok$/);
    for (let i = 0; i < 3; i++) await e.waitFor(BESTMOVE, 5000);
    await new Promise((r) => setTimeout(r, 200));
    expect(await e.sync()).toEqual([]);
    expect(e.lines.filter((l) => BESTMOVE.test(l))).toHaveLength(3);
    // The third go's own messages come after the second's bestmove.
    const refused = e.lines.findIndex((l) => l.startsWith("info string searchmoves: malformed move 'zz'"));
    const bestmoves = e.lines.flatMap((l, i) => (BESTMOVE.test(l) ? [i] : []));
    expect(refused).toBeGreaterThan(bestmoves[1]);
  }, 20000);

  it('ignores a stop with no search running', async () => {
    const e = await engine();
    e.send('stop');
    e.send('stop');
    expect(await e.sync()).toEqual([]);
  }, 20000);

  it('quit during a search prints bestmove and exits with code 0 promptly', async () => {
    const e = await engine();
    e.send('go infinite');
    await e.waitFor(/^info depth/);
    const t0 = performance.now();
    e.send('quit');
    expect(await e.waitExit(3000)).toBe(0);
    expect(performance.now() - t0).toBeLessThan(1000); // the target is 100 ms
    expect(e.lines.some((l) => BESTMOVE.test(l))).toBe(true);
  }, 20000);

  it('end of input during a search prints bestmove and exits with code 0', async () => {
    const e = await engine();
    e.send('go infinite');
    await e.waitFor(/^info depth/);
    e.close();
    expect(await e.waitExit(3000)).toBe(0);
    expect(e.lines.some((l) => BESTMOVE.test(l))).toBe(true);
  }, 20000);

  it('end of input when idle exits with code 0, after all answers are out', async () => {
    const e = engine.track(new EngineProcess());
    e.write('uci\nisready\n');
    e.close();
    expect(await e.waitExit(5000)).toBe(0);
    expect(e.lines).toContain('uciok');
    expect(e.lines).toContain('readyok');
  }, 20000);

  it('end of input right after isready and go: readyok, then bestmove', async () => {
    const e = engine.track(new EngineProcess());
    e.write('uci\nisready\nposition startpos\ngo depth 20\n');
    e.close();
    expect(await e.waitExit(5000)).toBe(0);
    const ready = e.lines.indexOf('readyok');
    const best = e.lines.findIndex((l) => BESTMOVE.test(l));
    expect(ready).toBeGreaterThanOrEqual(0);
    expect(best).toBeGreaterThan(ready);
  }, 20000);

  it('quit right after a burst of commands still flushes every answer', async () => {
    const e = engine.track(new EngineProcess());
    e.write(`uci\n${'d\n'.repeat(50)}isready\nquit\n`);
    expect(await e.waitExit(5000)).toBe(0);
    expect(e.lines.filter((l) => l.startsWith('Fen: '))).toHaveLength(50);
    expect(e.lines[e.lines.length - 1]).toBe('readyok');
  }, 20000);
});

describe('position', () => {
  const fenOf = async (e: EngineProcess): Promise<string> => {
    e.send('d');
    const lines = await e.collectUntil(/^Checkers:/);
    return lines.find((l) => l.startsWith('Fen: '))!.slice(5);
  };

  it('plays moves from startpos and from a FEN', async () => {
    const e = await engine();
    e.send('position startpos moves e2e4 e7e5 g1f3');
    expect(await fenOf(e)).toBe('rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2');
    e.send('position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4');
    expect(await fenOf(e)).toBe('4k3/8/8/8/4P3/8/8/4K3 b - - 0 1');
    expect(await e.sync()).toEqual([]);
  }, 20000);

  it('keeps the previous position on a bad FEN, with the reason', async () => {
    const e = await engine();
    e.send('position startpos moves d2d4');
    e.send('position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1');
    await e.waitFor(/^info string position: invalid fen '.*': .+; position unchanged$/);
    e.send('position fen');
    await e.waitFor(/^info string position: invalid fen/);
    e.send('position');
    await e.waitFor(/^info string position: expected/);
    e.send('position somewhere');
    await e.waitFor(/^info string position: expected "startpos" or "fen", got 'somewhere'/);
    expect(await fenOf(e)).toBe('rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1');
  }, 20000);

  it('stops at an illegal or malformed move and keeps the moves before it', async () => {
    const e = await engine();
    e.send('position startpos moves e2e4 e7e5 e1e3 g1f3');
    await e.waitFor(/^info string position: illegal move e1e3 at move 3; position kept up to the move before \(1 later move ignored\)$/);
    expect(await fenOf(e)).toBe('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');
    e.send('position startpos moves e2e4 hello');
    await e.waitFor(/^info string position: malformed move 'hello' at move 2/);
    expect(await fenOf(e)).toBe('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
    // The search starts from the position kept.
    e.send('go depth 1');
    const { best } = parseBestmove(await e.waitFor(BESTMOVE));
    expect(best[1]).toMatch(/[5-8]/); // a black move
  }, 20000);

  it('shows the checkers in d', async () => {
    const e = await engine();
    e.send('position fen 4k3/8/8/8/8/5n2/8/R3K2q w Q - 0 1');
    e.send('d');
    expect(await e.waitFor(/^Checkers:/)).toBe('Checkers: h1 f3');
    e.send('position startpos');
    e.send('d');
    expect(await e.waitFor(/^Checkers:/)).toBe('Checkers: ');
  }, 20000);

  it('writes castling as e1g1, or e1h1 with UCI_Chess960', async () => {
    const e = await engine();
    e.send('position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1');
    e.send('go perft 1');
    const standard = await e.collectUntil(/^Nodes searched:/);
    expect(standard).toContain('e1g1: 1');
    e.send('setoption name UCI_Chess960 value true');
    e.send('position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1');
    e.send('go perft 1');
    const chess960 = await e.collectUntil(/^Nodes searched:/);
    expect(chess960).toContain('e1h1: 1');
  }, 20000);

  it('a castling move keeps working when UCI_Chess960 changes after position', async () => {
    const e = await engine();
    e.send('position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1');
    e.send('setoption name UCI_Chess960 value true');
    e.send('go depth 2');
    const lines = await e.collectUntil(BESTMOVE);
    expect(lines.some((l) => l.startsWith('info string'))).toBe(false);
    e.send('go perft 1');
    const perft = await e.collectUntil(/^Nodes searched:/);
    expect(perft).toContain('e8a8: 1'); // black's long castling, king takes rook
  }, 20000);
});

describe('go', () => {
  it('reports nonsense values and unknown tokens, and still searches', async () => {
    const e = await engine();
    e.send('position startpos');
    // White's clock is the one left unset: with 0 ms on it, a loaded machine
    // could be too slow even to start the search, and the engine would rightly
    // play its fallback move with a message of its own.
    e.send('go btime -100 wtime abc depth 0 nodes -5 movestogo 0 banana depth 2 movetime');
    const lines = await e.collectUntil(BESTMOVE);
    const infos = lines.filter((l) => l.startsWith('info string'));
    expect(infos).toEqual([
      'info string go: btime -100 is below 0; using 0',
      "info string go: wtime 'abc' is not a number; ignored",
      'info string go: depth 0 is below 1; using 1',
      'info string go: nodes -5 is below 1; using 1',
      'info string go: movestogo 0 is below 1; ignored',
      "info string go: unknown token 'banana' ignored",
      'info string go: movetime needs a value; ignored',
    ]);
    expect(parseBestmove(lines[lines.length - 1]).best).toMatch(UCI_MOVE);
  }, 20000);

  it("gives the side to move the other side's clock when only that one is sent", async () => {
    const e = await engine();
    e.send('position startpos');
    e.send('go btime 2000 binc 0');
    const lines = await e.collectUntil(BESTMOVE, 5000);
    expect(lines).toContain('info string go: no wtime for White, the side to move; using btime 2000');
    expect(parseBestmove(lines[lines.length - 1]).best).toMatch(UCI_MOVE);
  }, 20000);

  it('searches a movetime beyond the timer range until stop', async () => {
    // Found by test/fuzz: movetime is capped at 2^31 - 1 ms, and the watchdog
    // added its margin to that; Node fires a longer timeout at once, so the
    // search was given up after 1 ms ("the search overran its time") and a
    // TimeoutOverflowWarning went to stderr.
    const e = await engine();
    e.send('position startpos');
    e.send('go movetime 99999999999');
    await e.waitFor(/^info depth 2 /);
    await e.sync();
    e.send('stop');
    const lines = await e.collectUntil(BESTMOVE);
    expect(lines.filter((l) => l.startsWith('info string error'))).toEqual([]);
    expect(parseBestmove(lines[lines.length - 1]).best).toMatch(UCI_MOVE);
    expect(e.stderr).toBe('');
  }, 20000);

  it('answers go in checkmate and stalemate with bestmove 0000 after an info line', async () => {
    const e = await engine();
    e.send('position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1'); // checkmate
    e.send('go depth 5');
    let lines = await e.collectUntil(BESTMOVE);
    expect(lines[lines.length - 1]).toBe('bestmove 0000');
    expect(lines.some((l) => l.startsWith('info ') && !l.startsWith('info string'))).toBe(true);
    e.send('position fen k7/2Q5/1K6/8/8/8/8/8 b - - 0 1'); // stalemate
    e.send('go movetime 100');
    lines = await e.collectUntil(BESTMOVE);
    expect(lines[lines.length - 1]).toBe('bestmove 0000');
    // Even infinite and ponder searches wait for stop before answering 0000.
    e.send('go infinite');
    await new Promise((r) => setTimeout(r, 200));
    expect(e.lines.slice(e.cursor).some((l) => BESTMOVE.test(l))).toBe(false);
    e.send('stop');
    expect(await e.waitFor(BESTMOVE)).toBe('bestmove 0000');
  }, 20000);

  it('go perft 3 from the start position: 20 root moves, 8902 nodes', async () => {
    const e = await engine();
    e.send('position startpos');
    e.send('go perft 3');
    const lines = await e.collectUntil(/^Nodes searched:/);
    expect(lines[lines.length - 1]).toBe('Nodes searched: 8902');
    const divide = lines.filter((l) => /^[a-h][1-8][a-h][1-8][nbrq]?: \d+$/.test(l));
    expect(divide).toHaveLength(20);
    expect(divide).toContain('e2e4: 600');
    expect(divide.reduce((sum, l) => sum + Number(l.split(': ')[1]), 0)).toBe(8902);
    expect(e.lines.some((l) => BESTMOVE.test(l))).toBe(false);
  }, 20000);

  it('go perft after moves counts from the current position', async () => {
    const e = await engine();
    e.send('position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1');
    e.send('go perft 2');
    expect(await e.waitFor(/^Nodes searched:/)).toBe('Nodes searched: 2039');
  }, 20000);

  it('pondering: no bestmove before ponderhit; after it, a move within the time control', async () => {
    const e = await engine();
    e.send('setoption name Ponder value true');
    e.send('position startpos moves e2e4');
    e.send('go ponder wtime 2000 btime 2000 winc 0 binc 0');
    await e.waitFor(/^info depth/);
    await new Promise((r) => setTimeout(r, 500));
    expect(e.lines.some((l) => BESTMOVE.test(l))).toBe(false);
    const t0 = performance.now();
    e.send('ponderhit');
    const { best } = parseBestmove(await e.waitFor(BESTMOVE, 3000));
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(best).toMatch(UCI_MOVE);
  }, 20000);

  it('pondering, then stop (ponder miss): bestmove at once', async () => {
    const e = await engine();
    e.send('go ponder wtime 60000 btime 60000');
    await e.waitFor(/^info depth/);
    const t0 = performance.now();
    e.send('stop');
    await e.waitFor(BESTMOVE);
    expect(performance.now() - t0).toBeLessThan(500);
  }, 20000);

  it('ponderhit with nothing to ponder is reported', async () => {
    const e = await engine();
    e.send('ponderhit');
    expect(await e.sync()).toEqual(['info string ponderhit without a ponder search; ignored']);
  }, 20000);

  it('plays fast with little time on the clock', async () => {
    const e = await engine();
    e.send('position startpos moves e2e4 e7e5');
    const t0 = performance.now();
    e.send('go wtime 200 btime 200 winc 0 binc 0');
    const line = await e.waitFor(BESTMOVE, 3000);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(parseBestmove(line).best).toMatch(UCI_MOVE);
    expect(e.lines.some((l) => l.startsWith('info string error'))).toBe(false);
  }, 20000);

  it('go movetime answers near the time asked', async () => {
    const e = await engine();
    const t0 = performance.now();
    e.send('go movetime 300');
    await e.waitFor(BESTMOVE, 3000);
    expect(performance.now() - t0).toBeLessThan(1500);
  }, 20000);

  it('go depth and go nodes end on their own', async () => {
    const e = await engine();
    e.send('go depth 4');
    await e.waitFor(BESTMOVE, 10000);
    e.send('go nodes 2000');
    await e.waitFor(BESTMOVE, 10000);
  }, 30000);

  // Depends on the real search honouring searchmoves (the worker replaces a
  // move outside the list with an `info string error` and a move inside it).
  it('searchmoves restricts the move played', async () => {
    const e = await engine();
    e.send('position startpos');
    e.send('go depth 5 searchmoves a2a3 h2h3 zz e2e5');
    const lines = await e.collectUntil(BESTMOVE);
    expect(lines).toContain("info string searchmoves: malformed move 'zz'; ignored");
    expect(lines).toContain('info string searchmoves: illegal move e2e5; ignored');
    expect(['a2a3', 'h2h3']).toContain(parseBestmove(lines[lines.length - 1]).best);
    expect(lines.some((l) => l.startsWith('info string error'))).toBe(false);
  }, 20000);

  it('the ponder move is legal after the best move', async () => {
    const e = await engine();
    e.send('position startpos');
    e.send('go depth 5');
    const { best, ponder } = parseBestmove(await e.waitFor(BESTMOVE));
    expect(best).toMatch(UCI_MOVE);
    if (ponder !== null) {
      e.send(`position startpos moves ${best} ${ponder}`);
      expect(await e.sync()).toEqual([]);
    }
  }, 20000);
});

describe('input hygiene', () => {
  it('reports unknown commands, and skips unknown words before a command', async () => {
    const e = await engine();
    e.send('foo bar');
    e.send('joho isready');
    const lines = await e.collectUntil(/^readyok$/);
    expect(lines).toEqual(['info string unknown command: foo', 'info string unknown token ignored: joho', 'readyok']);
  }, 20000);

  it('ignores empty lines and tolerates CRLF, tabs, stray spaces and upper case', async () => {
    const e = await engine();
    e.write('\n\r\n   \n\t\n');
    e.write('  UCI \r\n');
    await e.waitFor(/^uciok$/);
    e.write('position   startpos\tmoves  e2e4 \r\n');
    e.write('D\r\n');
    expect(await e.waitFor(/^Fen: /)).toBe('Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
    await e.waitFor(/^Checkers:/);
    e.write('IsReady\r\n');
    await e.waitFor(/^readyok$/);
    expect(e.lines.filter((l) => l.startsWith('info string'))).toEqual([]);
  }, 20000);

  it('survives garbage: long lines, binary bytes, lone keywords', async () => {
    const e = await engine();
    e.send('x'.repeat(100000));
    expect(await e.waitFor(/^info string unknown command: x+\.\.\.$/)).toHaveLength(132);
    e.send('\u0000\u0001\u00ff position');
    e.send('go depth 1 searchmoves');
    await e.waitFor(BESTMOVE);
    e.send('go perft');
    await e.waitFor(/^Nodes searched:/);
    e.send('setoption name');
    e.send('position fen moves e2e4');
    e.send('position startpos moves');
    e.send('debug on');
    e.send('register later');
    e.send('ucinewgame');
    await e.sync();
    expect(e.exitCode).toBe(null);
    expect(e.stderr).toBe('');
  }, 20000);

  it('answers eval and bench', async () => {
    const e = await engine();
    e.send('position startpos');
    e.send('eval');
    const evalLines = await e.sync();
    expect(evalLines.length).toBeGreaterThan(0);
    expect(evalLines.some((l) => l.startsWith('info string unknown') || l.includes('not available'))).toBe(false);
    e.send('bench 1');
    const bench = await e.collectUntil(/^Nodes searched: \d+$/, 15000);
    expect(bench.some((l) => l.startsWith('info string error'))).toBe(false);
  }, 30000);

  it('answers isready after ucinewgame and Hash changes only once they are applied', async () => {
    const e = await engine();
    e.send('setoption name Hash value 64');
    e.send('ucinewgame');
    e.send('setoption name Clear Hash');
    expect(await e.sync()).toEqual([]);
    e.send('go depth 3');
    await e.waitFor(BESTMOVE);
  }, 20000);
});
