// Writing PGN: tags, numbers, glyphs, comments and variations, wrapping.

import { describe, expect, it } from 'vitest';
import { parsePgn } from '../../src/board/pgn.js';
import { clockCommand, evalCommand, writePgn } from '../../src/board/pgn-write.js';

describe('writePgn', () => {
  it('writes the Seven Tag Roster first, then the movetext with numbers, glyphs, comments and variations', () => {
    const text = writePgn({
      tags: [
        ['White', 'A "quoted" name'],
        ['Event', 'Test'],
        ['Annotator', 'Kestrel'],
      ],
      fullmove: 1,
      side: 'w',
      moves: [
        { san: 'e4', comment: '[%eval 0.30]' },
        { san: 'f5', glyph: '?', comment: '[%eval 1.20]', variations: [[{ san: 'e5' }, { san: 'Nf3' }]] },
        { san: 'exf5' },
      ],
      result: '1-0',
    });
    expect(text).toBe(
      [
        '[Event "Test"]',
        '[Site "?"]',
        '[Date "?"]',
        '[Round "?"]',
        '[White "A \\"quoted\\" name"]',
        '[Black "?"]',
        '[Result "1-0"]',
        '[Annotator "Kestrel"]',
        '',
        '1. e4 {[%eval 0.30]} 1... f5? {[%eval 1.20]} (1... e5 2. Nf3) 2. exf5 1-0',
        '',
      ].join('\n'),
    );
    // What we write, our reader reads back.
    const [game] = parsePgn(text);
    expect(game.moves).toEqual(['e4', 'f5?', 'exf5']);
    expect(game.tags.White).toBe('A "quoted" name');
  });

  it('starts with black to move, wraps at 80 columns and keeps [%...] commands whole', () => {
    const moves = Array.from({ length: 30 }, (_, i) => ({
      san: i % 2 === 0 ? 'Nf6' : 'Ng1',
      comment: `[%eval 0.1${i % 10}] [%clk 0:05:00]`,
    }));
    const text = writePgn({ tags: [], fullmove: 12, side: 'b', moves, result: '*' });
    const body = text.slice(text.indexOf('\n\n') + 2);
    expect(body.startsWith('12... Nf6 {')).toBe(true);
    for (const line of body.trimEnd().split('\n')) {
      expect(line.length).toBeLessThanOrEqual(80);
      expect(line).not.toMatch(/\[%(clk|eval)$/);
    }
  });

  it('writes evaluations and clocks as lichess reads them', () => {
    expect(evalCommand({ cp: 25 })).toBe('[%eval 0.25]');
    expect(evalCommand({ cp: -130 })).toBe('[%eval -1.30]');
    expect(evalCommand({ cp: 0 })).toBe('[%eval 0.00]');
    expect(evalCommand({ mate: 3 })).toBe('[%eval #3]');
    expect(evalCommand({ mate: -2 })).toBe('[%eval #-2]');
    expect(clockCommand(3_723_900)).toBe('[%clk 1:02:03]');
  });
});
