// The Monte Carlo tree search drivers (src/search/mcts.ts): they play the
// mate in mate-in-1 and mate-in-2 positions, always answer a legal move,
// give the same move for the same playouts, score finished games exactly,
// keep the subtree of the moves played, and with a full node pool stop
// instead of growing. No timings are asserted.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { SearchControl } from '../../src/search/control.js';
import { DEFAULT_SEARCH_OPTIONS, type GoParams, type SearchDriver, type SearchEvent, type SearchLine } from '../../src/search/limits.js';
import { scoreToValue, valueToScore } from '../../src/search/mcts.js';
import { MctsTree, NO_NODE } from '../../src/search/mcts-tree.js';
import { MATE, type SearchResult, Searcher } from '../../src/search/search.js';

const MCTS_DRIVERS: SearchDriver[] = ['mcts', 'mcts-qs', 'mcts-uniform', 'mcts-qs-uniform'];

interface Run {
  result: SearchResult;
  lines: SearchLine[];
  notes: string[];
}

function run(
  searcher: Searcher,
  pos: Position,
  driver: SearchDriver,
  params: Partial<GoParams>,
  multiPv = 1,
  control = new SearchControl(),
): Run {
  const lines: SearchLine[] = [];
  const notes: string[] = [];
  const report = (e: SearchEvent): void => {
    if (e.type === 'line') lines.push(e);
    else if (e.type === 'note') notes.push(e.text);
  };
  const result = searcher.go(
    pos,
    { infinite: false, ponder: false, searchmoves: [], ...params },
    { ...DEFAULT_SEARCH_OPTIONS, driver, multiPv },
    control,
    report,
  );
  return { result, lines, notes };
}

function legalMoves(pos: Position): number[] {
  const moves = new Int32Array(MAX_MOVES);
  return Array.from(moves.subarray(0, generateMoves(pos, moves, 0, false)));
}

function isMate(pos: Position): boolean {
  return pos.inCheck() && legalMoves(pos).length === 0;
}

/** Whether the side to move mates in at most `moves` moves (a plain full-width search). */
function matesIn(pos: Position, moves: number): boolean {
  for (const m of legalMoves(pos)) {
    pos.makeMove(m);
    let wins = isMate(pos);
    if (!wins && moves > 1) {
      const replies = legalMoves(pos);
      wins = replies.length > 0;
      for (const r of replies) {
        pos.makeMove(r);
        const ok = matesIn(pos, moves - 1);
        pos.unmakeMove();
        if (!ok) {
          wins = false;
          break;
        }
      }
    }
    pos.unmakeMove();
    if (wins) return true;
  }
  return false;
}

function play(fen: string, moves: string[]): Position {
  const pos = new Position(fen);
  for (const m of moves) pos.makeMove(parseUciMove(pos, m));
  return pos;
}

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

describe('mates', () => {
  it.each([
    ['6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1', 'd1d8'],
    ['r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4', 'h5f7'],
    ['k7/8/1K6/8/8/8/8/7R w - - 0 1', 'h1h8'],
  ])('plays the mate in one: %s', (fen, mate) => {
    for (const driver of MCTS_DRIVERS) {
      const pos = new Position(fen);
      const { result, lines } = run(new Searcher(4), pos, driver, { nodes: 3000 });
      expect(moveToUci(pos, result.move), driver).toBe(mate);
      expect(lines[lines.length - 1].score, driver).toBe(MATE - 1);
    }
  });

  it.each([
    ['k7/8/2K5/8/8/8/8/7R w - - 0 1'],
    ['r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1'],
    ['6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1'],
  ])('plays a move that mates in two: %s', (fen) => {
    for (const driver of ['mcts', 'mcts-qs'] as SearchDriver[]) {
      const pos = new Position(fen);
      const { result, lines } = run(new Searcher(4), pos, driver, { nodes: 20000 });
      expect(matesIn(pos, 2), 'the position is a mate in two').toBe(true);
      pos.makeMove(result.move);
      // After the move, every reply allows a mate in one.
      const replies = legalMoves(pos);
      for (const r of replies) {
        pos.makeMove(r);
        expect(matesIn(pos, 1), `${driver}: ${moveToUci(pos, r)}`).toBe(true);
        pos.unmakeMove();
      }
      expect(lines[lines.length - 1].score, driver).toBe(MATE - 3);
    }
  });

  it('sees the side that is mated lose', () => {
    // Black to move is mated next move whatever it does.
    const pos = new Position('k7/8/1K6/8/8/8/8/7R b - - 0 1');
    const { result, lines } = run(new Searcher(4), pos, 'mcts', { nodes: 2000 });
    expect(legalMoves(pos)).toContain(result.move);
    expect(lines[lines.length - 1].score).toBeLessThan(0);
  });
});

describe('legal moves', () => {
  const wac = readFileSync(new URL('../data/wac.epd', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(0, 12)
    .map((l) => `${l.trim().split(/\s+/).slice(0, 4).join(' ')} 0 1`);

  it('always answers a legal move, with every driver, a line of legal moves and MultiPV in visit order', () => {
    const searcher = new Searcher(4);
    for (const [i, fen] of wac.entries()) {
      const driver = MCTS_DRIVERS[i % MCTS_DRIVERS.length];
      const pos = new Position(fen);
      const { result, lines } = run(searcher, pos, driver, { nodes: 300 }, 3);
      expect(legalMoves(pos), `${driver} ${fen}`).toContain(result.move);
      // The final lines: the move played first, then the others (fewer where the search was settled early).
      const last = lines.slice(lines.map((l) => l.multipv).lastIndexOf(1));
      expect(last[0].pv[0]).toBe(result.move);
      expect(last.map((l) => l.multipv)).toEqual([1, 2, 3].slice(0, last.length));
      for (const line of last) {
        expect(line.nodes).toBeLessThanOrEqual(300);
        let played = 0;
        for (const m of line.pv) {
          expect(legalMoves(pos)).toContain(m);
          pos.makeMove(m);
          played++;
        }
        for (let k = 0; k < played; k++) pos.unmakeMove();
      }
      if (result.ponder !== 0) {
        pos.makeMove(result.move);
        expect(legalMoves(pos)).toContain(result.ponder);
        pos.unmakeMove();
      }
    }
  });

  it('answers a legal move along a game, reusing the subtree of the moves played', () => {
    const searcher = new Searcher(4);
    const moves: string[] = [];
    let reused = 0;
    for (let ply = 0; ply < 16; ply++) {
      const pos = play(START, moves);
      if (legalMoves(pos).length === 0) break;
      const { result, notes } = run(searcher, pos, 'mcts', { nodes: 400 });
      expect(legalMoves(pos)).toContain(result.move);
      if (notes.some((n) => n.startsWith('mcts: reusing'))) reused++;
      moves.push(moveToUci(pos, result.move));
    }
    // From the second move on, the engine's own last move and the reply it played are in the tree.
    expect(reused).toBeGreaterThan(10);
  });

  it('keeps to searchmoves', () => {
    const pos = new Position(START);
    const { result, lines } = run(new Searcher(4), pos, 'mcts', { nodes: 500, searchmoves: ['a2a3', 'h2h4'] }, 4);
    expect(['a2a3', 'h2h4']).toContain(moveToUci(pos, result.move));
    expect(lines[lines.length - 1].multipv).toBe(2);
  });

  it('answers at once with a legal move when stopped before it starts', () => {
    const control = new SearchControl();
    control.stop();
    const pos = new Position(START);
    const { result } = run(new Searcher(4), pos, 'mcts-qs', { nodes: 100000 }, 1, control);
    expect(legalMoves(pos)).toContain(result.move);
  });
});

describe('determinism', () => {
  it('gives the same move, line and score for the same playouts', () => {
    const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3';
    for (const driver of ['mcts', 'mcts-qs'] as SearchDriver[]) {
      const a = run(new Searcher(4), new Position(fen), driver, { nodes: 1500 });
      const used = new Searcher(4);
      run(used, new Position(START), driver, { nodes: 700 });
      used.clear();
      const b = run(used, new Position(fen), driver, { nodes: 1500 });
      expect(b.result, driver).toEqual(a.result);
      expect(b.lines[b.lines.length - 1].pv, driver).toEqual(a.lines[a.lines.length - 1].pv);
    }
  });
});

describe('finished games', () => {
  it.each([
    ['the fifty-move rule', '7k/8/8/8/8/1Q6/8/K7 w - - 99 80'],
    ['no mating material', '8/8/4k3/8/8/3NK3/8/8 w - - 0 1'],
  ])('scores %s as a draw where every move draws', (_, fen) => {
    const { lines } = run(new Searcher(4), new Position(fen), 'mcts', { nodes: 3000 });
    expect(lines[lines.length - 1].score).toBe(0);
  });

  it('takes the repetition when the alternative loses', () => {
    // Black's only non-losing move repeats the position for the third time.
    const pos = play(START, ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1']);
    const { lines } = run(new Searcher(4), pos, 'mcts', { nodes: 200, searchmoves: ['f6g8'] });
    expect(lines[lines.length - 1].score).toBe(0);
  });
});

describe('the node pool', () => {
  it('stops the search when full, without growing, and searches on after the next move', () => {
    const searcher = new Searcher(1);
    const pos = new Position(START);
    const first = run(searcher, pos, 'mcts-uniform', { nodes: 1_000_000 });
    expect(legalMoves(pos)).toContain(first.result.move);
    expect(first.notes.some((n) => n.includes('is full'))).toBe(true);
    const tree = searcher.mctsTree!;
    const arrays = [tree.move, tree.prior, tree.q, tree.visits, tree.firstChild, tree.childCount, tree.proof];
    const bytes = arrays.reduce((sum, a) => sum + a.byteLength, 0);
    expect(tree.top).toBeLessThanOrEqual(tree.capacity);
    expect(bytes).toBeLessThanOrEqual(1024 * 1024);
    const playouts = first.lines[first.lines.length - 1].nodes;
    expect(playouts).toBeLessThan(1_000_000);
    // Twice more, after the move and a reply: the same pool, still bounded.
    for (let k = 0; k < 2; k++) {
      const next = play(START, [moveToUci(pos, first.result.move), k === 0 ? 'e7e5' : 'd7d5']);
      const again = run(searcher, next, 'mcts-uniform', { nodes: 1_000_000 });
      expect(legalMoves(next)).toContain(again.result.move);
      expect(searcher.mctsTree).toBe(tree);
      expect([tree.move, tree.prior, tree.q, tree.visits, tree.firstChild, tree.childCount, tree.proof]).toEqual(arrays);
      expect(tree.top).toBeLessThanOrEqual(tree.capacity);
    }
  });

  it('keeps a subtree: moved to the front, links and statistics intact', () => {
    const tree = new MctsTree(1);
    // root -> 3 children; child 2 -> 2 children; child 3 -> 2 children; grandchild (2, 1) -> 1 child.
    const a = tree.expand(0, 3);
    for (let i = 0; i < 3; i++) {
      tree.move[a + i] = 10 + i;
      tree.visits[a + i] = 100 + i;
    }
    const b = tree.expand(a + 1, 2);
    tree.move[b] = 20;
    tree.move[b + 1] = 21;
    tree.visits[b + 1] = 7;
    const c = tree.expand(a + 2, 2);
    tree.move[c] = 30;
    const d = tree.expand(b + 1, 1);
    tree.move[d] = 40;
    tree.q[d] = 0.25;
    expect(tree.top).toBe(1 + 3 + 2 + 2 + 1);
    tree.keepSubtree(a + 1);
    expect(tree.top).toBe(1 + 2 + 1);
    expect(tree.visits[0]).toBe(101);
    expect(tree.childCount[0]).toBe(2);
    const kids = tree.firstChild[0];
    expect([tree.move[kids], tree.move[kids + 1]]).toEqual([20, 21]);
    expect(tree.visits[kids + 1]).toBe(7);
    expect(tree.childWithMove(0, 21)).toBe(kids + 1);
    const g = tree.firstChild[kids + 1];
    expect(tree.move[g]).toBe(40);
    expect(tree.q[g]).toBeCloseTo(0.25);
    expect(tree.childCount[kids]).toBe(0);
    expect(tree.firstChild[kids]).toBe(NO_NODE);
  });
});

describe('values', () => {
  it('maps centipawns to values through sigmoid(cp / 400) and back', () => {
    expect(scoreToValue(0)).toBe(0);
    expect(scoreToValue(400)).toBeCloseTo(2 / (1 + Math.exp(-1)) - 1, 10);
    expect(scoreToValue(-400)).toBeCloseTo(-scoreToValue(400), 10);
    expect(scoreToValue(MATE - 5)).toBe(1);
    for (const cp of [-900, -120, -7, 0, 33, 250, 1500]) expect(valueToScore(scoreToValue(cp))).toBe(cp);
    expect(valueToScore(1)).toBeLessThan(MATE - 200);
  });
});
