// The opening-book options through the UCI loop of the built engine.

import { describe, expect, it } from 'vitest';
import { useEngines } from './engine-process.js';

const engine = useEngines();

describe('OwnBook', () => {
  it('declares the book options', async () => {
    const e = await engine();
    e.send('uci');
    const lines = await e.collectUntil(/^uciok$/);
    expect(lines).toContain('option name OwnBook type check default false');
    expect(lines.some((l) => /^option name BookFile type string default .*kestrel\.bin$/.test(l))).toBe(true);
    expect(lines).toContain('option name BookMode type combo default weighted var best var weighted');
    expect(lines).toContain('option name BookDepth type spin default 255 min 0 max 1024');
  });

  it('plays the shipped book instantly when on, announcing the move, and searches once out of book', async () => {
    const e = await engine();
    e.send('setoption name OwnBook value true');
    e.send('setoption name BookMode value best');
    e.send('position startpos');
    e.send('go wtime 60000 btime 60000');
    const lines = await e.collectUntil(/^bestmove /);
    expect(lines).toContain('info string book move e2e4 (weight 12956 of total 34700)');
    expect(lines[lines.length - 2]).toMatch(/^info depth 0 .* pv e2e4$/);
    expect(lines[lines.length - 1]).toBe('bestmove e2e4');
    // A position no book line reaches: the engine searches.
    e.send('position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1');
    e.send('go depth 3');
    const searched = await e.collectUntil(/^bestmove /);
    expect(searched.some((l) => l.startsWith('info string book move'))).toBe(false);
    expect(searched.some((l) => / pv /.test(l) && l.startsWith('info depth 3'))).toBe(true);
  });

  it('answers in the order asked: isready before a later book move', async () => {
    const e = await engine();
    e.send('setoption name OwnBook value true');
    e.send('setoption name Hash value 8'); // a change the worker must apply before readyok
    e.send('position startpos');
    e.send('go wtime 1000 btime 1000');
    e.send('isready');
    e.send('go movetime 100');
    e.send('isready');
    const lines = [...(await e.collectUntil(/^readyok$/)), ...(await e.collectUntil(/^readyok$/))];
    expect(lines.filter((l) => /^(bestmove|readyok)/.test(l)).map((l) => l.split(' ')[0])).toEqual([
      'bestmove',
      'readyok',
      'bestmove',
      'readyok',
    ]);
  });

  it('never touches the book when off (the default), nor with a missing file', async () => {
    const e = await engine();
    e.send('position startpos');
    e.send('go depth 2');
    const off = await e.collectUntil(/^bestmove /);
    expect(off.some((l) => l.includes('book'))).toBe(false);
    e.send('setoption name OwnBook value true');
    e.send('setoption name BookFile value /nonexistent/book.bin');
    e.send('go depth 2');
    const missing = await e.collectUntil(/^bestmove /);
    expect(missing.some((l) => /^info string cannot open book .*nonexistent/.test(l))).toBe(true);
    expect(missing[missing.length - 1]).toMatch(/^bestmove [a-h][1-8][a-h][1-8]( ponder \S+)?$/);
  });
});
