// Kestrel's books against the reference: the Debian `polyglot` program
// (make-book, dump-book, and its UCI adapter playing book moves) and
// gnuchess's book.bin. Skipped where they are not installed.

import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { Position, START_FEN } from '../../src/board/position.js';
import { parseSan } from '../../src/board/san.js';
import { type BuildOptions, buildBookFromPgnText } from '../../src/book/builder.js';
import { platform } from '../../src/platform/index.js';

const shippedBookPath = (): string => platform.shippedBook().name;
import { OpeningBook, pickEntry } from '../../src/book/reader.js';
import { randomGamesPgn } from './helpers.js';
import { eightMovesPgn } from '../data.js';
import { scratchDir } from '../scratch.js';

const POLYGLOT = '/usr/games/polyglot';
const GNUCHESS_BOOK = '/usr/share/games/gnuchess/book.bin';
const hasPolyglot = existsSync(POLYGLOT);

const dir = hasPolyglot ? scratchDir('kestrel-polyglot-') : '';

function polyglot(args: string[], input?: string): string {
  const r = spawnSync(POLYGLOT, args, { cwd: dir, input, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`polyglot ${args.join(' ')} failed: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** Polyglot make-book's options for ours. */
function makeBookArgs(o: Partial<BuildOptions>): string[] {
  const args: string[] = [];
  if (o.maxPly !== undefined) args.push('-max-ply', String(o.maxPly));
  if (o.minGames !== undefined) args.push('-min-game', String(o.minGames));
  if (o.minScore !== undefined) args.push('-min-score', String(o.minScore));
  if (o.onlyWhite) args.push('-only-white');
  if (o.onlyBlack) args.push('-only-black');
  if (o.uniform) args.push('-uniform');
  return args;
}

/** Both builders on one PGN text; the two files. */
function buildBoth(name: string, pgn: string, options: Partial<BuildOptions>): { ours: Buffer; theirs: Buffer } {
  const pgnFile = join(dir, `${name}.pgn`);
  const binFile = join(dir, `${name}.bin`);
  writeFileSync(pgnFile, pgn);
  polyglot(['make-book', '-pgn', pgnFile, '-bin', binFile, ...makeBookArgs(options)]);
  const ours = Buffer.from(buildBookFromPgnText(pgn, options).bytes);
  return { ours, theirs: readFileSync(binFile) };
}

interface DumpedPosition {
  fen: string;
  /** Book moves in the order dump-book lists them, with their rounded percentages. */
  moves: { move: number; percent: number }[];
}

/**
 * The positions of `polyglot dump-book` output (for one colour) with the book
 * moves it shows for each: every line replays moves from its FEN; a move
 * followed by {p%} is a book move of the position before it.
 */
function parseDump(text: string): Map<string, DumpedPosition> {
  const positions = new Map<string, DumpedPosition>();
  let startFen = START_FEN;
  const pos = new Position();
  // Lines come depth first and share long beginnings: keep the previous
  // line's moves played and take back only what differs.
  let played: string[] = [];
  for (const line of text.split('\n')) {
    const fen = /^\[FEN "(.*)"\]$/.exec(line);
    if (fen) {
      startFen = fen[1];
      pos.setFen(startFen);
      played = [];
    }
    const body = /^\d+: (.*)$/.exec(line);
    if (!body) continue;
    const tokens: string[] = [];
    for (const token of body[1].trim().split(/\s+/)) {
      if (token.startsWith('{')) break; // {trans: ...} or {cycle: ...}
      if (!/^\d+\.$/.test(token)) tokens.push(token);
    }
    let common = 0;
    while (common < played.length && common < tokens.length && played[common] === tokens[common]) common++;
    for (let i = played.length; i > common; i--) pos.unmakeMove();
    played = tokens;
    for (let i = common; i < tokens.length; i++) {
      const m = /^([^{]+)(?:\{(\d+)%\})?$/.exec(tokens[i]);
      if (!m) throw new Error(`cannot read dump token '${tokens[i]}' in ${line}`);
      const move = parseSan(pos, m[1]);
      if (m[2] !== undefined) {
        const key = pos.keyHex();
        const entry = positions.get(key) ?? { fen: pos.fen(), moves: [] };
        positions.set(key, entry);
        if (!entry.moves.some((x) => x.move === move)) entry.moves.push({ move, percent: Number(m[2]) });
      }
      pos.makeMove(move);
    }
  }
  return positions;
}

/** printf("%.0f", x): round half to even on the exact double. */
function printfRound(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  return d > 0.5 ? f + 1 : d < 0.5 ? f : f % 2 === 0 ? f : f + 1;
}

/** Every position of both colours' dumps probed by Kestrel: the number compared and the differences. */
function compareWithDump(bookFile: string): { compared: number; differences: string[] } {
  const book = OpeningBook.open(bookFile);
  const pos = new Position();
  let compared = 0;
  const differences: string[] = [];
  for (const colour of ['white', 'black']) {
    const out = join(dir, `dump-${colour}.txt`);
    polyglot(['dump-book', '-bin', bookFile, '-color', colour, '-out', out]);
    for (const [key, dumped] of parseDump(readFileSync(out, 'utf8'))) {
      pos.setFen(dumped.fen);
      const { entries, warnings } = book.probe(pos);
      // dump-book lists the legal moves of positive weight, in file order, with weight / sum as a percentage.
      const listed = entries.filter((e) => e.weight > 0);
      const sum = listed.reduce((s, e) => s + e.weight, 0);
      const ours = listed.map((e) => `${moveToUci(pos, e.move)} ${printfRound(100 * (e.weight / sum))}%`).join(', ');
      const theirs = dumped.moves.map((x) => `${moveToUci(pos, x.move)} ${x.percent}%`).join(', ');
      if (pos.keyHex() !== key || warnings.length > 0 || ours !== theirs) {
        differences.push(`${dumped.fen}: kestrel ${ours} ${warnings.join(' ')}; polyglot ${theirs}`);
      }
      compared++;
    }
  }
  book.close();
  return { compared, differences };
}

/** Polyglot's own choice (its UCI adapter with BookRandom=false) in each position, via a do-nothing engine. */
function polyglotBestMoves(bookFile: string, positions: Position[]): string[] {
  const engine = join(dir, 'engine.sh');
  writeFileSync(
    engine,
    '#!/bin/sh\nwhile read -r l; do case "$l" in uci) echo "id name dummy"; echo uciok;; isready) echo readyok;; quit) exit 0;; esac; done\n',
  );
  chmodSync(engine, 0o755);
  const input = ['uci', 'isready', ...positions.flatMap((p) => [`position fen ${p.fen()}`, 'go movetime 10']), 'quit', ''];
  const out = polyglot(
    ['-noini', '-ec', engine, '-pg', 'UCI=true', '-pg', 'Book=true', '-pg', 'BookRandom=false', '-pg', `BookFile=${bookFile}`],
    input.join('\n'),
  );
  return [...out.matchAll(/^bestmove (\S+)/gm)].map((m) => m[1]);
}

const TWELVE_OPENINGS = [
  [],
  ['e2e4'],
  ['d2d4'],
  ['e2e4', 'c7c5'],
  ['e2e4', 'e7e5'],
  ['d2d4', 'g8f6'],
  ['e2e4', 'e7e5', 'g1f3'],
  ['d2d4', 'd7d5', 'c2c4'],
  ['e2e4', 'c7c6'],
  ['e2e4', 'e7e6'],
  ['c2c4'],
  ['g1f3'],
  ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5'],
  ['d2d4', 'g8f6', 'c2c4', 'e7e6'],
];

function positionAfter(moves: string[]): Position {
  const pos = new Position();
  for (const m of moves) pos.makeMove(parseUciMove(pos, m));
  return pos;
}

describe.skipIf(!hasPolyglot)('against polyglot make-book', () => {
  const random = randomGamesPgn(600, 11);
  const cases: [string, Partial<BuildOptions>][] = [
    ['defaults', {}],
    ['min-games 1', { minGames: 1 }],
    ['max-ply 12', { minGames: 1, maxPly: 12 }],
    ['only-white', { minGames: 1, onlyWhite: true }],
    ['only-black', { minGames: 2, onlyBlack: true }],
    ['uniform', { minGames: 1, uniform: true }],
    ['min-score 60', { minGames: 1, minScore: 60 }],
  ];

  it.each(cases)('builds byte-identical books from random games: %s', (name, options) => {
    const { ours, theirs } = buildBoth(name.replace(/\s/g, '-'), random, options);
    expect(theirs.length).toBeGreaterThan(0);
    expect(ours.equals(theirs)).toBe(true);
  });

  it('reads the PGN like Polyglot: comments, variations, NAGs, escapes, results on their own lines', () => {
    const pgn = `[Event "a"]
[Result "1-0"]

1. e4 {a comment (with parentheses)} e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3! $14 Nc6?!
; a line comment
3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0

% escape
[Event "b"]
[Result "0-1"]

1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6 4.Ng5 d5 5.exd5 Na5 6.Bb5+ c6 7.dxc6 bxc6 8.Be2 h6 9.Nf3 e4 10.Ne5 Bd6
0-1

[Event "c"]
[Result "1/2-1/2"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 1/2-1/2
`;
    for (const [name, options] of cases.slice(1)) {
      const { ours, theirs } = buildBoth(`tags-${name.replace(/\s/g, '-')}`, pgn, options);
      expect(ours.equals(theirs), name).toBe(true);
    }
  });

  it('halves counts past 16384 games like Polyglot', () => {
    const games: string[] = [];
    for (let i = 0; i < 300; i++) games.push('[Result "0-1"]\n\n1. d4 d5 0-1\n');
    for (let i = 0; i < 16500; i++) games.push(`[Result "${i % 3 === 0 ? '1/2-1/2' : '1-0'}"]\n\n1. e4 e5 2. Nf3 *\n`);
    const { ours, theirs } = buildBoth('halving', games.join('\n'), { minGames: 1 });
    expect(ours.equals(theirs)).toBe(true);
  });

  it('rebuilds the shipped book byte for byte from 8moves_v3.pgn', () => {
    const bin = join(dir, 'eight.bin');
    polyglot(['make-book', '-pgn', eightMovesPgn(), '-bin', bin, '-max-ply', '16', '-min-game', '2']);
    expect(readFileSync(bin).equals(readFileSync(shippedBookPath()))).toBe(true);
  });
});

describe.skipIf(!hasPolyglot)('against polyglot dump-book and its book moves', () => {
  const books = [
    ['the shipped book', shippedBookPath()],
    ["gnuchess's book.bin", GNUCHESS_BOOK],
  ] as const;

  for (const [name, file] of books) {
    it.skipIf(!existsSync(file))(
      `probes ${name} to the same moves and percentages as dump-book, in every position`,
      () => {
        const { compared, differences } = compareWithDump(file);
        expect(differences).toEqual([]);
        expect(compared).toBeGreaterThan(10000);
        console.log(`${name}: ${compared} positions of polyglot dump-book compared`);
      },
      60_000,
    );

    it.skipIf(!existsSync(file))(`chooses the same best move as polyglot in ${TWELVE_OPENINGS.length} openings of ${name}`, () => {
      const book = OpeningBook.open(file);
      const positions = TWELVE_OPENINGS.map(positionAfter).filter((p) => book.probe(p).entries.length > 0);
      expect(positions.length).toBeGreaterThanOrEqual(12);
      const ours = positions.map((p) => moveToUci(p, pickEntry(book.probe(p).entries, 'best', Math.random)!.move));
      expect(polyglotBestMoves(file, positions)).toEqual(ours);
      book.close();
    });
  }
});
