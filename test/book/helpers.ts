// Test helpers for the book tests: hand-made book files and random legal games
// in PGN. Run directly to write a PGN of random games (for timing the builder):
//   npx tsx test/book/helpers.ts <games> <seed> <out.pgn> [max plies per game, default 120]

import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { generateMoves } from '../../src/board/movegen.js';
import { Position } from '../../src/board/position.js';
import { moveToSan } from '../../src/board/san.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { unitInterval, xorshift32 } from '../../src/util/random.js';

export interface RawRecord {
  /** 16 hex digits. */
  key: string;
  move: number;
  weight: number;
  learn?: number;
}

/** A book file's bytes from records, written in the order given. */
export function bookBytes(records: readonly RawRecord[]): Uint8Array {
  const out = new Uint8Array(records.length * 16);
  const view = new DataView(out.buffer);
  records.forEach((r, i) => {
    view.setBigUint64(i * 16, BigInt(`0x${r.key}`));
    view.setUint16(i * 16 + 8, r.move);
    view.setUint16(i * 16 + 10, r.weight);
    view.setUint32(i * 16 + 12, r.learn ?? 0);
  });
  return out;
}

/** The records of a book file's bytes. */
export function bookRecords(bytes: Uint8Array): RawRecord[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: RawRecord[] = [];
  for (let o = 0; o + 16 <= bytes.length; o += 16) {
    out.push({
      key: view.getBigUint64(o).toString(16).padStart(16, '0'),
      move: view.getUint16(o + 8),
      weight: view.getUint16(o + 10),
      learn: view.getUint32(o + 12),
    });
  }
  return out;
}

/** A Polyglot move from squares in text: 'e1h1', 'e7e8q'. */
export function rawMove(text: string): number {
  const sq = (s: string): number => (s.charCodeAt(1) - 49) * 8 + (s.charCodeAt(0) - 97);
  const promo = text.length > 4 ? ' nbrq'.indexOf(text[4]) : 0;
  return sq(text.slice(2, 4)) | (sq(text.slice(0, 2)) << 6) | (promo << 12);
}

/**
 * PGN of `count` random legal games (up to maxPlies plies each, ending early
 * on mate or stalemate) with random results, deterministic for a seed.
 */
export function randomGamesPgn(count: number, seed: number, maxPlies = 120): string {
  const random = unitInterval(xorshift32(seed | 0 || 0x2545f491));
  const pos = new Position();
  const moves = new Int32Array(MAX_MOVES);
  const results = ['1-0', '0-1', '1/2-1/2', '1-0', '0-1', '*'];
  const parts: string[] = [];
  for (let g = 0; g < count; g++) {
    pos.setFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    const result = results[Math.floor(random() * results.length)];
    const plies = 1 + Math.floor(random() * maxPlies);
    let text = '';
    for (let ply = 0; ply < plies; ply++) {
      const end = generateMoves(pos, moves, 0, false);
      if (end === 0) break;
      // Early on, favour a few moves so that games share their openings.
      const choices = ply < 6 ? Math.min(end, 3) : end;
      const move = moves[Math.floor(random() * choices)];
      if (ply % 2 === 0) text += `${ply / 2 + 1}. `;
      text += `${moveToSan(pos, move)} `;
      pos.makeMove(move);
    }
    parts.push(`[Event "random ${g + 1}"]\n[White "w${g % 7}"]\n[Black "b${g % 5}"]\n[Result "${result}"]\n\n${wrap(text + result)}\n`);
  }
  return parts.join('\n');
}

function wrap(text: string): string {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > 79) {
      out.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') out.push(line);
  return out.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [games, seed, out, maxPlies] = process.argv.slice(2);
  writeFileSync(out, randomGamesPgn(Number(games), Number(seed), maxPlies === undefined ? 120 : Number(maxPlies)));
}
