import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { MoveOrdering, NO_CONT, contKey } from '../../src/search/movepick.js';

/** Every legal move of pos in the order MoveOrdering picks them, as UCI strings. */
function pickOrder(ordering: MoveOrdering, pos: Position, ttMove = 0, ply = 0, cont1 = NO_CONT, cont2 = NO_CONT): string[] {
  const moves = new Int32Array(MAX_MOVES);
  const scores = new Int32Array(MAX_MOVES);
  const end = generateMoves(pos, moves, 0, false);
  ordering.score(pos, moves, scores, 0, end, ttMove, ply, cont1, cont2);
  const order: string[] = [];
  for (let i = 0; i < end; i++) order.push(moveToUci(pos, ordering.pick(pos, moves, scores, i, end)));
  return order;
}

function move(pos: Position, uci: string): number {
  const m = parseUciMove(pos, uci);
  if (m === null || m === 0) throw new Error(`not a legal move here: ${uci}`);
  return m;
}

describe('move ordering', () => {
  // White to move: Qxd5 wins a pawn defended by nothing, Rxb7 takes a pawn defended by the bishop.
  const fen = '2bk4/1p6/8/3p4/8/8/1R1Q4/4K3 w - - 0 1';

  it('puts the hash move first, winning captures next and losing captures last', () => {
    const pos = new Position(fen);
    const order = pickOrder(new MoveOrdering(), pos, move(pos, 'e1f1'));
    expect(order[0]).toBe('e1f1');
    expect(order[1]).toBe('d2d5');
    expect(order[order.length - 1]).toBe('b2b7');
  });

  it('tries killers before other quiet moves', () => {
    const pos = new Position(fen);
    const ordering = new MoveOrdering();
    const tried = new Int32Array(64);
    ordering.updateQuietCutoff(pos, move(pos, 'd2h6'), 3, 4, tried, 0, 0, NO_CONT, NO_CONT);
    const order = pickOrder(ordering, pos, 0, 3);
    expect(order.indexOf('d2h6')).toBe(1); // after the winning capture d2d5
  });

  it('ranks quiet moves by the continuation history of the previous move', () => {
    const pos = new Position(fen);
    const ordering = new MoveOrdering();
    // A reply that refuted ...Kc7 before is tried early after ...Kc7 again, not after ...Ke8.
    const black = new Position(fen.replace(' w ', ' b '));
    const kc7 = contKey(black, move(black, 'd8c7'));
    const ke8 = contKey(black, move(black, 'd8e8'));
    const tried = new Int32Array(64);
    const reply = move(pos, 'b2b6');
    for (let i = 0; i < 4; i++) ordering.updateQuietCutoff(pos, reply, 5, 6, tried, 0, 0, kc7, NO_CONT);
    ordering.killers.fill(0);
    ordering.counters.fill(0);
    ordering.history.fill(0);
    const quietsAfterKc7 = pickOrder(ordering, pos, 0, 5, kc7).slice(1, -1);
    const quietsAfterKe8 = pickOrder(ordering, pos, 0, 5, ke8).slice(1, -1);
    expect(quietsAfterKc7[0]).toBe('b2b6');
    expect(quietsAfterKe8[0]).not.toBe('b2b6');
  });

  it('keeps history scores within bounds however often a move is rewarded or punished', () => {
    const pos = new Position(fen);
    const ordering = new MoveOrdering();
    const tried = new Int32Array(64);
    const a = move(pos, 'b2b6');
    const b = move(pos, 'e1f2');
    tried[0] = b;
    tried[1] = a;
    for (let i = 0; i < 1000; i++) ordering.updateQuietCutoff(pos, a, 1, 20, tried, 0, 2, 5, 7);
    let largest = 0;
    for (const v of ordering.contHist) largest = Math.max(largest, Math.abs(v));
    for (const v of ordering.history) largest = Math.max(largest, Math.abs(v));
    expect(largest).toBeLessThanOrEqual(16384);
    expect(ordering.historyOf(pos.side, a, contKey(pos, a), 5, 7)).toBeGreaterThan(40000);
    expect(ordering.historyOf(pos.side, b, contKey(pos, b), 5, 7)).toBeLessThan(-40000);
  });
});
