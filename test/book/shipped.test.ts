// books/kestrel.bin: present, sound, and what books/README.md says it is.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { moveToUci } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { buildBookFromPgnFiles } from '../../src/book/builder.js';
import { platform } from '../../src/platform/index.js';

const shippedBookPath = (): string => platform.shippedBook().name;
import { OpeningBook } from '../../src/book/reader.js';
import { eightMovesPgn } from '../data.js';

const README = fileURLToPath(new URL('../../books/README.md', import.meta.url));

describe('the shipped book', () => {
  it('is found from the sources and opens', () => {
    const path = shippedBookPath();
    expect(path).toBe(fileURLToPath(new URL('../../books/kestrel.bin', import.meta.url)));
    const book = OpeningBook.open(path);
    expect(book.size).toBe(39652);
    const pos = new Position();
    const { entries, warnings } = book.probe(pos);
    expect(warnings).toEqual([]);
    expect(entries.slice(0, 4).map((e) => `${moveToUci(pos, e.move)}:${e.weight}`)).toEqual([
      'e2e4:12956',
      'd2d4:12493',
      'c2c4:4192',
      'g1f3:4128',
    ]);
    book.close();
  });

  it('has only legal moves on every line it can be followed from the start', () => {
    const book = OpeningBook.open(shippedBookPath());
    const pos = new Position();
    const seen = new Set<string>();
    let problems: string[] = [];
    const walk = (): void => {
      if (seen.has(pos.keyHex())) return;
      seen.add(pos.keyHex());
      const { entries, warnings } = book.probe(pos);
      problems = problems.concat(warnings);
      for (const e of entries) {
        pos.makeMove(e.move);
        walk();
        pos.unmakeMove();
      }
    };
    walk();
    expect(problems).toEqual([]);
    // Positions with book moves, plus the ones they lead to.
    expect(seen.size).toBeGreaterThan(30000);
    book.close();
  });

  it('has the checksum books/README.md gives', () => {
    const sha = createHash('sha256').update(readFileSync(shippedBookPath())).digest('hex');
    expect(readFileSync(README, 'utf8')).toContain(sha);
  });

  it('is rebuilt byte for byte by the command books/README.md gives', async () => {
    const readme = readFileSync(README, 'utf8');
    expect(readme).toContain('kestrel book build --pgn 8moves_v3.pgn --out books/kestrel.bin --max-ply 16 --min-games 2');
    const { bytes, stats } = await buildBookFromPgnFiles([eightMovesPgn()], { maxPly: 16, minGames: 2 });
    expect(stats).toMatchObject({ games: 34700, gamesSkipped: 0, written: 39652 });
    expect(Buffer.from(bytes).equals(readFileSync(shippedBookPath()))).toBe(true);
  }, 60_000);
});
