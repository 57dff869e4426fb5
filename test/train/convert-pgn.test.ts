import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { convertPgn, moverScore } from '../../src/train/convert-pgn.js';
import { decodeGame, indexGames, unpackMove } from '../../src/train/viriformat.js';
import { scratchDir } from '../scratch.js';

const DATA = fileURLToPath(new URL('../data', import.meta.url));
const dir = scratchDir('kestrel-convert-');

describe('convert-pgn', () => {
  it('reads scores in pawns and mates from the comments', () => {
    expect(moverScore('+0.37/7 0.079s')).toBe(37);
    expect(moverScore('-1.5/12 0.1s')).toBe(-150);
    expect(moverScore('+M3/9 0.01s')).toBe(30000 - 5);
    expect(moverScore('-M1/2')).toBe(-(30000 - 1));
    expect(moverScore('book')).toBeNull();
  });

  it('writes each game with White-relative scores, and leaves out games it cannot read', async () => {
    const pgn = join(dir, 'games.pgn');
    writeFileSync(
      pgn,
      [
        '[Event "a"]',
        '[Result "1-0"]',
        '',
        '1. e4 {+0.30/10 0.1s} e5 {-0.20/10 0.1s} 2. Qh5 {+0.10/9 0.1s} Nc6 {+0.05/9 0.1s} 3. Bc4 {+0.40/9 0.1s} Nf6 {-M1/5 0.1s} 4. Qxf7# {+M1/1 0s} 1-0',
        '',
        '[Event "b"]',
        '[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"]',
        '[SetUp "1"]',
        '[Result "1/2-1/2"]',
        '',
        '1... Kd7 {0.00/20 0.1s} 2. Kd2 {+0.50/20 0.1s} 1/2-1/2',
        '',
        '[Event "c"]',
        '[Result "0-1"]',
        '',
        '1. e4 {+0.30/10 0.1s} e5 2. Nf3 {+0.20/10 0.1s} 0-1',
        '',
      ].join('\n'),
    );
    const out = join(dir, 'games.vf');
    const notes: string[] = [];
    const stats = await convertPgn([pgn], out, (l) => notes.push(l));
    expect(stats).toEqual({ games: 2, positions: 9, skipped: 1 });
    expect(notes.join('\n')).toMatch(/game 3 left out: no score after 'e5'/);
    const bytes = readFileSync(out);
    const index = indexGames(bytes);
    const first = decodeGame(bytes, index.offsets[0], index.plies[0]);
    expect(first.result).toBe(2);
    expect(first.scores).toEqual([30, 20, 10, -5, 40, 30000 - 1, 30000 - 1]);
    const second = decodeGame(bytes, index.offsets[1], index.plies[1]);
    expect(second.result).toBe(1);
    expect(new Position(second.fen).fen()).toBe('4k3/8/8/8/8/8/4P3/4K3 b - - 0 1');
    expect(second.scores).toEqual([0, 50]);
    const pos = new Position(second.fen);
    pos.makeMove(unpackMove(pos, second.moves[0]));
    expect(pos.fen()).toBe('8/3k4/8/8/8/8/4P3/4K3 w - - 1 2');
  });

  it('leaves out games of another variant or with a bad FEN, keeps long games whole, and keeps --out when an input is missing', async () => {
    const pgn = join(dir, 'mixed.pgn');
    const long: string[] = [];
    // 1,200 plies of knights going back and forth, each with a score.
    for (let i = 0; i < 300; i++) long.push(`${2 * i + 1}. Nf3 {+0.10/5} Nf6 {-0.10/5}`, `${2 * i + 2}. Ng1 {+0.10/5} Ng8 {-0.10/5}`);
    writeFileSync(
      pgn,
      [
        '[Variant "Atomic"]',
        '1. e4 {+0.30/10} 1-0',
        '[FEN "not a fen"]',
        '1. e4 {+0.30/10} 1-0',
        '[Event "long"]',
        ...long,
        '1/2-1/2',
      ].join('\n'),
    );
    const out = join(dir, 'mixed.vf');
    const notes: string[] = [];
    expect(await convertPgn([pgn], out, (l) => notes.push(l))).toEqual({ games: 1, positions: 1200, skipped: 2 });
    expect(notes).toEqual([
      `${pgn}: game 1 left out: variant "Atomic" is not chess or Chess960`,
      expect.stringMatching(/game 2 left out: bad FEN tag/),
    ]);
    const size = readFileSync(out).length;
    await expect(convertPgn([pgn, join(dir, 'missing.pgn')], out, () => {})).rejects.toThrow(/cannot read .*missing\.pgn: no such file/);
    expect(readFileSync(out).length).toBe(size);
  });

  it('starts after leading book moves, and reads scores followed by a comma', async () => {
    const pgn = join(dir, 'book.pgn');
    writeFileSync(pgn, '[Result "1-0"]\n\n1. e4 {book} e5 {book} 2. Qh5 {+0.10/9, line=x} Nc6 {+0.05/9} 1-0\n');
    const out = join(dir, 'book.vf');
    expect(await convertPgn([pgn], out, () => {})).toEqual({ games: 1, positions: 2, skipped: 0 });
    const bytes = readFileSync(out);
    const game = decodeGame(bytes, 0, indexGames(bytes).plies[0]);
    expect(new Position(game.fen).fen()).toBe('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');
    expect(game.scores).toEqual([10, -5]);
  });

  it('converts an OpenBench datagen archive as its server serves it (<id>.pgn.tar of .pgn.bz2)', async () => {
    // test/data/README.md: 8 fastchess games of 2,000 nodes a move, one member COMPACT and one VERBOSE.
    const out = join(dir, 'datagen.vf');
    const notes: string[] = [];
    expect(await convertPgn([join(DATA, 'openbench-datagen.pgn.tar')], out, (l) => notes.push(l))).toEqual({
      games: 8,
      positions: 969,
      skipped: 0,
    });
    expect(notes).toEqual([]);
    const bytes = readFileSync(out);
    const index = indexGames(bytes);
    const first = decodeGame(bytes, index.offsets[0], index.plies[0]);
    expect(new Position(first.fen).fen()).toBe('r1bqkbnr/p1ppp1pp/8/1p2np2/8/2NP1P1P/PPPKP1P1/R1BQ1BNR b kq - 0 5');
    expect(first.result).toBe(0);
    expect(first.scores.slice(0, 2)).toEqual([-24, -17]); // c6 {+0.24/6} f4 {-0.17/6}, the mover's view
  });
});
