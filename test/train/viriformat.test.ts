import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES } from '../../src/board/types.js';
import {
  RESULT_WHITE_WIN,
  decodeGame,
  encodeGame,
  indexGames,
  notGames,
  packBoard,
  packMove,
  unpackBoard,
  unpackMove,
} from '../../src/train/viriformat.js';
import { PERFT_FENS, rng } from '../eval/fixtures.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** FEN with castling rights written as Kestrel writes them, for comparing positions. */
const sameFen = (fen: string): string => new Position(fen).fen();

describe('viriformat', () => {
  it('writes the specification example game byte for byte', () => {
    // 1. e4 (+10) e5 (+20) 2. Qh5 (-30) Ke7 (+32767) 3. Qxe5# (+32767), White won.
    const pos = new Position();
    const moves: number[] = [];
    for (const uci of ['e2e4', 'e7e5', 'd1h5', 'e8e7', 'h5e5']) {
      const m = parseUciMove(pos, uci);
      moves.push(m);
      pos.makeMove(m);
    }
    const bytes = encodeGame(new Position(), RESULT_WHITE_WIN, moves, [10, 20, -30, 32767, 32767], 5);
    // Occupancy, then 4-bit pieces with entry 0 in the low nibble (the
    // specification's example shows each byte's two nibbles in entry order):
    // a1 rook with castling right (6), knight (1), bishop (2), queen (4),
    // king (5), bishop, knight, rook (6); white pawns (0); black pawns (8);
    // black pieces (+8).
    expect(hex(bytes)).toBe(
      'ffff00000000ffff' +
        '16422561' +
        '00000000' +
        '88888888' +
        '9ecaade9' +
        '40' +
        '00' +
        '0100' +
        '0000' +
        '02' +
        '00' +
        '0c070a00' +
        '34091400' +
        'c309e2ff' +
        '3c0dff7f' +
        '2709ff7f' +
        '00000000',
    );
  });

  it('packs en passant, castling (king takes rook) and promotions as the specification says', () => {
    const pos = new Position('r3k2r/pPp5/8/3pP3/8/8/8/R3K2R w KQkq d6 0 2');
    const code = (uci: string): number => packMove(parseUciMove(pos, uci));
    expect(code('e5d6')).toBe(36 | (43 << 6) | (1 << 14));
    expect(code('e1g1')).toBe(4 | (7 << 6) | (2 << 14));
    expect(code('e1c1')).toBe(4 | (0 << 6) | (2 << 14));
    expect(code('b7a8q')).toBe(49 | (56 << 6) | (3 << 12) | (3 << 14));
    expect(code('b7b8n')).toBe(49 | (57 << 6) | (0 << 12) | (3 << 14));
    expect(code('e5e6')).toBe(36 | (44 << 6));
    // The packed board: side, en-passant square and unmoved rooks carry the state.
    const out = new Uint8Array(32);
    packBoard(pos, 1, out, 0);
    expect(out[24]).toBe(43);
    expect(sameFen(unpackBoard(out, 0).fen)).toBe(pos.fen());
  });

  it('reads back every position and move of random games, Chess960 castling included', () => {
    const next = rng(77);
    const list = new Int32Array(MAX_MOVES);
    const starts = [...PERFT_FENS.slice(0, 40), 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'];
    for (const fen of starts) {
      const start = new Position(fen);
      const pos = new Position(fen);
      const moves: number[] = [];
      const fens: string[] = [];
      for (let ply = 0; ply < 60; ply++) {
        const n = generateMoves(pos, list, 0, false);
        if (n === 0) break;
        fens.push(pos.fen());
        const m = list[next(n)];
        moves.push(m);
        pos.makeMove(m);
      }
      const bytes = encodeGame(
        start,
        1,
        moves,
        moves.map((_, i) => i * 7 - 100),
        moves.length,
      );
      const index = indexGames(bytes);
      expect(index.offsets).toEqual([0]);
      const game = decodeGame(bytes, 0, index.plies[0]);
      expect(sameFen(game.fen)).toBe(start.fen());
      expect(game.scores).toEqual(moves.map((_, i) => i * 7 - 100));
      const replay = new Position(game.fen);
      game.moves.forEach((packed, i) => {
        expect(replay.fen()).toBe(fens[i]);
        const m = unpackMove(replay, packed);
        expect(moveToUci(replay, m)).toBe(moveToUci(replay, moves[i]));
        expect(m).toBe(moves[i]);
        replay.makeMove(m);
      });
    }
  });

  it('tells games from a file named by mistake (text, random bytes)', () => {
    const a = encodeGame(new Position(), 2, [parseUciMove(new Position(), 'g1f3')], [5], 1);
    const games = new Uint8Array([...a, ...a, ...a.subarray(0, 40)]);
    expect(notGames(games, indexGames(games))).toBeNull();
    const text = new TextEncoder().encode('# Kestrel\n\nKestrel is a chess engine written in TypeScript.\n'.repeat(20));
    expect(notGames(text, indexGames(text))).toMatch(/no valid starting position at byte 0/);
    const random = new Uint8Array(100000).map((_, i) => (i * 2654435761) >>> 24);
    expect(notGames(random, indexGames(random))).not.toBeNull();
  });

  it('finds the complete games of a stream and leaves out a half-written last one', () => {
    const a = encodeGame(new Position(), 2, [parseUciMove(new Position(), 'g1f3')], [5], 1);
    const b = encodeGame(new Position(), 0, [], [], 0);
    const stream = new Uint8Array([...a, ...b, ...a]);
    expect(indexGames(stream)).toEqual({ offsets: [0, a.length, a.length + b.length], plies: [1, 0, 1], completeBytes: stream.length });
    for (let cut = 1; cut < a.length; cut++) {
      const partial = stream.subarray(0, stream.length - cut);
      const index = indexGames(partial);
      expect(index.offsets.length).toBe(2);
      expect(index.completeBytes).toBe(a.length + b.length);
    }
    expect(indexGames(new Uint8Array(0))).toEqual({ offsets: [], plies: [], completeBytes: 0 });
  });

  it('refuses a packed board with an impossible piece, en-passant square or result', () => {
    const out = new Uint8Array(32);
    packBoard(new Position(), 1, out, 0);
    const badPiece = out.slice();
    badPiece[8] = 0x17; // piece code 7 on a1
    expect(() => unpackBoard(badPiece, 0)).toThrow(/piece code/);
    const badResult = out.slice();
    badResult[30] = 3;
    expect(() => unpackBoard(badResult, 0)).toThrow(/result/);
    const badEp = out.slice();
    badEp[24] = 100;
    expect(() => unpackBoard(badEp, 0)).toThrow(/en-passant/);
    expect(notGames(badEp, indexGames(badEp))).toMatch(/byte 0 \(en-passant byte 100\)/);
  });
});
