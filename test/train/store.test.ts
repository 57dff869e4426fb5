// The data store: chunks added with their manifest rows, read back in order,
// resumed by run, and checked.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readDataFile } from '../../src/train/nnue-data.js';
import {
  LOCK,
  addChunk,
  readManifest,
  restoreRun,
  runChunkPath,
  storeFiles,
  verifyStore,
  withManifestLock,
} from '../../src/train/store.js';
import { indexGames } from '../../src/train/viriformat.js';
import { emptyStore, randomGames } from './fixtures.js';
import { scratchDir } from '../scratch.js';

const dir = scratchDir('kestrel-store-');

describe('the data store', () => {
  const store = emptyStore(dir);
  const run = { network: 'kestrel-0123456789ab', seed: '7', settings: 'soft 300, hard 1000, 8 random plies, openings within 200 cp' };
  const games = randomGames(9, 21);
  const index = indexGames(games);
  const slice = (a: number, b: number): Uint8Array => games.subarray(index.offsets[a], b < 9 ? index.offsets[b] : games.length);

  it('adds chunks with their rows, in order, and gives a run back whole', () => {
    const r1 = addChunk(store, slice(0, 4), { ...run, bundle: 'abc1234', first: 0 }, runChunkPath(run, 0, 4));
    expect(r1).toMatchObject({ id: '1', file: '01234567-s7/0000000-0000003.vfc', games: 4, first: 0 });
    const other = addChunk(
      store,
      randomGames(2, 4),
      { network: 'hce', bundle: 'def5678', seed: '-', settings: 'by hand', first: 0 },
      'x/other.vfc',
    );
    expect(other.id).toBe('2');
    // A run's next chunk must start where its last one ends.
    expect(() => addChunk(store, slice(5, 9), { ...run, bundle: 'abc1234', first: 5 }, runChunkPath(run, 5, 4))).toThrow(
      /starts at game 4/,
    );
    addChunk(store, slice(4, 9), { ...run, bundle: 'abc1234', first: 4 }, runChunkPath(run, 4, 5));
    addChunk(store, randomGames(1, 8), { ...run, bundle: 'abc1234', first: 0 }, 'held-out/t.vfc', true);
    expect(() => addChunk(store, slice(0, 1), { ...run, bundle: 'x', first: 0 }, 'x/other.vfc')).toThrow(/already has a row/);

    const manifest = readManifest(store);
    expect(manifest.training.map((r) => r.id)).toEqual(['1', '2', '3']);
    expect(manifest.heldOut.map((r) => r.id)).toEqual(['t1']);
    expect(Buffer.from(restoreRun(store, run)).equals(games)).toBe(true);
    expect(storeFiles(store)).toEqual(manifest.training.map((r) => join(store, r.file)));
    expect(storeFiles(store, { seeds: ['7'] }).length).toBe(2);
    expect(storeFiles(store, { networks: ['hce'] })).toEqual([join(store, 'x/other.vfc')]);
    expect(storeFiles(store, { rows: '2-3' }).length).toBe(2);
    expect(() => storeFiles(store, { rows: 'two' })).toThrow(/not a row number/);
    expect(Buffer.from(readDataFile(join(store, 'x/other.vfc'))).equals(randomGames(2, 4))).toBe(true);
    expect(verifyStore(store, () => {})).toEqual([]);
  });

  it('finds a damaged chunk, a chunk without a row and a gap in a run', () => {
    const path = join(store, 'x/other.vfc');
    const good = readFileSync(path);
    writeFileSync(path, packAnother());
    writeFileSync(join(store, 'x/stray.vfc'), good);
    const manifest = readFileSync(join(store, 'README.md'), 'utf8');
    writeFileSync(join(store, 'README.md'), manifest.replace(/\n\| 1 \|[^\n]*/, ''));
    const problems = verifyStore(store, () => {});
    expect(problems.some((p) => p.startsWith('x/other.vfc: '))).toBe(true);
    expect(problems).toContain('x/stray.vfc: a chunk with no row in the manifest');
    expect(problems.some((p) => /do not follow on/.test(p))).toBe(true);
    expect(problems.some((p) => /row number 2 where 1 follows/.test(p))).toBe(true);
  });
});

describe("the data store's manifest lock", () => {
  it('waits for a running holder, takes over a dead one, and is released after a failure', () => {
    const store = emptyStore(scratchDir('kestrel-lock-'));
    const lock = join(store, LOCK);
    // A process that runs stands in for another writer that holds the lock.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeFileSync(lock, `${other.pid}\n`);
      expect(() => withManifestLock(store, () => 1, 100)).toThrow(/locked by process \d+/);
    } finally {
      other.kill();
    }
    // A process that has ended, and this process's own id (left by an earlier process that had it).
    for (const stale of [spawnSync(process.execPath, ['-e', '']).pid!, process.pid]) {
      writeFileSync(lock, `${stale}\n`);
      expect(withManifestLock(store, () => readFileSync(lock, 'utf8'), 100)).toBe(`${process.pid}\n`);
      expect(existsSync(lock)).toBe(false);
    }
    expect(() =>
      withManifestLock(store, () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(existsSync(lock)).toBe(false);
  });

  it('gives chunks added by processes at once a row each, numbered in turn', async () => {
    const store = emptyStore(scratchDir('kestrel-lock-'));
    const kestrel = fileURLToPath(new URL('../../dist/kestrel.js', import.meta.url));
    const writers = 6;
    const exits = Array.from({ length: writers }, (_, i) => {
      const games = join(store, `games-${i}.vf`);
      writeFileSync(games, randomGames(3, 100 + i));
      const args = ['data-add', games, '--store', store, '--network', 'hce', '--bundle', 'x', '--settings', 'test', '--file', `w/${i}.vfc`];
      return new Promise<number | null>((done) => spawn(process.execPath, [kestrel, ...args], { stdio: 'ignore' }).on('close', done));
    });
    expect(await Promise.all(exits)).toEqual(Array(writers).fill(0));
    const rows = readManifest(store).training;
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: writers }, (_, i) => String(i + 1)));
    expect(new Set(rows.map((r) => r.file)).size).toBe(writers);
    expect(verifyStore(store, () => {})).toEqual([]);
    expect(existsSync(join(store, LOCK))).toBe(false);
  }, 60_000);
});

function packAnother(): Uint8Array {
  const other = scratchDir('kestrel-store-');
  emptyStore(other);
  addChunk(other, randomGames(2, 5), { network: 'hce', bundle: 'x', seed: '-', settings: 'y', first: 0 }, 'a.vfc');
  return readFileSync(join(other, 'a.vfc'));
}
