// The network file: a quantised NNUE of the shape 768 x K -> 2 x H -> B
// (perspective inputs in K king buckets, H hidden neurons per side, B
// output buckets), as `kestrel train` writes it and the engine reads it.
//
// Inputs: one per (king bucket, colour relative to the perspective, piece
// type, square seen from the perspective): index = bucket * 768, + own? 0 :
// 384, + type * 64 (pawn 0 .. king 5), + square, where Black's perspective
// flips the board vertically (square ^ 56). Both perspectives share the
// weights. The bucket is that of the perspective's own king's square (seen
// from the perspective) in the file's king map; with mirroring, a king on
// files e-h sees the whole board mirrored (square ^ 7) and takes the bucket
// of its mirror square. Without king buckets (format 1) K is 1 and nothing
// mirrors.
//
// File (all integers little-endian):
//   0  magic "KNNU"        4  format version (1, or 2 with king buckets)
//   8  inputs (768 * K)    12 hidden H               16 output buckets B
//   20 activation (1 or 2, below)                    24 QA
//   28 QB                  32 eval scale (centipawns per unit)
//   36 checksum            40 payload bytes          44 flags (format 2: 1 = mirror)
//   48..63 zero
// then the payload: format 2 only, the king map uint8[64] (a bucket per
// square of the own king, seen from the perspective); W1 int16[inputs * H]
// (each input's H weights together), b1 int16[H], W2 int16[B * 2H] (per
// bucket: the side to move's H weights, then the other side's), b2
// int32[B]. The checksum is FNV-1a (32 bits) of the payload. A file is
// named by its content: kestrel-<sha256 prefix>.nnue.
//
// Quantisation: W1 and b1 are the float weights times QA; W2 times QB; b2
// times QA * QB. An accumulator is in units of 1/QA, an activation
// clamp(acc, 0, QA)^2 in 1/QA^2, so sum(activation * W2) / QA + b2 is the
// output in units of 1/(QA * QB), and times scale / (QA * QB) centipawns.
// Activation 1 (SCReLU) uses the square exactly; the WebAssembly kernel then
// needs |W2| <= 128 (it multiplies the clamped value by the weight in 16
// bits), which can force a small QB. Activation 2 (the same SCReLU, squared
// first) rounds the square to (clamp(acc, 0, QA)^2 + 128) >> 8, in units of
// 256/QA^2, so that the output weights may take any QB up to 1024: the sum
// times 256 / QA + b2 is then the output in units of 1/(QA * QB).

import { sharedMemory } from '../../util/shared-memory.js';

export const NNUE_INPUTS = 768;
const NNUE_MAGIC = 0x554e4e4b; // "KNNU"
const NNUE_FORMAT_VERSION = 1;
const NNUE_FORMAT_KING_BUCKETS = 2;
const FLAG_MIRROR = 1;
/** The most king buckets a file may have. */
const MAX_KING_BUCKETS = 32;
export const ACTIVATION_SCRELU = 1;
export const ACTIVATION_SCRELU_SQUARE_FIRST = 2;
const HEADER_BYTES = 64;

/**
 * The largest |output weight| the WebAssembly kernel runs exactly: 128 for
 * activation 1 (it multiplies the clamped value, at most 255, by the weight
 * in 16 bits), 4096 for activation 2 (its int32 lanes' sums).
 */
export function maxOutputWeight(activation: number): number {
  return activation === ACTIVATION_SCRELU_SQUARE_FIRST ? 4096 : 128;
}

/**
 * King buckets: the inputs' weights depend on where the perspective's own
 * king stands (see the file comment).
 */
export interface KingBuckets {
  /** The bucket of each square of the own king, seen from the perspective (a1 = 0). */
  map: Uint8Array;
  /** A king on files e-h sees the board mirrored (files a-h swapped). */
  mirror: boolean;
  /** How many buckets: the largest in map, plus 1. */
  count: number;
}

/** King buckets of a map of 64 squares. */
export function kingBuckets(map: ArrayLike<number>, mirror: boolean): KingBuckets {
  if (map.length !== 64) throw new NetworkError(`a king map has 64 squares, not ${map.length}`);
  const bytes = Uint8Array.from(map);
  let count = 0;
  for (const b of bytes) count = Math.max(count, b + 1);
  if (count > MAX_KING_BUCKETS) throw new NetworkError(`${count} king buckets, at most ${MAX_KING_BUCKETS}`);
  return { map: bytes, mirror, count };
}

/** The inputs of a network: 768 per king bucket. */
export function inputCount(kings: KingBuckets | null): number {
  return NNUE_INPUTS * (kings === null ? 1 : kings.count);
}

/** A quantised network. */
export interface Network {
  /** null: format 1, one set of inputs whatever the kings' squares. */
  kings: KingBuckets | null;
  hidden: number;
  buckets: number;
  activation: number;
  qa: number;
  qb: number;
  scale: number;
  /** [input * hidden + j] */
  w1: Int16Array;
  b1: Int16Array;
  /** [bucket * 2 * hidden + k]: k < hidden the side to move's accumulator, then the other side's. */
  w2: Int16Array;
  b2: Int32Array;
}

/** A network file that cannot be used; the message says why. */
export class NetworkError extends Error {}

/** FNV-1a, 32 bits. */
function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

function payloadBytes(kings: KingBuckets | null, hidden: number, buckets: number): number {
  return (kings === null ? 0 : 64) + 2 * (inputCount(kings) * hidden + hidden + buckets * 2 * hidden) + 4 * buckets;
}

/** The file bytes of a network. */
export function encodeNetwork(net: Network): Uint8Array {
  const kings = net.kings;
  const payload = payloadBytes(kings, net.hidden, net.buckets);
  const out = new Uint8Array(HEADER_BYTES + payload);
  const view = new DataView(out.buffer);
  let at = HEADER_BYTES;
  if (kings !== null) {
    out.set(kings.map, at);
    at += 64;
  }
  for (const part of [net.w1, net.b1, net.w2]) {
    for (let i = 0; i < part.length; i++, at += 2) view.setInt16(at, part[i], true);
  }
  for (let i = 0; i < net.b2.length; i++, at += 4) view.setInt32(at, net.b2[i], true);
  const version = kings === null ? NNUE_FORMAT_VERSION : NNUE_FORMAT_KING_BUCKETS;
  const header = [NNUE_MAGIC, version, inputCount(kings), net.hidden, net.buckets, net.activation, net.qa, net.qb, net.scale];
  for (let i = 0; i < header.length; i++) view.setUint32(4 * i, header[i], true);
  view.setUint32(36, fnv1a(out.subarray(HEADER_BYTES)), true);
  view.setUint32(40, payload, true);
  if (kings !== null) view.setUint32(44, kings.mirror ? FLAG_MIRROR : 0, true);
  return out;
}

/** Whether this host stores numbers little-endian (as network files do). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A copy of bytes in memory that threads can share (a SharedArrayBuffer where the host has one), at offset 0. */
function copyToShared(bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(sharedMemory(bytes.length));
  copy.set(bytes);
  return copy;
}

/**
 * Reads a network file; throws NetworkError with the reason when it is not
 * one this engine can use. The network's weights are in one block of
 * memory that the threads of a process can share (a SharedArrayBuffer where
 * the host has one): a copy of the file's, or with `inPlace` (for bytes that
 * never change, and on a little-endian host) the file's bytes themselves.
 */
export function decodeNetwork(bytes: Uint8Array, inPlace = false): Network {
  if (bytes.length < HEADER_BYTES) throw new NetworkError(`too short for a network file (${bytes.length} bytes)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (i: number): number => view.getUint32(4 * i, true);
  if (u32(0) !== NNUE_MAGIC) throw new NetworkError('not a Kestrel network file (bad magic)');
  const version = u32(1);
  if (version !== NNUE_FORMAT_VERSION && version !== NNUE_FORMAT_KING_BUCKETS)
    throw new NetworkError(`format version ${version}, this engine reads versions ${NNUE_FORMAT_VERSION} and ${NNUE_FORMAT_KING_BUCKETS}`);
  const [inputs, hidden, buckets, activation, qa, qb, scale] = [u32(2), u32(3), u32(4), u32(5), u32(6), u32(7), u32(8)];
  let kings: KingBuckets | null = null;
  if (version === NNUE_FORMAT_KING_BUCKETS) {
    if (bytes.length < HEADER_BYTES + 64) throw new NetworkError(`too short for a network file with king buckets (${bytes.length} bytes)`);
    kings = kingBuckets(bytes.subarray(HEADER_BYTES, HEADER_BYTES + 64), (u32(11) & FLAG_MIRROR) !== 0);
  }
  if (inputs !== inputCount(kings))
    throw new NetworkError(
      `architecture with ${inputs} inputs, this engine has ${inputCount(kings)} for ${kings?.count ?? 1} king bucket(s)`,
    );
  if (hidden < 8 || hidden > 4096 || hidden % 8 !== 0)
    throw new NetworkError(`unsupported hidden size ${hidden} (a multiple of 8 from 8 to 4096)`);
  if (buckets < 1 || buckets > 16) throw new NetworkError(`unsupported output bucket count ${buckets}`);
  if (activation !== ACTIVATION_SCRELU && activation !== ACTIVATION_SCRELU_SQUARE_FIRST)
    throw new NetworkError(`unsupported activation ${activation} (this engine reads 1 and 2)`);
  if (qa < 1 || qa > 255 || qb < 1 || qb > 1024 || scale < 1)
    throw new NetworkError(`bad quantisation (QA ${qa}, QB ${qb}, scale ${scale})`);
  const payload = payloadBytes(kings, hidden, buckets);
  if (u32(10) !== payload || bytes.length !== HEADER_BYTES + payload) {
    throw new NetworkError(
      `wrong size: ${bytes.length} bytes, the header's architecture needs ${HEADER_BYTES + payload} (truncated file?)`,
    );
  }
  if (fnv1a(bytes.subarray(HEADER_BYTES)) !== u32(9)) throw new NetworkError('bad checksum (damaged file)');
  // The weights start at an offset that is a multiple of 16 (header, king map, and each part a multiple of 8 int16s long).
  const own = inPlace && LITTLE_ENDIAN && bytes.byteOffset % 16 === 0 ? bytes : copyToShared(bytes);
  let at = own.byteOffset + HEADER_BYTES + (kings === null ? 0 : 64);
  const i16 = (n: number): Int16Array => {
    const a = new Int16Array(own.buffer, at, n);
    at += 2 * n;
    return a;
  };
  const w1 = i16(inputs * hidden);
  const b1 = i16(hidden);
  const w2 = i16(buckets * 2 * hidden);
  const b2 = new Int32Array(own.buffer, at, buckets);
  if (!LITTLE_ENDIAN) {
    // The file is little-endian: swap each number in the copy.
    const file = new DataView(own.buffer, own.byteOffset, own.byteLength);
    for (const part of [w1, b1, w2]) {
      const base = part.byteOffset - own.byteOffset;
      for (let i = 0; i < part.length; i++) part[i] = file.getInt16(base + 2 * i, true);
    }
    const base = b2.byteOffset - own.byteOffset;
    for (let i = 0; i < buckets; i++) b2[i] = file.getInt32(base + 4 * i, true);
  }
  return { kings, hidden, buckets, activation, qa, qb, scale, w1, b1, w2, b2 };
}

/** A network's shape as the engine and the trainer print it: "768 -> 2x128 -> 8", "768x4m -> 2x256 -> 8" with four mirrored king buckets. */
export function shapeText(shape: { hidden: number | string; buckets: number | string; kings?: KingBuckets | null }): string {
  const kings = shape.kings ?? null;
  const inputs = kings === null ? '768' : `768x${kings.count}${kings.mirror ? 'm' : ''}`;
  return `${inputs} -> 2x${shape.hidden} -> ${shape.buckets}`;
}

/**
 * The king key of perspective `side` (0 White, 1 Black) whose own king stands
 * on kingSq: its bucket times 2, plus 1 when the board is mirrored for it.
 * 0 without king buckets. Inputs of one key share a bucket and a mirroring.
 */
export function kingKey(kings: KingBuckets | null, side: number, kingSq: number): number {
  if (kings === null) return 0;
  const sq = side === 0 ? kingSq : kingSq ^ 56;
  const flip = kings.mirror && (sq & 7) >= 4 ? 1 : 0;
  return kings.map[sq ^ (flip * 7)] * 2 + flip;
}

/** Input index of a piece (code colour * 8 + type) on sq, from perspective `side` (0 White, 1 Black) of king key `key` (kingKey). */
export function inputIndex(side: number, piece: number, sq: number, key = 0): number {
  const own = piece >> 3 === side ? 0 : 384;
  return (key >> 1) * NNUE_INPUTS + own + ((piece & 7) - 1) * 64 + ((side === 0 ? sq : sq ^ 56) ^ ((key & 1) * 7));
}

/** The king layouts `kestrel train --king-buckets` offers, by name: a map over the own king's squares (seen from its side) and whether e-h mirror. */
export const KING_LAYOUTS: Readonly<Record<string, KingBuckets | null>> = {
  none: null,
  mirror: kingBuckets(new Uint8Array(64), true),
  // First rank a-b, c-d, second rank, the rest: the king's shelter matters most while it is at home.
  '4': kingBuckets(
    ranksLayout([
      [0, 0, 1, 1],
      [2, 2, 2, 2],
      [3, 3, 3, 3],
      [3, 3, 3, 3],
      [3, 3, 3, 3],
      [3, 3, 3, 3],
      [3, 3, 3, 3],
      [3, 3, 3, 3],
    ]),
    true,
  ),
  '8': kingBuckets(
    ranksLayout([
      [0, 0, 1, 1],
      [2, 2, 3, 3],
      [4, 4, 4, 4],
      [5, 5, 5, 5],
      [6, 6, 6, 6],
      [6, 6, 6, 6],
      [7, 7, 7, 7],
      [7, 7, 7, 7],
    ]),
    true,
  ),
};

/** The names of KING_LAYOUTS, smallest first. */
export const KING_LAYOUT_NAMES = ['none', 'mirror', '4', '8'];

/** The king layout of that name (KING_LAYOUTS); throws NetworkError naming the choices for another name. */
export function kingLayout(name: string): KingBuckets | null {
  if (!Object.hasOwn(KING_LAYOUTS, name)) throw new NetworkError(`unknown king layout '${name}' (${KING_LAYOUT_NAMES.join(', ')})`);
  return KING_LAYOUTS[name];
}

/** A 64-square map from the buckets of files a-d, rank by rank from the first; files e-h mirror them. */
function ranksLayout(ranks: number[][]): Uint8Array {
  const map = new Uint8Array(64);
  for (let r = 0; r < 8; r++) for (let f = 0; f < 8; f++) map[r * 8 + f] = ranks[r][f < 4 ? f : 7 - f];
  return map;
}

/** One neuron's activation in the integer units of the network's activation code (see the file comment). */
export function activationOf(activation: number, clamped: number): number {
  return activation === ACTIVATION_SCRELU_SQUARE_FIRST ? (clamped * clamped + 128) >> 8 : clamped * clamped;
}

/**
 * The network's output in centipawns from sum = Σ activation · W2 over both
 * perspectives (activation 1: clamp(acc, 0, QA)², in units of 1/QA² · 1/QB;
 * activation 2: in 256 times those units) and the bucket's bias, in the
 * integer arithmetic every kernel shares, truncated toward zero. The `+ 0`
 * turns a -0 (any output between -1 and 0) into 0: V8 has to box a -0 on
 * the heap, one allocation in a few hundred evaluations. (`| 0` would do the
 * same but wraps beyond 2^31, which a file's weights may reach.)
 */
export function outputCentipawns(net: Network, sum: number, bucket: number): number {
  const scaled = net.activation === ACTIVATION_SCRELU_SQUARE_FIRST ? sum * 256 : sum;
  return Math.trunc(((Math.trunc(scaled / net.qa) + net.b2[bucket]) * net.scale) / (net.qa * net.qb)) + 0;
}

/** Output bucket of a position with `pieces` pieces on the board (kings included), out of `buckets`. */
export function outputBucket(pieces: number, buckets: number): number {
  return buckets === 1 ? 0 : Math.min(buckets - 1, ((pieces - 2) * buckets) / 31) | 0;
}
