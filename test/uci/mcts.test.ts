// The mcts drivers through the UCI loop of the built engine: chosen with
// SearchDriver, they answer go nodes, go infinite and stop, ponder and
// ponderhit with legal moves, report playouts as nodes, search on through a
// full tree, and say in an info string what Threads > 1 and the strength
// levels do under them.

import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { parseUciMove } from '../../src/board/notation.js';
import { useEngines } from './engine-process.js';

const engine = useEngines();

/** Throws unless `move` is legal after `moves` from the start position. */
function legalAfter(moves: string[], move: string): boolean {
  const pos = new Position();
  for (const m of moves) pos.makeMove(parseUciMove(pos, m));
  parseUciMove(pos, move);
  return true;
}

describe('SearchDriver mcts over UCI', () => {
  it('answers go nodes with a legal move, counting playouts as nodes, and reuses the tree along a game', async () => {
    const e = await engine();
    e.send('setoption name SearchDriver value mcts');
    const moves: string[] = [];
    let reused = 0;
    for (let i = 0; i < 4; i++) {
      e.send(`position startpos${moves.length > 0 ? ` moves ${moves.join(' ')}` : ''}`);
      e.send('go nodes 300');
      const lines = await e.collectUntil(/^bestmove /, 60000);
      const best = lines[lines.length - 1].split(' ')[1];
      expect(legalAfter(moves, best)).toBe(true);
      const info = lines.filter((l) => / pv /.test(l));
      expect(info[info.length - 1]).toMatch(/ nodes 300 /);
      if (lines.some((l) => l.startsWith('info string mcts: reusing'))) reused++;
      moves.push(best);
    }
    expect(reused).toBeGreaterThan(0);
  }, 120000);

  it('searches on to go nodes when its tree fills a small Hash, and says so once', async () => {
    const e = await engine();
    e.send('setoption name SearchDriver value mcts');
    e.send('setoption name Hash value 1');
    e.send('position startpos moves e2e4');
    e.send('go nodes 30000');
    const lines = await e.collectUntil(/^bestmove /, 60000);
    expect(lines.filter((l) => l.startsWith('info string mcts: the tree fills its 1 MB (Hash)'))).toHaveLength(1);
    const info = lines.filter((l) => / pv /.test(l));
    expect(info[info.length - 1]).toMatch(/ nodes 30000 /);
    expect(legalAfter(['e2e4'], lines[lines.length - 1].split(' ')[1])).toBe(true);
  }, 90000);

  it('stops go infinite on stop, and pondering on ponderhit', async () => {
    const e = await engine();
    e.send('setoption name SearchDriver value mcts-qs');
    e.send('position startpos moves e2e4');
    e.send('go infinite');
    await e.waitFor(/^info depth /, 30000);
    e.send('stop');
    const best = (await e.waitFor(/^bestmove /, 30000)).split(' ');
    expect(legalAfter(['e2e4'], best[1])).toBe(true);
    e.send('position startpos moves e2e4 e7e5');
    e.send('go ponder wtime 2000 btime 2000');
    await e.waitFor(/^info depth /, 30000);
    e.send('ponderhit');
    const after = (await e.waitFor(/^bestmove /, 30000)).split(' ');
    expect(legalAfter(['e2e4', 'e7e5'], after[1])).toBe(true);
  }, 90000);

  it('says what Threads > 1 and the strength levels do', async () => {
    const e = await engine();
    e.send('setoption name SearchDriver value mcts');
    e.send('setoption name Threads value 2');
    e.send('position startpos');
    e.send('go nodes 100');
    const lines = await e.collectUntil(/^bestmove /, 60000);
    expect(lines).toContain('info string Threads 2: the mcts driver searches with one thread');
    e.send('setoption name Threads value 1');
    e.send('setoption name Skill Level value 3');
    e.send('go nodes 100');
    const limited = await e.collectUntil(/^bestmove /, 60000);
    expect(limited.some((l) => l.startsWith('info string UCI_LimitStrength and Skill Level play with the pvs driver'))).toBe(true);
  }, 90000);
});
