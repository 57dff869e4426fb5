import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { TRACE, TRACE_INFO, evaluate, traceEvaluate } from '../../src/eval/evaluate.js';
import { explainEval } from '../../src/eval/explain.js';
import * as L from '../../src/eval/layout.js';

/** Net (White minus Black) count of parameter i in the position. */
function coef(fen: string, i: number): number {
  traceEvaluate(new Position(fen));
  return TRACE[i] - TRACE[L.NUM_PARAMS + i];
}

describe('evaluation terms', () => {
  it('insufficient material is a dead draw', () => {
    for (const fen of ['8/8/8/4k3/8/8/8/4K3 w - - 0 1', '8/8/8/4k3/8/8/2N5/4K3 b - - 0 1', '8/8/8/4k3/8/8/2B5/4K3 w - - 0 1']) {
      expect(evaluate(new Position(fen))).toBe(0);
    }
  });

  it('scales drawish endgames down', () => {
    const scaleOf = (fen: string): number => {
      traceEvaluate(new Position(fen));
      return TRACE_INFO[1];
    };
    // Opposite-coloured bishops with pawns.
    expect(scaleOf('8/5k2/4b3/8/2P5/8/3B1K2/8 w - - 0 1')).toBe(64);
    // Same-coloured bishops: normal.
    expect(scaleOf('8/5k2/3b4/8/2P5/8/3B1K2/8 w - - 0 1')).toBe(128);
    // Rook against bishop, no pawns: the rook is only a minor up.
    expect(scaleOf('8/5k2/4b3/8/8/8/3R1K2/8 w - - 0 1')).toBe(16);
    // Rook against a bare king wins.
    expect(scaleOf('8/5k2/8/8/8/8/3R1K2/8 w - - 0 1')).toBe(128);
    // Two knights cannot force mate.
    expect(scaleOf('8/5k2/8/8/8/8/2NN1K2/8 w - - 0 1')).toBe(0);
    // A knight against pawns: the knight's side cannot win, the pawns' side can.
    const kn = new Position('8/5k2/8/8/8/8/2N2K2/8 w - - 0 1');
    expect(Math.abs(evaluate(kn))).toBeLessThan(50);
  });

  it('recognises pawn structure', () => {
    // White: isolated d-pawn; doubled c-pawns; passed a-pawn.
    const fen = '4k3/5ppp/8/P7/3P4/2P5/2P5/4K3 w - - 0 1';
    expect(coef(fen, L.ISOLATED)).toBe(1);
    expect(coef(fen, L.DOUBLED)).toBe(1);
    // a5 and d4 are passed (relative rank index 4 and 3), the c-pawns are not... c3 is the front one and also passed.
    expect(coef(fen, L.PASSED + 4)).toBe(1);
    expect(coef(fen, L.PASSED + 3)).toBe(1);
    expect(coef(fen, L.PASSED + 2)).toBe(1);
    // Black's f7/g7/h7 phalanx on its 2nd rank (index 1): each has a neighbour.
    expect(coef(fen, L.PHALANX + 1)).toBe(-3);
  });

  it('recognises backward pawns, rooks on open files and the bishop pair', () => {
    // White pawns c4, d3, e4: d3 cannot be supported (its neighbours are ahead)
    // and the black pawn c5 guards its stop square d4, so d3 is backward.
    expect(coef('4k3/8/8/2p5/2P1P3/3P4/8/4K3 w - - 0 1', L.BACKWARD)).toBe(1);
    expect(coef('4k3/pp4pp/8/8/8/8/PP4PP/3RK3 w - - 0 1', L.ROOK_OPEN)).toBe(1);
    expect(coef('4k3/pp1p2pp/8/8/8/8/PP4PP/3RK3 w - - 0 1', L.ROOK_SEMI_OPEN)).toBe(1);
    expect(coef('4k3/1R6/8/8/8/8/8/4K3 w - - 0 1', L.ROOK_SEVENTH)).toBe(1);
    expect(coef('2b1kb2/8/8/8/8/8/8/2B1KB2 w - - 0 1', L.BISHOP_PAIR)).toBe(0);
    expect(coef('2b1k3/8/8/8/8/8/8/2B1KB2 w - - 0 1', L.BISHOP_PAIR)).toBe(1);
  });

  it('counts king attackers and the pawn shield', () => {
    // White queen (via g6) and knight (f7, h7) both hit the black king zone.
    const fen = '6k1/5ppp/8/6N1/8/3Q4/5PPP/6K1 w - - 0 1';
    traceEvaluate(new Position(fen));
    expect(TRACE[L.KING_ATTACKERS + 2]).toBe(1);
    // Both kings have an unmoved pawn right in front on all three files.
    expect(TRACE[L.SHIELD + 1]).toBe(3);
    expect(TRACE[L.NUM_PARAMS + L.SHIELD + 1]).toBe(3);
  });

  it('explains the evaluation term by term', () => {
    const text = explainEval(new Position('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'));
    expect(text).toContain('material');
    expect(text).toContain('mobilityKnight');
    expect(text).toContain('phase 24/24');
    expect(text).not.toContain('warning');
    expect(text).toMatch(/final evaluation -?\d+\.\d\d \(White's view\)/);
  });
});
