import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { Position, START_FEN } from '../../src/board/position.js';
import { CASTLE, EN_PASSANT, PROMO_BISHOP, PROMO_KNIGHT, PROMO_QUEEN, PROMO_ROOK, moveKind } from '../../src/board/types.js';
import { decodeMoveIn, encodeMove } from '../../src/book/polyglot.js';
import { BookError, type BookMode, OpeningBook, gamePly, pickEntry } from '../../src/book/reader.js';
import { unitInterval, xorshift32 } from '../../src/util/random.js';
import { type RawRecord, bookBytes, rawMove } from './helpers.js';
import { scratchDir } from '../scratch.js';

const dir = scratchDir('kestrel-book-');

function file(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

function at(fen: string, ...moves: string[]): Position {
  const pos = new Position(fen);
  for (const m of moves) pos.makeMove(parseUciMove(pos, m));
  return pos;
}

/** The probe's entries as 'uci:weight' strings. */
function probeText(book: OpeningBook, pos: Position): string[] {
  return book.probe(pos).entries.map((e) => `${moveToUci(pos, e.move)}:${e.weight}`);
}

function key(pos: Position): string {
  return pos.keyHex();
}

/** Records sorted by key (stable, so a key's moves keep the order given). */
function sorted(records: RawRecord[]): RawRecord[] {
  return [...records].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function hexPlus(hex: string, delta: bigint): string {
  return (BigInt(`0x${hex}`) + delta).toString(16).padStart(16, '0');
}

describe('Polyglot move encoding', () => {
  it('decodes castling written king-takes-rook, for both sides and in Chess960', () => {
    const white = new Position('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
    for (const [raw, uci] of [
      ['e1h1', 'e1g1'],
      ['e1a1', 'e1c1'],
    ]) {
      const move = decodeMoveIn(white, rawMove(raw));
      expect(moveKind(move)).toBe(CASTLE);
      expect(moveToUci(white, move)).toBe(uci);
      expect(encodeMove(move)).toBe(rawMove(raw));
    }
    const black = new Position('r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1');
    expect(moveToUci(black, decodeMoveIn(black, rawMove('e8h8')))).toBe('e8g8');
    expect(moveToUci(black, decodeMoveIn(black, rawMove('e8a8')))).toBe('e8c8');
    // The king's two-square step is not how Polyglot writes castling: not a move.
    expect(decodeMoveIn(white, rawMove('e1g1'))).toBe(0);
    expect(decodeMoveIn(black, rawMove('e8c8'))).toBe(0);
    // Chess960: king f1, rook g1.
    const frc = new Position('4k3/8/8/8/8/8/8/5KR1 w G - 0 1');
    frc.chess960 = true;
    const move = decodeMoveIn(frc, rawMove('f1g1'));
    expect(moveKind(move)).toBe(CASTLE);
    expect(moveToUci(frc, move)).toBe('f1g1');
  });

  it('decodes promotions (n, b, r, q), captures that promote, and en passant', () => {
    const pos = new Position('r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1');
    const kinds = { n: PROMO_KNIGHT, b: PROMO_BISHOP, r: PROMO_ROOK, q: PROMO_QUEEN };
    for (const [letter, kind] of Object.entries(kinds)) {
      for (const to of ['b8', 'a8']) {
        const move = decodeMoveIn(pos, rawMove(`b7${to}${letter}`));
        expect(moveKind(move)).toBe(kind);
        expect(moveToUci(pos, move)).toBe(`b7${to}${letter}`);
        expect(encodeMove(move)).toBe(rawMove(`b7${to}${letter}`));
      }
    }
    expect(decodeMoveIn(pos, rawMove('b7b8'))).toBe(0); // a promotion without its piece
    expect(decodeMoveIn(pos, rawMove('b7b8') | (5 << 12))).toBe(0); // promotion code 5 means nothing
    const ep = new Position('rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3');
    expect(moveKind(decodeMoveIn(ep, rawMove('e5f6')))).toBe(EN_PASSANT);
    expect(decodeMoveIn(ep, rawMove('e5e6'))).not.toBe(0);
    expect(decodeMoveIn(ep, rawMove('e5d6'))).toBe(0); // the d-pawn's double step was not the last move
  });
});

describe('OpeningBook binary search', () => {
  // Real positions, each with its moves; sorted by key the file has them in
  // some order, and the test checks every one wherever it lands.
  const positions: { pos: Position; moves: [string, number][] }[] = [
    {
      pos: at(START_FEN),
      moves: [
        ['e2e4', 30],
        ['d2d4', 20],
        ['g1f3', 10],
      ],
    },
    {
      pos: at(START_FEN, 'e2e4'),
      moves: [
        ['c7c5', 5],
        ['e7e5', 5],
      ],
    },
    { pos: at(START_FEN, 'd2d4'), moves: [['g8f6', 7]] },
    {
      pos: at(START_FEN, 'e2e4', 'e7e5'),
      moves: [
        ['g1f3', 9],
        ['f1c4', 3],
      ],
    },
    { pos: at(START_FEN, 'c2c4'), moves: [['e7e5', 1]] },
    {
      pos: at(START_FEN, 'g1f3'),
      moves: [
        ['d7d5', 2],
        ['g8f6', 2],
      ],
    },
  ];
  const records = sorted(
    positions.flatMap(({ pos, moves }) =>
      moves.map(([m, weight], i) => ({ key: key(pos), move: encodeMove(parseUciMove(pos, m)), weight, learn: i })),
    ),
  );
  const expected = (pos: Position): string[] =>
    positions.find((p) => p.pos.keyHex() === pos.keyHex())?.moves.map(([m, w]) => `${m}:${w}`) ?? [];

  const books = (bytes: Uint8Array): [string, OpeningBook][] => [
    ['memory', OpeningBook.fromBytes(bytes)],
    ['file read record by record', OpeningBook.open(file(`b${bytes.length}.bin`, bytes), { memoryLimit: 0 })],
    ['file read whole', OpeningBook.open(file(`c${bytes.length}.bin`, bytes))],
  ];

  it('finds every position, first and last key included, with all its moves in file order', () => {
    const firstKey = records[0].key;
    const lastKey = records[records.length - 1].key;
    expect(positions.some((p) => p.pos.keyHex() === firstKey)).toBe(true);
    for (const [, book] of books(bookBytes(records))) {
      expect(book.size).toBe(records.length);
      for (const { pos } of positions) {
        const probe = book.probe(pos);
        expect(probe.warnings).toEqual([]);
        expect(probeText(book, pos)).toEqual(expected(pos));
        expect(probe.entries.map((e) => e.learn)).toEqual(expected(pos).map((_, i) => i));
      }
      expect(positions.some((p) => p.pos.keyHex() === lastKey)).toBe(true);
      book.close();
    }
  });

  it('finds nothing for absent keys: below the first, above the last, between two, off by one', () => {
    const bytes = bookBytes(
      sorted([
        ...records,
        // Keys one below and one above a real key, with moves that would be illegal if wrongly found.
        { key: hexPlus(key(positions[0].pos), -1n), move: rawMove('a1a8'), weight: 1 },
        { key: hexPlus(key(positions[0].pos), 1n), move: rawMove('a1a8'), weight: 1 },
      ]),
    );
    for (const [, book] of books(bytes)) {
      for (const pos of [at(START_FEN, 'b2b3'), at(START_FEN, 'e2e4', 'c7c5'), at('4k3/8/8/8/8/8/8/4K3 w - - 0 1')]) {
        expect(book.probe(pos)).toEqual({ entries: [], warnings: [] });
      }
      expect(probeText(book, positions[0].pos)).toEqual(expected(positions[0].pos));
    }
    // Smallest and largest possible keys around one real position.
    const start = positions[0].pos;
    const edges = bookBytes([
      { key: '0000000000000000', move: 0, weight: 0 },
      { key: key(start), move: rawMove('e2e4'), weight: 1 },
      { key: 'ffffffffffffffff', move: rawMove('a1a8'), weight: 1 },
    ]);
    expect(probeText(OpeningBook.fromBytes(edges), start)).toEqual(['e2e4:1']);
    expect(OpeningBook.fromBytes(edges).probe(at(START_FEN, 'e2e4'))).toEqual({ entries: [], warnings: [] });
  });

  it('handles one-record books and a key with many records', () => {
    const start = positions[0].pos;
    const one = OpeningBook.fromBytes(bookBytes([{ key: key(start), move: rawMove('g1f3'), weight: 4 }]));
    expect(probeText(one, start)).toEqual(['g1f3:4']);
    expect(one.probe(at(START_FEN, 'e2e4')).entries).toEqual([]);
    // All 20 moves of the start position, with fillers around them.
    const all = ['a2a3', 'a2a4', 'b2b3', 'b2b4', 'c2c3', 'c2c4', 'd2d3', 'd2d4', 'e2e3', 'e2e4'];
    all.push('f2f3', 'f2f4', 'g2g3', 'g2g4', 'h2h3', 'h2h4', 'b1a3', 'b1c3', 'g1f3', 'g1h3');
    const many: RawRecord[] = [];
    for (let i = 0; i < 50; i++) many.push({ key: hexPlus(key(start), BigInt(-1000 + i)), move: 1, weight: 1 });
    all.forEach((m, i) => {
      many.push({ key: key(start), move: rawMove(m), weight: 100 - i });
    });
    for (let i = 0; i < 70; i++) many.push({ key: hexPlus(key(start), BigInt(1 + i)), move: 1, weight: 1 });
    for (const [, book] of books(bookBytes(many))) {
      expect(probeText(book, start)).toEqual(all.map((m, i) => `${m}:${100 - i}`));
    }
  });

  it('probes nothing after close', () => {
    const book = OpeningBook.fromBytes(bookBytes(records));
    book.close();
    expect(book.probe(positions[0].pos).entries).toEqual([]);
  });
});

describe('OpeningBook on damaged input', () => {
  const start = new Position();
  const good = bookBytes([{ key: start.keyHex(), move: rawMove('e2e4'), weight: 1 }]);

  it('refuses files that cannot be books, with a one-line reason', () => {
    const cases: [string, RegExp][] = [
      [join(dir, 'missing.bin'), /^cannot open book .*missing\.bin: no such file$/],
      [dir, /is not a file$/],
      [file('empty.bin', new Uint8Array(0)), /empty\.bin is empty$/],
      [
        file('odd.bin', new Uint8Array(17)),
        /odd\.bin is not a Polyglot book or is truncated: its size \(17 bytes\) is not a multiple of 16$/,
      ],
      [file('cut.bin', good.subarray(0, 12)), /size \(12 bytes\)/],
    ];
    for (const [path, message] of cases) {
      expect(() => OpeningBook.open(path)).toThrow(BookError);
      expect(() => OpeningBook.open(path)).toThrow(message);
    }
    expect(() => OpeningBook.fromBytes(new Uint8Array(33))).toThrow(/size \(33 bytes\)/);
  });

  it('refuses a file whose keys are visibly out of order when opened', () => {
    const records: RawRecord[] = [];
    for (let i = 0; i < 300; i++) records.push({ key: (BigInt(300 - i) << 40n).toString(16).padStart(16, '0'), move: 1, weight: 1 });
    const path = file('reversed.bin', bookBytes(records));
    expect(() => OpeningBook.open(path)).toThrow(/reversed\.bin is not a Polyglot book or is corrupt: its keys are not sorted/);
    // Random bytes (like a file that is not a book at all) are refused too.
    const random = unitInterval(xorshift32(5));
    const noise = new Uint8Array(16 * 1000).map(() => Math.floor(random() * 256));
    expect(() => OpeningBook.fromBytes(noise)).toThrow(/keys are not sorted/);
  });

  it('reports keys out of order met by the search or the scan, and gives no move', () => {
    const s = start.keyHex();
    // Scan: the start position's run is followed by a smaller key.
    const scan = bookBytes([
      { key: '0000000000000001', move: 1, weight: 1 },
      { key: '0000000000000002', move: 1, weight: 1 },
      { key: s, move: rawMove('e2e4'), weight: 1 },
      { key: s, move: rawMove('d2d4'), weight: 1 },
      { key: '0000000000000003', move: 1, weight: 1 },
    ]);
    const a = OpeningBook.fromBytes(scan, 'scan.bin', { samples: 0 }).probe(start);
    expect(a.entries).toEqual([]);
    expect(a.warnings).toEqual(['book scan.bin is corrupt: its keys are out of order near record 4; no book move']);
    // Search: record 3 (looked at first) is above the start key, record 1 (next) above record 3.
    const search = bookBytes([
      { key: '0000000000000001', move: 1, weight: 1 },
      { key: 'f000000000000000', move: 1, weight: 1 },
      { key: '0000000000000002', move: 1, weight: 1 },
      { key: '8000000000000000', move: 1, weight: 1 },
      { key: '9000000000000000', move: 1, weight: 1 },
      { key: 'a000000000000000', move: 1, weight: 1 },
      { key: 'b000000000000000', move: 1, weight: 1 },
    ]);
    const b = OpeningBook.fromBytes(search, 'search.bin', { samples: 0 }).probe(start);
    expect(b.entries).toEqual([]);
    expect(b.warnings).toEqual(['book search.bin is corrupt: its keys are out of order near record 1; no book move']);
    // And with the open-time check on, both files are refused outright.
    expect(() => OpeningBook.fromBytes(scan)).toThrow(BookError);
    expect(() => OpeningBook.fromBytes(search)).toThrow(BookError);
  });

  it('skips a move that is not legal in the position, with a warning naming it, and keeps the others', () => {
    const pos = new Position('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
    const book = OpeningBook.fromBytes(
      bookBytes([
        { key: pos.keyHex(), move: rawMove('e1g1'), weight: 50 }, // castling the UCI way: not Polyglot's
        { key: pos.keyHex(), move: rawMove('e1h1'), weight: 40 },
        { key: pos.keyHex(), move: rawMove('a1a8'), weight: 30 },
        { key: pos.keyHex(), move: rawMove('e2e4'), weight: 20 }, // no piece there
        { key: pos.keyHex(), move: 0, weight: 10 }, // "no move": skipped quietly
        { key: pos.keyHex(), move: rawMove('h1h8') | 0x8000, weight: 5 }, // bit 15 set
      ]),
      'bad-moves.bin',
    );
    const probe = book.probe(pos);
    expect(probe.entries.map((e) => moveToUci(pos, e.move))).toEqual(['e1g1', 'a1a8']);
    expect(moveKind(probe.entries[0].move)).toBe(CASTLE);
    expect(probe.warnings).toEqual([
      'book bad-moves.bin: record 0 holds e1g1, not a legal move in r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1; ignored',
      'book bad-moves.bin: record 3 holds e2e4, not a legal move in r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1; ignored',
      'book bad-moves.bin: record 5 holds h1h8 (bit 15 set), not a legal move in r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1; ignored',
    ]);
    // The choice never falls on a skipped move, whatever the weights and the mode.
    for (const mode of ['best', 'weighted'] as BookMode[]) {
      const random = unitInterval(xorshift32(9));
      for (let i = 0; i < 200; i++) {
        const { choice } = book.choose(pos, mode, random);
        expect(['e1g1', 'a1a8']).toContain(moveToUci(pos, choice!.move));
        expect(choice!.total).toBe(70);
      }
    }
  });

  it('turns a read failure after open into a warning', () => {
    const path = file(
      'vanishing.bin',
      bookBytes([
        { key: start.keyHex(), move: rawMove('e2e4'), weight: 1 },
        { key: 'ffffffffffffffff', move: 1, weight: 1 },
      ]),
    );
    const book = OpeningBook.open(path, { memoryLimit: 0 });
    writeFileSync(path, new Uint8Array(0)); // the file is cut to nothing under the open descriptor
    const probe = book.probe(start);
    expect(probe.entries).toEqual([]);
    expect(probe.warnings[0]).toMatch(/^book .*vanishing\.bin could not be read: .*; no book move$/);
    book.close();
  });
});

describe('book move selection', () => {
  const pos = new Position();
  const entry = (uci: string, weight: number) => ({ move: parseUciMove(pos, uci), raw: 0, weight, learn: 0, index: 0 });

  it('best: the highest weight, the first in the file on a tie', () => {
    const never = (): number => {
      throw new Error('best mode must not draw random numbers');
    };
    expect(pickEntry([entry('d2d4', 5), entry('e2e4', 9), entry('c2c4', 9)], 'best', never)).toEqual({
      move: parseUciMove(pos, 'e2e4'),
      weight: 9,
      total: 23,
    });
    expect(pickEntry([entry('c2c4', 9), entry('e2e4', 9)], 'best', never)?.move).toBe(parseUciMove(pos, 'c2c4'));
    expect(pickEntry([entry('c2c4', 0)], 'best', never)).toBeNull();
    expect(pickEntry([], 'weighted', Math.random)).toBeNull();
  });

  it('weighted: in proportion to the weights, reproducible with a seed, never a zero weight', () => {
    const entries = [entry('e2e4', 60), entry('d2d4', 30), entry('b2b3', 0), entry('c2c4', 10)];
    const draw = (seed: number, n: number): string[] => {
      const random = unitInterval(xorshift32(seed));
      return Array.from({ length: n }, () => moveToUci(pos, pickEntry(entries, 'weighted', random)!.move));
    };
    const first = draw(42, 10000);
    expect(draw(42, 10000)).toEqual(first);
    expect(draw(43, 50)).not.toEqual(first.slice(0, 50));
    const count = (m: string): number => first.filter((x) => x === m).length;
    expect(count('b2b3')).toBe(0);
    expect(count('e2e4')).toBeGreaterThan(5700);
    expect(count('e2e4')).toBeLessThan(6300);
    expect(count('d2d4')).toBeGreaterThan(2700);
    expect(count('d2d4')).toBeLessThan(3300);
    expect(count('c2c4')).toBeGreaterThan(800);
    expect(count('c2c4')).toBeLessThan(1200);
    // The edges of [0, 1): the first and the last positive weight.
    expect(pickEntry(entries, 'weighted', () => 0)?.weight).toBe(60);
    expect(pickEntry(entries, 'weighted', () => 0.999999999)?.weight).toBe(10);
  });

  it('counts game plies from the FEN move counters', () => {
    expect(gamePly(new Position())).toBe(0);
    expect(gamePly(at(START_FEN, 'e2e4'))).toBe(1);
    expect(gamePly(at(START_FEN, 'e2e4', 'e7e5'))).toBe(2);
    expect(gamePly(new Position('4k3/8/8/8/8/8/8/4K3 b - - 0 30'))).toBe(59);
  });
});
