// The Monte Carlo tree search drivers (src/search/mcts/mcts.ts): they play the
// mate in mate-in-1 and mate-in-2 positions, always answer a legal move,
// give the same move for the same playouts, score finished games exactly,
// keep the subtree of the moves played, and with a full tree search on
// without growing. No timings are asserted.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { SearchControl } from '../../src/search/control.js';
import type { SearchDriver } from '../../src/search/driver-list.js';
import { DEFAULT_SEARCH_OPTIONS, type GoParams, type SearchEvent, type SearchLine } from '../../src/search/limits.js';
import { scoreToValue, valueToScore } from '../../src/search/mcts/report.js';
import {
  MctsTree,
  NODE_BYTES,
  NODE_WORDS,
  NO_NODE,
  N_Q,
  N_VISITS,
  PROOF_DRAW,
  PROOF_NONE,
  edgeBlockWords,
  provenWin,
} from '../../src/search/mcts/tree.js';
import { Driver } from '../../src/search/driver.js';
import { MATE } from '../../src/search/score.js';
import type { SearchResult } from '../../src/search/search.js';

const MCTS_DRIVERS: SearchDriver[] = ['mcts', 'mcts-qs', 'mcts-uniform', 'mcts-qs-uniform'];

interface Run {
  result: SearchResult;
  lines: SearchLine[];
  notes: string[];
}

function run(
  searcher: Driver,
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
  const result = searcher.go({
    pos,
    params: { infinite: false, ponder: false, searchmoves: [], ...params },
    options: { ...DEFAULT_SEARCH_OPTIONS, driver, multiPv },
    control,
    report,
  });
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
      const { result, lines } = run(new Driver(4), pos, driver, { nodes: 3000 });
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
      const { result, lines } = run(new Driver(4), pos, driver, { nodes: 20000 });
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
    const { result, lines } = run(new Driver(4), pos, 'mcts', { nodes: 2000 });
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
    const searcher = new Driver(4);
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
    const searcher = new Driver(4);
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
    const { result, lines } = run(new Driver(4), pos, 'mcts', { nodes: 500, searchmoves: ['a2a3', 'h2h4'] }, 4);
    expect(['a2a3', 'h2h4']).toContain(moveToUci(pos, result.move));
    expect(lines[lines.length - 1].multipv).toBe(2);
  });

  it('does not keep a tree grown under searchmoves for the next search', () => {
    // Its root's visits are all on the moves allowed: kept, they would outweigh a free search's.
    const searcher = new Driver(4);
    const pos = new Position(START);
    run(searcher, pos, 'mcts', { nodes: 500, searchmoves: ['a2a3'] });
    const free = run(searcher, pos, 'mcts', { nodes: 500 });
    expect(free.notes.some((n) => n.startsWith('mcts: reusing'))).toBe(false);
    const again = run(searcher, pos, 'mcts', { nodes: 500 });
    expect(again.notes.some((n) => n.startsWith('mcts: reusing'))).toBe(true);
  });

  it('answers at once with a legal move when stopped before it starts', () => {
    const control = new SearchControl();
    control.stop();
    const pos = new Position(START);
    const { result } = run(new Driver(4), pos, 'mcts-qs', { nodes: 100000 }, 1, control);
    expect(legalMoves(pos)).toContain(result.move);
  });
});

describe('determinism', () => {
  it('gives the same move, line and score for the same playouts', () => {
    const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3';
    for (const driver of ['mcts', 'mcts-qs'] as SearchDriver[]) {
      const a = run(new Driver(4), new Position(fen), driver, { nodes: 1500 });
      const used = new Driver(4);
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
    const { lines } = run(new Driver(4), new Position(fen), 'mcts', { nodes: 3000 });
    expect(lines[lines.length - 1].score).toBe(0);
  });

  it('takes the repetition when the alternative loses', () => {
    // Black's only non-losing move repeats the position for the third time.
    const pos = play(START, ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1']);
    const { lines } = run(new Driver(4), pos, 'mcts', { nodes: 200, searchmoves: ['f6g8'] });
    expect(lines[lines.length - 1].score).toBe(0);
  });
});

/** A node and everything below it, by edge: what a kept subtree must keep. */
interface Snapshot {
  visits: number;
  q: number;
  proof: number;
  edges: { move: number; prior: number; child: Snapshot | null }[] | null;
}

function snapshot(tree: MctsTree, n: number): Snapshot {
  const count = tree.edgeCount(n);
  const children = new Map<number, number>();
  for (let c = tree.firstChild(n); c !== NO_NODE; c = tree.nextSibling(c)) children.set(tree.edgeIndex(c), c);
  const edges = [];
  for (let e = 0; e < count; e++) {
    const c = children.get(e);
    edges.push({ move: tree.move(n, e), prior: tree.prior(n, e), child: c === undefined ? null : snapshot(tree, c) });
  }
  return { visits: tree.visits(n), q: tree.q(n), proof: tree.proof(n), edges: count > 0 ? edges : null };
}

/**
 * Checks the tree's layout: every node in use and every edge block belong to
 * the tree under the root, and children lie above their parent, in edge order.
 */
function checkTree(tree: MctsTree): void {
  let nodes = 0;
  let edgeWords = 0;
  const visit = (n: number): void => {
    nodes++;
    const count = tree.edgeCount(n);
    if (count > 0) edgeWords += edgeBlockWords(count);
    let last = -1;
    for (let c = tree.firstChild(n); c !== NO_NODE; c = tree.nextSibling(c)) {
      expect(c).toBeGreaterThan(n);
      expect(tree.edgeIndex(c)).toBeGreaterThan(last);
      expect(tree.edgeIndex(c)).toBeLessThan(count);
      last = tree.edgeIndex(c);
      visit(c);
    }
  };
  visit(0);
  expect(nodes).toBe(tree.nodeCount);
  expect(edgeWords).toBe(tree.words - tree.edgeLow);
  expect(tree.bytesUsed()).toBe(nodes * NODE_BYTES + edgeWords * 4);
  expect(tree.bytesUsed()).toBeLessThanOrEqual(tree.words * 4);
}

/** The child of n with the most visits. */
function mostVisited(tree: MctsTree, n: number): number {
  let best = NO_NODE;
  for (let c = tree.firstChild(n); c !== NO_NODE; c = tree.nextSibling(c)) {
    if (best === NO_NODE || tree.visits(c) > tree.visits(best)) best = c;
  }
  return best;
}

/** Gives node n of a hand-made tree its edges, with made-up priors. */
function expandWith(tree: MctsTree, n: number, moves: number[]): void {
  const priors = tree.expand(n, Int32Array.from(moves), moves.length);
  for (let i = 0; i < moves.length; i++) tree.f32[priors + i] = 1 / (n + i + 2);
}

function setStats(tree: MctsTree, n: number, visits: number, q: number): void {
  tree.i32[n * NODE_WORDS + N_VISITS] = visits;
  tree.f32[n * NODE_WORDS + N_Q] = q;
}

const ITALIAN = 'r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3';

describe('the tree', () => {
  it('takes well under 250 bytes a playout: a node per move taken, an edge per move', () => {
    const searcher = new Driver(16);
    run(searcher, new Position(START), 'mcts', { nodes: 5000 });
    const tree = searcher.mctsTree!;
    checkTree(tree);
    expect(tree.nodeCount).toBeLessThanOrEqual(tree.visits(0));
    expect(tree.bytesUsed() / tree.visits(0)).toBeLessThan(250);
  });

  it('keeps a subtree of a search: moved to the front, everything below it intact, the rest freed', () => {
    const searcher = new Driver(16);
    run(searcher, new Position(ITALIAN), 'mcts', { nodes: 3000 });
    const tree = searcher.mctsTree!;
    const child = mostVisited(tree, 0);
    const grandchild = mostVisited(tree, child);
    expect(tree.childWithMove(0, tree.moveTo(0, child))).toBe(child);
    const before = snapshot(tree, grandchild);
    const used = tree.bytesUsed();
    tree.keepSubtree(grandchild);
    expect(snapshot(tree, 0)).toEqual(before);
    checkTree(tree);
    expect(tree.bytesUsed()).toBeLessThan(used);
  });

  it('keeps a subtree whose edge blocks were made out of node order, and grows on after', () => {
    const tree = new MctsTree(1);
    expandWith(tree, 0, [10, 11, 12]);
    setStats(tree, 0, 9, 0.5);
    // Children made in another order than their edges': edge 2, then edge 0, then edge 1.
    const c2 = tree.addChild(0, 2, NO_NODE, PROOF_NONE);
    const c0 = tree.addChild(0, 0, NO_NODE, PROOF_NONE);
    const c1 = tree.addChild(0, 1, c0, PROOF_NONE);
    expect([tree.firstChild(0), tree.nextSibling(c0), tree.nextSibling(c1), tree.nextSibling(c2)]).toEqual([c0, c1, c2, NO_NODE]);
    // c0 is expanded before c2, c2 before c1.
    expandWith(tree, c0, [20, 21]);
    expandWith(tree, c2, [30, 31, 32, 33]);
    expandWith(tree, c1, [40]);
    const g = tree.addChild(c2, 3, NO_NODE, PROOF_DRAW);
    const h = tree.addChild(c2, 1, NO_NODE, PROOF_NONE);
    expandWith(tree, h, [50, 51, 52]);
    const k = tree.addChild(h, 2, NO_NODE, provenWin(0));
    tree.addChild(c0, 1, NO_NODE, PROOF_NONE);
    for (const [n, v, q] of [
      [c0, 3, 0.1],
      [c1, 1, -0.2],
      [c2, 4, 0.3],
      [g, 1, 0],
      [h, 2, -0.4],
      [k, 1, -1],
    ])
      setStats(tree, n, v, q);
    checkTree(tree);
    expect(tree.moveTo(c2, g)).toBe(33);
    expect(tree.childWithMove(c2, 31)).toBe(h);
    expect(tree.childWithMove(c2, 30)).toBe(NO_NODE);
    const before = snapshot(tree, c2);
    tree.keepSubtree(c2);
    expect(snapshot(tree, 0)).toEqual(before);
    checkTree(tree);
    expect(tree.nodeCount).toBe(4);
    expect(tree.bytesUsed()).toBe(4 * NODE_BYTES + (edgeBlockWords(4) + edgeBlockWords(3)) * 4);
    // A new child and a new expansion fit in the space freed.
    const n = tree.addChild(0, 0, NO_NODE, PROOF_NONE);
    expandWith(tree, n, [60, 61]);
    setStats(tree, n, 1, 0.7);
    checkTree(tree);
    expect(tree.moveTo(0, tree.firstChild(0))).toBe(30);
    expect(tree.move(n, 1)).toBe(61);
    expect(tree.proof(tree.childWithMove(0, 33))).toBe(PROOF_DRAW);
  });

  it('reuses the subtree of the moves played, which then grows on', () => {
    const searcher = new Driver(16);
    const pos = new Position(ITALIAN);
    run(searcher, pos, 'mcts', { nodes: 3000 });
    const tree = searcher.mctsTree!;
    const child = mostVisited(tree, 0);
    const grandchild = mostVisited(tree, child);
    const first = tree.moveTo(0, child);
    const moves = [moveToUci(pos, first)];
    pos.makeMove(first);
    moves.push(moveToUci(pos, tree.moveTo(child, grandchild)));
    const kept = tree.visits(grandchild);
    const again = run(searcher, play(ITALIAN, moves), 'mcts', { nodes: 2000 });
    expect(again.notes).toContain(`mcts: reusing ${kept} playouts of the last search`);
    expect(tree.visits(0)).toBe(kept + 2000);
    checkTree(tree);
  });
});

describe('a full tree', () => {
  it('stops growing but searches on to the node limit, in the same memory, and after the next moves', () => {
    const searcher = new Driver(1);
    const pos = new Position(START);
    const limit = 40000;
    const first = run(searcher, pos, 'mcts-uniform', { nodes: limit });
    expect(legalMoves(pos)).toContain(first.result.move);
    const notes = first.notes.filter((n) => n.includes('stops growing'));
    expect(notes).toHaveLength(1);
    // The tree filled well before the limit, and the playouts went on.
    const filledAt = Number(/after (\d+) playouts/.exec(notes[0])![1]);
    expect(filledAt).toBeLessThan(limit / 2);
    const last = first.lines[first.lines.length - 1];
    expect(last.nodes).toBe(limit);
    expect(last.hashfull).toBeGreaterThanOrEqual(990);
    const tree = searcher.mctsTree!;
    expect(tree.visits(0)).toBe(limit + 1);
    const buffer = tree.i32.buffer;
    expect(buffer.byteLength).toBe(1024 * 1024);
    checkTree(tree);
    // Twice more, after the move and a reply: the same pool, still bounded.
    for (let k = 0; k < 2; k++) {
      const next = play(START, [moveToUci(pos, first.result.move), k === 0 ? 'e7e5' : 'd7d5']);
      const again = run(searcher, next, 'mcts-uniform', { nodes: limit });
      expect(legalMoves(next)).toContain(again.result.move);
      expect(again.lines[again.lines.length - 1].nodes).toBe(limit);
      expect(searcher.mctsTree).toBe(tree);
      expect(tree.i32.buffer).toBe(buffer);
      checkTree(tree);
    }
  });

  it('ends a search with no node or time limit, which would not end in a tree that no longer grows', () => {
    const pos = new Position(START);
    const { result, notes } = run(new Driver(1), pos, 'mcts-uniform', { depth: 60 });
    expect(legalMoves(pos)).toContain(result.move);
    expect(notes.filter((n) => n.includes('with no node or time limit the search stops there'))).toHaveLength(1);
  });

  it.each(['mcts', 'mcts-qs'] as SearchDriver[])('searches on to the node limit with %s, with a legal move and line', (driver) => {
    const searcher = new Driver(1);
    const pos = new Position('r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8');
    const { result, lines, notes } = run(searcher, pos, driver, { nodes: 20000 });
    expect(notes.filter((n) => n.includes('stops growing'))).toHaveLength(1);
    const last = lines[lines.length - 1];
    expect(last.nodes).toBe(20000);
    expect(last.pv[0]).toBe(result.move);
    for (const m of last.pv) {
      expect(legalMoves(pos)).toContain(m);
      pos.makeMove(m);
    }
    checkTree(searcher.mctsTree!);
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
