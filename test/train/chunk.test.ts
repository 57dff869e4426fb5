// The data store's chunks: every chunk unpacks to the viriformat bytes it was
// made from, byte for byte, whatever the games hold.

import { describe, expect, it } from 'vitest';
import { chunkSummary, packChunk, unpackChunk } from '../../src/train/chunk.js';
import { indexGames } from '../../src/train/viriformat.js';
import { randomGames } from './fixtures.js';

describe('data chunks', () => {
  it('unpack to the games they were made from, byte for byte', () => {
    const vf = randomGames(60, 5);
    const index = indexGames(vf);
    const chunk = packChunk(vf);
    expect(chunkSummary(chunk)).toEqual({ games: 60, positions: index.plies.reduce((a, b) => a + b, 0), bytes: vf.length });
    expect(Buffer.from(unpackChunk(chunk)).equals(vf)).toBe(true);
    // No games at all.
    expect(unpackChunk(packChunk(new Uint8Array(0))).length).toBe(0);
  });

  it('keep a game they cannot replay (an illegal move) as it is', () => {
    const vf = randomGames(6, 9);
    const index = indexGames(vf);
    const g = index.plies.findIndex((n) => n > 3);
    const bad = vf.slice();
    // Game g's second move becomes a1-a1 promoting to a knight: never legal.
    const at = index.offsets[g] + 32 + 4;
    bad[at] = 0;
    bad[at + 1] = 0xc0;
    const chunk = packChunk(bad);
    expect(Buffer.from(unpackChunk(chunk)).equals(bad)).toBe(true);
  });

  it('refuse a half-written game, another file, and damage', () => {
    const vf = randomGames(4, 3);
    expect(() => packChunk(vf.subarray(0, vf.length - 2))).toThrow(/half-written/);
    expect(() => chunkSummary(vf)).toThrow(/not a data chunk/);
    const chunk = packChunk(vf);
    const damaged = chunk.slice();
    damaged[damaged.length - 5] ^= 0xff;
    expect(() => {
      const back = unpackChunk(damaged);
      if (!Buffer.from(back).equals(vf)) throw new Error('differs');
    }).toThrow();
  });
});
