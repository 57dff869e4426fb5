// The board in a terminal: Unicode pieces on coloured squares where the
// terminal has colour, plain letters (upper case white) otherwise; from
// either side, with coordinates, the last move's squares highlighted and a
// king in check marked.

import type { Position } from '../board/position.js';
import { WHITE, pieceChar } from '../board/types.js';

type BoardStyle = 'color' | 'ascii';

export interface BoardViewOptions {
  style: BoardStyle;
  /** Colours the terminal has: 24 (true colour), 8 (256 colours) or 4 (16 colours). */
  colorDepth?: number;
  /** Black at the bottom. */
  flipped: boolean;
  /** The last move's squares (0..63), if any. */
  lastMove?: { from: number; to: number } | null;
}

// Filled glyphs for both sides (drawn in white or black): the outlined ones
// are hard to read on coloured squares.
const GLYPHS = ['', '\u265f', '\u265e', '\u265d', '\u265c', '\u265b', '\u265a'];

/** Square colours as [true colour RGB, 256-colour index, 16-colour code]: lichess's brown board. */
const LIGHT: Shade = { rgb: [240, 217, 181], c256: 223, c16: 47 };
const DARK: Shade = { rgb: [181, 136, 99], c256: 137, c16: 43 };
const LIGHT_MOVED: Shade = { rgb: [205, 210, 106], c256: 186, c16: 103 };
const DARK_MOVED: Shade = { rgb: [170, 162, 58], c256: 142, c16: 102 };
const CHECKED: Shade = { rgb: [222, 60, 60], c256: 167, c16: 41 };

interface Shade {
  rgb: [number, number, number];
  c256: number;
  c16: number;
}

const RESET = '\u001b[0m';

function background(shade: Shade, depth: number): string {
  if (depth >= 24) return `\u001b[48;2;${shade.rgb.join(';')}m`;
  if (depth >= 8) return `\u001b[48;5;${shade.c256}m`;
  return `\u001b[${shade.c16}m`;
}

function foreground(white: boolean, depth: number): string {
  if (depth >= 24) return white ? '\u001b[1;38;2;255;255;255m' : '\u001b[38;2;0;0;0m';
  if (depth >= 8) return white ? '\u001b[1;38;5;231m' : '\u001b[38;5;16m';
  return white ? '\u001b[1;97m' : '\u001b[30m';
}

/** The board's lines (no trailing newline), 8 ranks plus the file letters. */
export function renderBoard(pos: Position, options: BoardViewOptions): string[] {
  const files = options.flipped ? [7, 6, 5, 4, 3, 2, 1, 0] : [0, 1, 2, 3, 4, 5, 6, 7];
  const ranks = options.flipped ? [0, 1, 2, 3, 4, 5, 6, 7] : [7, 6, 5, 4, 3, 2, 1, 0];
  const moved = (sq: number): boolean => options.lastMove != null && (options.lastMove.from === sq || options.lastMove.to === sq);
  const checkedKing = pos.inCheck() ? pos.kingSq[pos.side] : -1;
  const depth = options.colorDepth ?? 8;
  const lines: string[] = [];
  for (const rank of ranks) {
    let row = `${rank + 1} `;
    for (const file of files) {
      const sq = rank * 8 + file;
      const piece = pos.board[sq];
      if (options.style === 'ascii') {
        const ch = piece === 0 ? '.' : pieceChar(piece);
        // In letters, the last move's squares are bracketed and a king in check starred.
        if (sq === checkedKing) row += `*${ch}*`;
        else row += moved(sq) ? `[${ch}]` : ` ${ch} `;
      } else {
        const light = (rank + file) % 2 === 1;
        const shade = sq === checkedKing ? CHECKED : moved(sq) ? (light ? LIGHT_MOVED : DARK_MOVED) : light ? LIGHT : DARK;
        const glyph = piece === 0 ? ' ' : GLYPHS[piece & 7];
        row += `${background(shade, depth)}${piece === 0 ? '' : foreground(piece >> 3 === WHITE, depth)} ${glyph} ${RESET}`;
      }
    }
    lines.push(row);
  }
  lines.push(`  ${files.map((f) => ` ${String.fromCharCode(97 + f)} `).join('')}`);
  return lines;
}
