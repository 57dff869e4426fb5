// The checksum the Syzygy generator appends to every file (its last 16
// bytes): the data cut into chunks of 16 MB, each hashed to 32 bytes by
// CityHashCrc256, and those hashes hashed to 16 bytes by CityHash128 (both
// by Geoff Pike and Jyrki Alakuijala, as the generator's tbcheck computes
// them). Written here from the algorithms, in 64-bit words held as two
// 32-bit halves (hi, lo): no BigInt.

/** Where mulTo and rotateTo leave their 64-bit result: high and low halves. */
let RH = 0;
let RL = 0;

/** A 64-bit word. */
interface U64 {
  hi: number;
  lo: number;
}

const u64 = (hi: number, lo: number): U64 => ({ hi: hi >>> 0, lo: lo >>> 0 });
const fromNumber = (n: number): U64 => u64(Math.floor(n / 2 ** 32), n % 2 ** 32);

const K0 = u64(0xc3a5c85c, 0x97cb3127);
const K1 = u64(0xb492b66f, 0xbe98f273);
const K3 = u64(0xc949d7c7, 0x509e6557);
const K_MUL = u64(0x9ddfea08, 0xeb382d69);

function add(a: U64, b: U64): U64 {
  const lo = a.lo + b.lo;
  return u64(a.hi + b.hi + (lo > 0xffffffff ? 1 : 0), lo);
}

function xor(a: U64, b: U64): U64 {
  return u64(a.hi ^ b.hi, a.lo ^ b.lo);
}

/** The low 64 bits of a * b. */
function mul(a: U64, b: U64): U64 {
  mulTo(a.hi, a.lo, b.hi, b.lo);
  return u64(RH, RL);
}

function shiftRight(a: U64, n: number): U64 {
  if (n === 0) return a;
  if (n >= 32) return u64(0, a.hi >>> (n - 32));
  return u64(a.hi >>> n, (a.lo >>> n) | (a.hi << (32 - n)));
}

function shiftLeft(a: U64, n: number): U64 {
  if (n === 0) return a;
  if (n >= 32) return u64(a.lo << (n - 32), 0);
  return u64((a.hi << n) | (a.lo >>> (32 - n)), a.lo << n);
}

/** a rotated right by n (0 < n < 64). */
function rotate(a: U64, n: number): U64 {
  rotateTo(a.hi, a.lo, n);
  return u64(RH, RL);
}

function shiftMix(a: U64): U64 {
  return xor(a, shiftRight(a, 47));
}

function fetch64(s: Uint8Array, at: number): U64 {
  return u64(
    s[at + 4] | (s[at + 5] << 8) | (s[at + 6] << 16) | (s[at + 7] << 24),
    s[at] | (s[at + 1] << 8) | (s[at + 2] << 16) | (s[at + 3] << 24),
  );
}

/** Murmur-like mixing of two words into one. */
function hashLen16(u: U64, v: U64): U64 {
  let a = mul(xor(u, v), K_MUL);
  a = xor(a, shiftRight(a, 47));
  let b = mul(xor(v, a), K_MUL);
  b = xor(b, shiftRight(b, 47));
  return mul(b, K_MUL);
}

/** CRC-32C (Castagnoli, reflected), byte by byte. */
const CRC_TABLE = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
  CRC_TABLE[n] = c >>> 0;
}

// The main loop of CityHashCrc256 runs over every byte of a file: it keeps its words in typed arrays
// and the results of mulTo and rotateTo in RH:RL, allocating nothing.

/** RH:RL = low 64 bits of (ah:al) * (bh:bl). */
function mulTo(ah: number, al: number, bh: number, bl: number): void {
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  // (mid and low stay below 2^34: exact, and `& 0xffff` reads their low bits.)
  const mid = a0 * b1 + a1 * b0;
  const low = a0 * b0 + (mid & 0xffff) * 65536;
  RL = low >>> 0;
  RH = (a1 * b1 + ((mid / 65536) | 0) + ((low / 4294967296) | 0) + Math.imul(al, bh) + Math.imul(ah, bl)) >>> 0;
}

/** RH:RL = (h:l) rotated right by n (0 < n < 64). */
function rotateTo(h: number, l: number, n: number): void {
  if (n === 32) {
    RH = l;
    RL = h;
  } else if (n < 32) {
    RH = ((h >>> n) | (l << (32 - n))) >>> 0;
    RL = ((l >>> n) | (h << (32 - n))) >>> 0;
  } else {
    const m = n - 32;
    RH = ((l >>> m) | (h << (32 - m))) >>> 0;
    RL = ((h >>> m) | (l << (32 - m))) >>> 0;
  }
}

/** CRC-32C of crc continued over the 8 bytes of h:l, little-endian. */
function crcWord(crc: number, h: number, l: number): number {
  let c = crc;
  c = (c >>> 8) ^ CRC_TABLE[(c ^ l) & 0xff];
  c = (c >>> 8) ^ CRC_TABLE[(c ^ (l >>> 8)) & 0xff];
  c = (c >>> 8) ^ CRC_TABLE[(c ^ (l >>> 16)) & 0xff];
  c = (c >>> 8) ^ CRC_TABLE[(c ^ (l >>> 24)) & 0xff];
  c = (c >>> 8) ^ CRC_TABLE[(c ^ h) & 0xff];
  c = (c >>> 8) ^ CRC_TABLE[(c ^ (h >>> 8)) & 0xff];
  c = (c >>> 8) ^ CRC_TABLE[(c ^ (h >>> 16)) & 0xff];
  return ((c >>> 8) ^ CRC_TABLE[(c ^ (h >>> 24)) & 0xff]) >>> 0;
}

/** The words a, b, c, d, e, t of the loop (hi at 2k, lo at 2k + 1), and the CRCs f, g, h, i, j. */
const WORDS = new Uint32Array(12);
const CRCS = new Uint32Array(5);
/** For each of a..e: the word it is made from, and its rotations (z = 0, z = 1). */
const FROM = [1, 2, 3, 4, 5];
const TURN = [
  [41, 40],
  [27, 26],
  [41, 40],
  [33, 32],
  [25, 24],
];

/** One 40-byte step of the loop at s[p..p+40): multiplied by K0 or not (z = 1). */
function step(s: Uint8Array, p: number, z: number): void {
  const w = WORDS;
  const oldH = w[0];
  const oldL = w[1];
  for (let k = 0; k < 5; k++) {
    const from = FROM[k];
    const fh = k === 4 ? w[10] : w[2 * from];
    const fl = k === 4 ? w[11] : w[2 * from + 1];
    rotateTo(fh, fl, TURN[k][z]);
    if (z === 0) mulTo(RH, RL, K0.hi, K0.lo);
    const q = p + 8 * k;
    const lo = RL + ((s[q] | (s[q + 1] << 8) | (s[q + 2] << 16) | (s[q + 3] << 24)) >>> 0);
    w[2 * k] = RH + ((s[q + 4] | (s[q + 5] << 8) | (s[q + 6] << 16) | (s[q + 7] << 24)) >>> 0) + (lo > 0xffffffff ? 1 : 0);
    w[2 * k + 1] = lo;
  }
  w[10] = oldH;
  w[11] = oldL;
  for (let k = 0; k < 5; k++) CRCS[k] = crcWord(CRCS[k], w[2 * k], w[2 * k + 1]);
}

const word = (k: number): U64 => u64(WORDS[2 * k], WORDS[2 * k + 1]);
const setWord = (k: number, x: U64): void => {
  WORDS[2 * k] = x.hi;
  WORDS[2 * k + 1] = x.lo;
};

/** CityHashCrc256 of s[at..at+len) for len >= 240 (shorter inputs are padded by the caller), into result[0..4). */
function crc256Long(s: Uint8Array, at: number, len: number, seed: number, result: U64[]): void {
  const c0 = hashLen16(add(fetch64(s, at + 96), K0), fromNumber(len));
  const d0 = add(mul(fetch64(s, at + 120), K0), fromNumber(len));
  result[0] = c0;
  result[1] = d0;
  setWord(0, add(fetch64(s, at + 56), K0));
  setWord(1, add(fetch64(s, at + 96), K0));
  setWord(2, c0);
  setWord(3, d0);
  setWord(4, add(fetch64(s, at + 184), u64(0, seed)));
  setWord(5, add(c0, d0));
  CRCS.fill(0);
  CRCS[0] = seed;
  let p = at;
  let iters = Math.floor(len / 240);
  let left = len - iters * 240;
  do {
    for (let k = 0; k < 3; k++) {
      step(s, p, 1);
      step(s, p + 40, 0);
      p += 80;
    }
  } while (--iters > 0);
  while (left >= 40) {
    step(s, p, 0);
    p += 40;
    left -= 40;
  }
  if (left > 0) step(s, p + left - 40, 0);
  let a = word(0);
  let b = word(1);
  let c = word(2);
  let d = word(3);
  let e = word(4);
  const t = word(5);
  let f = u64(0, CRCS[0]);
  let g = u64(0, CRCS[1]);
  let h = u64(0, CRCS[2]);
  let i = u64(0, CRCS[3]);
  let j = u64(0, CRCS[4]);
  j = add(j, shiftLeft(i, 32));
  a = hashLen16(a, j);
  h = add(h, shiftLeft(g, 32));
  b = add(b, h);
  c = add(hashLen16(c, f), i);
  d = hashLen16(d, add(e, result[0]));
  j = add(j, e);
  i = add(i, hashLen16(h, t));
  e = add(hashLen16(a, d), j);
  f = add(hashLen16(b, c), a);
  g = add(hashLen16(j, i), c);
  result[0] = add(add(add(e, f), g), h);
  a = add(mul(shiftMix(mul(add(a, g), K0)), K0), b);
  result[1] = add(result[1], add(a, result[0]));
  a = add(mul(shiftMix(mul(a, K0)), K0), c);
  result[2] = add(a, result[1]);
  a = mul(shiftMix(mul(add(a, e), K0)), K0);
  result[3] = add(a, result[2]);
}

/** CityHashCrc256 of s[at..at+len). */
function crc256(s: Uint8Array, at: number, len: number, result: U64[]): void {
  if (len >= 240) crc256Long(s, at, len, 0, result);
  else {
    const padded = new Uint8Array(240);
    padded.set(s.subarray(at, at + len));
    crc256Long(padded, 0, 240, ~len >>> 0, result);
  }
}

/** CityHash128 (through CityMurmur) of s, for 16 < s.length < 144: the form the per-chunk hashes of a file up to 64 MB take. */
function cityHash128(s: Uint8Array): [U64, U64] {
  let a = xor(fetch64(s, 0), K3);
  let b = fetch64(s, 8);
  // CityMurmur of s[16..) with the seed (a, b).
  const at = 16;
  const len = s.length - 16;
  let c: U64;
  let d: U64;
  if (len <= 16) {
    // (s.length is 32 here: 16 bytes left.)
    a = mul(shiftMix(mul(a, K1)), K1);
    const x = fetch64(s, at);
    const y = fetch64(s, at + len - 8);
    c = add(mul(b, K1), xor(hashLen16(x, rotate(add(y, fromNumber(len)), len)), y));
    d = shiftMix(add(a, x));
  } else {
    c = hashLen16(add(fetch64(s, at + len - 8), K1), a);
    d = hashLen16(add(b, fromNumber(len)), add(c, fetch64(s, at + len - 16)));
    a = add(a, d);
    let p = at;
    for (let l = len - 16; l > 0; l -= 16) {
      a = mul(xor(a, mul(shiftMix(mul(fetch64(s, p), K1)), K1)), K1);
      b = xor(b, a);
      c = mul(xor(c, mul(shiftMix(mul(fetch64(s, p + 8), K1)), K1)), K1);
      d = xor(d, c);
      p += 16;
    }
  }
  a = hashLen16(a, c);
  b = hashLen16(d, b);
  return [xor(a, b), hashLen16(b, a)];
}

/** Bytes per chunk the generator hashes separately. */
const CHUNK = 1 << 24;

/**
 * Whether a whole file's bytes carry the checksum the generator appended
 * (a file of up to 64 MB: 16 more than a multiple of 64, its last 16 bytes
 * the checksum of the rest).
 */
export function checksumMatches(bytes: Uint8Array): boolean {
  const size = bytes.length - 16;
  if (size <= 0 || (size & 63) !== 0 || size > 4 * CHUNK) throw new RangeError('not a file of up to 64 MB with a checksum');
  const chunks = Math.ceil(size / CHUNK);
  const hashes = new Uint8Array(32 * chunks);
  const result: U64[] = [];
  for (let k = 0; k < chunks; k++) {
    crc256(bytes, k * CHUNK, Math.min(CHUNK, size - k * CHUNK), result);
    for (let w = 0; w < 4; w++) {
      for (let x = 0; x < 4; x++) {
        hashes[32 * k + 8 * w + x] = result[w].lo >>> (8 * x);
        hashes[32 * k + 8 * w + 4 + x] = result[w].hi >>> (8 * x);
      }
    }
  }
  const [first, second] = cityHash128(hashes);
  const stored = [fetch64(bytes, size), fetch64(bytes, size + 8)];
  return stored[0].hi === first.hi && stored[0].lo === first.lo && stored[1].hi === second.hi && stored[1].lo === second.lo;
}
