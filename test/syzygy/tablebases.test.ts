// The Syzygy prober against Fathom's answers (stored beside the tables in
// test/data/syzygy/, made by bench/syzygy-oracle.ts), its index arithmetic
// past 2^31, and how it meets missing and damaged files.

import { copyFileSync, fstatSync, openSync, readSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { type EncodingInfo, binomial, encode } from '../../src/syzygy/encoding.js';
import { PROBE_FAILED, type TableStore, Tablebases, wdlFromDtz } from '../../src/syzygy/tablebases.js';
import { readTestData } from '../data.js';
import { scratchDir } from '../scratch.js';

const FOLDER = fileURLToPath(new URL('../data/syzygy', import.meta.url));
const store: TableStore = {
  list: (folder) => readdirSync(folder),
  open: (path) => {
    const fd = openSync(path, 'r');
    return { size: fstatSync(fd).size, read: (into, offset, length, position) => readSync(fd, into, offset, length, position) };
  },
};
const scratch = scratchDir('kestrel-syzygy-');

describe('Syzygy tablebases', () => {
  it('finds the tables of a folder, with their DTZ files', () => {
    const tb = new Tablebases(store);
    expect(tb.scan(FOLDER)).toEqual({ wdl: 11, dtz: 7, maxPieces: 4, problems: [] });
    expect(tb.tableNames()).toContain('KPvKP');
  });

  it('agrees with Fathom on WDL, WDL with the fifty-move counter, and |DTZ|, en passant included', () => {
    const tb = new Tablebases(store);
    tb.scan(FOLDER);
    const lines = readTestData('syzygy/probes.txt')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('#'));
    expect(lines.length).toBe(2600);
    let compared = 0;
    let withEp = 0;
    for (const line of lines) {
      const [fen, wdl0, rest, scope] = line.split(';');
      const pos = new Position(fen);
      if (pos.ep >= 0) withEp++;
      expect(String(tb.probeWdl(pos)), fen).toBe(wdl0);
      if (scope === 'all') {
        const dtz = tb.probeDtz(pos);
        expect(`${wdlFromDtz(dtz, pos.halfmove)} ${Math.abs(dtz)}`, fen).toBe(rest);
      }
      compared++;
    }
    expect(compared).toBe(2600);
    expect(withEp).toBeGreaterThan(100);
  });

  it('says what is wrong with a folder or a file, and probes on without it', () => {
    const tb = new Tablebases(store);
    const scan = tb.scan(`${join(scratch, 'none')}:${FOLDER}`);
    expect(scan.problems).toEqual([`cannot read the folder ${join(scratch, 'none')}: no such file`]);
    expect(scan.wdl).toBe(11);
    // A damaged file: KRvK cut short. Its positions fail; the others still probe.
    const damaged = join(scratch, 'damaged');
    rmSync(damaged, { recursive: true, force: true });
    readdirSync(FOLDER).forEach((f) => {
      if (f.startsWith('K')) copyFileSync(join(FOLDER, f), join(scratch, f));
    });
    truncateSync(join(scratch, 'KRvK.rtbw'), 100);
    const broken = new Tablebases(store);
    broken.scan(scratch);
    expect(broken.probeWdl(new Position('8/8/8/4k3/8/8/8/R3K3 w - - 0 1'))).toBe(PROBE_FAILED);
    expect(broken.probeWdl(new Position('8/8/8/4k3/8/8/8/1Q2K3 w - - 0 1'))).toBe(2);
  });

  it('closes the files it opened when it scans again or is closed', () => {
    const open = new Set<string>();
    let opened = 0;
    const counting: TableStore = {
      list: store.list,
      open: (path) => {
        const file = store.open(path);
        open.add(path);
        opened++;
        return { ...file, close: () => open.delete(path) };
      },
    };
    const tb = new Tablebases(counting);
    tb.scan(FOLDER);
    // The scan opens, checks and closes every file.
    expect(opened).toBe(18);
    expect(open.size).toBe(0);
    expect(tb.probeDtz(new Position('R7/8/4K3/7k/8/8/3n4/8 w - - 0 1'))).toBe(20);
    expect(open.size).toBeGreaterThan(0);
    tb.scan(FOLDER);
    expect(open.size).toBe(0);
    tb.probeWdl(new Position('8/8/8/4k3/8/8/8/R3K3 w - - 0 1'));
    tb.close();
    expect(open.size).toBe(0);
    expect(tb.maxPieces).toBe(0);
  });

  it('numbers six- and seven-piece positions past 2^31 exactly', () => {
    // A pawnless 7-piece material, groups of 3 (first) + 2 + 2 like pieces, with factors as large as the format's.
    const norm = Uint8Array.from([3, 0, 0, 2, 0, 2, 0]);
    const factor = new Float64Array(7);
    factor[0] = 1;
    factor[3] = 31332;
    factor[5] = 31332 * binomial(61, 2);
    const info: EncodingInfo = { norm, factor };
    const size = factor[5] * binomial(59, 2);
    expect(size).toBeGreaterThan(2 ** 32);
    let seed = 5;
    const next = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    let largest = 0;
    for (let trial = 0; trial < 2000; trial++) {
      const squares: number[] = [];
      while (squares.length < 7) {
        const s = next(64);
        if (!squares.includes(s)) squares.push(s);
      }
      const p = Int32Array.from(squares);
      const idx = encode(p, 7, info, false, 0, 0);
      // The same sum in BigInt from the squares encode() left (folded and sorted in p).
      const groups = (k: number, t: number): bigint => {
        let s = 0n;
        for (let i = k; i < t; i++) {
          let skips = 0;
          for (let j = 0; j < k; j++) if (p[i] > p[j]) skips++;
          s += BigInt(binomial(p[i] - skips, i - k + 1));
        }
        return s;
      };
      const first = BigInt(idx) - groups(3, 5) * BigInt(factor[3]) - groups(5, 7) * BigInt(factor[5]);
      expect(first >= 0n && first < 31332n, `first group ${first}`).toBe(true);
      expect(Number.isSafeInteger(idx)).toBe(true);
      expect(idx).toBeLessThan(size);
      largest = Math.max(largest, idx);
    }
    expect(largest).toBeGreaterThan(2 ** 31);
  });
});
