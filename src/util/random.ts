// The seeded pseudo-random generators of the project, named by algorithm.
// Each generator is a function returning the next 32-bit output as an
// unsigned integer (0 .. 2^32 - 1); unitInterval turns one into numbers in
// [0, 1). The same seed gives the same sequence on every host, so that
// self-play games, training runs, book picks and strength levels can be
// reproduced. None of them is for cryptography or for hot search code.
//
// Users keep the generator they were written with: changing a user's
// generator (or its seed) changes its output, such as self-play game i of a
// seed or the bytes of a trained network.

/**
 * Marsaglia's xorshift32 (shifts 13, 17, 5; "Xorshift RNGs", 2003): each
 * call returns the new state. Zero is a fixed point: seed 0 gives zeros
 * forever, so callers that may be given 0 substitute a seed of their own.
 */
export function xorshift32(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
}

/** Tommy Ettinger's mulberry32: a Weyl sequence (step 0x6d2b79f5) through a mixing function; any seed, 0 included. */
export function mulberry32(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/**
 * The linear congruential generator of the C standard's example rand()
 * (multiplier 1103515245, increment 12345) modulo 2^32: each call returns
 * the new state. Its low bits are poor (bit k has period 2^(k+1)).
 */
export function lcg32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s;
  };
}

/** Numbers in [0, 1): each 32-bit output of `next` divided by 2^32. */
export function unitInterval(next: () => number): () => number {
  return () => next() / 4294967296;
}

/**
 * Two 32-bit values mixed into one well-spread 32-bit seed (MurmurHash3's
 * finaliser): seeds for related streams, such as game `index` of a run seed.
 */
export function mixSeed(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
