import { describe, expect, it } from 'vitest';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { MoveHistory, NO_CONT, contKey, priorQuietMove } from '../../src/search/history.js';
import { MovePicker } from '../../src/search/movepick.js';

/** Every move the picker gives for pos, in order, as UCI strings. */
function pickOrder(history: MoveHistory, pos: Position, ttMove = 0, ply = 0, cont1 = NO_CONT, cont2 = NO_CONT, ttFirst = false): string[] {
  const picker = new MovePicker(history, new Int32Array(MAX_MOVES), new Int32Array(MAX_MOVES), 0);
  picker.init(pos, ttMove, ttFirst, ply, cont1, cont2, false);
  const order: string[] = [];
  for (let m = picker.nextMove(); m !== 0; m = picker.nextMove()) order.push(moveToUci(pos, m));
  return order;
}

function move(pos: Position, uci: string): number {
  return parseUciMove(pos, uci);
}

describe('move picker', () => {
  // White to move: Qxd5 wins a pawn defended by nothing, Rxb7 takes a pawn defended by the bishop.
  const fen = '2bk4/1p6/8/3p4/8/8/1R1Q4/4K3 w - - 0 1';

  it('puts the hash move first, winning captures next and losing captures last', () => {
    const pos = new Position(fen);
    for (const ttFirst of [false, true]) {
      const order = pickOrder(new MoveHistory(), pos, move(pos, 'e1f1'), 0, NO_CONT, NO_CONT, ttFirst);
      expect(order[0]).toBe('e1f1');
      expect(order[1]).toBe('d2d5');
      expect(order[order.length - 1]).toBe('b2b7');
      // Every legal move exactly once.
      expect(new Set(order).size).toBe(order.length);
      expect(order.length).toBe(pickOrder(new MoveHistory(), pos).length);
    }
  });

  it('tries killers before other quiet moves', () => {
    const pos = new Position(fen);
    const history = new MoveHistory();
    history.rememberRefutation(pos, move(pos, 'd2h6'), 3);
    const order = pickOrder(history, pos, 0, 3);
    expect(order.indexOf('d2h6')).toBe(1); // after the winning capture d2d5
  });

  it('gives only captures and promotions for quiescence, and only noisy moves once quiets are skipped', () => {
    const pos = new Position(fen);
    const picker = new MovePicker(new MoveHistory(), new Int32Array(MAX_MOVES), new Int32Array(MAX_MOVES), 0);
    picker.init(pos, 0, false, 0, NO_CONT, NO_CONT, true);
    const noisy: string[] = [];
    for (let m = picker.nextMove(); m !== 0; m = picker.nextMove()) noisy.push(moveToUci(pos, m));
    expect(noisy).toEqual(['d2d5', 'b2b7']);
    picker.init(pos, 0, false, 0, NO_CONT, NO_CONT, false);
    expect(moveToUci(pos, picker.nextMove())).toBe('d2d5');
    picker.skipQuiets();
    const rest: string[] = [];
    for (let m = picker.nextMove(); m !== 0; m = picker.nextMove()) rest.push(moveToUci(pos, m));
    expect(rest).toEqual(['b2b7']);
  });

  it('ranks quiet moves by the continuation history of the previous move', () => {
    const pos = new Position(fen);
    const history = new MoveHistory();
    // A reply that refuted ...Kc7 before is tried early after ...Kc7 again, not after ...Ke8.
    const black = new Position(fen.replace(' w ', ' b '));
    const kc7 = contKey(black, move(black, 'd8c7'));
    const ke8 = contKey(black, move(black, 'd8e8'));
    const tried = new Int32Array(64);
    const reply = move(pos, 'b2b6');
    for (let i = 0; i < 4; i++) history.updateQuietCutoff(pos, reply, 6, tried, 0, 0, kc7, NO_CONT);
    history.killers.fill(0);
    history.counters.fill(0);
    history.history.fill(0);
    const quietsAfterKc7 = pickOrder(history, pos, 0, 5, kc7).slice(1, -1);
    const quietsAfterKe8 = pickOrder(history, pos, 0, 5, ke8).slice(1, -1);
    expect(quietsAfterKc7[0]).toBe('b2b6');
    expect(quietsAfterKe8[0]).not.toBe('b2b6');
  });

  it('keeps history scores within bounds however often a move is rewarded or punished', () => {
    const pos = new Position(fen);
    const history = new MoveHistory();
    const tried = new Int32Array(64);
    const a = move(pos, 'b2b6');
    const b = move(pos, 'e1f2');
    tried[0] = b;
    tried[1] = a;
    for (let i = 0; i < 1000; i++) history.updateQuietCutoff(pos, a, 20, tried, 0, 2, 5, 7);
    let largest = 0;
    for (const v of history.contHist) largest = Math.max(largest, Math.abs(v));
    for (const v of history.history) largest = Math.max(largest, Math.abs(v));
    expect(largest).toBeLessThanOrEqual(16384);
    expect(history.historyOf(pos.side, a, contKey(pos, a), 5, 7)).toBeGreaterThan(40000);
    expect(history.historyOf(pos.side, b, contKey(pos, b), 5, 7)).toBeLessThan(-40000);
  });

  it("teaches the opponent's quiet move that led to a node: from the eval's swing, and when every move fails low", () => {
    const pos = new Position(fen);
    const history = new MoveHistory();
    const quiet = move(pos, 'd2h6');
    const key = contKey(pos, quiet);
    const slot = pos.side * 4096 + (quiet & 4095);
    pos.makeMove(quiet);
    expect(priorQuietMove(pos)).toBe(quiet);
    // Black's eval -50 after white's +20 before: white gained 30 centipawns by the move.
    history.updatePriorEvalGain(pos, quiet, -50, 20);
    expect(history.history[slot]).toBeGreaterThan(0);
    history.history.fill(0);
    history.updatePriorEvalGain(pos, quiet, 50, -20);
    expect(history.history[slot]).toBeLessThan(0);
    history.history.fill(0);
    history.updatePriorFailLow(pos, quiet, 6, key, 5, NO_CONT);
    expect(history.history[slot]).toBeGreaterThan(0);
    expect(history.historyOf(pos.side ^ 1, quiet, key, 5, NO_CONT)).toBeGreaterThan(history.history[slot]);
    pos.unmakeMove();
    // Captures and promotions are not quiet moves; nor is a null move.
    pos.makeMove(move(pos, 'd2d5'));
    expect(priorQuietMove(pos)).toBe(0);
    pos.unmakeMove();
    pos.makeNullMove();
    expect(priorQuietMove(pos)).toBe(0);
  });
});
