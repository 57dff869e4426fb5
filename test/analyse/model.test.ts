// Lichess's model: win percentage, the judgements of moves, and accuracy
// (expected values from lila's own tests of AccuracyPercent).

import { describe, expect, it } from 'vitest';
import { type WhiteEval, gameAccuracy, judgeMove, moveAccuracy, winPercent, winningChances } from '../../src/analyse/model.js';
import { type GameText, replayGame, splitGames } from '../../src/analyse/games.js';

describe('win percentage', () => {
  it('follows the logistic curve, with centipawns and mates ceiled at 1000', () => {
    expect(winPercent({ cp: 0 })).toBe(50);
    expect(winPercent({ cp: 100 })).toBeCloseTo(50 + 50 * (2 / (1 + Math.exp(-0.368208)) - 1), 10);
    expect(winPercent({ cp: 300 })).toBeCloseTo(75.1, 1);
    expect(winPercent({ cp: 5000 })).toBe(winPercent({ cp: 1000 }));
    expect(winPercent({ mate: 3 })).toBe(winPercent({ cp: 1000 }));
    expect(winPercent({ mate: -1 })).toBe(winPercent({ cp: -1000 }));
    expect(winPercent({ mated: 'black' })).toBe(winPercent({ cp: 1000 }));
    expect(winningChances(-100)).toBeCloseTo(-winningChances(100), 12);
  });
});

describe('judging a move', () => {
  const cp = (n: number): WhiteEval => ({ cp: n });

  it('by the winning chances lost: 0.1, 0.2, 0.3 (5, 10, 15 points of win percentage)', () => {
    expect(judgeMove(cp(0), cp(-40), true)).toBeNull();
    expect(judgeMove(cp(0), cp(-60), true)).toBe('inaccuracy');
    expect(judgeMove(cp(0), cp(-120), true)).toBe('mistake');
    expect(judgeMove(cp(0), cp(-180), true)).toBe('blunder');
    // Black loses when white's chances rise.
    expect(judgeMove(cp(0), cp(180), false)).toBe('blunder');
    expect(judgeMove(cp(0), cp(-180), false)).toBeNull();
    // The same centipawns matter less when the game is decided.
    expect(judgeMove(cp(900), cp(700), true)).toBeNull();
  });

  it('by the mate rules: walking into a forced mate, letting one go', () => {
    expect(judgeMove(cp(50), { mate: -4 }, true)).toBe('blunder');
    expect(judgeMove(cp(-800), { mate: -4 }, true)).toBe('mistake');
    expect(judgeMove(cp(-1200), { mate: -4 }, true)).toBe('inaccuracy');
    expect(judgeMove(cp(-50), { mate: 4 }, false)).toBe('blunder');
    expect(judgeMove({ mate: 2 }, cp(300), true)).toBe('blunder');
    expect(judgeMove({ mate: 2 }, cp(800), true)).toBe('mistake');
    expect(judgeMove({ mate: 2 }, cp(1500), true)).toBe('inaccuracy');
    expect(judgeMove({ mate: 2 }, { mate: 3 }, true)).toBeNull();
    expect(judgeMove({ mate: 1 }, { mated: 'black' }, true)).toBeNull();
    expect(judgeMove({ mate: -2 }, { mate: 1 }, false)).toBe('blunder');
  });
});

describe('accuracy', () => {
  it('of a move: 100 when nothing is lost, falling with the win percentage lost', () => {
    expect(moveAccuracy(60, 70)).toBe(100);
    expect(moveAccuracy(60, 60)).toBe(100);
    expect(moveAccuracy(60, 50)).toBeCloseTo(64.58, 2);
    expect(moveAccuracy(100, 0)).toBe(0);
  });

  // lila's AccuracyPercentTest: evaluations after each move, the start counted as 15 cp.
  const game = (cps: number[], whiteFirst = true) =>
    gameAccuracy(
      [15, ...cps].map((cp) => ({ cp })),
      whiteFirst,
    );
  const close = (value: number | null, target: number, tolerance: number): void => {
    expect(value).not.toBeNull();
    expect(Math.abs(value! - target)).toBeLessThanOrEqual(tolerance);
  };

  it('of a game, as lila computes it', () => {
    expect(gameAccuracy([{ cp: 15 }], true)).toEqual({ white: null, black: null });
    let a = game([15, 15]);
    close(a.white, 100, 1);
    close(a.black, 100, 1);
    a = game([-900, -900]);
    close(a.white, 10, 5);
    close(a.black, 100, 1);
    a = game([15, 900]);
    close(a.white, 100, 1);
    close(a.black, 10, 5);
    a = game([-900, 0]);
    close(a.white, 10, 5);
    close(a.black, 10, 5);
    a = game([...Array(20).fill(15), -900]);
    close(a.white, 50, 5);
    close(a.black, 100, 1);
    a = game([...Array(21).fill(15), 900]);
    close(a.white, 100, 1);
    close(a.black, 50, 5);
    for (const [loss, target] of [
      [-50, 76],
      [-135, 54],
      [-435, 20],
    ]) {
      a = game(Array.from({ length: 50 }, () => [loss, 15]).flat());
      close(a.white, target, 8);
      close(a.black, target, 8);
    }
    a = game(Array.from({ length: 5 }, () => [-50, 15]).flat());
    close(a.white, 76, 8);
  });

  it('of a game where black moves first', () => {
    let a = game([900, 900], false);
    close(a.black, 10, 5);
    close(a.white, 100, 1);
    a = game([15, -900], false);
    close(a.black, 100, 1);
    close(a.white, 10, 5);
  });
});

describe('reading games for analysis', () => {
  const text = [
    '[Event "one"]',
    '[White "A"]',
    '',
    '1. e4 e5 2. Nf3 Nc6 *',
    '',
    '[Event "two"]',
    '',
    '1. d4 d5 2. c4',
    '2... Qxz9 3. Nc3 *',
    '',
    '[Event "three"]',
    '[FEN "not a fen"]',
    '',
    '1. e4 *',
    '[Event "four"]',
    '1. f3 e5 2. g4 Qh4# 0-1',
  ].join('\n');

  it('numbers the games, keeps their lines, and says where a game is bad', () => {
    const games = splitGames(text);
    expect(games.map((g: GameText) => [g.number, g.line])).toEqual([
      [1, 1],
      [2, 6],
      [3, 11],
      [4, 15],
    ]);
    const results = games.map(replayGame);
    expect('uci' in results[0] && results[0].uci).toEqual(['e2e4', 'e7e5', 'g1f3', 'b8c6']);
    expect(results[1]).toEqual({ number: 2, line: 9, message: 'move 2... Qxz9 is not legal here' });
    expect(results[2]).toMatchObject({ number: 3, line: 11 });
    expect('message' in results[2] && results[2].message).toMatch(/^bad FEN tag 'not a fen'/);
    expect('san' in results[3] && results[3].san).toEqual(['f3', 'e5', 'g4', 'Qh4#']);
  });

  it('names an ambiguous move and another variant, and replays Chess960 castling', () => {
    const games = splitGames(
      [
        '1. Nf3 d5 2. d3 e5 3. Nd2 *',
        '[Variant "Atomic"]',
        '1. Nf3 d5 *',
        '[Variant "Chess960"]',
        '[FEN "nrbkqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQRBN w FBfb - 0 1"]',
        '1. f4 f5 2. Bf2 Bf7 3. e3 e6 4. Qe2 Qe7 5. O-O *',
      ].join('\n'),
    );
    const results = games.map(replayGame);
    expect(results[0]).toEqual({ number: 1, line: 1, message: 'move 3. Nd2 is ambiguous: Nbd2 or Nfd2' });
    expect(results[1]).toEqual({ number: 2, line: 2, message: 'variant "Atomic" is not chess or Chess960' });
    expect(results[2]).toMatchObject({ chess960: true, san: ['f4', 'f5', 'Bf2', 'Bf7', 'e3', 'e6', 'Qe2', 'Qe7', 'O-O'] });
    expect('uci' in results[2] && results[2].uci.at(-1)).toBe('d1f1');
    // A comment wrapped onto a line starting with '[' does not hide the line of a later move.
    const [wrapped] = splitGames('[Event "w"]\n\n1. e4 {[%eval 0.2]\n[%clk 0:03:00]} e5\n2. Ke3 *').map(replayGame);
    expect(wrapped).toEqual({ number: 1, line: 5, message: 'move 2. Ke3 is not legal here' });
  });
});
