// The data store: a folder (the repository's data/) of chunks (chunk.ts)
// and its manifest, the folder's README.md. The manifest has two tables of
// one row per chunk, in a fixed order that only ever grows at the end:
// "Training chunks" (what `kestrel train --data data/` reads, in this
// order: the validation split numbers games across them) and "Held out"
// (test files no network is trained on). A row records where the chunk's
// games come from (network, bundle, seed, settings, first game) and what it
// holds (games, positions, unpacked bytes, packed bytes, sha256 of the
// unpacked bytes), so that every chunk can be checked and made again.
//
// Self-play rows (a numeric seed) form runs: the chunks of one network,
// seed and settings hold games 0, 1, 2, ... of that run one after another,
// so the run can be resumed from the store alone.
//
// Several writers (two self-play runs, an import) may share a store: each
// holds the manifest's lock from reading the manifest to writing its row,
// so that no two chunks get one row number and no row is lost.

import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { CHUNK_SUFFIX, chunkSummary, packChunk, unpackChunk } from './chunk.js';
import { indexGames } from './viriformat.js';
import { errorText } from '../util/errors.js';

export const MANIFEST = 'README.md';
const TRAINING_HEADING = '## Training chunks';
const HELD_OUT_HEADING = '## Held out';
const COLUMNS = ['#', 'file', 'network', 'bundle', 'seed', 'settings', 'first game', 'games', 'positions', 'bytes', 'packed', 'sha256'];

/** Where a chunk's games come from. */
export interface ChunkOrigin {
  /** 'hce' (the hand-crafted evaluation) or the network's name, kestrel-<hash>. */
  network: string;
  /** The commit of the bundle that played the games. */
  bundle: string;
  /** The self-play run seed, or '-' for games from elsewhere. */
  seed: string;
  /** How the games were played: self-play's settings (settingsText), or a short description. */
  settings: string;
  /** The run's number of the chunk's first game (0 for games from elsewhere). */
  first: number;
}

export interface ChunkRow extends ChunkOrigin {
  /** The row's number: 1, 2, ... for training chunks, t1, t2, ... for held-out ones. */
  id: string;
  /** The chunk's path inside the store. */
  file: string;
  games: number;
  positions: number;
  /** Unpacked (viriformat) bytes, and the chunk file's bytes. */
  bytes: number;
  packed: number;
  sha256: string;
}

export interface Manifest {
  training: ChunkRow[];
  heldOut: ChunkRow[];
}

/** The most the store's chunks may take (data/README.md, "The ceiling"): past it, chunks go to a store of their own. */
const CEILING_BYTES = 400_000_000;

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** True when path is a store: a folder with a manifest. */
export function isStore(path: string): boolean {
  return existsSync(join(path, MANIFEST)) && statSync(path).isDirectory();
}

/** The rows of one of the manifest's tables (the section under heading). */
function tableRows(lines: string[], heading: string): ChunkRow[] {
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`the manifest has no '${heading}' section`);
  const rows: ChunkRow[] = [];
  for (let i = start + 1; i < lines.length && !lines[i].startsWith('## '); i++) {
    const line = lines[i];
    if (!line.startsWith('|')) continue;
    const cells = line
      .slice(1, line.lastIndexOf('|'))
      .split('|')
      .map((c) => c.trim().replace(/^`|`$/g, ''));
    if (cells[0] === '#' || /^-+$/.test(cells[0])) continue;
    if (cells.length !== COLUMNS.length) throw new Error(`manifest line ${i + 1}: ${cells.length} cells, ${COLUMNS.length} expected`);
    const count = (k: number): number => {
      const n = Number(cells[k].replace(/,/g, ''));
      if (!Number.isInteger(n) || n < 0) throw new Error(`manifest line ${i + 1}: ${COLUMNS[k]} '${cells[k]}' is not a count`);
      return n;
    };
    rows.push({
      id: cells[0],
      file: cells[1],
      network: cells[2],
      bundle: cells[3],
      seed: cells[4],
      settings: cells[5],
      first: count(6),
      games: count(7),
      positions: count(8),
      bytes: count(9),
      packed: count(10),
      sha256: cells[11],
    });
  }
  return rows;
}

export function readManifest(store: string): Manifest {
  const path = join(store, MANIFEST);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new Error(`no data store at ${store} (no ${MANIFEST} there)`);
  }
  const lines = text.split('\n');
  return { training: tableRows(lines, TRAINING_HEADING), heldOut: tableRows(lines, HELD_OUT_HEADING) };
}

const commas = (n: number): string => n.toLocaleString('en-US');

function rowLine(r: ChunkRow): string {
  const cells = [
    r.id,
    `\`${r.file}\``,
    r.network,
    r.bundle,
    r.seed,
    r.settings,
    commas(r.first),
    commas(r.games),
    commas(r.positions),
    commas(r.bytes),
    commas(r.packed),
    r.sha256,
  ];
  return `| ${cells.join(' | ')} |`;
}

/** Appends a row to the end of a table of the manifest. */
function appendRow(store: string, heading: string, row: ChunkRow): void {
  const path = join(store, MANIFEST);
  const lines = readFileSync(path, 'utf8').split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`the manifest has no '${heading}' section`);
  let last = start;
  for (let i = start + 1; i < lines.length && !lines[i].startsWith('## '); i++) if (lines[i].startsWith('|')) last = i;
  if (last === start) throw new Error(`the manifest's '${heading}' section has no table header`);
  lines.splice(last + 1, 0, rowLine(row));
  // Written whole and renamed, so that a reader (git, data-info) never sees half a manifest.
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, lines.join('\n'));
  renameSync(temporary, path);
}

/** The manifest's lock: a file made only if it is not there, holding its writer's process id. */
export const LOCK = `${MANIFEST}.lock`;
const LOCK_WAIT_MS = 60_000;
const LOCK_POLL_MS = 20;
const LOCK_EMPTY_STALE_MS = 5_000;

/** True while process `pid` runs (on this machine). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process id a lock file holds (NaN while its writer has made it but not yet written to it). */
function lockHolder(path: string): number {
  return Number.parseInt(readFileSync(path, 'utf8'), 10);
}

/**
 * Runs fn holding the store's manifest lock. A lock left by a process that
 * no longer runs (killed mid-write), or by this process's id (a restart
 * that got the same id: a process takes the lock from one thread only, and
 * never twice), is taken over; one held by another running process is
 * waited for, at most waitMs.
 */
export function withManifestLock<T>(store: string, fn: () => T, waitMs = LOCK_WAIT_MS): T {
  const path = join(store, LOCK);
  const deadline = Date.now() + waitMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let holder: number;
    let age: number;
    try {
      holder = lockHolder(path);
      age = Date.now() - statSync(path).mtimeMs;
    } catch {
      continue; // released between the two calls
    }
    // No id yet: its writer is between making the file and writing to it, or died there.
    const stale = Number.isInteger(holder) ? holder === process.pid || !running(holder) : age > LOCK_EMPTY_STALE_MS;
    if (stale) {
      takeOver(path, holder);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = Number.isInteger(holder) ? `process ${holder}` : 'a process that has not written its id';
      throw new Error(`the store's manifest is locked by ${who} (${path}); remove that file if no process writes to ${store}`);
    }
    Atomics.wait(pause, 0, 0, LOCK_POLL_MS);
  }
  try {
    return fn();
  } finally {
    // Only our own lock: never one that another process holds after taking ours over.
    try {
      if (lockHolder(path) === process.pid) rmSync(path, { force: true });
    } catch {
      // already gone
    }
  }
}

/**
 * Removes a stale lock (one holding `stale`). It is moved aside first, which
 * only one waiter can do: one that finds it moved a fresh lock instead
 * (another waiter took the stale one over first and locked) puts it back.
 */
function takeOver(path: string, stale: number): void {
  const aside = `${path}.${process.pid}.tmp`;
  try {
    renameSync(path, aside);
  } catch {
    return; // another waiter moved it first
  }
  let moved = Number.NaN;
  try {
    moved = lockHolder(aside);
  } catch {
    // gone: nothing to put back
  }
  const same = Number.isInteger(stale) ? moved === stale : !Number.isInteger(moved);
  if (!same) {
    try {
      linkSync(aside, path);
    } catch {
      // the path is taken again: that lock stands
    }
  }
  rmSync(aside, { force: true });
}

/** A self-play run: the games of one network, seed and settings. */
export interface RunKey {
  network: string;
  seed: string;
  settings: string;
}

/** The run's chunks in game order; throws if they do not follow one another from game 0. */
export function runRows(manifest: Manifest, run: RunKey): ChunkRow[] {
  const rows = manifest.training
    .filter((r) => r.network === run.network && r.seed === run.seed && r.settings === run.settings)
    .sort((a, b) => a.first - b.first);
  let next = 0;
  for (const r of rows) {
    if (r.first !== next)
      throw new Error(`the store's chunks of seed ${run.seed} do not follow on at ${r.file} (game ${r.first}, ${next} expected)`);
    next += r.games;
  }
  return rows;
}

/** A chunk file's unpacked bytes, checked against its row. */
function readChunk(store: string, row: ChunkRow): Uint8Array {
  const chunk = new Uint8Array(readFileSync(join(store, row.file)));
  const bytes = unpackChunk(chunk);
  const problem = rowProblem(row, chunk, bytes);
  if (problem !== null) throw new Error(`${row.file}: ${problem}`);
  return bytes;
}

/** What is wrong with a chunk against its row, or null. */
function rowProblem(row: ChunkRow, chunk: Uint8Array, bytes: Uint8Array): string | null {
  const index = indexGames(bytes);
  let positions = 0;
  for (const n of index.plies) positions += n;
  const found = { games: index.offsets.length, positions, bytes: bytes.length, packed: chunk.length, sha256: sha256(bytes) };
  for (const key of ['games', 'positions', 'bytes', 'packed', 'sha256'] as const) {
    if (found[key] !== row[key]) return `${key} ${found[key]}, the manifest says ${row[key]}`;
  }
  return null;
}

/** The chunk path for a run's games: <network hash>-s<seed>/<first>-<last>.vfc. */
export function runChunkPath(run: RunKey, first: number, games: number): string {
  const network = run.network.replace(/^kestrel-/, '').slice(0, 8);
  const pad = (n: number): string => String(n).padStart(7, '0');
  return `${network}-s${run.seed}/${pad(first)}-${pad(first + games - 1)}${CHUNK_SUFFIX}`;
}

/**
 * Packs viriformat games (complete games only) into a chunk at `file` in
 * the store, checks it, and appends its row to the manifest. A self-play
 * chunk must start where its run's chunks end.
 */
export function addChunk(store: string, vf: Uint8Array, origin: ChunkOrigin, file: string, heldOut = false): ChunkRow {
  return withManifestLock(store, () => addChunkLocked(store, vf, origin, file, heldOut));
}

function addChunkLocked(store: string, vf: Uint8Array, origin: ChunkOrigin, file: string, heldOut: boolean): ChunkRow {
  const manifest = readManifest(store);
  const all = [...manifest.training, ...manifest.heldOut];
  if (all.some((r) => r.file === file)) throw new Error(`the manifest already has a row for ${file}`);
  if (!heldOut && /^\d+$/.test(origin.seed)) {
    const rows = runRows(manifest, origin);
    const next = rows.reduce((n, r) => n + r.games, 0);
    if (origin.first !== next)
      throw new Error(`the store holds games 0-${next - 1} of seed ${origin.seed}: a new chunk starts at game ${next}`);
  }
  const path = join(store, file);
  if (existsSync(path)) throw new Error(`${path} is there already`);
  const chunk = packChunk(vf);
  const summary = chunkSummary(chunk);
  const held = all.reduce((n, r) => n + r.packed, 0);
  if (held + chunk.length > CEILING_BYTES)
    throw new Error(`the store would pass its ceiling of ${commas(CEILING_BYTES)} bytes (it holds ${commas(held)}): see its README`);
  const table = heldOut ? manifest.heldOut : manifest.training;
  const id = `${heldOut ? 't' : ''}${table.length + 1}`;
  const row: ChunkRow = { ...origin, id, file, ...summary, packed: chunk.length, sha256: sha256(vf) };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, chunk);
  // Read back from the disk before the row is written.
  readChunk(store, row);
  appendRow(store, heldOut ? HELD_OUT_HEADING : TRAINING_HEADING, row);
  return row;
}

/** The run's games from the store, as one viriformat byte string (games 0, 1, ...). */
export function restoreRun(store: string, run: RunKey): Uint8Array {
  const parts = runRows(readManifest(store), run).map((r) => readChunk(store, r));
  return Buffer.concat(parts);
}

/** Every chunk file under the store (relative paths). */
function chunkFiles(store: string, dir = store): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...chunkFiles(store, path));
    else if (name.endsWith(CHUNK_SUFFIX)) found.push(relative(store, path));
  }
  return found;
}

/** Checks every chunk against its row; returns the problems found (none: the store is sound). */
export function verifyStore(store: string, log: (line: string) => void): string[] {
  const manifest = readManifest(store);
  const problems: string[] = [];
  const rows = [...manifest.training, ...manifest.heldOut];
  const total = { games: 0, positions: 0, packed: 0 };
  for (const row of rows) {
    let problem: string | null;
    try {
      const chunk = new Uint8Array(readFileSync(join(store, row.file)));
      problem = rowProblem(row, chunk, unpackChunk(chunk));
    } catch (e) {
      problem = errorText(e);
    }
    log(`${row.id.padStart(4)} ${row.file}: ${problem ?? `${commas(row.games)} games, ${commas(row.positions)} positions: ok`}`);
    if (problem !== null) problems.push(`${row.file}: ${problem}`);
    total.games += row.games;
    total.positions += row.positions;
    total.packed += row.packed;
  }
  // Rows are numbered in turn: 1, 2, ... and t1, t2, ...
  for (const [table, prefix] of [
    [manifest.training, ''],
    [manifest.heldOut, 't'],
  ] as const) {
    table.forEach((r, i) => {
      if (r.id !== `${prefix}${i + 1}`) problems.push(`${r.file}: row number ${r.id} where ${prefix}${i + 1} follows`);
    });
  }
  const listed = new Set(rows.map((r) => r.file));
  for (const file of chunkFiles(store)) if (!listed.has(file)) problems.push(`${file}: a chunk with no row in the manifest`);
  const runs = new Map<string, RunKey>();
  for (const r of manifest.training) if (/^\d+$/.test(r.seed)) runs.set(`${r.network} ${r.seed} ${r.settings}`, r);
  for (const run of runs.values()) {
    try {
      runRows(manifest, run);
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  log(`${rows.length} chunks, ${commas(total.games)} games, ${commas(total.positions)} positions, ${commas(total.packed)} bytes packed`);
  return problems;
}

/** Which training chunks of a store to read: all of them, or those of some rows, seeds or networks (each absent: any). */
export interface StoreSelection {
  /** Row numbers, as ranges "1-12,15". */
  rows?: string;
  seeds?: readonly string[];
  networks?: readonly string[];
}

/** Row numbers of a list such as "1-12,15"; throws on anything else. */
function parseRowList(text: string): Set<number> {
  const rows = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(part);
    if (m === null) throw new Error(`rows: '${part}' is not a row number or a range such as 1-12`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    for (let r = a; r <= b; r++) rows.add(r);
  }
  return rows;
}

/** The selected training chunks' paths, in the manifest's order. */
export function storeFiles(store: string, selection: StoreSelection = {}): string[] {
  const rows = selection.rows === undefined ? null : parseRowList(selection.rows);
  return readManifest(store)
    .training.filter(
      (r) =>
        (rows === null || rows.has(Number(r.id))) &&
        (selection.seeds === undefined || selection.seeds.includes(r.seed)) &&
        (selection.networks === undefined || selection.networks.includes(r.network)),
    )
    .map((r) => join(store, r.file));
}

/** What the manifest says a store holds: per network and seed, and in all. */
export function storeSummary(store: string): string[] {
  const manifest = readManifest(store);
  const groups = new Map<string, { rows: number; games: number; positions: number; packed: number }>();
  const total = { rows: 0, games: 0, positions: 0, packed: 0 };
  const add = (key: string, r: ChunkRow): void => {
    const g = groups.get(key) ?? { rows: 0, games: 0, positions: 0, packed: 0 };
    for (const t of [g, total]) {
      t.rows++;
      t.games += r.games;
      t.positions += r.positions;
      t.packed += r.packed;
    }
    groups.set(key, g);
  };
  for (const r of manifest.training) add(`${r.network}, seed ${r.seed}`, r);
  for (const r of manifest.heldOut) add(`held out: ${r.file}`, r);
  const line = (name: string, g: typeof total): string =>
    `${name}: ${g.rows} chunks, ${commas(g.games)} games, ${commas(g.positions)} positions, ${commas(g.packed)} bytes packed`;
  return [...[...groups].map(([k, g]) => line(k, g)), line('total', total)];
}
