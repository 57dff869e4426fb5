// bzip2 decompression, for the PGN files OpenBench serves (`.pgn.bz2`, made
// by Python's bz2 module). The format, as libbzip2 writes it: a stream is
// `BZh` and a block-size digit, then blocks, each the Burrows-Wheeler
// transform of up to 900 kB (after a first run-length pass), move-to-front
// coded with runs of the front symbol counted in bijective base 2 (RUNA,
// RUNB), Huffman coded with up to six tables switched every 50 symbols.
// Every block and the stream carry a CRC, which is checked. Streams may
// follow one another (pbzip2, `cat a.bz2 b.bz2`).

const BLOCK_MAGIC = [0x314159, 0x265359];
const END_MAGIC = [0x177245, 0x385090];
const GROUP_SIZE = 50;
const MAX_GROUPS = 6;
const MAX_ALPHA = 258;
const MAX_CODE_LENGTH = 20;

/** The CRC-32 of bzip2 (polynomial 0x04c11db7, most significant bit first). */
const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    table[i] = c;
  }
  return table;
})();

export class Bzip2Error extends Error {}

function fail(what: string): never {
  throw new Bzip2Error(`bzip2: ${what}`);
}

/** Reads bits, most significant first. */
class BitReader {
  private buffer = 0;
  private count = 0;

  constructor(
    private readonly data: Uint8Array,
    public pos = 0,
  ) {}

  /** The next n bits (n <= 24) as an unsigned number. */
  bits(n: number): number {
    while (this.count < n) {
      if (this.pos >= this.data.length) fail('unexpected end of data');
      this.buffer = (this.buffer << 8) | this.data[this.pos++];
      this.count += 8;
    }
    this.count -= n;
    return (this.buffer >>> this.count) & ((1 << n) - 1);
  }

  bits32(): number {
    return ((this.bits(16) << 16) | this.bits(16)) >>> 0;
  }

  /** Skips to the next byte boundary; returns the offset of the next unread byte. */
  alignToByte(): number {
    this.pos -= this.count >> 3;
    this.count = 0;
    return this.pos;
  }
}

/** A growing output buffer. */
class Output {
  bytes = new Uint8Array(1 << 16);
  length = 0;

  reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }
}

/** The Huffman tables of one block: per group, canonical codes by length. */
class Tables {
  readonly minLength = new Int32Array(MAX_GROUPS);
  /** limit[g][l]: the largest code of length l; firstCode, the smallest; offset, where its symbols start in perm. */
  readonly limit = new Int32Array(MAX_GROUPS * (MAX_CODE_LENGTH + 2));
  readonly firstCode = new Int32Array(MAX_GROUPS * (MAX_CODE_LENGTH + 2));
  readonly offset = new Int32Array(MAX_GROUPS * (MAX_CODE_LENGTH + 2));
  readonly perm = new Int32Array(MAX_GROUPS * MAX_ALPHA);

  build(group: number, lengths: Uint8Array, alphaSize: number): void {
    let min = MAX_CODE_LENGTH;
    let max = 0;
    const count = new Int32Array(MAX_CODE_LENGTH + 2);
    for (let s = 0; s < alphaSize; s++) {
      count[lengths[s]]++;
      if (lengths[s] < min) min = lengths[s];
      if (lengths[s] > max) max = lengths[s];
    }
    const row = group * (MAX_CODE_LENGTH + 2);
    let code = 0;
    let index = 0;
    for (let l = 1; l <= MAX_CODE_LENGTH + 1; l++) {
      this.firstCode[row + l] = code;
      this.offset[row + l] = index;
      this.limit[row + l] = l <= max ? code + count[l] - 1 : 0x7fffffff;
      for (let s = 0; s < alphaSize; s++) if (lengths[s] === l) this.perm[group * MAX_ALPHA + index++] = s;
      code = (code + count[l]) << 1;
    }
    this.minLength[group] = min;
  }

  decode(reader: BitReader, group: number): number {
    const row = group * (MAX_CODE_LENGTH + 2);
    let length = this.minLength[group];
    let code = reader.bits(length);
    while (code > this.limit[row + length]) {
      if (++length > MAX_CODE_LENGTH) fail('bad Huffman code');
      code = (code << 1) | reader.bits(1);
    }
    const index = this.offset[row + length] + code - this.firstCode[row + length];
    return this.perm[group * MAX_ALPHA + index];
  }
}

/** Decodes one block into out; returns its CRC as computed. `tt` holds the block (one slot per byte). */
function decodeBlock(reader: BitReader, tt: Int32Array, tables: Tables, out: Output): number {
  if (reader.bits(1) !== 0) fail('randomised blocks (bzip2 before 0.9.5) are not supported');
  const origin = reader.bits(24);

  // The bytes the block uses, in 16 ranges of 16.
  const seqToByte = new Uint8Array(256);
  let inUse = 0;
  const ranges = reader.bits(16);
  for (let i = 0; i < 16; i++) {
    if ((ranges & (0x8000 >>> i)) === 0) continue;
    const used = reader.bits(16);
    for (let j = 0; j < 16; j++) if (used & (0x8000 >>> j)) seqToByte[inUse++] = i * 16 + j;
  }
  if (inUse === 0) fail('a block uses no bytes');
  const alphaSize = inUse + 2;
  const endOfBlock = inUse + 1;

  const groups = reader.bits(3);
  const selectorCount = reader.bits(15);
  if (groups < 2 || groups > MAX_GROUPS || selectorCount < 1) fail('bad table header');
  // Which table each run of 50 symbols uses, move-to-front coded in unary.
  const groupOrder = Uint8Array.from({ length: MAX_GROUPS }, (_, i) => i);
  const selectors = new Uint8Array(selectorCount);
  for (let i = 0; i < selectorCount; i++) {
    let j = 0;
    while (reader.bits(1) === 1) if (++j >= groups) fail('bad selector');
    const g = groupOrder[j];
    groupOrder.copyWithin(1, 0, j);
    groupOrder[0] = g;
    selectors[i] = g;
  }
  // Code lengths: a start, then per symbol steps of +1 (bits 10) or -1 (bits 11), ended by a 0 bit.
  const lengths = new Uint8Array(MAX_ALPHA);
  for (let g = 0; g < groups; g++) {
    let length = reader.bits(5);
    for (let s = 0; s < alphaSize; s++) {
      for (;;) {
        if (length < 1 || length > MAX_CODE_LENGTH) fail('bad code length');
        if (reader.bits(1) === 0) break;
        length += reader.bits(1) === 0 ? 1 : -1;
      }
      lengths[s] = length;
    }
    tables.build(g, lengths, alphaSize);
  }

  // Symbols: runs of the front byte (RUNA, RUNB), move-to-front indexes + 1, end of block.
  const front = Uint8Array.from({ length: 256 }, (_, i) => i);
  const byteCount = new Int32Array(256);
  let n = 0;
  let selector = 0;
  let left = 0;
  let group = 0;
  let run = 0;
  let runWeight = 1;
  for (;;) {
    if (left === 0) {
      if (selector >= selectorCount) fail('ran out of selectors');
      group = selectors[selector++];
      left = GROUP_SIZE;
    }
    left--;
    const symbol = tables.decode(reader, group);
    if (symbol <= 1) {
      run += runWeight << symbol;
      runWeight <<= 1;
      if (runWeight > tt.length * 2) fail('run too long');
      continue;
    }
    if (run > 0) {
      if (n + run > tt.length) fail('block too long');
      const b = seqToByte[front[0]];
      byteCount[b] += run;
      tt.fill(b, n, n + run);
      n += run;
      run = 0;
      runWeight = 1;
    }
    if (symbol === endOfBlock) break;
    if (n >= tt.length) fail('block too long');
    const index = symbol - 1;
    const v = front[index];
    front.copyWithin(1, 0, index);
    front[0] = v;
    const b = seqToByte[v];
    byteCount[b]++;
    tt[n++] = b;
  }
  if (origin >= n) fail('bad block origin');

  // Inverse Burrows-Wheeler: each slot's high bits link to the next byte.
  const start = new Int32Array(256);
  for (let b = 0, sum = 0; b < 256; b++) {
    start[b] = sum;
    sum += byteCount[b];
  }
  for (let i = 0; i < n; i++) {
    const b = tt[i] & 0xff;
    tt[start[b]++] |= i << 8;
  }

  // Undo the first run-length pass (four equal bytes, then a count of more) and compute the CRC.
  let crc = -1;
  let pos = tt[origin] >>> 8;
  let last = -1;
  let same = 0;
  out.reserve(n);
  for (let k = 0; k < n; k++) {
    const slot = tt[pos];
    const b = slot & 0xff;
    pos = slot >>> 8;
    if (same === 4) {
      out.reserve(b + (n - k));
      for (let r = 0; r < b; r++) {
        out.bytes[out.length++] = last;
        crc = (crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ last) & 0xff];
      }
      same = 0;
      last = -1;
      continue;
    }
    out.bytes[out.length++] = b;
    crc = (crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ b) & 0xff];
    if (b === last) same++;
    else {
      last = b;
      same = 1;
    }
  }
  return ~crc >>> 0;
}

/** Whether bytes start like a bzip2 stream. */
export function isBzip2(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x42 && bytes[1] === 0x5a && bytes[2] === 0x68 && bytes[3] >= 0x31 && bytes[3] <= 0x39;
}

/** The decompressed bytes of one or more bzip2 streams; throws Bzip2Error on bad or truncated data. */
export function bunzip2(data: Uint8Array): Uint8Array {
  const out = new Output();
  const tables = new Tables();
  let tt = new Int32Array(0);
  let at = 0;
  do {
    if (!isBzip2(data.subarray(at))) fail('not a bzip2 stream');
    const reader = new BitReader(data, at + 4);
    const blockSize = (data[at + 3] - 0x30) * 100_000;
    if (tt.length !== blockSize) tt = new Int32Array(blockSize);
    let streamCrc = 0;
    for (;;) {
      const hi = reader.bits(24);
      const lo = reader.bits(24);
      if (hi === BLOCK_MAGIC[0] && lo === BLOCK_MAGIC[1]) {
        const expected = reader.bits32();
        const crc = decodeBlock(reader, tt, tables, out);
        if (crc !== expected) fail('block CRC mismatch');
        streamCrc = (((streamCrc << 1) | (streamCrc >>> 31)) ^ crc) >>> 0;
      } else if (hi === END_MAGIC[0] && lo === END_MAGIC[1]) {
        if (reader.bits32() !== streamCrc) fail('stream CRC mismatch');
        break;
      } else fail('bad block header');
    }
    at = reader.alignToByte();
  } while (at < data.length && isBzip2(data.subarray(at)));
  return out.bytes.slice(0, out.length);
}
