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
    if (length <= 0) throw new Error('read past the end of the file');
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
    return this.page(Math.floor(pos / PAGE))[pos % PAGE];
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
    const end = Math.min(length, this.file.size - pos);
    for (let i = 0; i < length; i++) out[i] = i < end ? this.u8(pos + i) : 0;
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

/** A parsed file: its sub-tables (indexed as probe() chooses them), and for DTZ the value maps. */
export class Table {
  /** WDL: [file of the leading pawn + 4 * side] (pawnless: [side]); DTZ: [file] ([0]). */
  readonly sub: SubTable[] = [];
  /** DTZ: per sub-table, the offsets (in values) of its four maps, and whether they hold 16-bit values. */
  readonly mapIdx: number[][] = [];
  mapStart = 0;

  constructor(
    readonly file: PagedFile,
    readonly material: Material,
    readonly dtz: boolean,
  ) {
    const f = file;
    const magic = f.u32(0);
    if (magic !== (dtz ? DTZ_MAGIC : WDL_MAGIC)) throw new Error(`not a Syzygy ${dtz ? 'DTZ' : 'WDL'} file (magic ${magic.toString(16)})`);
    if ((f.file.size & 63) !== 16) throw new Error(`damaged or incomplete (${f.file.size} bytes: not 16 more than a multiple of 64)`);
    const m = material;
    const split = !dtz && (f.u8(4) & 1) !== 0;
    const pawnful = m.leadPawns > 0;
    const num = pawnful ? 4 : 1;
    let at = 5;
    const sizes: number[][] = [];
    const infos: SubTable[][] = [];
    for (let t = 0; t < num; t++) {
      const pair: SubTable[] = [];
      const size: number[] = [];
      for (let s = 0; s < (split ? 2 : 1); s++) {
        const { info, size: tbSize } = readEncInfo(f, at, s * 4, t, m);
        pair.push(info);
        size.push(tbSize);
      }
      infos.push(pair);
      sizes.push(size);
      at += m.count + 1 + (pawnful && m.otherPawns > 0 ? 1 : 0);
    }
    at += at & 1;
    for (let t = 0; t < num; t++) {
      for (let s = 0; s < infos[t].length; s++) at = readPairs(f, at, sizes[t][s], infos[t][s].pairs, dtz);
    }
    if (dtz) {
      this.mapStart = at;
      for (let t = 0; t < num; t++) {
        const flags = infos[t][0].pairs.flags;
        const maps: number[] = [];
        if ((flags & 2) !== 0) {
          if ((flags & 16) === 0) {
            for (let i = 0; i < 4; i++) {
              maps.push(at + 1 - this.mapStart);
              at += 1 + f.u8(at);
            }
          } else {
            at += at & 1;
            for (let i = 0; i < 4; i++) {
              maps.push((at + 2 - this.mapStart) / 2);
              at += 2 + 2 * f.u16(at);
            }
          }
        }
        this.mapIdx.push(maps);
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
    if (at > f.file.size) throw new Error('damaged or incomplete (shorter than its header says)');
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

/** Reads the order of the pieces of one sub-table (nibble `shift` of the header bytes at `at`) and computes its groups and factors. */
function readEncInfo(f: PagedFile, at: number, shift: number, t: number, m: Material): { info: SubTable; size: number } {
  const morePawns = m.leadPawns > 0 && m.otherPawns > 0;
  const n = m.count;
  const pieces = new Uint8Array(n);
  const norm = new Uint8Array(n);
  const factor = new Float64Array(n);
  for (let i = 0; i < n; i++) pieces[i] = (f.u8(at + i + 1 + (morePawns ? 1 : 0)) >> shift) & 15;
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
  for (let i = 0; k < n || i === order || i === order2; i++) {
    if (i === order) {
      factor[0] = f0;
      f0 *= firstGroupSize(m.kkEnc, m.leadPawns, norm[0], t);
    } else if (i === order2) {
      factor[norm[0]] = f0;
      f0 *= subfactor(norm[norm[0]], 48 - norm[0]);
    } else {
      factor[k] = f0;
      f0 *= subfactor(norm[k], free);
      free -= norm[k];
      k += norm[k];
    }
  }
  return { info: { pieces, norm, factor, pairs: new Pairs() }, size: f0 };
}

/** Reads a sub-table's compression header at `at` into d; returns where the next one starts. */
function readPairs(f: PagedFile, at: number, tableSize: number, d: Pairs, dtz: boolean): number {
  d.flags = f.u8(at);
  if ((d.flags & 0x80) !== 0) {
    d.constValue = dtz ? 0 : f.u8(at + 1);
    return at + 2;
  }
  d.blockSize = f.u8(at + 1);
  d.idxBits = f.u8(at + 2);
  const realNumBlocks = f.u32(at + 4);
  const numBlocks = realNumBlocks + f.u8(at + 3);
  const maxLen = f.u8(at + 8);
  const minLen = f.u8(at + 9);
  const h = maxLen - minLen + 1;
  const numSyms = f.u16(at + 10 + 2 * h);
  if (maxLen > 32 || h <= 0) throw new Error(`damaged (code lengths ${minLen}..${maxLen})`);
  d.minLen = minLen;
  d.offset = new Uint16Array(h);
  for (let i = 0; i < h; i++) d.offset[i] = f.u16(at + 10 + 2 * i);
  d.symPat = f.bytes(at + 12 + 2 * h, 3 * numSyms).slice();
  d.symLen = new Uint8Array(numSyms);
  const known = new Uint8Array(numSyms);
  for (let s = 0; s < numSyms; s++) if (known[s] === 0) symbolLength(d, s, known);
  // base[i]: the first code of length minLen + i, left-aligned in 32 bits (codes of a length are consecutive).
  const base = new Float64Array(h);
  base[h - 1] = 0;
  for (let i = h - 2; i >= 0; i--) base[i] = Math.floor((base[i + 1] + d.offset[i] - d.offset[i + 1]) / 2);
  for (let i = 0; i < h; i++) base[i] *= 2 ** (32 - (minLen + i));
  d.base = base;
  const indices = Math.ceil(tableSize / 2 ** d.idxBits);
  d.sizes = [6 * indices, 2 * numBlocks, realNumBlocks * 2 ** d.blockSize];
  return at + 12 + 2 * h + 3 * numSyms + (numSyms & 1);
}

/** How many pairs symbol s expands through (a symbol whose second half is 0xfff is a leaf). */
function symbolLength(d: Pairs, s: number, known: Uint8Array): void {
  const w = 3 * s;
  const s2 = (d.symPat[w + 2] << 4) | (d.symPat[w + 1] >> 4);
  if (s2 === 0xfff) d.symLen[s] = 0;
  else {
    const s1 = ((d.symPat[w + 1] & 15) << 8) | d.symPat[w];
    if (known[s1] === 0) symbolLength(d, s1, known);
    if (known[s2] === 0) symbolLength(d, s2, known);
    d.symLen[s] = d.symLen[s1] + d.symLen[s2] + 1;
  }
  known[s] = 1;
}

const CONST_PATTERN = new Uint8Array(3);

/** The 3-byte pattern of the value at index idx. */
function decompress(f: PagedFile, d: Pairs, idx: number): Uint8Array {
  if (d.constValue >= 0) {
    CONST_PATTERN[0] = d.constValue;
    return CONST_PATTERN;
  }
  const span = 2 ** d.idxBits;
  const mainIdx = Math.floor(idx / span);
  let litIdx = idx - mainIdx * span - span / 2;
  let block = f.u32(d.indexTable + 6 * mainIdx);
  litIdx += f.u16(d.indexTable + 6 * mainIdx + 4);
  if (litIdx < 0) {
    while (litIdx < 0) litIdx += f.u16(d.sizeTable + 2 * --block) + 1;
  } else {
    for (let size = f.u16(d.sizeTable + 2 * block); litIdx > size; size = f.u16(d.sizeTable + 2 * block)) {
      litIdx -= size + 1;
      block++;
    }
  }
  const blockBytes = 2 ** d.blockSize;
  const bits = f.bytes(d.data + block * blockBytes, blockBytes + 8);
  const m = d.minLen;
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
    if (litIdx < d.symLen[sym] + 1) break;
    litIdx -= d.symLen[sym] + 1;
    pos += m + l;
  }
  // Down the pairs to the leaf holding litIdx.
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
