// The MTD(f) driver (SearchDriver mtdf) answers with a legal move and a line
// even when its null-window passes end at the root on the hash table.

import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { moveToUci } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { SearchControl } from '../../src/search/control.js';
import { DEFAULT_SEARCH_OPTIONS, type GoParams, type SearchEvent } from '../../src/search/limits.js';
import { Searcher } from '../../src/search/search.js';
import '../../src/eval/index.js';

function legalUci(pos: Position): string[] {
  const moves = new Int32Array(MAX_MOVES);
  const n = generateMoves(pos, moves, 0, false);
  return Array.from(moves.subarray(0, n), (m) => moveToUci(pos, m));
}

describe('MTD(f)', () => {
  it('a second search of the same position, and one limited by searchmoves, answer with a legal move and a line', () => {
    // Found by test/fuzz: the second `go depth 4` (the table holds exact
    // scores for the root) and a later `go depth 1 searchmoves d2d4` ended
    // every pass at the root without a line; the search returned an undefined
    // move, printed as a1a1, and the worker played a fallback.
    const searcher = new Searcher(16);
    const pos = new Position();
    const options = { ...DEFAULT_SEARCH_OPTIONS, driver: 'mtdf' as const };
    const go = (params: Partial<GoParams>): { move: string; pvs: string[][] } => {
      const pvs: string[][] = [];
      const report = (e: SearchEvent): void => {
        if (e.type === 'line') pvs.push(e.pv.map((m) => moveToUci(pos, m)));
      };
      const result = searcher.go({
        pos,
        params: { infinite: false, ponder: false, searchmoves: [], ...params },
        options,
        control: new SearchControl(),
        report,
      });
      return { move: moveToUci(pos, result.move), pvs };
    };
    const legal = legalUci(pos);
    for (let i = 0; i < 2; i++) {
      const { move, pvs } = go({ depth: 4 });
      expect(legal).toContain(move);
      for (const pv of pvs) expect(pv.length).toBeGreaterThan(0);
    }
    expect(go({ depth: 1, searchmoves: ['d2d4'] }).move).toBe('d2d4');
  });
});
