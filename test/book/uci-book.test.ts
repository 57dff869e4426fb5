// The book logic behind the UCI options OwnBook, BookFile, BookMode, BookDepth.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseUciMove } from '../../src/board/notation.js';
import { Position, START_FEN } from '../../src/board/position.js';
import { unitInterval, xorshift32 } from '../../src/util/random.js';
import { BookController } from '../../src/book/uci-book.js';
import { bookBytes, rawMove } from './helpers.js';
import { scratchDir } from '../scratch.js';

const dir = scratchDir('kestrel-uci-book-');

function at(...moves: string[]): Position {
  const pos = new Position(START_FEN);
  for (const m of moves) pos.makeMove(parseUciMove(pos, m));
  return pos;
}

describe('BookController', () => {
  it('does nothing until OwnBook is on', () => {
    const book = new BookController();
    expect(book.pick(new Position())).toEqual({ move: 0, lines: [] });
  });

  it('plays from the shipped book by default and announces the move before bestmove', () => {
    const book = new BookController();
    book.setOwnBook(true);
    expect(book.setMode('best')).toBe(true);
    const pos = new Position();
    expect(book.pickUci(pos)).toEqual({
      move: parseUciMove(pos, 'e2e4'),
      uci: 'e2e4',
      lines: ['info string book move e2e4 (weight 12956 of total 34700)', 'info depth 0 score cp 0 time 0 nodes 0 pv e2e4'],
    });
    // Out of book: search, and nothing to print.
    expect(book.pick(at('h2h4', 'a7a5', 'h4h5'))).toEqual({ move: 0, lines: [] });
    book.close();
  });

  it('weighted picks are reproducible with a seed and spread over the book moves', () => {
    const picks = (seed: number): string[] => {
      const book = new BookController();
      book.setOwnBook(true);
      book.setMode('weighted');
      book.setRandom(unitInterval(xorshift32(seed)));
      return Array.from({ length: 40 }, () => book.pickUci(new Position()).uci);
    };
    const first = picks(7);
    expect(picks(7)).toEqual(first);
    expect(new Set(first).size).toBeGreaterThan(2);
    expect(first.filter((m) => m === 'e2e4' || m === 'd2d4').length).toBeGreaterThan(15);
  });

  it('consults the book for the first BookDepth plies only', () => {
    const book = new BookController();
    book.setOwnBook(true);
    book.setMode('best');
    book.setDepth(2);
    expect(book.pickUci(new Position()).uci).toBe('e2e4');
    expect(book.pickUci(at('e2e4')).uci).not.toBe('');
    expect(book.pick(at('e2e4', 'e7e5'))).toEqual({ move: 0, lines: [] });
    book.setDepth(0);
    expect(book.pick(new Position())).toEqual({ move: 0, lines: [] });
    expect(book.setMode('random')).toBe(false);
  });

  it('keeps to go searchmoves', () => {
    const book = new BookController();
    book.setOwnBook(true);
    book.setMode('best');
    const pos = new Position();
    expect(book.pickUci(pos, [parseUciMove(pos, 'd2d4'), parseUciMove(pos, 'h2h4')]).uci).toBe('d2d4');
    expect(book.pick(pos, [parseUciMove(pos, 'h2h4')]).move).toBe(0);
    // As UCI text, the way `go searchmoves` gives them.
    expect(book.pickUci(pos, ['c2c4', 'g1f3']).uci).toBe('c2c4');
  });

  it('reports a missing or broken BookFile once as an info string, then searches', () => {
    const book = new BookController();
    book.setOwnBook(true);
    const missing = join(dir, 'missing.bin');
    book.setFile(missing);
    expect(book.pick(new Position())).toEqual({
      move: 0,
      lines: [`info string cannot open book ${missing}: no such file; playing without a book`],
    });
    expect(book.pick(new Position())).toEqual({ move: 0, lines: [] });
    const broken = join(dir, 'broken.bin');
    writeFileSync(broken, new Uint8Array(24));
    book.setFile(broken);
    expect(book.pick(new Position()).lines).toEqual([
      `info string book ${broken} is not a Polyglot book or is truncated: its size (24 bytes) is not a multiple of 16; playing without a book`,
    ]);
    // Back to the default (empty value): the shipped book.
    book.setFile('');
    expect(book.pick(new Position()).move).not.toBe(0);
  });

  it('BookFile set again to the same name opens the file again: it may have been made or rebuilt since', () => {
    const pos = new Position();
    const file = join(dir, 'rebuilt.bin');
    const book = new BookController();
    book.setOwnBook(true);
    book.setFile(file);
    expect(book.pick(pos).lines[0]).toMatch(/cannot open book/);
    writeFileSync(file, bookBytes([{ key: pos.keyHex(), move: rawMove('e2e4'), weight: 7 }]));
    book.setFile(file); // a GUI sends every option again at a new game
    expect(book.pickUci(pos).uci).toBe('e2e4');
    writeFileSync(file, bookBytes([{ key: pos.keyHex(), move: rawMove('d2d4'), weight: 3 }]));
    book.setFile(file);
    expect(book.pickUci(pos).uci).toBe('d2d4');
  });

  it('passes on warnings about illegal entries and plays a legal move; Chess960 castling is written king-takes-rook', () => {
    const pos = new Position('4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1');
    const file = join(dir, 'castle.bin');
    writeFileSync(
      file,
      bookBytes([
        { key: pos.keyHex(), move: rawMove('e1g1'), weight: 9 },
        { key: pos.keyHex(), move: rawMove('e1h1'), weight: 5 },
      ]),
    );
    const book = new BookController();
    book.setOwnBook(true);
    book.setMode('best');
    book.setFile(file);
    expect(book.pickUci(pos)).toMatchObject({
      uci: 'e1g1',
      lines: [
        `info string book ${file}: record 0 holds e1g1, not a legal move in 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1; ignored`,
        'info string book move e1g1 (weight 5 of total 5)',
        'info depth 0 score cp 0 time 0 nodes 0 pv e1g1',
      ],
    });
    pos.chess960 = true;
    expect(book.pickUci(pos).lines.slice(1)).toEqual([
      'info string book move e1h1 (weight 5 of total 5)',
      'info depth 0 score cp 0 time 0 nodes 0 pv e1h1',
    ]);
  });
});
