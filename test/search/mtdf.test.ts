// MTD(f), the second alpha-beta driver: its null-window probes can be cut
// off at the root by the table or by pruning, without a move; it must still
// answer a legal move every time.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { SearchControl } from '../../src/search/control.js';
import { DEFAULT_SEARCH_OPTIONS } from '../../src/search/limits.js';
import { Searcher } from '../../src/search/search.js';

describe('MTD(f)', () => {
  it('answers a legal move at every depth', () => {
    const fens = readFileSync(new URL('../data/wac.epd', import.meta.url), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(0, 20)
      .map((l) => `${l.trim().split(/\s+/).slice(0, 4).join(' ')} 0 1`);
    const searcher = new Searcher(4);
    const moves = new Int32Array(MAX_MOVES);
    for (const fen of fens) {
      for (let depth = 1; depth <= 5; depth++) {
        const pos = new Position(fen);
        searcher.clear();
        const result = searcher.go(
          pos,
          { depth, infinite: false, ponder: false, searchmoves: [] },
          { ...DEFAULT_SEARCH_OPTIONS, driver: 'mtdf' },
          new SearchControl(),
        );
        const legal = Array.from(moves.subarray(0, generateMoves(pos, moves, 0, false)));
        expect(legal, `${fen} depth ${depth}`).toContain(result.move);
      }
    }
  });
});
