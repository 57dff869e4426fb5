// A chunk: the data store's compact, lossless form of viriformat games
// (data/README.md). It unpacks to the viriformat bytes it was made from,
// byte for byte, and is about 40% smaller than xz of those bytes.
//
// File: a header, then a Brotli stream.
//   header (20 bytes): "KVFC", format version (u32 = 1), then games,
//   positions (plies) and unpacked viriformat bytes (u32 each, little-endian),
//   so that a reader can size its memory before unpacking anything.
//   Brotli payload, one stream after the other:
//     lengths: per game a varint (plies << 1 | raw);
//     boards:  per game its 32-byte PackedBoard, verbatim;
//     moves:   per ply of a replayed game, one byte: the move's rank among
//              the position's legal moves sorted by their viriformat value
//              (so the code depends on the rules of chess only, never on
//              the move generator's order);
//     scores:  per ply of a replayed game, a zigzag varint of the score
//              less the previous ply's (0 before the first);
//     raw:     the (move, score) words of games that could not be replayed
//              (an illegal or unknown move), verbatim.
// A writer checks that its chunk unpacks to its input before it is kept.

import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { generateMoves } from '../board/movegen.js';
import { Position } from '../board/position.js';
import { MAX_MOVES } from '../board/types.js';
import { type GamesSummary, indexGames, packMove, unpackBoard, unpackMove } from './viriformat.js';

const MAGIC = 0x4346564b; // "KVFC" little-endian
const VERSION = 1;
const HEADER_BYTES = 20;
const BOARD_BYTES = 32;
const PLY_BYTES = 4;
/** A move rank this large or larger cannot be written in a byte: the game is kept raw. */
const MAX_RANK = 255;
/** The Position's undo stack is finite: replays start over from the current position this often. */
const REBASE_PLIES = 4000;

/** The file name ending of a chunk. */
export const CHUNK_SUFFIX = '.vfc';

/** The legal moves of pos as viriformat moves, ascending, in out[0..n); returns n. */
function sortedLegal(pos: Position, moves: Int32Array, out: Int32Array): number {
  const n = generateMoves(pos, moves, 0, false);
  // Insertion sort: a few dozen moves, cheaper than a call to sort().
  for (let k = 0; k < n; k++) {
    const v = packMove(moves[k]);
    let j = k;
    for (; j > 0 && out[j - 1] > v; j--) out[j] = out[j - 1];
    out[j] = v;
  }
  return n;
}

class ByteWriter {
  bytes = new Uint8Array(1 << 16);
  length = 0;
  byte(b: number): void {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length++] = b;
  }
  varint(v: number): void {
    while (v >= 0x80) {
      this.byte((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    this.byte(v);
  }
  append(b: Uint8Array): void {
    for (let i = 0; i < b.length; i++) this.byte(b[i]);
  }
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

const zigzag = (d: number): number => ((d << 1) ^ (d >> 31)) >>> 0;
const unzigzag = (z: number): number => (z >>> 1) ^ -(z & 1);

/** The move ranks of one game, or null when it cannot be replayed (then it is kept raw). */
function rankGame(pos: Position, view: DataView, offset: number, plies: number, list: Int32Array, sorted: Int32Array): Uint8Array | null {
  const ranks = new Uint8Array(plies);
  try {
    pos.setFen(unpackBoard(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), offset).fen);
    for (let i = 0; i < plies; i++) {
      const packed = view.getUint16(offset + BOARD_BYTES + i * PLY_BYTES, true);
      const n = sortedLegal(pos, list, sorted);
      let rank = 0;
      while (rank < n && sorted[rank] !== packed) rank++;
      if (rank === n || rank >= MAX_RANK) return null;
      ranks[i] = rank;
      pos.makeMove(unpackMove(pos, packed));
      if (pos.ply > REBASE_PLIES) pos.clearHistory();
    }
  } catch {
    return null;
  }
  return ranks;
}

/** The chunk of viriformat bytes holding complete games only; throws if it would not unpack to them. */
export function packChunk(vf: Uint8Array): Uint8Array {
  const index = indexGames(vf);
  if (index.completeBytes !== vf.length) throw new Error('the data ends in a half-written game');
  const view = new DataView(vf.buffer, vf.byteOffset, vf.byteLength);
  const lengths = new ByteWriter();
  const boards = new ByteWriter();
  const moves = new ByteWriter();
  const scores = new ByteWriter();
  const raw = new ByteWriter();
  const list = new Int32Array(MAX_MOVES);
  const sorted = new Int32Array(MAX_MOVES);
  const pos = new Position();
  let positions = 0;
  for (let g = 0; g < index.offsets.length; g++) {
    const offset = index.offsets[g];
    const plies = index.plies[g];
    positions += plies;
    boards.append(vf.subarray(offset, offset + BOARD_BYTES));
    const ranks = rankGame(pos, view, offset, plies, list, sorted);
    lengths.varint(plies * 2 + (ranks === null ? 1 : 0));
    if (ranks === null) {
      raw.append(vf.subarray(offset + BOARD_BYTES, offset + BOARD_BYTES + plies * PLY_BYTES));
      continue;
    }
    moves.append(ranks);
    let previous = 0;
    for (let i = 0; i < plies; i++) {
      const score = view.getInt16(offset + BOARD_BYTES + i * PLY_BYTES + 2, true);
      scores.varint(zigzag(score - previous));
      previous = score;
    }
  }
  const payload = new Uint8Array(lengths.length + boards.length + moves.length + scores.length + raw.length);
  let at = 0;
  for (const part of [lengths, boards, moves, scores, raw]) {
    payload.set(part.view(), at);
    at += part.length;
  }
  const packed = brotliCompressSync(payload, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: payload.length,
    },
  });
  const chunk = new Uint8Array(HEADER_BYTES + packed.length);
  const header = new DataView(chunk.buffer);
  header.setUint32(0, MAGIC, true);
  header.setUint32(4, VERSION, true);
  header.setUint32(8, index.offsets.length, true);
  header.setUint32(12, positions, true);
  header.setUint32(16, vf.length, true);
  chunk.set(packed, HEADER_BYTES);
  const back = unpackChunk(chunk);
  if (back.length !== vf.length || !Buffer.from(back.buffer, back.byteOffset, back.length).equals(vf))
    throw new Error('the chunk does not unpack to its games (a bug in chunk.ts): not written');
  return chunk;
}

/** What a chunk's header says it holds, without unpacking it. */
export function chunkSummary(chunk: Uint8Array): GamesSummary {
  if (chunk.length < HEADER_BYTES) throw new Error('not a data chunk (too short)');
  const header = new DataView(chunk.buffer, chunk.byteOffset, HEADER_BYTES);
  if (header.getUint32(0, true) !== MAGIC) throw new Error('not a data chunk (no KVFC header)');
  const version = header.getUint32(4, true);
  if (version !== VERSION) throw new Error(`data chunk format ${version}: this build reads format ${VERSION}`);
  return { games: header.getUint32(8, true), positions: header.getUint32(12, true), bytes: header.getUint32(16, true) };
}

/** A chunk unpacked: the viriformat bytes it was made from. */
export function unpackChunk(chunk: Uint8Array): Uint8Array {
  const summary = chunkSummary(chunk);
  const payload = brotliDecompressSync(chunk.subarray(HEADER_BYTES));
  const out = new Uint8Array(summary.bytes);
  const view = new DataView(out.buffer);
  let at = 0;
  const varint = (): number => {
    let v = 0;
    let shift = 0;
    for (;;) {
      if (at >= payload.length) throw new Error('data chunk: truncated');
      const b = payload[at++];
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
      shift += 7;
    }
  };
  const games = summary.games;
  const plies = new Int32Array(games);
  const isRaw = new Uint8Array(games);
  let replayed = 0;
  for (let g = 0; g < games; g++) {
    const v = varint();
    plies[g] = Math.floor(v / 2);
    isRaw[g] = v & 1;
    if (!isRaw[g]) replayed += plies[g];
  }
  let boards = at;
  let moves = boards + games * BOARD_BYTES;
  const scores = moves + replayed;
  // The raw stream starts where the scores end: skip over them once.
  at = scores;
  for (let i = 0; i < replayed; i++) varint();
  let raw = at;
  at = scores;
  const list = new Int32Array(MAX_MOVES);
  const sorted = new Int32Array(MAX_MOVES);
  const pos = new Position();
  let o = 0;
  for (let g = 0; g < games; g++) {
    if (o + BOARD_BYTES + (plies[g] + 1) * PLY_BYTES > out.length) throw new Error('data chunk: more games than its header says');
    out.set(payload.subarray(boards, boards + BOARD_BYTES), o);
    boards += BOARD_BYTES;
    const start = o;
    o += BOARD_BYTES;
    if (isRaw[g]) {
      out.set(payload.subarray(raw, raw + plies[g] * PLY_BYTES), o);
      raw += plies[g] * PLY_BYTES;
      o += plies[g] * PLY_BYTES;
    } else {
      pos.setFen(unpackBoard(out, start).fen);
      let previous = 0;
      for (let i = 0; i < plies[g]; i++) {
        const n = sortedLegal(pos, list, sorted);
        const rank = payload[moves++];
        if (rank >= n) throw new Error('data chunk: a move rank past the legal moves');
        const packed = sorted[rank];
        const score = previous + unzigzag(varint());
        previous = score;
        view.setUint16(o, packed, true);
        view.setInt16(o + 2, score, true);
        o += PLY_BYTES;
        pos.makeMove(unpackMove(pos, packed));
        if (pos.ply > REBASE_PLIES) pos.clearHistory();
      }
    }
    o += PLY_BYTES; // the terminator, zero already
  }
  if (o !== out.length || raw !== payload.length) throw new Error("data chunk: its games do not fill its header's size");
  return out;
}
