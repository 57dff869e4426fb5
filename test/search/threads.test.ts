// Lazy SMP in one thread: a helper's search publishes its iterations, and the
// main searcher plays a helper's move only when the helper got deeper with a
// better score. (The worker plumbing is tested through UCI in test/uci/threads.test.ts.)

import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { SearchControl } from '../../src/search/control.js';
import { DEFAULT_SEARCH_OPTIONS, type GoParams } from '../../src/search/limits.js';
import { type SearchResult, Searcher } from '../../src/search/search.js';
import { ThreadState, helperSkipsDepth, type HelperThreads } from '../../src/search/threads.js';
import { TranspositionTable } from '../../src/search/tt.js';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { engineLine } from '../../src/engine/search-lines.js';
import type { SearchEvent } from '../../src/search/limits.js';
import { formatLine } from '../../src/uci/info.js';

/** An event as the UCI loop prints a line (other events by their type). */
function uciText(pos: Position, e: SearchEvent): string {
  return e.type === 'line' ? formatLine(engineLine(pos, e, false), false) : e.type;
}

const FEN = 'r1bq1rk1/ppp2ppp/5n2/2bp4/2NPP3/2P5/PP3PPP/RNBQK2R w KQ - 0 9';

function depthParams(depth: number): GoParams {
  return { depth, infinite: false, ponder: false, searchmoves: [] };
}

/** Helpers that are already done: their results are whatever the test put in `state`. */
function doneHelpers(state: ThreadState): HelperThreads {
  return { count: 1, state, start: () => {}, finish: () => {} };
}

/** A main searcher's search of pos with done helpers (doneHelpers), its lines in UCI text pushed to `lines`. */
function searchWithHelpers(main: Searcher, pos: Position, params: GoParams, state: ThreadState, lines: string[]): SearchResult {
  const report = (e: SearchEvent): void => {
    lines.push(uciText(pos, e));
  };
  return main.go({
    pos,
    params,
    options: DEFAULT_SEARCH_OPTIONS,
    control: new SearchControl(),
    report,
    role: { kind: 'main', helpers: doneHelpers(state) },
  });
}

describe('Lazy SMP searchers', () => {
  it('helpers skip some depths, and differently from each other', () => {
    const pattern = (i: number): string => Array.from({ length: 12 }, (_, d) => (helperSkipsDepth(i, d + 1) ? '-' : 'x')).join('');
    expect(pattern(0)).toBe('xxxxxxxxxxxx');
    expect(pattern(1)).toBe('xx-x-x-x-x-x');
    expect(pattern(2)).not.toBe(pattern(1));
    expect(new Set([1, 2, 3, 4, 5, 6, 7].map(pattern)).size).toBe(7);
  });

  it('a helper searches over the shared table, publishes its iterations and node count, and prints nothing', () => {
    const main = new Searcher(4);
    main.tt.newSearch();
    const helper = new Searcher(new TranspositionTable(main.tt.memory));
    helper.tt.generation = main.tt.generation;
    const state = new ThreadState(2);
    const lines: string[] = [];
    const pos = new Position(FEN);
    helper.go({
      pos,
      params: depthParams(6),
      options: DEFAULT_SEARCH_OPTIONS,
      control: state.control,
      report: (e) => lines.push(uciText(pos, e)),
      role: {
        kind: 'helper',
        index: 1,
        state,
      },
    });
    expect(lines).toEqual([]);
    expect(state.helperNodes()).toBe(helper.nodes);
    const r = state.result(1)!;
    expect(r.depth).toBe(6);
    expect(r.pv.length).toBeGreaterThan(0);
    // The main searcher's view of the table has the helper's root entry.
    expect(main.tt.probe(pos.keyLo, pos.keyHi)).toBe(true);
    expect(main.tt.move).toBe(r.pv[0]);
  });

  it('the main searcher plays a helper move only if it is deeper and scores better', () => {
    const pos = new Position(FEN);
    const h3 = parseUciMove(pos, 'h2h3');
    /**
     * Main searcher to depth 2 while a helper has published (depth, score, h2h3).
     * Depth 2 takes the main searcher fewer than 256 nodes, so it completes
     * before its first look at the helpers (which would end a `go depth` search
     * early once a helper reached the depth).
     */
    const run = (
      depth: number,
      score: number,
      published = true,
      searchmoves: string[] = [],
    ): { best: string; lines: string[]; nodes: number } => {
      const state = new ThreadState(2);
      if (published) state.publishResult(1, depth, score, [h3]);
      state.publishNodes(1, 5000);
      const main = new Searcher(4);
      const lines: string[] = [];
      const result = searchWithHelpers(main, pos, { ...depthParams(2), searchmoves }, state, lines);
      return { best: moveToUci(pos, result.move), lines, nodes: main.nodes };
    };
    const deeperBetter = run(20, 900);
    expect(deeperBetter.best).toBe('h2h3');
    const last = deeperBetter.lines[deeperBetter.lines.length - 1];
    expect(last).toMatch(/^info depth 20 .* score cp 900 .* pv h2h3$/);
    // Node counts include the helper's.
    expect(Number(/ nodes (\d+)/.exec(last)![1])).toBe(deeperBetter.nodes + 5000);

    expect(run(20, -900).best).not.toBe('h2h3'); // deeper but worse
    expect(run(1, 900).best).not.toBe('h2h3'); // better but shallower
    expect(run(20, 900, false).best).not.toBe('h2h3'); // no iteration completed
    expect(run(20, 900, true, ['a2a3', 'b2b3']).best).not.toBe('h2h3'); // not among searchmoves
  });

  it('go depth N ends as soon as a helper has completed depth N, and plays its move', () => {
    const pos = new Position(FEN);
    const h3 = parseUciMove(pos, 'h2h3');
    const state = new ThreadState(2);
    state.publishResult(1, 9, -50, [h3]); // a worse score than the main line's, but the depth asked for
    const main = new Searcher(4);
    const lines: string[] = [];
    const result = searchWithHelpers(main, pos, depthParams(9), state, lines);
    expect(moveToUci(pos, result.move)).toBe('h2h3');
    expect(lines[lines.length - 1]).toMatch(/^info depth 9 .* score cp -50 .* pv h2h3$/);
    // The main searcher stopped at its first look at the helpers (every 256 nodes).
    expect(main.nodes).toBeLessThanOrEqual(256);
  });

  it('a helper result still being written neither ends the search nor is read half-written', () => {
    const pos = new Position(FEN);
    const state = new ThreadState(2);
    state.publishResult(1, 9, -50, [parseUciMove(pos, 'h2h3')]);
    // Make helper 1's sequence number odd, as while it writes (helper 0's words are all zero).
    const words = new Int32Array(state.buffers.results);
    const seqAt = words.findIndex((w) => w !== 0);
    Atomics.add(words, seqAt, 1);
    expect(state.deepestHelperDepth()).toBe(0);
    expect(state.result(1)).toBeNull(); // after waiting a moment for the writer

    const main = new Searcher(4);
    const lines: string[] = [];
    searchWithHelpers(main, pos, depthParams(4), state, lines);
    expect(main.nodes).toBeGreaterThan(256);
    expect(lines[lines.length - 1]).toMatch(/^info depth 4 /);
    expect(lines[lines.length - 1]).not.toMatch(/score cp -50 /);
  });
});
