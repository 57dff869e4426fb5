// What the fuzz tests feed the parsers: real inputs from test/data (FENs,
// PGN, UCI lines), mutations of them, and text made from scratch. Every run
// is seeded, so CI sees the same inputs each time; KESTREL_FUZZ_SEED and
// KESTREL_FUZZ_RUNS (a multiplier) explore further by hand.

import fc from 'fast-check';
import { generateMoves } from '../../src/board/movegen.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { readTestData } from '../data.js';

/** The seed of every property (a fixed number, so that a run can be repeated). */
export const SEED = Number(process.env.KESTREL_FUZZ_SEED ?? 20261201);
const RUNS_FACTOR = Number(process.env.KESTREL_FUZZ_RUNS ?? 1);

/** The time limit of a fuzz test: vitest's 30 s, longer for a run with more cases. */
export const FUZZ_TIMEOUT = 30_000 * Math.max(1, RUNS_FACTOR);

/** n times KESTREL_FUZZ_RUNS (at least 1). */
export function fuzzCount(n: number): number {
  return Math.max(1, Math.round(n * RUNS_FACTOR));
}

/** fast-check's parameters for a property of `runs` cases (times KESTREL_FUZZ_RUNS). */
export function fuzzParams(runs: number): fc.Parameters<unknown> {
  return { seed: SEED, numRuns: fuzzCount(runs) };
}

/** The position part (first four fields) of each line of an EPD or FEN file in test/data. */
function fensOf(name: string, every = 1): string[] {
  return readTestData(name)
    .split('\n')
    .filter((line, i) => line.trim() !== '' && i % every === 0)
    .map((line) => line.trim().split(/\s+/).slice(0, 4).join(' '));
}

/** Real FENs: the perft suites (castling, en passant, Chess960 letters), WAC and UHO positions. */
export const REAL_FENS: readonly string[] = [
  ...fensOf('perftsuite.epd'),
  ...fensOf('frcperftsuite.epd', 8),
  ...fensOf('wac.epd', 3),
  ...fensOf('uho-sample.epd', 3),
  // Full FENs with counters, as GUIs send them.
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3',
  'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 99 150',
  '1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1',
];

/** Real PGN text: the four games of kestrel-levels.pgn and a hand-made one with everything PGN allows. */
export const REAL_PGN: readonly string[] = [
  ...readTestData('kestrel-levels.pgn')
    .split(/\n(?=\[Event )/)
    .filter((g) => g.trim() !== ''),
  [
    '[Event "A \\"quoted\\" event"]',
    '[Site "?"]',
    '[Result "1/2-1/2"]',
    '% an escaped line',
    '',
    '1. e4 {+0.20/10 0.1s} e5 $1 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3) Nc6 ; a rest-of-line comment',
    '3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Na5 10. Bc2 c5 11. d4 Qc7!?',
    '12. Nbd2 cxd4 13. cxd4 Nc6 14. Nb3 a5 15. Be3 a4 16. Nbd2 Bd7 17. Rc1 Qb7 18. Qe2 Rfe8 19. Bd3 exd4 1/2-1/2',
  ].join('\n'),
  '1.d4 d5 2.c4 dxc4 3.e4 b5 4.a4 c6 5.axb5 cxb5 6.Qf3 Nc6 7.Qxc6+ Bd7 8.Qxa8 Qxa8 *',
  '[FEN "8/P7/8/8/8/8/8/k6K w - - 0 1"]\n\n1. a8=Q+ Kb2 2. Qb8+ Kc3 3. e8Q 0-1',
];

/** Real UCI lines, as GUIs send them. */
export const REAL_UCI: readonly string[] = [
  'uci',
  'isready',
  'ucinewgame',
  'debug on',
  'position startpos',
  'position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5',
  'position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1 e8c8',
  'position fen 8/P7/8/8/8/8/8/k6K w - - 0 1 moves a7a8q',
  'position fen 1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1 moves e1g1',
  'go depth 1',
  'go nodes 500',
  'go movetime 20',
  'go wtime 1000 btime 1000 winc 10 binc 10 movestogo 20',
  'go depth 2 searchmoves e2e4 d2d4',
  'go mate 2',
  'go perft 2',
  'go infinite',
  'go ponder wtime 500 btime 500',
  'stop',
  'ponderhit',
  'setoption name Hash value 8',
  'setoption name Clear Hash',
  'setoption name MultiPV value 3',
  'setoption name UCI_Chess960 value true',
  'setoption name UCI_LimitStrength value true',
  'setoption name UCI_Elo value 1350',
  'setoption name Skill Level value 5',
  'setoption name Move Overhead value 30',
  'setoption name SearchDriver value mtdf',
  'setoption name UseNNUE value true',
  'setoption name OwnBook value false',
  'setoption name BookMode value best',
  'setoption name BookDepth value 4',
  'd',
  'eval',
  'bench 1',
];

/** Characters that break parsers: separators, digits, signs, control and wide characters, a lone surrogate. */
export const ODD_CHARS: readonly string[] = [
  ' ',
  '  ',
  '\t',
  '\r',
  '\n',
  '\u00a0',
  '\u2003',
  '\u0000',
  '\u0001',
  '\u001b',
  '\ufeff',
  '\ud800',
  '\u265a',
  'ℵ',
  '-',
  '+',
  '.',
  ',',
  ';',
  '/',
  '\\',
  '"',
  "'",
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  '$',
  '%',
  '=',
  '#',
  '!',
  '?',
  '0',
  '1',
  '9',
  'e',
  'x',
  'E',
];

/** Board and move letters: pieces, files, ranks, castling and side letters. */
export const CHESS_CHARS: readonly string[] = [...'pnbrqkPNBRQK12345678abcdefghwKQkqABCDEFGHO-x=+#/ '];

/** Ways to change a string: each is applied at a position given as a number (taken modulo the length). */
type Mutation =
  | { kind: 'replace' | 'insert'; at: number; text: string }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'duplicate'; at: number; length: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'flip-case'; at: number }
  | { kind: 'token-swap'; at: number; other: number }
  | { kind: 'token-drop'; at: number }
  | { kind: 'token-put'; at: number; token: string }
  | { kind: 'splice'; at: number; donor: string; from: number };

function tokenize(text: string): string[] {
  return text.split(' ');
}

function applyMutation(text: string, m: Mutation): string {
  const n = text.length;
  const at = n === 0 ? 0 : m.at % (n + 1);
  switch (m.kind) {
    case 'replace':
      return text.slice(0, at) + m.text + text.slice(at + 1);
    case 'insert':
      return text.slice(0, at) + m.text + text.slice(at);
    case 'delete':
      return text.slice(0, at) + text.slice(at + m.length);
    case 'duplicate':
      return text.slice(0, at + m.length) + text.slice(at, at + m.length) + text.slice(at + m.length);
    case 'truncate':
      return text.slice(0, at);
    case 'flip-case': {
      const ch = text.charAt(at);
      return text.slice(0, at) + (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase()) + text.slice(at + 1);
    }
    case 'token-swap': {
      const t = tokenize(text);
      const i = m.at % t.length;
      const j = m.other % t.length;
      [t[i], t[j]] = [t[j], t[i]];
      return t.join(' ');
    }
    case 'token-drop': {
      const t = tokenize(text);
      t.splice(m.at % t.length, 1);
      return t.join(' ');
    }
    case 'token-put': {
      const t = tokenize(text);
      t.splice(m.at % (t.length + 1), 0, m.token);
      return t.join(' ');
    }
    case 'splice':
      return text.slice(0, at) + m.donor.slice(m.from % (m.donor.length + 1));
  }
}

/**
 * Strings made by changing a real input one to four times: characters
 * replaced, inserted or deleted (from `chars` and ODD_CHARS), stretches
 * deleted or doubled, tokens swapped, dropped or added (from `tokens`), the
 * end cut, or another input's tail spliced on.
 */
export function mutated(corpus: readonly string[], chars: readonly string[], tokens: readonly string[]): fc.Arbitrary<string> {
  const pieceOfText = fc.oneof(
    fc.constantFrom(...chars),
    fc.constantFrom(...ODD_CHARS),
    joined(fc.constantFrom(...chars, ...ODD_CHARS), 3, ''),
  );
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({ kind: fc.constantFrom('replace' as const, 'insert' as const), at: fc.nat(), text: pieceOfText }),
    fc.record({ kind: fc.constantFrom('delete' as const, 'duplicate' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 12 }) }),
    fc.record({ kind: fc.constantFrom('truncate' as const, 'flip-case' as const, 'token-drop' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('token-swap' as const), at: fc.nat(), other: fc.nat() }),
    fc.record({ kind: fc.constant('token-put' as const), at: fc.nat(), token: fc.constantFrom(...tokens) }),
    fc.record({ kind: fc.constant('splice' as const), at: fc.nat(), donor: fc.constantFrom(...corpus), from: fc.nat() }),
  );
  return fc
    .tuple(fc.constantFrom(...corpus), fc.array(mutation, { minLength: 1, maxLength: 4 }))
    .map(([text, mutations]) => mutations.reduce(applyMutation, text));
}

/**
 * Pieces joined into a string. (Not fc.string: in a oneof beside other
 * string arbitraries, fast-check asks each whether it could have made a
 * value, which takes seconds with pieces of several characters.)
 */
function joined(piece: fc.Arbitrary<string>, maxLength: number, separator: string): fc.Arbitrary<string> {
  return fc.array(piece, { maxLength }).map((a) => a.join(separator));
}

/** Strings from scratch: printable ASCII, any code units (lone surrogates too), or tokens of `tokens` and `chars` joined by spaces. */
export function randomText(chars: readonly string[], tokens: readonly string[], maxLength = 80): fc.Arbitrary<string> {
  return fc.oneof(
    joined(
      fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
      maxLength,
      '',
    ),
    joined(
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      maxLength,
      '',
    ),
    joined(fc.constantFrom(...chars, ...ODD_CHARS), maxLength, ''),
    joined(fc.oneof(fc.constantFrom(...tokens), joined(fc.constantFrom(...chars), 6, '')), 12, ' '),
  );
}

/** A FEN's board as 64 characters ('' for an empty square), a1 first. */
function boardOf(placement: string): string[] {
  const board: string[] = new Array(64).fill('');
  const ranks = placement.split('/');
  for (let i = 0; i < 8; i++) {
    let file = 0;
    for (const ch of ranks[i] ?? '') {
      if (ch >= '1' && ch <= '8') file += Number(ch);
      else if (file < 8) board[(7 - i) * 8 + file++] = ch;
    }
  }
  return board;
}

function placementOf(board: readonly string[]): string {
  const ranks: string[] = [];
  for (let r = 7; r >= 0; r--) {
    let rank = '';
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = board[r * 8 + f];
      if (p === '') {
        empty++;
      } else {
        if (empty > 0) rank += empty;
        rank += p;
        empty = 0;
      }
    }
    ranks.push(empty > 0 ? rank + empty : rank);
  }
  return ranks.join('/');
}

/** Castling letters that the board allows: K/Q/k/q or a rook's file, for each king on its first rank. */
function castlingChoices(board: readonly string[]): string[] {
  const out: string[] = [];
  for (const [king, rook, rank, upper] of [
    ['K', 'R', 0, true],
    ['k', 'r', 56, false],
  ] as const) {
    const kingFile = board.slice(rank, rank + 8).indexOf(king);
    if (kingFile < 0) continue;
    for (let f = 0; f < 8; f++) {
      if (board[rank + f] !== rook) continue;
      const letter = f === 0 || f === 7 ? (f > kingFile ? 'K' : 'Q') : String.fromCharCode(65 + f);
      out.push(upper ? letter : letter.toLowerCase(), upper ? String.fromCharCode(65 + f) : String.fromCharCode(97 + f));
    }
  }
  return out;
}

/** Counter fields of a FEN: ordinary, large, and not numbers at all. */
const COUNTERS = fc.oneof(
  { weight: 6, arbitrary: fc.nat(200).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('0', '1', '00', '007', '-1', '+3', '1.5', '1e3', '0x10', 'Infinity', 'NaN', '') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '1073741824',
      '1073741825',
      '2147483648',
      '4294967296',
      '9007199254740993',
      '999999999999999999999',
      '1'.repeat(400),
    ),
  },
);

/** One change to a FEN that keeps its shape: a square, the side, castling, en passant or a counter. */
type FenEdit =
  | { kind: 'square'; square: number; piece: string }
  | { kind: 'side' | 'castling' | 'ep'; pick: number }
  | { kind: 'counter'; which: 4 | 5; text: string };

const fenEdit: fc.Arbitrary<FenEdit> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('square' as const),
      square: fc.nat(63),
      piece: fc.constantFrom('', '', '', ...'PNBRQKpnbrqk'),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('side' as const, 'castling' as const, 'ep' as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('counter' as const), which: fc.constantFrom(4 as const, 5 as const), text: COUNTERS }),
  },
);

function applyFenEdit(fen: string, edit: FenEdit): string {
  const fields = fen.split(' ');
  while (fields.length < 6) fields.push(fields.length === 4 ? '0' : '1');
  const board = boardOf(fields[0]);
  switch (edit.kind) {
    case 'square':
      board[edit.square] = edit.piece;
      fields[0] = placementOf(board);
      break;
    case 'side':
      fields[1] = ['w', 'b', 'W', '-'][edit.pick % 12 < 10 ? (fields[1] === 'w' ? 1 : 0) : 2 + (edit.pick % 2)];
      break;
    case 'castling': {
      // A subset of what the board allows, now and then with a letter it does not.
      const choices = castlingChoices(board);
      let text = choices.filter((_, i) => (edit.pick >> i) & 1).join('');
      if (edit.pick % 7 === 0) text += 'KQkqAHah'[edit.pick % 8];
      fields[2] = text === '' ? '-' : text;
      break;
    }
    case 'ep':
      fields[3] = edit.pick % 5 === 0 ? '-' : `${'abcdefgh'[edit.pick % 8]}${edit.pick % 3 === 0 ? '3' : '6'}`;
      break;
    case 'counter':
      fields[edit.which] = edit.text;
      break;
  }
  return fields.join(' ');
}

/**
 * FENs made by editing a real one (or an empty board with two kings) one to
 * eight times while keeping its shape: pieces put or taken anywhere (pawns on
 * the last rank, a third king, a side in check), the side flipped, castling
 * letters the board allows (and some it does not), en-passant squares and
 * counters. Many are refused; those accepted are positions no game
 * reaches, which is the point.
 */
export const editedFen: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(fc.constantFrom(...REAL_FENS), fc.constant('4k3/8/8/8/8/8/8/4K3 w - - 0 1')),
    fc.array(fenEdit, { minLength: 1, maxLength: 8 }),
  )
  .map(([fen, edits]) => edits.reduce(applyFenEdit, fen));

/**
 * FENs from scratch: a random board (a king each, up to 62 other pieces,
 * pawns anywhere), random side, castling letters, en-passant square and
 * counters; sometimes fewer or more fields.
 */
export const randomFen: fc.Arbitrary<string> = fc
  .record({
    density: fc.integer({ min: 0, max: 100 }),
    cells: fc.array(fc.tuple(fc.integer({ min: 0, max: 99 }), fc.constantFrom(...'PNBRQpnbrqPPpp')), { minLength: 64, maxLength: 64 }),
    kings: fc.tuple(fc.nat(63), fc.nat(63)),
    side: fc.constantFrom('w', 'b', 'w', 'b', 'W', '-', 'x'),
    castling: fc.oneof(
      fc.constant('-'),
      fc.subarray([...'KQkqABCDEFGHabcdefgh']).map((a) => a.join('')),
      joined(fc.constantFrom(...'KQkqAHahz-'), 5, ''),
    ),
    ep: fc.oneof(
      fc.constant('-'),
      fc.constantFrom(...'abcdefgh').chain((f) => fc.constantFrom(`${f}3`, `${f}6`, `${f}1`, `${f}9`, f)),
    ),
    counters: fc.tuple(COUNTERS, COUNTERS, fc.nat(3)),
  })
  .map(({ density, cells, kings, side, castling, ep, counters }) => {
    const board: string[] = cells.map(([roll, piece]) => (roll < density ? piece : ''));
    board[kings[0]] = 'K';
    board[kings[1]] = 'k';
    const fields = [placementOf(board), side, castling, ep, counters[0], counters[1]];
    return fields.slice(0, [6, 4, 5, 7][counters[2]]).join(' ');
  });

const playoutMoves = new Int32Array(MAX_MOVES);

/**
 * Positions reached by random legal moves from an edited FEN, or from a real
 * one where the edited one is refused (up to 60 plies: castling rights lost,
 * en-passant squares, promotions), as FEN: every one parses.
 */
export const playedFen: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...REAL_FENS), editedFen, fc.array(fc.nat(), { maxLength: 60 }))
  .map(([real, edited, picks]) => {
    const pos = new Position();
    try {
      pos.setFen(edited);
    } catch {
      pos.setFen(real);
    }
    for (const pick of picks) {
      const n = generateMoves(pos, playoutMoves, 0, false);
      if (n === 0) break;
      pos.makeMove(playoutMoves[pick % n]);
    }
    // Moves from a counter at the largest value a FEN may give take it past.
    return pos.halfmove <= 2 ** 30 && pos.fullmove <= 2 ** 30 ? pos.fen() : real;
  });

/** FEN-ish tokens to put into FENs. */
export const FEN_TOKENS: readonly string[] = ['w', 'b', '-', 'KQkq', 'Kk', 'HAha', 'e3', 'e6', '0', '1', '8/8/8/8/8/8/8/8', 'moves', 'fen'];
