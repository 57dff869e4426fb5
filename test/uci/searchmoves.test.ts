// Every search driver keeps to `go searchmoves`, through the UCI loop of the
// built engine: on positions where the move left out is the obvious best
// (a hanging queen to take, a mate in one, a promotion), its bestmove and
// the first move of every line it reports are among the moves named, and
// the engine never has to replace its answer. Each position is searched
// with searchmoves on a fresh engine, then again after a search without
// them, when the table and the Monte Carlo tree hold the excluded move.

import { describe, expect, it } from 'vitest';
import { SEARCH_DRIVERS } from '../../src/search/driver-list.js';
import { useEngines } from './engine-process.js';

const engine = useEngines();

interface Case {
  fen: string;
  /** The move searchmoves leaves out (the best one). */
  best: string;
  searchmoves: string[];
}

const CASES: Case[] = [
  // The issue's: the rook takes the queen; the king's move hangs the rook.
  { fen: '4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1', best: 'd1d5', searchmoves: ['e1f1', 'd1c1'] },
  // A back-rank mate in one.
  { fen: '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1', best: 'a1a8', searchmoves: ['g1f1', 'h2h3', 'a1a7'] },
  // A knight takes a loose queen (Black to move).
  { fen: '4k3/8/8/2n5/8/3Q4/8/4K3 b - - 0 1', best: 'c5d3', searchmoves: ['e8e7', 'c5e6', 'c5b3'] },
  // A pawn promotes.
  { fen: '8/P6k/8/8/8/8/8/K7 w - - 0 1', best: 'a7a8q', searchmoves: ['a1b2', 'a1b1'] },
];

/** The search's limit per driver: a few thousand nodes, or a few hundred playouts. */
function limit(driver: string): string {
  return driver.startsWith('mcts') ? 'nodes 400' : 'nodes 4000';
}

describe('go searchmoves with every search driver', () => {
  it.each(SEARCH_DRIVERS)(
    '%s plays and shows only the moves named',
    async (driver) => {
      const e = await engine();
      e.send(`setoption name SearchDriver value ${driver}`);
      for (const c of CASES) {
        e.send('ucinewgame');
        e.send(`position fen ${c.fen}`);
        // Fresh, then after a search without searchmoves has filled the table and the tree.
        for (const extra of ['', 'all', ' depth 6']) {
          if (extra === 'all') {
            e.send(`go ${limit(driver)}`);
            await e.waitFor(/^bestmove /, 60000);
            continue;
          }
          // The last search shows two lines.
          e.send(`setoption name MultiPV value ${extra === '' ? 1 : 2}`);
          e.send(`go ${limit(driver)}${extra} searchmoves ${c.searchmoves.join(' ')}`);
          const lines = await e.collectUntil(/^bestmove /, 60000);
          const where = `${driver} on ${c.fen}, go ${limit(driver)}${extra}:\n${lines.join('\n')}`;
          const best = lines[lines.length - 1].split(' ')[1];
          expect(c.searchmoves, where).toContain(best);
          const pvs = lines.filter((l) => / pv /.test(l)).map((l) => l.split(' pv ')[1].split(' ')[0]);
          expect(pvs.length, where).toBeGreaterThan(0);
          for (const first of pvs) expect(c.searchmoves, where).toContain(first);
          expect(
            lines.filter((l) => l.startsWith('info string error')),
            where,
          ).toEqual([]);
        }
      }
    },
    120000,
  );
});
