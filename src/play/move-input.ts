// Moves as a person types them: SAN (Nf3, exd5, O-O or 0-0, e8=Q or e8Q)
// or UCI (g1f3), forgiving about check marks, annotation symbols and a
// missing '='. Piece letters keep their case, since bxc6 (a pawn) and Bxc6
// (a bishop) can both be legal; only a lower-case n, r, q or k, which cannot
// be a file, is read as that piece. A move that cannot be played gets a
// one-line reason and the legal moves that come closest to what was typed.

import { parseSquare, squareName } from '../board/bitboard.js';
import { generateMoves, isPseudoLegal } from '../board/movegen.js';
import { MoveError, parseUciMove } from '../board/notation.js';
import type { Position } from '../board/position.js';
import { moveToSan, parseSan } from '../board/san.js';
import {
  DOUBLE_PUSH,
  KING,
  MAX_MOVES,
  NORMAL,
  PAWN,
  PROMO_QUEEN,
  WHITE,
  makeMove,
  moveFrom,
  moveTo,
  pieceFromChar,
} from '../board/types.js';

export type MoveReading = { move: number } | { error: string; close: string[] };

const PIECE_NAMES = ['', 'pawn', 'knight', 'bishop', 'rook', 'queen', 'king'];
/** How many close moves an error lists. */
const CLOSE_MOVES = 6;

const scratch = new Int32Array(MAX_MOVES);

/** The legal moves of pos. */
function legalMoves(pos: Position): number[] {
  const n = generateMoves(pos, scratch, 0, false);
  return Array.from(scratch.subarray(0, n));
}

/** The text without what decorates a move: check and mate marks, !, ?, e.p., spaces. */
function cleanMoveText(text: string): string {
  return text
    .trim()
    .replace(/\s+/g, '')
    .replace(/(?:[+#!?]|‼|⁇|⁈|⁉)+$/u, '')
    .replace(/(?<=[1-8])e\.?p\.?$/i, '')
    .replace(/[+#]+$/, '');
}

/** Reads a typed move: the legal move meant, or why there is none and the moves that come close. */
export function readMove(pos: Position, typed: string): MoveReading {
  let text = cleanMoveText(typed);
  if (text === '') return { error: 'type a move, or help', close: [] };
  // Castling with zeros or lower-case letters; '0-0-0' before '0-0'.
  if (/^[0oO]-?[0oO](-?[0oO])?$/.test(text)) text = text.replace(/[0o]/g, 'O').replace(/^O-?O(-?O)?$/, (_m, q) => (q ? 'O-O-O' : 'O-O'));
  // A lower-case piece letter that cannot be a file (n, r, q, k) before a square: a piece.
  if (/^[nrqk][a-h1-8x]/.test(text) && !/^[a-h][1-8][a-h][1-8]/.test(text)) text = text[0].toUpperCase() + text.slice(1);
  // UCI, also with a promotion written as e7e8=q.
  const uci = /^([a-h][1-8])-?([a-h][1-8])=?([nbrqNBRQ]?)$/.exec(text);
  if (uci !== null) {
    try {
      return { move: parseUciMove(pos, `${uci[1]}${uci[2]}${uci[3].toLowerCase()}`) };
    } catch (e) {
      if (!(e instanceof MoveError)) throw e;
      // 'b1c3' may also be read as SAN below only if it is not a UCI move at all.
      return explain(pos, typed, text, e.message);
    }
  }
  try {
    return { move: parseSan(pos, text) };
  } catch (e) {
    if (!(e instanceof MoveError)) throw e;
    return explain(pos, typed, text, e.message);
  }
}

const SAN_SHAPE = /^([PNBRQK])?([a-h])?([1-8])?[x:-]?([a-h][1-8])(?:=?([NBRQnbrq]))?$/;

/** The reason a move was refused, in a player's words, with the close legal moves. */
function explain(pos: Position, typed: string, text: string, parserMessage: string): MoveReading {
  const legal = legalMoves(pos);
  const sans = legal.map((m) => moveToSan(pos, m));
  const shown = typed.trim();
  const inCheck = pos.inCheck();
  let reason: string;
  let close: string[];
  if (parserMessage.startsWith('ambiguous')) {
    const options = parserMessage.slice(parserMessage.indexOf(': ') + 2);
    return { error: `${shown} is ambiguous: ${options}`, close: options.split(' or ') };
  }
  if (parserMessage.includes('a promotion needs')) {
    const target = /([a-h][1-8])/.exec(text.slice(-3))?.[1] ?? '';
    close = sans.filter((s) => s.includes(target) && s.includes('='));
    return { error: `${shown} promotes: say to what (=Q, =R, =B or =N)`, close };
  }
  const castle = /^O-O(-O)?$/.exec(text);
  const uci = /^([a-h][1-8])-?([a-h][1-8])/.exec(text);
  const san = SAN_SHAPE.exec(text);
  if (castle !== null) {
    reason = inCheck ? 'you cannot castle out of check' : `castling ${castle[1] ? 'queen' : 'king'}side is not possible now`;
    close = sans.filter((s) => s.startsWith('O-O') || s.startsWith('K'));
  } else if (uci !== null) {
    const from = parseSquare(uci[1]);
    const to = parseSquare(uci[2]);
    const piece = pos.board[from];
    if (piece === 0) reason = `there is no piece on ${uci[1]}`;
    else if (piece >> 3 !== pos.side) reason = `the piece on ${uci[1]} is not yours`;
    else if (/[nbrq]$/i.test(text) && !promotes(pos, piece & 7, to)) reason = NO_PROMOTION;
    else reason = whyNot(pos, piece & 7, from, to, inCheck);
    close = rank(pos, legal, sans, text, { from, to, type: piece === 0 ? -1 : piece & 7 });
  } else if (san !== null) {
    const type = san[1] === undefined ? PAWN : pieceFromChar(san[1]);
    const to = parseSquare(san[4]);
    const ours: number[] = [];
    for (let sq = 0; sq < 64; sq++) {
      const p = pos.board[sq];
      if (p !== 0 && p >> 3 === pos.side && (p & 7) === type) ours.push(sq);
    }
    if (ours.length === 0) reason = `you have no ${PIECE_NAMES[type]}`;
    else if (san[5] !== undefined && !promotes(pos, type, to)) reason = NO_PROMOTION;
    else {
      // The first reason that explains it, over the pieces that could be meant.
      const reasons = ours.map((from) => whyNot(pos, type, from, to, inCheck));
      reason = reasons.find((r) => r.includes('check')) ?? `no ${PIECE_NAMES[type]} can go to ${san[4]}`;
    }
    close = rank(pos, legal, sans, text, { from: -1, to, type });
  } else {
    return {
      error: `'${shown}' is not a move (write Nf3, exd5, O-O, e8=Q or g1f3; help lists the commands)`,
      close: rank(pos, legal, sans, text, { from: -1, to: -1, type: -1 }),
    };
  }
  return { error: `${shown} is not legal: ${reason}`, close };
}

const NO_PROMOTION = 'only a pawn reaching the last rank promotes';

/** Whether a piece of `type` moving to `to` promotes. */
function promotes(pos: Position, type: number, to: number): boolean {
  return type === PAWN && to >> 3 === (pos.side === WHITE ? 7 : 0);
}

/** Why our piece of `type` on `from` cannot go to `to`. */
function whyNot(pos: Position, type: number, from: number, to: number, inCheck: boolean): string {
  const kinds = type === PAWN ? [NORMAL, DOUBLE_PUSH, PROMO_QUEEN] : [NORMAL];
  // isPseudoLegal tests an en-passant capture for full legality: its shape is enough here.
  const enPassant =
    type === PAWN && to === pos.ep && Math.abs((from & 7) - (to & 7)) === 1 && (to >> 3) - (from >> 3) === (pos.side === WHITE ? 1 : -1);
  const reachable = enPassant || kinds.some((kind) => isPseudoLegal(pos, makeMove(from, to, kind)));
  if (!reachable) return `the ${PIECE_NAMES[type]} on ${squareName(from)} cannot go to ${squareName(to)}`;
  if (type === KING) return `your king would be in check on ${squareName(to)}`;
  return inCheck ? 'you are in check and it does not answer the check' : 'it would leave your king in check';
}

/** Legal moves ordered by how close they are to what was typed: same squares and piece first, then by spelling. */
function rank(pos: Position, legal: number[], sans: string[], text: string, hint: { from: number; to: number; type: number }): string[] {
  const scored = legal.map((move, i) => {
    let score = editDistance(sans[i].replace(/[+#]/g, ''), text);
    if (moveTo(move) === hint.to) score -= 3;
    if (moveFrom(move) === hint.from) score -= 2;
    if ((pos.board[moveFrom(move)] & 7) === hint.type) score -= 2;
    return { san: sans[i], score };
  });
  scored.sort((a, b) => a.score - b.score || a.san.localeCompare(b.san));
  return scored.slice(0, CLOSE_MOVES).map((s) => s.san);
}

/** Levenshtein distance. */
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = up;
    }
  }
  return row[b.length];
}
