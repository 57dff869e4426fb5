import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { gamePositions } from '../../src/tune/texel-data.js';
import { gameProblem, movetextTokens, parsePgn, sanToMove } from '../../src/board/pgn.js';

const PGN = `[Event "test"]
[White "a"]
[Black "b"]
[Result "1-0"]

1. e4 {book} e5 2. Nf3 Nc6 (2... d6 3. d4) 3. Bb5 $1 a6 4. Ba4 Nf6 5. O-O Be7
6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5
13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7 Qxe7 1-0

[Event "unfinished"]
[Result "*"]

1. d4 d5 *

[Event "from a FEN"]
[SetUp "1"]
[FEN "4k3/P7/8/8/8/8/8/4K3 w - - 0 40"]
[Result "1/2-1/2"]

40. a8=Q+ Kd7 41. Qb7+ Kd6 1/2-1/2
`;

describe('PGN', () => {
  it('splits games and keeps the main line only', () => {
    const games = parsePgn(PGN);
    expect(games.length).toBe(3);
    expect(games[0].tags.Event).toBe('test');
    expect(games[0].result).toBe('1-0');
    expect(games[0].moves.slice(0, 6)).toEqual(['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6']);
    expect(games[0].moves.length).toBe(36);
    expect(games[1].result).toBe('*');
    expect(movetextTokens('1.e4 e5 2.Nf3 {a {comment} 1/2-1/2').moves).toEqual(['e4', 'e5', 'Nf3']);
  });

  it('treats a \\u0001 in the movetext as a space, not as a comment of its own', () => {
    // Found by test/fuzz: the reader marks comments with \u0001 and a number;
    // the same character in the input named a comment that was not there
    // (undefined in comments) or another move's comment.
    expect(movetextTokens('. \u0001').comments).toEqual(['']);
    const { moves, comments } = movetextTokens('{before} e4 \u00010 e5 {after e5}');
    expect(moves).toEqual(['e4', 'e5']);
    expect(comments).toEqual(['', 'after e5']);
  });

  it('reads SAN: castling, captures, disambiguation, promotion, en passant', () => {
    const pos = new Position('r3k2r/8/8/3pP3/8/8/1N3N2/R3K2R w KQkq d6 0 1');
    const uci = (san: string): string => {
      const m = sanToMove(pos, san);
      return m === 0 ? 'none' : `${m & 63}-${(m >> 6) & 63}-${m >> 12}`;
    };
    expect(uci('O-O')).toBe('4-7-2');
    expect(uci('O-O-O+')).toBe('4-0-2');
    expect(uci('exd6')).toBe(`36-43-3`);
    expect(uci('Nd3')).toBe('none'); // ambiguous: both knights reach d3
    expect(uci('Nbd3')).toBe('9-19-0');
    expect(uci('Nfd3')).toBe('13-19-0');
    expect(uci('Nxd3')).toBe('none');
    expect(uci('Qd1')).toBe('none');
    const promo = new Position('4k3/P7/8/8/8/8/8/4K3 w - - 0 1');
    expect(sanToMove(promo, 'a8=Q') >> 12).toBe(7);
    expect(sanToMove(promo, 'a8N') >> 12).toBe(4);
    expect(sanToMove(promo, 'a8')).toBe(0);
  });

  it('turns finished games into labelled quiet positions after the opening', () => {
    const games = parsePgn(PGN);
    const stats = { games: 0, skippedGames: 0, positions: 0, badMoves: 0 };
    const first = gamePositions(games[0], {}, stats);
    // Positions before moves 9..18 for both sides, minus the non-quiet ones.
    expect(first.length).toBeGreaterThan(10);
    expect(first.length).toBeLessThanOrEqual(20);
    expect(first.every((p) => p.result === 1)).toBe(true);
    // The first is the position after 8... O-O (move 9, White to move).
    expect(first[0].fen).toBe('r1bq1rk1/2p1bppp/p1np1n2/1p2p3/4P3/1BP2N2/PP1P1PPP/RNBQR1K1 w - - 1 9');
    expect(gamePositions(games[1], {}, stats)).toEqual([]);
    const fromFen = gamePositions(games[2], {}, stats);
    // Not quiet: before a8=Q (a promotion is pending) and with a king in check; only before 41. Qb7+.
    expect(fromFen).toEqual([{ fen: 'Q7/3k4/8/8/8/8/8/4K3 w - - 1 41', result: 0.5 }]);
    expect(stats).toEqual({ games: 2, skippedGames: 1, positions: first.length + 1, badMoves: 0 });
  });

  it('keeps a comment wrapped onto a line that starts with [ in its game', () => {
    // As Kestrel's own writer and others wrap `{[%eval ...] [%clk ...]}`.
    const [game, ...rest] = parsePgn('[Event "w"]\n\n1. e4 {[%eval 0.2]\n[%clk 0:03:00]} e5 2. Nf3 *\n');
    expect(rest).toEqual([]);
    expect(game.moves).toEqual(['e4', 'e5', 'Nf3']);
    expect(game.comments?.[0]).toBe('[%eval 0.2]\n[%clk 0:03:00]');
    expect(game.badTags).toBeUndefined();
  });

  it('ends a game at its result token, so games need no tags', () => {
    const games = parsePgn('1. e4 e5 1-0\n\n1. d4 d5 0-1 1. c4 *\n');
    expect(games.map((g) => [g.moves, g.result, g.firstLine, g.lastLine])).toEqual([
      [['e4', 'e5'], '1-0', 1, 1],
      [['d4', 'd5'], '0-1', 3, 3],
      [['c4'], '*', 3, 3],
    ]);
    // A repeated result token or a comment about the file is no game.
    expect(parsePgn('{exported by x}\n1. e4 1-0 1-0\n').length).toBe(1);
  });

  it('reads several tags on one line and skips % lines between tags', () => {
    const [game] = parsePgn(
      '[White "Carlsen"] [Black "Nakamura"]  [FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]\n% by a tool\n[Result "1-0"]\n\n1. O-O 1-0\n',
    );
    expect(game.tags).toEqual({ White: 'Carlsen', Black: 'Nakamura', FEN: '4k3/8/8/8/8/8/8/4K2R w K - 0 1', Result: '1-0' });
    expect(game.badTags).toBeUndefined();
    expect(parsePgn('[White "a"] 1. e4 *\n')[0].badTags).toEqual(['[White "a"] 1. e4 *']);
  });

  it('says when a comment or variation is never closed, and reads the next game', () => {
    const games = parsePgn(
      '[Event "a"]\n\n1. e4 e5 2. Nf3 {oops 2... Nc6 *\n\n[Event "b"]\n\n1. d4 (1. c4 c5\n\n[Event "c"]\n\n1. e4 (1. d4) *\n',
    );
    expect(games.map((g) => [g.tags.Event, g.problem ?? null])).toEqual([
      ['a', 'comment opened on line 3 is not closed'],
      ['b', 'variation opened on line 7 is not closed'],
      ['c', null],
    ]);
    expect(gameProblem(games[0])).toBe('comment opened on line 3 is not closed');
    expect(parsePgn('1. e4 {to the end')[0].problem).toBe('comment opened on line 1 is not closed');
  });

  it('reads a NAG written against its move and "e.p." after an en-passant capture', () => {
    expect(movetextTokens('1. e4$1 e5!? 2. exd6 e.p. *').moves).toEqual(['e4', 'e5!?', 'exd6']);
  });

  it('refuses other variants than chess and Chess960', () => {
    const variant = (name: string): string | null => gameProblem({ tags: { Variant: name }, moves: [], result: '*' });
    expect(variant('Atomic')).toBe('variant "Atomic" is not chess or Chess960');
    expect(variant('Three-check')).not.toBeNull();
    expect(variant('Standard')).toBeNull();
    expect(variant('chess 960')).toBeNull();
    expect(variant('Fischerandom')).toBeNull();
    expect(gameProblem({ tags: {}, moves: [], result: '*', badTags: ['[Event'] })).toBe('unreadable tag "[Event"');
  });
});
