// What the tablebase benches share: the tables of a folder, opened as the
// engine opens them, and random legal positions of a table's material.

import { Position } from '../src/board/position.js';
import { openTablebases } from '../src/engine/tablebase-files.js';
import type { Tablebases } from '../src/syzygy/tablebases.js';
import { requireFile } from './args.js';

/** The tables of `folder` (the engine's own opening of SyzygyPath); prints what was found. */
export function openTables(folder: string): Tablebases {
  requireFile(folder, 'a folder of Syzygy tables (docs/syzygy.md says how to make them)');
  const { tb, note } = openTablebases(folder);
  console.error(note);
  return tb;
}

export interface RandomTableOptions {
  /** 'w', 'b', or undefined for either. */
  side?: 'w' | 'b';
  /** Now and then an en passant capture, when both sides have pawns. */
  enPassant: boolean;
  /** Now and then a fifty-move counter. */
  counter: boolean;
}

/** A random legal position of a table's material (`next(n)` draws 0..n-1), or null: the caller tries again. */
export function randomTablePosition(name: string, next: (n: number) => number, options: RandomTableOptions): string | null {
  const board: string[] = new Array(64).fill('');
  const [white, black] = name.split('v');
  const place = (c: string, isWhite: boolean): void => {
    for (;;) {
      const sq = next(64);
      if (board[sq] !== '' || (c === 'P' && (sq < 8 || sq >= 56))) continue;
      board[sq] = isWhite ? c : c.toLowerCase();
      return;
    }
  };
  const side = options.side ?? (next(2) === 0 ? 'w' : 'b');
  let ep = '-';
  let whitePieces = white;
  let blackPieces = black;
  // An en passant capture: a pawn that has just advanced two squares, beside one of the side to move.
  if (options.enPassant && white.includes('P') && black.includes('P') && next(3) === 0) {
    const f = next(8);
    const beside = f === 0 ? 1 : f === 7 ? 6 : f + (next(2) === 0 ? -1 : 1);
    const rank = side === 'w' ? 4 : 3; // where the pawn that moved stands
    board[rank * 8 + f] = side === 'w' ? 'p' : 'P';
    board[rank * 8 + beside] = side === 'w' ? 'P' : 'p';
    // The squares it passed are empty (the rest are placed after).
    const passed = side === 'w' ? [rank * 8 + f + 8, rank * 8 + f + 16] : [rank * 8 + f - 8, rank * 8 + f - 16];
    for (const sq of passed) board[sq] = '-';
    ep = String.fromCharCode(97 + f) + String((passed[0] >> 3) + 1);
    whitePieces = white.replace('P', '');
    blackPieces = black.replace('P', '');
  }
  for (const c of whitePieces) place(c, true);
  for (const c of blackPieces) place(c, false);
  for (let sq = 0; sq < 64; sq++) if (board[sq] === '-') board[sq] = '';
  let fen = '';
  for (let r = 7; r >= 0; r--) {
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = board[r * 8 + f];
      if (p === '') empty++;
      else {
        if (empty > 0) fen += empty;
        empty = 0;
        fen += p;
      }
    }
    if (empty > 0) fen += empty;
    if (r > 0) fen += '/';
  }
  const counter = options.counter && next(3) === 0 ? next(100) : 0;
  fen += ` ${side} - ${ep} ${ep === '-' ? counter : 0} 1`;
  const kings = [board.indexOf('K'), board.indexOf('k')];
  if (Math.abs((kings[0] >> 3) - (kings[1] >> 3)) <= 1 && Math.abs((kings[0] & 7) - (kings[1] & 7)) <= 1) return null;
  try {
    const pos = new Position(fen); // refuses a side not to move in check
    if (ep !== '-' && pos.ep < 0) return null;
  } catch {
    return null;
  }
  return fen;
}
