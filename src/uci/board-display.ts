// The `d` debug command: a board diagram, the FEN, the Polyglot key and the
// pieces giving check.

import { squareName } from '../board/bitboard.js';
import type { Position } from '../board/position.js';
import { BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE, pieceChar } from '../board/types.js';

/** Whether the piece on `from` attacks square `to` on pos's board (mailbox walk; not for hot loops). */
function attacks(pos: Position, from: number, to: number): boolean {
  const piece = pos.board[from];
  const type = piece & 7;
  const df = (to & 7) - (from & 7);
  const dr = (to >> 3) - (from >> 3);
  const adf = Math.abs(df);
  const adr = Math.abs(dr);
  switch (type) {
    case PAWN:
      return adf === 1 && dr === (piece >> 3 === WHITE ? 1 : -1);
    case KNIGHT:
      return (adf === 1 && adr === 2) || (adf === 2 && adr === 1);
    case KING:
      return Math.max(adf, adr) === 1;
    default: {
      const straight = df === 0 || dr === 0;
      const diagonal = adf === adr;
      if (from === to || !(straight || diagonal)) return false;
      if (straight && type !== ROOK && type !== QUEEN) return false;
      if (diagonal && type !== BISHOP && type !== QUEEN) return false;
      const step = Math.sign(dr) * 8 + Math.sign(df);
      for (let sq = from + step; sq !== to; sq += step) if (pos.board[sq] !== 0) return false;
      return true;
    }
  }
}

/** Squares of the pieces giving check to the side to move. */
export function checkers(pos: Position): number[] {
  const king = pos.kingSq[pos.side];
  const out: number[] = [];
  for (let sq = 0; sq < 64; sq++) {
    const piece = pos.board[sq];
    if (piece !== 0 && piece >> 3 !== pos.side && attacks(pos, sq, king)) out.push(sq);
  }
  return out;
}

/** The lines printed by `d`. */
export function boardDiagram(pos: Position): string[] {
  const rule = ' +---+---+---+---+---+---+---+---+';
  const lines = ['', rule];
  for (let rank = 7; rank >= 0; rank--) {
    let row = ' |';
    for (let file = 0; file < 8; file++) {
      const piece = pos.board[rank * 8 + file];
      row += ` ${piece === 0 ? ' ' : pieceChar(piece)} |`;
    }
    lines.push(`${row} ${rank + 1}`, rule);
  }
  lines.push('   a   b   c   d   e   f   g   h', '');
  lines.push(`Fen: ${pos.fen()}`);
  lines.push(`Key: ${pos.keyHex().toUpperCase()}`);
  lines.push(`Checkers: ${checkers(pos).map(squareName).join(' ')}`);
  if (pos.chess960) lines.push('Chess960: true');
  return lines;
}
