// Damaged, truncated, empty and mislabelled table files, made from the
// committed tables in memory: the folder scan names and leaves out every
// file whose header does not fit its name and its size, and every small
// file whose checksum does not match; and with the checksum not read (as
// for files over CHECKSUM_LIMIT), no probe of any file, however damaged,
// hangs, throws, leaves the position changed or answers out of range
// (such a probe may fail or answer wrongly: damage inside the compressed
// data of a file whose header and size are sound cannot be told from good
// data without the checksum). The hang detector is the test's timeout.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { SearchControl } from '../../src/search/control.js';
import { DEFAULT_SEARCH_OPTIONS } from '../../src/search/limits.js';
import { Searcher } from '../../src/search/search.js';
import { checksumMatches } from '../../src/syzygy/checksum.js';
import { PROBE_FAILED, type TableStore, Tablebases } from '../../src/syzygy/tablebases.js';
import { readTestData } from '../data.js';
import '../../src/eval/index.js';

const FOLDER = fileURLToPath(new URL('../data/syzygy', import.meta.url));
const GOOD = new Map<string, Uint8Array>();
for (const name of readdirSync(FOLDER)
  .filter((f) => /\.rtb[wz]$/.test(f))
  .sort())
  GOOD.set(name, new Uint8Array(readFileSync(join(FOLDER, name))));

/** A folder held in memory: file name to bytes. */
function memoryStore(files: Map<string, Uint8Array>): TableStore {
  return {
    list: () => [...files.keys()],
    open: (path) => {
      const bytes = files.get(path.slice(path.lastIndexOf('/') + 1));
      if (bytes === undefined) throw new Error('no such file');
      return {
        size: bytes.length,
        read: (into, offset, length, position) => {
          const n = Math.max(0, Math.min(length, bytes.length - position));
          into.set(bytes.subarray(position, position + n), offset);
          return n;
        },
      };
    },
  };
}

/**
 * A folder of the tables `table`'s positions need (its files, the tables
 * of three pieces its captures lead to, and the tables its promotions to
 * a queen lead to, where committed) with `changes` made: a name to new
 * bytes.
 */
function folderFor(table: string, changes: Record<string, Uint8Array>): Tablebases {
  // (Checksums not read: the header's checks and the bounded decoding alone.)
  const [white, black] = table.split('v');
  const needed = new Set([
    table,
    'KPvK',
    'KQvK',
    'KRvK',
    'KBvK',
    'KNvK',
    `${white.replace('P', 'Q')}v${black}`,
    `${white}v${black.replace('P', 'Q')}`,
  ]);
  const files = new Map<string, Uint8Array>();
  for (const [name, bytes] of GOOD) if (needed.has(name.slice(0, -5))) files.set(name, bytes);
  for (const [name, bytes] of Object.entries(changes)) files.set(name, bytes);
  return new Tablebases(memoryStore(files), 0);
}

/** The committed folder with `changes` made: a name to new bytes. */
function folderWith(changes: Record<string, Uint8Array>): Tablebases {
  const files = new Map(GOOD);
  for (const [name, bytes] of Object.entries(changes)) files.set(name, bytes);
  return new Tablebases(memoryStore(files));
}

/** The table name of a position's material (either colour first, as the folder has it). */
function tableOf(fen: string): string {
  const board = fen.split(' ')[0];
  const side = (upper: boolean): string =>
    `K${[...'QRBNP'].map((c) => c.repeat([...board].filter((x) => x === (upper ? c : c.toLowerCase())).length)).join('')}`;
  const a = `${side(true)}v${side(false)}`;
  const b = `${side(false)}v${side(true)}`;
  return GOOD.has(`${a}.rtbw`) ? a : b;
}

// Fathom's answers for the committed tables (test/data/syzygy/probes.txt): a few positions of each table.
const BY_TABLE = new Map<string, { fen: string; wdl: number }[]>();
for (const line of readTestData('syzygy/probes.txt').split('\n')) {
  if (line === '' || line.startsWith('#')) continue;
  const [fen, wdl] = line.split(';');
  const list = BY_TABLE.get(tableOf(fen)) ?? [];
  if (list.length < 8) list.push({ fen, wdl: Number(wdl) });
  BY_TABLE.set(tableOf(fen), list);
}
// (Fathom's file has none of KBvK and KNvK, drawn throughout.)
BY_TABLE.set('KBvK', [
  { fen: '8/8/8/4k3/8/8/8/4KB2 w - - 0 1', wdl: 0 },
  { fen: '8/8/2b5/4k3/8/8/8/4K3 w - - 0 1', wdl: 0 },
]);
BY_TABLE.set('KNvK', [
  { fen: '8/8/8/4k3/8/8/8/4KN2 b - - 0 1', wdl: 0 },
  { fen: '8/8/2n5/4k3/8/8/8/4K3 b - - 0 1', wdl: 0 },
]);

let seed = 92;
function next(n: number): number {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 8) % n;
}

const pos = new Position();

interface Outcome {
  /** The scan left the damaged file out (naming it in a problem). */
  reported: boolean;
  /** Answers (not failures) that differ from Fathom's. */
  wrong: number;
}

/**
 * Scans a folder with `asName` holding `bytes`, probes positions of its
 * table (and so of the tables their captures reach), and checks that every
 * answer is a failure or in range, and that the position is left as it was.
 */
function tryDamage(asName: string, bytes: Uint8Array): Outcome {
  const table = asName.slice(0, -5);
  const tb = folderFor(table, { [asName]: bytes });
  const scan = tb.scan('/tb');
  expect(scan.problems.length, scan.problems.join('; ')).toBeLessThanOrEqual(1);
  const reported = scan.problems.length === 1;
  if (reported) expect(scan.problems[0].startsWith(`/tb/${asName}: `), scan.problems[0]).toBe(true);
  let wrong = 0;
  for (const { fen, wdl } of BY_TABLE.get(table)!) {
    pos.setFen(fen);
    const w = tb.probeWdl(pos);
    const d = tb.probeDtz(pos);
    if (!(w === PROBE_FAILED || (Number.isInteger(w) && w >= -2 && w <= 2))) expect.fail(`${asName} ${fen}: WDL ${w}`);
    if (!(d === PROBE_FAILED || (Number.isInteger(d) && Math.abs(d) <= 10000))) expect.fail(`${asName} ${fen}: DTZ ${d}`);
    if (pos.fen() !== fen) expect.fail(`${asName} ${fen}: the probe left ${pos.fen()}`);
    if (w !== PROBE_FAILED && w !== wdl) wrong++;
  }
  for (const p of tb.takeProblems()) expect(p).toMatch(/^\/tb\/\w+\.rtb[wz]: /);
  return { reported, wrong };
}

describe('Syzygy tablebases with damaged files', () => {
  it('names and leaves out every empty, truncated, lengthened and mislabelled file', () => {
    let variants = 0;
    for (const [name, good] of GOOD) {
      const ext = name.slice(-5);
      // Empty, and cut short at many lengths (each a size the header does not imply); and longer.
      const lengths = [0, 1, 4, 5, 16, 64, 100, good.length - 16, good.length - 1];
      for (let i = 0; i < 2; i++) lengths.push(next(good.length));
      const changed: Uint8Array[] = lengths.filter((l) => l >= 0 && l < good.length).map((l) => good.slice(0, l));
      changed.push(Uint8Array.from([...good, ...new Uint8Array(64)]));
      // Five other tables' files of the same kind under this name (the next in order), and this table's other kind.
      const others = [...GOOD].filter(([other]) => other !== name && other.slice(-5) === ext);
      const from = others.findIndex(([other]) => other > name);
      for (let i = 0; i < Math.min(5, others.length); i++) changed.push(others[(Math.max(0, from) + i) % others.length][1]);
      const otherKind = GOOD.get(`${name.slice(0, -5)}${ext === '.rtbw' ? '.rtbz' : '.rtbw'}`);
      if (otherKind !== undefined) changed.push(otherKind);
      for (const bytes of changed) {
        expect(tryDamage(name, bytes).reported, `${name} as ${bytes.length} bytes`).toBe(true);
        variants++;
      }
    }
    expect(variants).toBeGreaterThan(250);
  });

  it('probes files with bytes changed within range, never hanging or throwing', () => {
    let variants = 0;
    let reported = 0;
    for (const [name, good] of GOOD) {
      // Single bytes changed, half of them in the header; and every byte from an offset on.
      for (let i = 0; i < 16; i++) {
        const bytes = good.slice();
        bytes[i < 8 ? next(Math.min(good.length, 512)) : next(good.length)] ^= 1 + next(255);
        if (tryDamage(name, bytes).reported) reported++;
        variants++;
      }
      for (const from of [8, 64, 200, good.length >> 1]) {
        const bytes = good.slice();
        for (let i = from; i < bytes.length; i++) bytes[i] = next(256);
        if (tryDamage(name, bytes).reported) reported++;
        variants++;
      }
    }
    expect(variants).toBe(GOOD.size * 20);
    expect(reported).toBeGreaterThan(variants / 4);
  });

  it('leaves out every small file with a byte changed: its checksum does not match', () => {
    let variants = 0;
    for (const [name, good] of GOOD) {
      expect(checksumMatches(good), name).toBe(true);
      for (let i = 0; i < 5; i++) {
        const bytes = good.slice();
        bytes[next(good.length)] ^= 1 + next(255);
        const tb = new Tablebases(memoryStore(new Map([[name, bytes]])));
        expect(tb.scan('/tb').problems, name).toHaveLength(1);
        variants++;
      }
    }
    expect(variants).toBe(GOOD.size * 5);
  });

  it('plays on with the files of the issue: mislabelled, garbled and truncated', () => {
    const search = (tb: Tablebases, fen: string, depth: number): string => {
      const searcher = new Searcher(4);
      searcher.setTablebases(tb, { probeDepth: 1, rule50: true, probeLimit: 7 });
      const pos = new Position(fen);
      const result = searcher.go({
        pos,
        params: { depth, infinite: false, ponder: false, searchmoves: [] },
        options: DEFAULT_SEARCH_OPTIONS,
        control: new SearchControl(),
      });
      return moveToUci(pos, result.move);
    };
    // KRvK's files under KQvK's names: both named and left out; the search answers.
    const swapped = folderWith({ 'KQvK.rtbw': GOOD.get('KRvK.rtbw')!, 'KQvK.rtbz': GOOD.get('KRvK.rtbz')! });
    expect(swapped.scan('/tb').problems).toEqual(['/tb/KQvK.rtbw: its header holds other pieces than its name says; KQvK left out']);
    expect(swapped.probeWdl(new Position('8/8/8/4k3/8/8/8/4K2Q b - - 0 1'))).toBe(PROBE_FAILED);
    expect(search(swapped, '8/8/8/4k3/8/8/8/4K2Q b - - 0 1', 3)).toMatch(/^e5/);
    // KQvK.rtbz garbled from byte 200 on, beside a good .rtbw.
    const garbled = GOOD.get('KQvK.rtbz')!.slice();
    for (let i = 200; i < garbled.length; i++) garbled[i] = (garbled[i] + 1 + next(255)) & 255;
    const withGarbled = folderWith({ 'KQvK.rtbz': garbled });
    withGarbled.scan('/tb');
    const good = folderWith({});
    good.scan('/tb');
    const move = search(withGarbled, 'k7/8/1K6/8/8/8/8/2Q5 w - - 0 1', 6);
    pos.setFen('k7/8/1K6/8/8/8/8/2Q5 w - - 0 1');
    pos.makeMove(parseUciMove(pos, move));
    expect(good.probeWdl(pos), move).toBe(-2);
    // KQvK.rtbw cut to 100 bytes: named, left out; Black takes the queen as without tables.
    const cut = folderWith({ 'KQvK.rtbw': GOOD.get('KQvK.rtbw')!.slice(0, 100) });
    expect(cut.scan('/tb').problems).toEqual([
      '/tb/KQvK.rtbw: damaged or incomplete (100 bytes: not 16 more than a multiple of 64); KQvK left out',
    ]);
    expect(search(cut, '8/8/8/8/8/6k1/6Q1/K7 b - - 0 1', 4)).toBe('g3g2');
  });
});
