// Tablebases through UCI: SyzygyPath says what it found (or what is wrong,
// and the engine plays on), a won position is searched among the moves
// that keep the win and shown as a tablebase win, and probes below the root
// count in tbhits.

import { copyFileSync, fstatSync, openSync, readSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { Tablebases } from '../../src/syzygy/tablebases.js';
import { scratchDir } from '../scratch.js';
import { useEngines } from './engine-process.js';

const FOLDER = fileURLToPath(new URL('../data/syzygy', import.meta.url));
const engine = useEngines();
const tables = new Tablebases({
  list: (f) => readdirSync(f),
  open: (p) => {
    const fd = openSync(p, 'r');
    return { size: fstatSync(fd).size, read: (into, o, l, pos) => readSync(fd, into, o, l, pos) };
  },
});
tables.scan(FOLDER);

/** The tables' WDL after `uci` is played in fen, from the mover's view. */
function wdlAfter(fen: string, uci: string): number {
  const pos = new Position(fen);
  pos.makeMove(parseUciMove(pos, uci));
  return -tables.probeWdl(pos);
}

describe('SyzygyPath', () => {
  it('reports the tables found, keeps a won position won and shows it as a tablebase win', async () => {
    const e = await engine();
    e.send(`setoption name SyzygyPath value ${FOLDER}`);
    expect(await e.sync()).toEqual(['info string SyzygyPath: 11 tables (7 with DTZ) up to 4 pieces']);
    // King and rook against king and knight, White to win in 20 plies to the capture (the tables say so).
    const won = 'R7/8/4K3/7k/8/8/3n4/8 w - - 0 1';
    expect(tables.probeWdl(new Position(won))).toBe(2);
    e.send(`position fen ${won}`);
    e.send('go depth 6');
    const lines = await e.collectUntil(/^bestmove /, 20000);
    const last = lines.filter((l) => l.startsWith('info depth')).pop()!;
    expect(last).toMatch(/ score cp 1999\d .* tbhits \d+ /);
    const move = lines[lines.length - 1].split(' ')[1];
    expect(wdlAfter(won, move)).toBe(2);
  }, 30000);

  it('probes below the root when the root has more pieces than the tables', async () => {
    const e = await engine();
    e.send(`setoption name SyzygyPath value ${FOLDER}`);
    await e.sync();
    // Five pieces: a pawn race that trades into the tables a few plies down
    // (generation 4 first probed at depth 8, generation 5 at depth 9).
    e.send('position fen 8/5k2/8/3p4/3P4/8/2K5/R7 w - - 0 1');
    e.send('go depth 12');
    const lines = await e.collectUntil(/^bestmove /, 20000);
    const hits = lines.filter((l) => / tbhits \d+/.test(l)).map((l) => Number(/ tbhits (\d+)/.exec(l)![1]));
    expect(Math.max(...hits)).toBeGreaterThan(0);
  }, 30000);

  it('names each damaged or mislabelled file, leaves it out and plays on', async () => {
    // KRvK's files under KQvK's names (issue 92: the search hung), a pair of empty files, and a good KRvK.
    const dir = scratchDir('kestrel-uci-syzygy-');
    copyFileSync(join(FOLDER, 'KRvK.rtbw'), join(dir, 'KQvK.rtbw'));
    copyFileSync(join(FOLDER, 'KRvK.rtbz'), join(dir, 'KQvK.rtbz'));
    copyFileSync(join(FOLDER, 'KRvK.rtbw'), join(dir, 'KRvK.rtbw'));
    writeFileSync(join(dir, 'KNvK.rtbw'), '');
    writeFileSync(join(dir, 'KNvK.rtbz'), '');
    const e = await engine();
    e.send(`setoption name SyzygyPath value ${dir}`);
    expect(await e.sync()).toEqual([
      `info string SyzygyPath: ${dir}/KNvK.rtbw: empty (0 bytes); KNvK left out`,
      `info string SyzygyPath: ${dir}/KQvK.rtbw: its header holds other pieces than its name says; KQvK left out`,
      'info string SyzygyPath: 1 tables (0 with DTZ) up to 3 pieces',
    ]);
    e.send('position fen 8/8/8/4k3/8/8/8/4K2Q b - - 0 1');
    e.send('go depth 3');
    const lines = await e.collectUntil(/^bestmove /, 20000);
    expect(lines[lines.length - 1]).toMatch(/^bestmove e5/);
  }, 30000);

  it('says a folder cannot be read, and plays on without tables', async () => {
    const e = await engine();
    e.send('setoption name SyzygyPath value /no/such/folder');
    expect(await e.sync()).toEqual([
      'info string SyzygyPath: cannot read the folder /no/such/folder: no such file',
      'info string SyzygyPath: no tables found in /no/such/folder; playing without tablebases',
    ]);
    e.send('position fen 8/8/4k3/8/2n5/8/3R4/4K3 w - - 0 1');
    e.send('go depth 4');
    const lines = await e.collectUntil(/^bestmove /, 20000);
    expect(lines.some((l) => / tbhits /.test(l))).toBe(false);
  }, 30000);
});
