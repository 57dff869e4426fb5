import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it, vi } from 'vitest';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { Position, START_FEN } from '../../src/board/position.js';
import { BookBuilder, type BuildOptions, buildBookFromPgnFiles, buildBookFromPgnText } from '../../src/book/builder.js';
import { registerBookCommands } from '../../src/cli/book-commands.js';
import { OpeningBook } from '../../src/book/reader.js';
import { bookRecords } from './helpers.js';
import { scratchDir } from '../scratch.js';

const dir = scratchDir('kestrel-book-build-');

// Four games with every kind of result, comments, a variation, NAGs, a
// ';' comment and an escape line: the variation's moves must not count.
const TINY = `[Event "a"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]

1. e4 {the king's pawn} e5 (1... c5 2. Nf3 d6) 2. Nf3 $1 Nc6 ; a comment
1-0

[Event "b"]
[Result "0-1"]

1. e4 c5! 2. Nf3 d6 0-1

% an escape line
[Event "c"]
[Result "1/2-1/2"]

1. d4 d5 1/2-1/2

[Event "d"]
[Result "*"]

1.e4 e5 2.Bc4 *
`;

function at(...moves: string[]): Position {
  const pos = new Position(START_FEN);
  for (const m of moves) pos.makeMove(parseUciMove(pos, m));
  return pos;
}

/** What the book holds for the position after `moves`, as 'uci:weight'. */
function lookup(bytes: Uint8Array, ...moves: string[]): string[] {
  const pos = at(...moves);
  const probe = OpeningBook.fromBytes(bytes).probe(pos);
  expect(probe.warnings).toEqual([]);
  return probe.entries.map((e) => `${moveToUci(pos, e.move)}:${e.weight}`);
}

function build(text: string, options: Partial<BuildOptions> = {}): Uint8Array {
  return buildBookFromPgnText(text, options, (m) => {
    throw new Error(`unexpected problem: ${m}`);
  }).bytes;
}

describe('book builder', () => {
  it('counts every main-line move: 2 points a win, 1 a draw (and "*"), 0 a loss, for the side that played it', () => {
    const { bytes, stats } = buildBookFromPgnText(TINY, { minGames: 1 });
    expect(stats).toMatchObject({ games: 4, gamesUsed: 4, gamesSkipped: 0, occurrences: 13 });
    // 1. e4 in games a (won, 2), b (lost, 0), d (unfinished, 1); 1. d4 in c (drawn, 1).
    expect(lookup(bytes)).toEqual(['e2e4:3', 'd2d4:1']);
    // After 1. e4: c5 won once (2); e5 lost once (0) and unfinished once (1).
    expect(lookup(bytes, 'e2e4')).toEqual(['c7c5:2', 'e7e5:1']);
    expect(lookup(bytes, 'e2e4', 'e7e5')).toEqual(['g1f3:2', 'f1c4:1']);
    // Moves that only lost are not kept (weight 0): 2... Nc6 of game a, 2. Nf3 of game b.
    expect(lookup(bytes, 'e2e4', 'e7e5', 'g1f3')).toEqual([]);
    expect(lookup(bytes, 'e2e4', 'c7c5')).toEqual([]);
    expect(lookup(bytes, 'e2e4', 'c7c5', 'g1f3')).toEqual(['d7d6:2']);
    expect(lookup(bytes, 'd2d4')).toEqual(['d7d5:1']);
    // Every record, in order: 8 kept entries, sorted by key, learn fields zero.
    const records = bookRecords(bytes);
    expect(records.length).toBe(8);
    expect(records.map((r) => r.key)).toEqual(records.map((r) => r.key).sort());
    expect(records.every((r) => r.learn === 0)).toBe(true);
  });

  it('applies min-games, max-ply, only-white, only-black, min-score, uniform and only-winning', () => {
    expect(bookRecords(build(TINY)).length).toBe(1); // only 1. e4 is in 3 games
    expect(lookup(build(TINY), 'e2e4')).toEqual([]);
    expect(lookup(build(TINY, { minGames: 2 }))).toEqual(['e2e4:3']);
    expect(lookup(build(TINY, { minGames: 2 }), 'e2e4')).toEqual(['e7e5:1']);
    const plies2 = build(TINY, { minGames: 1, maxPly: 2 });
    expect(lookup(plies2, 'e2e4')).toEqual(['c7c5:2', 'e7e5:1']);
    expect(lookup(plies2, 'e2e4', 'e7e5')).toEqual([]);
    const white = build(TINY, { minGames: 1, onlyWhite: true });
    expect(lookup(white)).toEqual(['e2e4:3', 'd2d4:1']);
    expect(lookup(white, 'e2e4')).toEqual([]);
    const black = build(TINY, { minGames: 1, onlyBlack: true });
    expect(lookup(black)).toEqual([]);
    expect(lookup(black, 'e2e4')).toEqual(['c7c5:2', 'e7e5:1']);
    // min-score 50: e5 after 1. e4 scored 1 point in 2 games (25%).
    expect(lookup(build(TINY, { minGames: 1, minScore: 50 }), 'e2e4')).toEqual(['c7c5:2']);
    expect(lookup(build(TINY, { minGames: 1, uniform: true }))).toEqual(['e2e4:1', 'd2d4:1']);
    const winning = build(TINY, { minGames: 1, onlyWinning: true });
    expect(lookup(winning)).toEqual(['e2e4:2']);
    expect(lookup(winning, 'e2e4')).toEqual(['c7c5:2']);
    expect(lookup(winning, 'e2e4', 'c7c5', 'g1f3')).toEqual(['d7d6:2']);
    expect(() => new BookBuilder({ onlyWhite: true, onlyBlack: true })).toThrow(RangeError);
    expect(() => new BookBuilder({ minGames: 0 })).toThrow(RangeError);
  });

  it("halves all of a position's counts when one reaches 16384, as Polyglot does", () => {
    const builder = new BookBuilder({ minGames: 1 });
    for (let i = 0; i < 100; i++) builder.addGame({ tags: {}, moves: ['d4'], result: '1-0' });
    for (let i = 0; i < 16384; i++) builder.addGame({ tags: {}, moves: ['e4'], result: '1-0' });
    builder.addGame({ tags: {}, moves: ['e4'], result: '0-1' });
    const bytes = builder.toBytes();
    // e4: 16384 wins = 32768 points, halved to 16384, then a loss (+0). d4: 200 halved to 100.
    expect(lookup(bytes)).toEqual(['e2e4:16384', 'd2d4:100']);
  });

  it('reports a game with an illegal move, a broken tag or a bad FEN by number, skips it, and goes on', () => {
    const pgn = `[Event "ok"]
[Result "1-0"]

1. e4 e5 1-0

[Event "illegal"]
[White "Carl"]
[Black "Dora"]
[Result "1-0"]

1. e4 e5 2. Ke3 Nc6 1-0

[Event "broken tag]
[Result "0-1"]

1. d4 d5 0-1

[Event "bad fen"]
[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]
[Result "0-1"]

1. d4 d5 0-1

[Event "ambiguous"]
[FEN "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"]
[Result "1-0"]

1. Nd2 *

[Event "from a FEN, Black to move"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/4K2R b K - 0 1"]
[Result "0-1"]

1... Kd7 2. O-O Kc6 0-1
`;
    const problems: string[] = [];
    const { bytes, stats } = buildBookFromPgnText(pgn, { minGames: 1 }, (m) => problems.push(m));
    expect(problems).toEqual([
      'game 2 (Carl - Dora): illegal move Ke3 (move 2. Ke3, ply 3); game skipped',
      'game 3: unreadable tag "[Event \\"broken tag]"; game skipped',
      'game 4: bad FEN tag "8/8/8/8/8/8/8/8 w - - 0 1": white has 0 kings, expected exactly 1; game skipped',
      'game 5: ambiguous move Nd2: Nbd2 or Nfd2 (move 1. Nd2, ply 1); game skipped',
    ]);
    expect(stats).toMatchObject({ games: 6, gamesUsed: 2, gamesSkipped: 4 });
    expect(lookup(bytes)).toEqual(['e2e4:2']);
    expect(lookup(bytes, 'e2e4')).toEqual([]); // 1... e5 lost: weight 0, not kept
    // The FEN game: Black won, so Black's moves get 2 points and White's 0.
    const fen = new Position('4k3/8/8/8/8/8/8/4K2R b K - 0 1');
    const book = OpeningBook.fromBytes(bytes);
    expect(book.probe(fen).entries.map((e) => `${moveToUci(fen, e.move)}:${e.weight}`)).toEqual(['e8d7:2']);
  });

  it('reads files as streams and names the file in reports', async () => {
    const a = join(dir, 'a.pgn');
    const b = join(dir, 'b.pgn');
    writeFileSync(a, TINY);
    writeFileSync(b, '[Event "x"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Ke7 3. Qxe5# 1-0\n\n[Event "y"]\n\n1. e5 *\n');
    const problems: string[] = [];
    const { bytes, stats } = await buildBookFromPgnFiles([a, b], { minGames: 1 }, { onProblem: (m) => problems.push(m) });
    expect(problems).toEqual([`${b}: game 2: illegal move e5 (move 1. e5, ply 1); game skipped`]);
    expect(stats).toMatchObject({ games: 6, gamesUsed: 5, gamesSkipped: 1 });
    expect(lookup(bytes)).toEqual(['e2e4:5', 'd2d4:1']);
    await expect(buildBookFromPgnFiles([a, join(dir, 'nope.pgn')])).rejects.toThrow(/^cannot read .*nope\.pgn: no such file$/);
  });

  it('gives the same bytes for the same input (a build is reproducible)', () => {
    expect(build(TINY, { minGames: 1 })).toEqual(build(TINY, { minGames: 1 }));
  });
});

describe('kestrel book commands', () => {
  async function run(...args: string[]): Promise<{ out: string; err: string; error: string | null }> {
    const program = new Command('kestrel').exitOverride();
    let err = '';
    program.configureOutput({ writeErr: (s) => (err += s), writeOut: (s) => (err += s) });
    registerBookCommands(program);
    const out: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
    const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => {
      err += `${a.join(' ')}\n`;
    });
    let failure: string | null = null;
    try {
      await program.parseAsync(args, { from: 'user' });
    } catch (e) {
      failure = (e as Error).message;
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
    return { out: `${out.join('\n')}\n`, err, error: failure };
  }

  it('builds a book and probes it', async () => {
    const pgn = join(dir, 'tiny.pgn');
    const bin = join(dir, 'tiny.bin');
    writeFileSync(pgn, `${TINY}\n[Event "bad"]\n\n1. e4 e4 *\n`);
    const built = await run('book', 'build', '--pgn', pgn, '--out', bin, '--min-games', '1');
    expect(built.error).toBeNull();
    expect(built.err).toBe(`warning: ${pgn}: game 5: illegal move e4 (move 1... e4, ply 2); game skipped\n`);
    expect(built.out).toMatch(
      /^Games: 5 read, 4 used, 1 skipped\nEntries: 10 in 7 positions, 8 kept\nBook: .*tiny\.bin \(128 bytes\)\nTime: \d+\.\d\d s\n$/,
    );
    expect(readFileSync(bin)).toEqual(Buffer.from(build(TINY, { minGames: 1 })));

    const probed = await run('book', 'probe', bin);
    expect(probed.out).toBe(
      [
        `Book: ${bin} (8 entries)`,
        `Position: ${START_FEN}`,
        'Key: 463b96181691fc9c',
        'move   san  weight  percent',
        'e2e4   e4        3   75.00%',
        'd2d4   d4        1   25.00%',
        '2 moves, total weight 4',
        '',
      ].join('\n'),
    );
    const after = await run('book', 'probe', bin, '--moves', 'e2e4', 'e7e5');
    expect(after.out).toContain('g1f3   Nf3       2   66.67%\nf1c4   Bc4       1   33.33%\n');
    const fen = await run('book', 'probe', bin, '--fen', '4k3/8/8/8/8/8/8/4K3 w - - 0 1');
    expect(fen.out).toContain('no book moves for this position\n');
  });

  it('fails cleanly on bad input', async () => {
    const bin = join(dir, 'x.bin');
    expect((await run('book', 'build', '--pgn', join(dir, 'none.pgn'), '--out', bin)).err).toMatch(
      /^error: cannot read .*none\.pgn: no such file\n$/,
    );
    const nowhere = join(dir, 'no-such-folder', 'x.bin');
    expect((await run('book', 'build', '--pgn', join(dir, 'none.pgn'), '--out', nowhere)).err).toBe(
      `error: cannot write ${nowhere}: there is no folder ${join(dir, 'no-such-folder')}\n`,
    );
    expect((await run('book', 'build', '--pgn', 'a.pgn', '--out', bin, '--min-games', '0')).err).toMatch(
      /option '--min-games <n>' argument '0' is invalid/,
    );
    expect((await run('book', 'probe', join(dir, 'none.bin'))).err).toMatch(/^error: cannot open book .*none\.bin: no such file\n$/);
    writeFileSync(bin, new Uint8Array(20));
    expect((await run('book', 'probe', bin)).err).toMatch(/is not a Polyglot book or is truncated/);
    writeFileSync(bin, new Uint8Array(16));
    expect((await run('book', 'probe', bin, '--moves', 'e2e5')).err).toBe(`error: illegal move e2e5 in ${START_FEN}\n`);
    expect((await run('book', 'probe', bin, '--fen', 'xyz')).err).toMatch(/^error: bad FEN 'xyz'/);
  });
});
