// One Syzygy file (.rtbw: win/draw/loss, or .rtbz: distance to zeroing),
// read as the format lays it out: a header naming, for each sub-table
// (one per file of the leading pawn in pawnful tables, one per side to
// move where the WDL table is split), the order of the pieces and their
// groups; then per sub-table its compression (a canonical Huffman code over
// symbols that stand for pairs of symbols, Re-Pair style), its DTZ value
// maps, its block index and block sizes, and the compressed blocks.
//
// Only the header is read when the file is first probed; a probe then
// reads the few bytes of the index, sizes and block it needs, at their
// offsets, through a small cache of file pages (the six-piece files are
// tens of gigabytes, and threads share the operating system's page cache).

import { type EncodingInfo, firstGroupSize, subfactor } from './encoding.js';

/** What the prober needs of an open file: its size and positioned reads (the platform's RandomAccessFile). */
export interface TableFile {
  readonly size: number;
  read(into: Uint8Array, offset: number, length: number, position: number): number;
  /** Releases the file (the folder scan checks each file, then closes it). */
  close?(): void;
}

/** A file whose bytes are not what the format says (thrown by the parser and by a probe that walks off its data). */
export class DamagedTableError extends Error {}

function damaged(why: string): never {
  throw new DamagedTableError(why);
}

const WDL_MAGIC = 0x5d23e871;
const DTZ_MAGIC = 0xa50c66d7;

/** Bytes per cached page of a file. */
const PAGE = 4096;

/** Reads a file through a cache of pages (the last `maxPages` read are kept). */
export class PagedFile {
  private readonly pages = new Map<number, Uint8Array>();
  private readonly scratch = new Uint8Array(16);

  constructor(
    readonly file: TableFile,
    private readonly maxPages: number,
  ) {}

  private page(index: number): Uint8Array {
    let p = this.pages.get(index);
    if (p !== undefined) return p;
    const start = index * PAGE;
    const length = Math.min(PAGE, this.file.size - start);
    if (length <= 0 || index < 0) damaged('read past the end of the file');
    p = new Uint8Array(length);
    let done = 0;
    while (done < length) {
      const n = this.file.read(p, done, length - done, start + done);
      if (n <= 0) throw new Error('the file ended early');
      done += n;
    }
    if (this.pages.size >= this.maxPages) this.pages.delete(this.pages.keys().next().value as number);
    this.pages.set(index, p);
    return p;
  }

  u8(pos: number): number {
    const p = this.page(Math.floor(pos / PAGE));
    const at = pos % PAGE;
    if (at >= p.length) damaged('read past the end of the file');
    return p[at];
  }

  /** `length` bytes at pos: a view of a page when they lie in one, else a copy (length ≤ 16 for the copy into scratch, else a new array). */
  bytes(pos: number, length: number): Uint8Array {
    const index = Math.floor(pos / PAGE);
    const at = pos % PAGE;
    if (at + length <= PAGE) {
      const p = this.page(index);
      if (at + length <= p.length) return p.subarray(at, at + length);
    }
    const out = length <= this.scratch.length ? this.scratch : new Uint8Array(length);
    // Page by page; past the end of the file, zeros.
    const end = Math.min(length, this.file.size - pos);
    let i = 0;
    while (i < end) {
      const p = this.page(Math.floor((pos + i) / PAGE));
      const from = (pos + i) % PAGE;
      const n = Math.min(end - i, p.length - from);
      if (n <= 0) damaged('read past the end of the file');
      out.set(p.subarray(from, from + n), i);
      i += n;
    }
    out.fill(0, i, length);
    return out;
  }

  u16(pos: number): number {
    const b = this.bytes(pos, 2);
    return b[0] | (b[1] << 8);
  }

  u32(pos: number): number {
    const b = this.bytes(pos, 4);
    return (b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)) >>> 0;
  }
}

/** How one sub-table is compressed, and where its index, sizes and blocks are. */
class Pairs {
  /** A table of one value (every position the same): that value, else -1. */
  constValue = -1;
  blockSize = 0;
  idxBits = 0;
  minLen = 0;
  /** Code-length-indexed (by length - minLen): the first code of each length, left-aligned in 32 bits, and its first symbol. */
  base = new Float64Array(0);
  offset = new Uint16Array(0);
  /** Per symbol: how many pairs it expands through (0: a leaf, one value), and its 3-byte pattern. */
  symLen = new Uint8Array(0);
  symPat = new Uint8Array(0);
  numSyms = 0;
  /** Positions the sub-table numbers (indices 0..tableSize-1). */
  tableSize = 0;
  /** Blocks of data, and entries of the size table (the blocks and a few more the index may point past). */
  realNumBlocks = 0;
  numBlocks = 0;
  /** File offsets of the block index (6 bytes per 2^idxBits positions), the block sizes (2 bytes each) and the blocks. */
  indexTable = 0;
  sizeTable = 0;
  data = 0;
  /** Bytes of each of the three. */
  sizes: [number, number, number] = [0, 0, 0];
  /** The sub-table's flags byte (DTZ: which side it holds, value maps). */
  flags = 0;
}

/** The pieces of a table, as its name gives them. */
export interface Material {
  /** Pieces in all, kings included. */
  count: number;
  /** Piece codes (colour * 8 + type) of the table's white and black sides: counts per code. */
  counts: Int32Array;
  /** No piece but the kings appears once: the two kings open the index. */
  kkEnc: boolean;
  /** Pawns of the leading colour (the one with fewer, but some) and of the other; 0 and 0 for pawnless tables. */
  leadPawns: number;
  otherPawns: number;
  /** The same material for both colours. */
  symmetric: boolean;
}

/** One sub-table: the order of its pieces (codes, like pieces together), its groups and factors, and its compression. */
export interface SubTable extends EncodingInfo {
  pieces: Uint8Array;
  pairs: Pairs;
}

/**
 * A parsed file: its sub-tables (indexed as probe() chooses them), and for
 * DTZ the value maps. Parsing checks everything the header says against the
 * file (magic, the material of the name, the code tables, that the sizes it
 * implies fill the file exactly) and throws DamagedTableError if any is
 * wrong; a probe that then walks off the data it was given throws it too.
 */
export class Table {
  /** WDL: [file of the leading pawn + 4 * side] (pawnless: [side]); DTZ: [file] ([0]). */
  readonly sub: SubTable[] = [];
  /** DTZ: per sub-table, the offsets (in values) of its four maps, and how many values each holds. */
  readonly mapIdx: number[][] = [];
  readonly mapLength: number[][] = [];
  mapStart = 0;

  constructor(
    readonly file: PagedFile,
    readonly material: Material,
    readonly dtz: boolean,
  ) {
    const f = file;
    const size = f.file.size;
    if (size === 0) damaged('empty (0 bytes)');
    const magic = f.u32(0);
    if (magic !== (dtz ? DTZ_MAGIC : WDL_MAGIC)) {
      const other = magic === (dtz ? WDL_MAGIC : DTZ_MAGIC) ? `: a ${dtz ? 'WDL' : 'DTZ'} file` : '';
      damaged(`not a Syzygy ${dtz ? 'DTZ' : 'WDL'} file (magic ${magic.toString(16)}${other})`);
    }
    if ((size & 63) !== 16) damaged(`damaged or incomplete (${size} bytes: not 16 more than a multiple of 64)`);
    const m = material;
    const split = !dtz && (f.u8(4) & 1) !== 0;
    const pawnful = m.leadPawns > 0;
    if (((f.u8(4) & 2) !== 0) !== pawnful) damaged(`its header says ${pawnful ? 'no pawns' : 'pawns'}: not the table its name says`);
    const num = pawnful ? 4 : 1;
    let at = 5;
    const infos: SubTable[][] = [];
    for (let t = 0; t < num; t++) {
      const pair: SubTable[] = [];
      for (let s = 0; s < (split ? 2 : 1); s++) pair.push(readEncInfo(f, at, s * 4, t, m));
      infos.push(pair);
      at += m.count + 1 + (pawnful && m.otherPawns > 0 ? 1 : 0);
    }
    at += at & 1;
    for (let t = 0; t < num; t++) {
      for (const info of infos[t]) at = readPairs(f, at, info.pairs, dtz);
    }
    if (dtz) {
      this.mapStart = at;
      for (let t = 0; t < num; t++) {
        const flags = infos[t][0].pairs.flags;
        const maps: number[] = [];
        const lengths: number[] = [];
        if ((flags & 2) !== 0) {
          if ((flags & 16) === 0) {
            for (let i = 0; i < 4; i++) {
              maps.push(at + 1 - this.mapStart);
              lengths.push(f.u8(at));
              at += 1 + f.u8(at);
            }
          } else {
            at += at & 1;
            for (let i = 0; i < 4; i++) {
              maps.push((at + 2 - this.mapStart) / 2);
              lengths.push(f.u16(at));
              at += 2 + 2 * f.u16(at);
            }
          }
          if (at > size) damaged('shorter than its header says');
        }
        this.mapIdx.push(maps);
        this.mapLength.push(lengths);
      }
      at += at & 1;
    }
    for (let t = 0; t < num; t++) {
      for (const info of infos[t]) {
        info.pairs.indexTable = at;
        at += info.pairs.sizes[0];
      }
    }
    for (let t = 0; t < num; t++) {
      for (const info of infos[t]) {
        info.pairs.sizeTable = at;
        at += info.pairs.sizes[1];
      }
    }
    for (let t = 0; t < num; t++) {
      for (const info of infos[t]) {
        at = Math.ceil(at / 64) * 64;
        info.pairs.data = at;
        at += info.pairs.sizes[2];
      }
    }
    // The data, padded to 64 bytes, then the generator's 16-byte checksum: nothing more, nothing less.
    const expected = Math.ceil(at / 64) * 64 + 16;
    if (expected > size) damaged(`shorter than its header says (${size} bytes, ${expected} expected)`);
    if (expected < size) damaged(`longer than its header says (${size} bytes, ${expected} expected)`);
    // The order probe() asks for: WDL [t + 4 * side] (a table not split holds both sides in [t]), DTZ [t].
    if (dtz) for (let t = 0; t < num; t++) this.sub.push(infos[t][0]);
    else {
      for (let s = 0; s < 2; s++) for (let t = 0; t < num; t++) this.sub.push(infos[t][split ? s : 0]);
    }
  }

  /** The flags byte of DTZ sub-table t (bit 0: the side to move it holds). */
  dtzFlags(t: number): number {
    return this.sub[t].pairs.flags;
  }

  /** A DTZ map value: map `m` (0..3) of sub-table t at v. */
  mapValue(t: number, m: number, v: number): number {
    if (v >= this.mapLength[t][m]) damaged('a value past its DTZ map');
    const flags = this.sub[t].pairs.flags;
    const start = this.mapIdx[t][m];
    if ((flags & 16) === 0) return this.file.u8(this.mapStart + start + v);
    return this.file.u16(this.mapStart + 2 * (start + v));
  }

  /** The 3-byte pattern of the value at index idx of sub-table s (decompress). */
  value(s: number, idx: number): Uint8Array {
    return decompress(this.file, this.sub[s].pairs, idx);
  }
}

/** Piece codes the format knows: pawn to king, white (1-6) and black (9-14). */
function isPieceCode(code: number): boolean {
  return (code & 7) >= 1 && (code & 7) <= 6;
}

/**
 * Reads the order of the pieces of one sub-table (nibble `shift` of the
 * header bytes at `at`), checks them against the material of the table's
 * name, and computes its groups and factors.
 */
function readEncInfo(f: PagedFile, at: number, shift: number, t: number, m: Material): SubTable {
  const morePawns = m.leadPawns > 0 && m.otherPawns > 0;
  const n = m.count;
  const pieces = new Uint8Array(n);
  const norm = new Uint8Array(n);
  const factor = new Float64Array(n);
  for (let i = 0; i < n; i++) pieces[i] = (f.u8(at + i + 1 + (morePawns ? 1 : 0)) >> shift) & 15;
  checkPieces(pieces, m);
  const order = (f.u8(at) >> shift) & 15;
  const order2 = morePawns ? (f.u8(at + 1) >> shift) & 15 : 15;
  let k = m.leadPawns > 0 ? m.leadPawns : m.kkEnc ? 2 : 3;
  norm[0] = k;
  if (morePawns) {
    norm[k] = m.otherPawns;
    k += norm[k];
  }
  for (let i = k; i < n; i += norm[i]) for (let j = i; j < n && pieces[j] === pieces[i]; j++) norm[i]++;
  let free = 64 - k;
  let f0 = 1;
  let placed = 0;
  for (let i = 0; k < n || i === order || i === order2; i++) {
    if (i === order) {
      factor[0] = f0;
      f0 *= firstGroupSize(m.kkEnc, m.leadPawns, norm[0], t);
      placed++;
    } else if (i === order2) {
      factor[norm[0]] = f0;
      f0 *= subfactor(norm[norm[0]], 48 - norm[0]);
      placed++;
    } else {
      factor[k] = f0;
      f0 *= subfactor(norm[k], free);
      free -= norm[k];
      k += norm[k];
    }
  }
  if (placed !== (morePawns ? 2 : 1) || !(f0 > 0)) damaged('the order of its pieces is not one the format has');
  const pairs = new Pairs();
  pairs.tableSize = f0;
  return { pieces, norm, factor, pairs };
}

/**
 * The pieces a sub-table's header lists must be the material of the table's
 * name: the same count of each piece, the leading pawns first, then the
 * other colour's pawns, like pieces together (a mislabelled file fails here).
 */
function checkPieces(pieces: Uint8Array, m: Material): void {
  const n = m.count;
  const counts = new Int32Array(16);
  for (let i = 0; i < n; i++) {
    if (!isPieceCode(pieces[i])) damaged(`its header lists a piece code ${pieces[i]}`);
    counts[pieces[i]]++;
  }
  for (let c = 0; c < 16; c++) if (counts[c] !== m.counts[c]) damaged('its header holds other pieces than its name says');
  let first: number;
  if (m.leadPawns > 0) {
    for (let i = 0; i < m.leadPawns; i++)
      if ((pieces[i] & 7) !== 1 || pieces[i] !== pieces[0]) damaged('its pawns are not where the format puts them');
    first = m.leadPawns;
    for (let i = first; i < first + m.otherPawns; i++)
      if (pieces[i] !== (pieces[0] ^ 8)) damaged('its pawns are not where the format puts them');
    first += m.otherPawns;
  } else {
    first = m.kkEnc ? 2 : 3;
    for (let i = 0; i < first; i++) if (counts[pieces[i]] !== 1) damaged('the first pieces of its header are not unique');
  }
  // After the first group, each kind of piece in one run.
  for (let i = first + 1; i < n; i++) {
    if (pieces[i] === pieces[i - 1]) continue;
    for (let j = first; j < i; j++) if (pieces[j] === pieces[i]) damaged('its like pieces are not together');
  }
}

/** Reads a sub-table's compression header at `at` into d (checking it); returns where the next one starts. */
function readPairs(f: PagedFile, at: number, d: Pairs, dtz: boolean): number {
  const size = f.file.size;
  d.flags = f.u8(at);
  if ((d.flags & 0x80) !== 0) {
    d.constValue = dtz ? 0 : f.u8(at + 1);
    if (d.constValue > 4) damaged(`a WDL value ${d.constValue}`);
    return at + 2;
  }
  d.blockSize = f.u8(at + 1);
  d.idxBits = f.u8(at + 2);
  d.realNumBlocks = f.u32(at + 4);
  d.numBlocks = d.realNumBlocks + f.u8(at + 3);
  const maxLen = f.u8(at + 8);
  const minLen = f.u8(at + 9);
  const h = maxLen - minLen + 1;
  if (maxLen > 32 || minLen < 1 || h <= 0) damaged(`code lengths ${minLen}..${maxLen}`);
  // A block holds at most 65536 values (its size is 16 bits) and is read whole; the index steps are at most the table.
  if (d.blockSize > 24 || d.idxBits > 48) damaged(`blocks of 2^${d.blockSize} bytes, index steps of 2^${d.idxBits}`);
  const numSyms = f.u16(at + 10 + 2 * h);
  if (numSyms === 0 || numSyms > 4096) damaged(`${numSyms} symbols`);
  d.numSyms = numSyms;
  d.minLen = minLen;
  d.offset = new Uint16Array(h);
  for (let i = 0; i < h; i++) {
    d.offset[i] = f.u16(at + 10 + 2 * i);
    if (d.offset[i] > numSyms) damaged('a code table past its symbols');
  }
  const end = at + 12 + 2 * h + 3 * numSyms + (numSyms & 1);
  if (end > size) damaged('shorter than its header says');
  d.symPat = f.bytes(at + 12 + 2 * h, 3 * numSyms).slice();
  d.symLen = new Uint8Array(numSyms);
  symbolLengths(d);
  // base[i]: the first code of length minLen + i, left-aligned in 32 bits (codes of a length are consecutive).
  const base = new Float64Array(h);
  base[h - 1] = 0;
  for (let i = h - 2; i >= 0; i--) base[i] = Math.floor((base[i + 1] + d.offset[i] - d.offset[i + 1]) / 2);
  for (let i = 0; i < h; i++) base[i] *= 2 ** (32 - (minLen + i));
  d.base = base;
  const indices = Math.ceil(d.tableSize / 2 ** d.idxBits);
  d.sizes = [6 * indices, 2 * d.numBlocks, d.realNumBlocks * 2 ** d.blockSize];
  if (d.sizes[0] + d.sizes[1] + d.sizes[2] > size) damaged('shorter than its header says');
  return end;
}

/**
 * How many pairs each symbol expands through (a symbol whose second half
 * is 0xfff is a leaf; a pair's halves are other symbols). Checks that the
 * halves are symbols, and that none contains itself: no expansion is deeper
 * than the longest a symbol may have (255 pairs), so a deeper one is a loop.
 */
function symbolLengths(d: Pairs): void {
  const known = new Uint8Array(d.numSyms);
  for (let s = 0; s < d.numSyms; s++) if (known[s] === 0) symbolLength(d, s, known, 0);
}

function symbolLength(d: Pairs, s: number, known: Uint8Array, depth: number): void {
  const w = 3 * s;
  const s2 = (d.symPat[w + 2] << 4) | (d.symPat[w + 1] >> 4);
  if (s2 === 0xfff) d.symLen[s] = 0;
  else {
    if (depth >= 255) damaged(`symbol ${s} contains itself`);
    const s1 = ((d.symPat[w + 1] & 15) << 8) | d.symPat[w];
    if (s1 >= d.numSyms || s2 >= d.numSyms) damaged(`symbol ${s} is made of one past the ${d.numSyms} symbols`);
    if (known[s1] === 0) symbolLength(d, s1, known, depth + 1);
    if (known[s2] === 0) symbolLength(d, s2, known, depth + 1);
    const len = d.symLen[s1] + d.symLen[s2] + 1;
    if (len > 255) damaged(`symbol ${s} expands too far`);
    d.symLen[s] = len;
  }
  known[s] = 1;
}

const CONST_PATTERN = new Uint8Array(3);

/**
 * The 3-byte pattern of the value at index idx. Every step is bounded by
 * what the header said: a walk past the blocks, the block's bits or the
 * symbols means the data is damaged (DamagedTableError), never a loop.
 */
function decompress(f: PagedFile, d: Pairs, idx: number): Uint8Array {
  if (d.constValue >= 0) {
    CONST_PATTERN[0] = d.constValue;
    return CONST_PATTERN;
  }
  if (!(idx >= 0 && idx < d.tableSize)) damaged(`index ${idx} past the table's ${d.tableSize} positions`);
  const span = 2 ** d.idxBits;
  const mainIdx = Math.floor(idx / span);
  let litIdx = idx - mainIdx * span - span / 2;
  let block = f.u32(d.indexTable + 6 * mainIdx);
  litIdx += f.u16(d.indexTable + 6 * mainIdx + 4);
  if (block >= d.numBlocks) damaged('an index past its blocks');
  if (litIdx < 0) {
    while (litIdx < 0) {
      if (--block < 0) damaged('an index before its first block');
      litIdx += f.u16(d.sizeTable + 2 * block) + 1;
    }
  } else {
    for (let size = f.u16(d.sizeTable + 2 * block); litIdx > size; size = f.u16(d.sizeTable + 2 * block)) {
      litIdx -= size + 1;
      if (++block >= d.numBlocks) damaged('an index past its blocks');
    }
  }
  if (block >= d.realNumBlocks) damaged('an index past its blocks');
  const blockBytes = 2 ** d.blockSize;
  const bits = f.bytes(d.data + block * blockBytes, blockBytes + 8);
  const m = d.minLen;
  // The last code of the block starts before its end.
  const lastBit = 8 * blockBytes;
  const numSyms = d.numSyms;
  let pos = 0;
  let sym: number;
  for (;;) {
    // The next 32 bits of the block, big-endian, from bit `pos`.
    const byte = pos >> 3;
    const shift = pos & 7;
    const word = ((bits[byte] << 24) | (bits[byte + 1] << 16) | (bits[byte + 2] << 8) | bits[byte + 3]) >>> 0;
    const code = shift === 0 ? word : ((word << shift) | (bits[byte + 4] >> (8 - shift))) >>> 0;
    let l = 0;
    while (code < d.base[l]) l++;
    sym = d.offset[l] + Math.floor((code - d.base[l]) / 2 ** (32 - m - l));
    if (sym >= numSyms) damaged('a code past its symbols');
    if (litIdx < d.symLen[sym] + 1) break;
    litIdx -= d.symLen[sym] + 1;
    pos += m + l;
    if (pos >= lastBit) damaged('a block that ends before its values');
  }
  // Down the pairs to the leaf holding litIdx (each step to a shorter symbol: symbolLengths checked that).
  const pat = d.symPat;
  while (d.symLen[sym] !== 0) {
    const w = 3 * sym;
    const s1 = ((pat[w + 1] & 15) << 8) | pat[w];
    if (litIdx < d.symLen[s1] + 1) sym = s1;
    else {
      litIdx -= d.symLen[s1] + 1;
      sym = (pat[w + 2] << 4) | (pat[w + 1] >> 4);
    }
  }
  return pat.subarray(3 * sym, 3 * sym + 3);
}
