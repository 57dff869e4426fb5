// SAN: printing (disambiguation, castling, promotions, check and mate marks),
// tolerant parsing, errors, and a round trip over every legal move.

import { describe, expect, it } from 'vitest';
import { parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { moveToSan, parseSan } from '../../src/board/san.js';
import { errorOf, legalMoves } from './helpers.js';

/** SAN of the UCI move `uci` in fen. */
function san(fen: string, uci: string, chess960 = false): string {
  const pos = new Position(fen);
  pos.chess960 = chess960;
  return moveToSan(pos, parseUciMove(pos, uci));
}

const TWO_KNIGHTS = '4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1'; // Nb1 and Nf1 both reach d2
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const PROMOTIONS = 'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1';
const FRC = 'rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1';

describe('moveToSan', () => {
  it('writes pawn moves and captures', () => {
    expect(san('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'e2e4')).toBe('e4');
    expect(san('rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2', 'e4d5')).toBe('exd5');
    expect(san('rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3', 'e5f6')).toBe('exf6');
  });

  it('disambiguates by file, by rank, or by both', () => {
    expect(san(TWO_KNIGHTS, 'b1d2')).toBe('Nbd2');
    expect(san(TWO_KNIGHTS, 'f1d2')).toBe('Nfd2');
    expect(san(TWO_KNIGHTS, 'f1g3')).toBe('Ng3');
    const sameFile = '4k3/8/8/N7/8/8/8/N3K3 w - - 0 1';
    expect(san(sameFile, 'a1b3')).toBe('N1b3');
    expect(san(sameFile, 'a5b3')).toBe('N5b3');
    const fourQueens = '4k3/8/8/8/8/Q1Q5/8/Q1Q1K3 w - - 0 1';
    expect(san(fourQueens, 'a1b2')).toBe('Qa1b2');
    expect(san(fourQueens, 'c3b2')).toBe('Qc3b2');
    expect(san(fourQueens, 'a1a2')).toBe('Q1a2');
    expect(san(fourQueens, 'c1d2')).toBe('Q1d2');
    expect(san(fourQueens, 'a3b3')).toBe('Qab3');
  });

  it('does not disambiguate against a pinned piece', () => {
    // The f3 knight is pinned to the king on a3 by the rook on h3.
    expect(san('4k3/8/8/8/8/K4N1r/8/1N6 w - - 0 1', 'b1d2')).toBe('Nd2');
  });

  it('writes castling as O-O and O-O-O, in Chess960 too', () => {
    expect(san('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', 'e1g1')).toBe('O-O');
    expect(san('r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1', 'e8c8')).toBe('O-O-O');
    expect(san(FRC, 'b1a1', true)).toBe('O-O-O');
    expect(san(FRC, 'b1h1', true)).toBe('O-O');
    expect(san(FRC, 'b1c1', true)).toBe('Kc1');
  });

  it('writes promotions with =', () => {
    expect(san(PROMOTIONS, 'g2g1q')).toBe('g1=Q');
    expect(san(PROMOTIONS, 'g2h1n')).toBe('gxh1=N');
    expect(san(PROMOTIONS, 'g2f1r')).toBe('gxf1=R');
    expect(san(PROMOTIONS, 'g2f1q')).toBe('gxf1=Q+');
  });

  it('marks check and mate', () => {
    expect(san('r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3', 'c4f7')).toBe('Bxf7+');
    expect(san('r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4', 'h5f7')).toBe('Qxf7#');
    expect(san('6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1', 'a1a8')).toBe('Ra8#');
    expect(san('r3k2r/8/8/8/8/8/8/R2K4 b kq - 0 1', 'e8c8')).toBe('O-O-O+');
  });

  it('refuses a move that is not legal in the position', () => {
    const kingStep = parseUciMove(new Position('4k3/8/8/8/8/8/8/4K3 w - - 0 1'), 'e1e2');
    expect(errorOf(() => moveToSan(new Position(), kingStep))).toMatch(/^illegal move e1e2 in rnbqkbnr/);
  });
});

describe('parseSan', () => {
  it('parses plain SAN', () => {
    const pos = new Position(KIWIPETE);
    expect(parseSan(pos, 'Nxf7')).toBe(parseUciMove(pos, 'e5f7'));
    expect(parseSan(pos, 'dxe6')).toBe(parseUciMove(pos, 'd5e6'));
    expect(parseSan(pos, 'Bxa6')).toBe(parseUciMove(pos, 'e2a6'));
    expect(parseSan(pos, 'O-O-O')).toBe(parseUciMove(pos, 'e1c1'));
  });

  it('tolerates castling with zeros, check marks and annotations', () => {
    const pos = new Position(KIWIPETE);
    const castle = parseUciMove(pos, 'e1g1');
    for (const text of ['O-O', '0-0', 'O-O+', 'O-O!?', '0-0#', 'O-O?!']) expect(parseSan(pos, text)).toBe(castle);
    expect(parseSan(pos, 'Qxf6!!')).toBe(parseUciMove(pos, 'f3f6'));
    expect(parseSan(pos, 'Nxg6?')).toBe(parseUciMove(pos, 'e5g6'));
  });

  it('tolerates promotions without =', () => {
    const pos = new Position(PROMOTIONS);
    expect(parseSan(pos, 'g1=Q')).toBe(parseUciMove(pos, 'g2g1q'));
    expect(parseSan(pos, 'g1Q')).toBe(parseUciMove(pos, 'g2g1q'));
    expect(parseSan(pos, 'gxh1N')).toBe(parseUciMove(pos, 'g2h1n'));
    expect(parseSan(pos, 'gxf1=Q+')).toBe(parseUciMove(pos, 'g2f1q'));
  });

  it('parses en passant written with or without e.p.', () => {
    const pos = new Position('rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3');
    const ep = parseUciMove(pos, 'e5f6');
    for (const text of ['exf6', 'exf6 e.p.', 'exf6e.p.', 'exf6 ep', 'exf6!']) {
      expect(parseSan(pos, text)).toBe(ep);
    }
  });

  it('parses long forms and a missing capture mark', () => {
    const pos = new Position();
    expect(parseSan(pos, 'Ng1f3')).toBe(parseUciMove(pos, 'g1f3'));
    expect(parseSan(pos, 'e2e4')).toBe(parseUciMove(pos, 'e2e4'));
    expect(parseSan(pos, 'e2-e4')).toBe(parseUciMove(pos, 'e2e4'));
    const capture = new Position('rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');
    expect(parseSan(capture, 'ed5')).toBe(parseUciMove(capture, 'e4d5'));
  });

  it('parses Chess960 castling', () => {
    const pos = new Position(FRC);
    pos.chess960 = true;
    expect(parseSan(pos, 'O-O-O')).toBe(parseUciMove(pos, 'b1a1'));
    expect(parseSan(pos, 'O-O')).toBe(parseUciMove(pos, 'b1h1'));
    expect(parseSan(pos, 'Kc1')).toBe(parseUciMove(pos, 'b1c1'));
  });

  it('explains illegal, ambiguous and malformed SAN', () => {
    const pos = new Position();
    expect(errorOf(() => parseSan(pos, 'e5'))).toBe('illegal move e5');
    expect(errorOf(() => parseSan(pos, 'Nd4'))).toBe('illegal move Nd4');
    expect(errorOf(() => parseSan(pos, 'O-O'))).toBe('illegal move O-O');
    expect(errorOf(() => parseSan(pos, 'Xe4'))).toBe("malformed move 'Xe4'");
    expect(errorOf(() => parseSan(pos, ''))).toBe("malformed move ''");
    expect(errorOf(() => parseSan(pos, 'O-0'))).toBe("malformed move 'O-0'");
    expect(errorOf(() => parseSan(new Position(TWO_KNIGHTS), 'Nd2'))).toBe('ambiguous move Nd2: Nbd2 or Nfd2');
    expect(errorOf(() => parseSan(new Position(PROMOTIONS), 'g1'))).toBe('illegal move g1: a promotion needs a piece (g1=Q)');
  });
});

describe('SAN round trip', () => {
  const fens = [
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    KIWIPETE,
    PROMOTIONS,
    '4k3/8/8/8/8/Q1Q5/8/Q1Q1K3 w - - 0 1',
    'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1',
    '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
    'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9',
  ];

  it.each(fens)('every legal move of %s prints uniquely and parses back', (fen) => {
    const pos = new Position(fen);
    const moves = legalMoves(pos);
    const texts = moves.map((m) => moveToSan(pos, m));
    expect(new Set(texts).size).toBe(moves.length);
    for (let i = 0; i < moves.length; i++) expect(parseSan(pos, texts[i])).toBe(moves[i]);
    expect(pos.fen()).toBe(new Position(fen).fen());
  });
});
