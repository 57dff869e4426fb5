// Syzygy endgame tablebases: win/draw/loss (WDL) and distance to zeroing
// (DTZ, in plies to the next capture or pawn move) of positions with few
// pieces, read from the .rtbw and .rtbz files of one or more folders.
//
// The tables hold no positions with castling rights, none with an en
// passant capture, and none where the side to move can capture: WDL is
// resolved by searching the captures first (a capture may be better than
// the table's value of the position without it), and en passant captures
// are tried on top. A DTZ file holds one side to move; the other is found
// by a one-ply search. Values are from the side to move's view:
//   WDL: -2 loss, -1 loss saved by the fifty-move rule ("blessed"), 0 draw,
//        1 win spoilt by the fifty-move rule ("cursed"), 2 win;
//   DTZ: as probeDtz() says.
// (The algorithm is the format's author's, as every prober implements it.)

import { generateMoves } from '../board/movegen.js';
import type { Position } from '../board/position.js';
import { EN_PASSANT, KING, MAX_MOVES, PAWN, WHITE, moveFrom, moveKind, moveTo } from '../board/types.js';
import { errorText, fileProblem } from '../util/errors.js';
import { checksumMatches } from './checksum.js';
import { encode, leadingPawnFile } from './encoding.js';
import { DamagedTableError, type Material, PagedFile, Table, type TableFile } from './table.js';

/** How the prober reaches files: the platform's, injected (the board layer reads no files itself). */
export interface TableStore {
  /** The file names in a folder; throws if it cannot be read. */
  list(folder: string): string[];
  /** Opens a file for positioned reads; throws if it cannot be opened. */
  open(path: string): TableFile;
}

/** Piece letters of a table name, strongest first, and their type codes. */
const NAME_PIECES = 'QRBNP';
const NAME_TYPES = [5, 4, 3, 2, 1];
/** The largest tables the format has (and this prober reads). */
const MAX_PIECES = 7;
/** Pages cached per file. */
const PAGES_PER_FILE = 64;
/** Pages cached while the folder scan checks a file's header. */
const PAGES_TO_CHECK = 4;
/**
 * Files of at most this many bytes (every file of 3 and 4 pieces) are read
 * whole at the scan and checked against the checksum their generator
 * appended; larger ones only by their header (reading them whole would
 * make the scan of a large set take minutes).
 */
const CHECKSUM_LIMIT = 1 << 20;

/** The result of a probe that could not be answered (no table, or a file that failed). */
export const PROBE_FAILED = -1000;

/** A material key: counts of Q R B N P of white (bits 0-14) and black (15-29), three bits each. */
function keyOf(counts: ArrayLike<number>, white: number, black: number): number {
  let key = 0;
  for (let i = 0; i < 5; i++) {
    key += counts[white + NAME_TYPES[i]] * 2 ** (3 * i);
    key += counts[black + NAME_TYPES[i]] * 2 ** (15 + 3 * i);
  }
  return key;
}

/** A table's entry: its material and its files (opened and parsed at the first probe). */
class Entry {
  wdl: Table | null = null;
  dtzTable: Table | null = null;
  /** Set when a file failed to open or parse at its first probe: the table is not probed again. */
  broken = false;

  constructor(
    readonly name: string,
    readonly material: Material,
    readonly wdlPath: string,
    readonly dtzPath: string | null,
  ) {}
}

/** Parses a table name (KQvKR) into its material; null if it is not one. */
function materialOf(name: string): Material | null {
  const m = /^K([QRBNP]*)vK([QRBNP]*)$/.exec(name);
  if (m === null) return null;
  const counts = new Int32Array(16);
  counts[KING] = 1;
  counts[8 | KING] = 1;
  for (const [side, text] of [
    [0, m[1]],
    [8, m[2]],
  ] as const) {
    let last = 0;
    for (const c of text) {
      const at = NAME_PIECES.indexOf(c);
      if (at < last) return null; // letters strongest first, as the format names files
      last = at;
      counts[side | NAME_TYPES[at]]++;
    }
  }
  const count = 2 + m[1].length + m[2].length;
  if (count > MAX_PIECES) return null;
  let unique = 0;
  for (let p = 0; p < 16; p++) if (counts[p] === 1) unique++;
  const wp = counts[PAWN];
  const bp = counts[8 | PAWN];
  // The leading colour: the one with pawns, the fewer if both have some.
  const whiteLeads = wp > 0 && (bp === 0 || wp <= bp);
  return {
    count,
    counts,
    kkEnc: unique === 2,
    leadPawns: wp + bp === 0 ? 0 : whiteLeads ? wp : bp,
    otherPawns: wp + bp === 0 ? 0 : whiteLeads ? bp : wp,
    symmetric: m[1] === m[2],
  };
}

/** What a path gave: the tables found, and what went wrong. */
export interface TablebaseScan {
  wdl: number;
  dtz: number;
  /** The most pieces of a table found (0: none). */
  maxPieces: number;
  problems: string[];
}

export class Tablebases {
  private readonly entries = new Map<number, Entry>();
  /** The most pieces of a table found (0: none): positions with more are never probed. */
  maxPieces = 0;
  /** Probes that found a table (for `tbhits`). */
  hits = 0;
  private readonly squares = new Int32Array(MAX_PIECES);
  /** Move lists of the capture searches, one per ply of recursion. */
  private readonly moves = new Int32Array(MAX_MOVES * 32);
  /** Set by probeWdl: 2 when the value comes from a capture (or en passant) that probeDtz must not look up. */
  private wdlFromCapture = false;
  /** The WDL probeDtz's value was read under. */
  private dtzWdl = 0;
  /** Set by a probe that found no table, or a file that failed. */
  private failed = false;
  /** What takeProblems() gives, and the files already named in it. */
  private readonly lateProblems: string[] = [];
  private readonly named = new Set<string>();

  /** checksumLimit: files up to this size are checked against their checksum at the scan (tests set 0 to probe damaged data). */
  constructor(
    private readonly store: TableStore,
    private readonly checksumLimit = CHECKSUM_LIMIT,
  ) {}

  /**
   * Forgets every table, then looks for tables in each folder of `path`
   * (':'-separated, ';' on Windows). Each file is checked (its header
   * against its name and its size; see Table) and closed again: a bad WDL
   * file leaves its table out, a bad DTZ file leaves the table without DTZ,
   * and each is named in `problems` with what is wrong. A table's DTZ file
   * may lie in another folder than its WDL file.
   */
  scan(path: string, separator = ':'): TablebaseScan {
    this.close();
    this.lateProblems.length = 0;
    const result: TablebaseScan = { wdl: 0, dtz: 0, maxPieces: 0, problems: [] };
    const folders = path
      .split(separator)
      .map((f) => f.trim())
      .filter((f) => f !== '');
    // The first folder that holds a file has it.
    const wdlFiles = new Map<string, string>();
    const dtzFiles = new Map<string, string>();
    for (const folder of folders) {
      let names: string[];
      try {
        names = this.store.list(folder);
      } catch (e) {
        result.problems.push(`cannot read the folder ${folder}: ${fileProblem(e)}`);
        continue;
      }
      for (const file of names.slice().sort()) {
        const m = /^(.*)\.rtb([wz])$/.exec(file);
        if (m === null || materialOf(m[1]) === null) continue;
        const files = m[2] === 'w' ? wdlFiles : dtzFiles;
        if (!files.has(m[1])) files.set(m[1], `${folder}/${file}`);
      }
    }
    for (const [name, dtzPath] of dtzFiles) {
      if (!wdlFiles.has(name)) result.problems.push(`${dtzPath}: no ${name}.rtbw beside it; left out`);
    }
    for (const [name, wdlPath] of wdlFiles) {
      const material = materialOf(name)!;
      const white = keyOf(material.counts, 0, 8);
      if (this.entries.has(white)) continue; // the same material named the other way round (KRvKQ beside KQvKR)
      const wdlProblem = this.checkFile(wdlPath, material, false);
      if (wdlProblem !== null) {
        result.problems.push(`${wdlPath}: ${wdlProblem}; ${name} left out`);
        continue;
      }
      let dtzPath = dtzFiles.get(name) ?? null;
      if (dtzPath !== null) {
        const dtzProblem = this.checkFile(dtzPath, material, true);
        if (dtzProblem !== null) {
          result.problems.push(`${dtzPath}: ${dtzProblem}; ${name} probed without DTZ`);
          dtzPath = null;
        }
      }
      const entry = new Entry(name, material, wdlPath, dtzPath);
      this.entries.set(white, entry);
      this.entries.set(keyOf(material.counts, 8, 0), entry);
      result.wdl++;
      if (entry.dtzPath !== null) result.dtz++;
      this.maxPieces = Math.max(this.maxPieces, material.count);
    }
    result.maxPieces = this.maxPieces;
    return result;
  }

  /** What is wrong with a table's file (opened, its header read and checked, closed), or null if nothing. */
  private checkFile(path: string, material: Material, dtz: boolean): string | null {
    let file: TableFile;
    try {
      file = this.store.open(path);
    } catch (e) {
      return `cannot be opened: ${fileProblem(e)}`;
    }
    try {
      new Table(new PagedFile(file, PAGES_TO_CHECK), material, dtz);
      if (file.size <= this.checksumLimit) {
        const bytes = new Uint8Array(file.size);
        for (let done = 0; done < bytes.length; ) {
          const n = file.read(bytes, done, bytes.length - done, done);
          if (n <= 0) return 'cannot be read: it ended early';
          done += n;
        }
        if (!checksumMatches(bytes)) return 'its checksum does not match its contents';
      }
      return null;
    } catch (e) {
      return e instanceof DamagedTableError ? e.message : `cannot be read: ${fileProblem(e)}`;
    } finally {
      file.close?.();
    }
  }

  /**
   * Files found damaged since the scan (at their first probe, or by a probe
   * that walked off their data), once each: for the host to report. Empties
   * the list.
   */
  takeProblems(): string[] {
    return this.lateProblems.splice(0);
  }

  /** The table of pos's material, with whether pos's colours are the table's swapped; null if there is none. */
  private entryOf(pos: Position): { entry: Entry; flip: boolean } | null {
    const key = keyOf(pos.pieceCount, 0, 8);
    const entry = this.entries.get(key);
    if (entry === undefined) return null;
    return { entry, flip: key !== keyOf(entry.material.counts, 0, 8) };
  }

  /** The table's parsed file (opened at the first probe); null if it cannot be read (the entry is then broken). */
  private tableOf(entry: Entry, dtz: boolean): Table | null {
    if (entry.broken) return null;
    const have = dtz ? entry.dtzTable : entry.wdl;
    if (have !== null) return have;
    const path = dtz ? entry.dtzPath : entry.wdlPath;
    if (path === null) return null;
    try {
      const table = new Table(new PagedFile(this.store.open(path), PAGES_PER_FILE), entry.material, dtz);
      if (dtz) entry.dtzTable = table;
      else entry.wdl = table;
      return table;
    } catch (e) {
      // (Sound at the scan: changed or unreadable since.)
      entry.broken = true;
      this.problem(path, `${errorText(e)}; ${entry.name} left out`);
      return null;
    }
  }

  /** Notes a problem of a file for takeProblems(), once per file. */
  private problem(path: string, text: string): void {
    if (this.named.has(path)) return;
    this.named.add(path);
    this.lateProblems.push(`${path}: ${text}`);
  }

  /**
   * The table's raw value for pos (no captures considered): WDL -2..2, or
   * DTZ (for `wdl`, the position's WDL); failed set if there is no table;
   * NaN for a DTZ table that holds the other side to move.
   */
  private probeTable(pos: Position, dtz: boolean, wdl: number): number {
    if (pos.pieceCount[1] + pos.pieceCount[2] + pos.pieceCount[3] + pos.pieceCount[4] + pos.pieceCount[5] === 0) {
      if (pos.pieceCount[9] + pos.pieceCount[10] + pos.pieceCount[11] + pos.pieceCount[12] + pos.pieceCount[13] === 0) return 0; // KvK
    }
    const found = this.entryOf(pos);
    if (found === null) {
      this.failed = true;
      return 0;
    }
    const { entry } = found;
    const table = this.tableOf(entry, dtz);
    if (table === null) {
      this.failed = true;
      return 0;
    }
    try {
      return this.decode(pos, found.flip, entry.material, table, dtz, wdl);
    } catch (e) {
      // Damaged data (the file passed the scan's checks): this probe fails, the search goes on without it.
      this.failed = true;
      this.problem(dtz ? entry.dtzPath! : entry.wdlPath, `damaged: ${errorText(e)}`);
      return 0;
    }
  }

  /** probeTable's reading of the table: throws DamagedTableError when its data is not what the format says. */
  private decode(pos: Position, tableFlip: boolean, m: Material, table: Table, dtz: boolean, wdl: number): number {
    let flip: boolean;
    let bside: number;
    if (m.symmetric) {
      flip = pos.side !== WHITE;
      bside = 0;
    } else {
      flip = tableFlip;
      bside = (pos.side === WHITE) === flip ? 1 : 0;
    }
    const p = this.squares;
    let t = 0;
    let sub: number;
    if (m.leadPawns === 0) {
      sub = dtz ? 0 : bside;
      const info = table.sub[sub];
      if (dtz && (table.dtzFlags(0) & 1) !== bside && !m.symmetric) return Number.NaN;
      this.fillSquares(pos, info.pieces, flip, 0, 0, m.count);
    } else {
      const mirror = flip ? 0x38 : 0;
      const first = table.sub[0];
      const i = this.fillSquares(pos, first.pieces, flip, mirror, 0, m.leadPawns);
      t = leadingPawnFile(p, m.leadPawns);
      if (dtz && (table.dtzFlags(t) & 1) !== bside && !m.symmetric) return Number.NaN;
      sub = dtz ? t : t + 4 * bside;
      this.fillSquares(pos, table.sub[sub].pieces, flip, mirror, i, m.count);
    }
    const info = table.sub[sub];
    const idx = encode(p, m.count, info, m.kkEnc, m.leadPawns, m.otherPawns);
    const w = table.value(sub, idx);
    this.hits++;
    if (!dtz) return w[0] - 2;
    let v = w[0] + ((w[1] & 15) << 8);
    const flags = table.dtzFlags(t);
    if ((flags & 2) !== 0) v = table.mapValue(t, WDL_TO_MAP[wdl + 2], v);
    if ((flags & PA_FLAGS[wdl + 2]) === 0 || (wdl & 1) !== 0) v *= 2;
    return v;
  }

  /**
   * Puts into squares[from..to) the squares of the table's pieces in its
   * order (codes in `pieces`, like pieces together), colours swapped when
   * flip, ranks mirrored by `mirror`; returns `to`.
   */
  private fillSquares(pos: Position, pieces: Uint8Array, flip: boolean, mirror: number, from: number, to: number): number {
    const p = this.squares;
    let i = from;
    while (i < to) {
      const code = pieces[i] ^ (flip ? 8 : 0);
      let lo = pos.lo(code);
      let hi = pos.hi(code);
      // (The scan checked the table's pieces against its name: never so, unless the file changed.)
      if ((lo | hi) === 0) throw new DamagedTableError('a piece the position does not have');
      while (lo !== 0) {
        const low = lo & -lo;
        lo ^= low;
        p[i++] = (31 - Math.clz32(low)) ^ mirror;
      }
      while (hi !== 0) {
        const low = hi & -hi;
        hi ^= low;
        p[i++] = (63 - Math.clz32(low)) ^ mirror;
      }
    }
    return to;
  }

  /** Legal moves of pos into moves[at..]; returns the end. */
  private legal(pos: Position, at: number, noisyOnly: boolean): number {
    return generateMoves(pos, this.moves, at, noisyOnly);
  }

  /** The best of alpha and the captures' values (a position with no en passant capture). */
  private probeAlphaBeta(pos: Position, alpha: number, beta: number, depth: number): number {
    const at = depth * MAX_MOVES;
    const end = this.legal(pos, at, true);
    for (let i = at; i < end; i++) {
      const move = this.moves[i];
      if (pos.board[moveTo(move)] === 0) continue; // a promotion that captures nothing
      pos.makeMove(move);
      const v = 0 - this.probeAlphaBeta(pos, 0 - beta, 0 - alpha, depth + 1);
      pos.unmakeMove();
      if (this.failed) return 0;
      if (v > alpha) {
        if (v >= beta) return v;
        alpha = v;
      }
    }
    const v = this.probeTable(pos, false, 0);
    return alpha >= v ? alpha : v;
  }

  /**
   * WDL of pos for the side to move (-2..2), or PROBE_FAILED. The
   * fifty-move counter is taken to be 0 (see wdlAfter() for the counter).
   * pos must have no castling rights.
   */
  probeWdl(pos: Position): number {
    return this.guarded(pos, false);
  }

  /** WDL (dtz false) or DTZ of pos, PROBE_FAILED when a file fails to read or is damaged. */
  private guarded(pos: Position, dtz: boolean): number {
    this.failed = false;
    const ply = pos.ply;
    let v: number;
    try {
      v = dtz ? this.dtz(pos, 1) : this.wdl(pos, 1);
    } catch {
      // Nothing should throw (probeTable catches what a file does); if it does, pos is put back as it was.
      while (pos.ply > ply) pos.unmakeMove();
      return PROBE_FAILED;
    }
    if (this.failed) return PROBE_FAILED;
    // A DTZ must agree with the WDL it was read under: a win in time zeroes within 100 plies (101 as the
    // tables round), a cursed win not. Anything else is a damaged DTZ file.
    if (dtz && v !== 0 && (Math.abs(this.dtzWdl) === 2 ? Math.abs(v) > MAX_DTZ_IN_TIME : Math.abs(v) <= 100)) return PROBE_FAILED;
    return v;
  }

  /** probeWdl's work: sets wdlFromCapture when a capture (or en passant) gives the value. */
  private wdl(pos: Position, depth: number): number {
    this.wdlFromCapture = false;
    const at = depth * MAX_MOVES;
    const end = this.legal(pos, at, true);
    let bestCap = -3;
    let bestEp = -3;
    for (let i = at; i < end; i++) {
      const move = this.moves[i];
      const ep = moveKind(move) === EN_PASSANT;
      if (!ep && pos.board[moveTo(move)] === 0) continue;
      pos.makeMove(move);
      const v = 0 - this.probeAlphaBeta(pos, -2, 0 - bestCap, depth + 1);
      pos.unmakeMove();
      if (this.failed) return 0;
      if (v > bestCap) {
        if (v === 2) {
          this.wdlFromCapture = true;
          return 2;
        }
        if (!ep) bestCap = v;
        else if (v > bestEp) bestEp = v;
      }
    }
    const v = this.probeTable(pos, false, 0);
    if (this.failed) return 0;
    // max(v, bestCap) is the value without en passant rights; an en passant capture may be better still.
    if (bestEp > bestCap) {
      if (bestEp > v) {
        this.wdlFromCapture = true;
        return bestEp;
      }
      bestCap = bestEp;
    }
    if (bestCap >= v) {
      this.wdlFromCapture = bestCap > 0;
      return bestCap;
    }
    // Without its en passant capture the position would be stalemate: the table says draw, en passant decides.
    if (bestEp > -3 && v === 0) {
      let other = false;
      const all = this.legal(pos, at, false);
      for (let i = at; i < all && !other; i++) if (moveKind(this.moves[i]) !== EN_PASSANT) other = true;
      if (!other && !pos.inCheck()) {
        this.wdlFromCapture = true;
        return bestEp;
      }
    }
    return v;
  }

  /**
   * DTZ of pos for the side to move, or PROBE_FAILED:
   *   n < -100: a loss saved by the fifty-move rule; -100 <= n <= -1: lost,
   *   a zeroing move (capture or pawn move) forced within -n plies; 0: draw;
   *   1 <= n <= 100: won, zeroing within n plies; n > 100: a win spoilt by
   *   the fifty-move rule. -1 in a checkmated position.
   * As the tables store it, n may be one more than the truth where the
   * table has no position right on the fifty-move edge (the format's
   * rounding). pos must have no castling rights.
   */
  probeDtz(pos: Position): number {
    return this.guarded(pos, true);
  }

  private dtz(pos: Position, depth: number): number {
    const wdl = this.wdl(pos, depth);
    if (depth === 1) this.dtzWdl = wdl;
    if (this.failed || wdl === 0) return 0;
    if (this.wdlFromCapture) return WDL_TO_DTZ[wdl + 2];
    const at = depth * MAX_MOVES;
    let end = 0;
    if (wdl > 0) {
      // A winning pawn move (not a capture: those were tried) zeroes at once.
      end = this.legal(pos, at, false);
      for (let i = at; i < end; i++) {
        const move = this.moves[i];
        if ((pos.board[moveFrom(move)] & 7) !== PAWN || pos.board[moveTo(move)] !== 0 || moveKind(move) === EN_PASSANT) continue;
        pos.makeMove(move);
        const v = 0 - this.wdl(pos, depth + 1);
        pos.unmakeMove();
        if (this.failed) return 0;
        if (v === wdl) return WDL_TO_DTZ[wdl + 2];
      }
    }
    const dtz = this.probeTable(pos, true, wdl);
    if (this.failed) return 0;
    if (!Number.isNaN(dtz)) return WDL_TO_DTZ[wdl + 2] + (wdl > 0 ? dtz : -dtz);
    // The table holds the other side to move: one ply deeper.
    let best: number;
    if (wdl > 0) best = Number.MAX_SAFE_INTEGER;
    else {
      // A losing capture or pawn move is the worst case (-1 or -101; -1 when mated).
      best = WDL_TO_DTZ[wdl + 2];
      end = this.legal(pos, at, false);
    }
    for (let i = at; i < end; i++) {
      const move = this.moves[i];
      if (pos.board[moveTo(move)] !== 0 || moveKind(move) === EN_PASSANT || (pos.board[moveFrom(move)] & 7) === PAWN) continue;
      pos.makeMove(move);
      const v = 0 - this.dtz(pos, depth + 1);
      const mate = v === 1 && pos.inCheck() && this.legal(pos, (depth + 1) * MAX_MOVES, false) === (depth + 1) * MAX_MOVES;
      pos.unmakeMove();
      if (this.failed) return 0;
      if (mate) best = 1;
      else if (wdl > 0) {
        if (v > 0 && v + 1 < best) best = v + 1;
      } else if (v - 1 < best) best = v - 1;
    }
    return best;
  }

  /**
   * WDL of pos once its fifty-move counter is counted (-2..2), from its DTZ:
   * a win whose zeroing move comes too late for the counter is a draw by
   * the rule (1, cursed), and so is a loss (-1, blessed). PROBE_FAILED
   * without a DTZ table.
   */
  wdlAfterCounter(pos: Position): number {
    const dtz = this.probeDtz(pos);
    if (dtz === PROBE_FAILED) return PROBE_FAILED;
    return wdlFromDtz(dtz, pos.halfmove);
  }

  /** Whether every table the root needs has its DTZ file: the material of pos and what its captures and promotions lead to are not checked; the first probe that fails says so. */
  hasDtz(pos: Position): boolean {
    const found = this.entryOf(pos);
    return found !== null && found.entry.dtzPath !== null;
  }

  /** Closes every file opened and forgets every table (a new scan, or tables no longer used). */
  close(): void {
    for (const entry of new Set(this.entries.values())) {
      entry.wdl?.file.file.close?.();
      entry.dtzTable?.file.file.close?.();
    }
    this.entries.clear();
    this.maxPieces = 0;
  }

  /** The table names found, with whether each has its DTZ file: for tests and `info string`. */
  tableNames(): string[] {
    return [...new Set(this.entries.values())].map((e) => e.name).sort();
  }
}

/** The largest DTZ of a win in time as the tables give it (100 plies, one more where they round). */
const MAX_DTZ_IN_TIME = 101;
/** DTZ of the positions whose value a capture or pawn move decides: -2..2 to -1, -101, 0, 101, 1. */
export const WDL_TO_DTZ = [-1, -101, 0, 101, 1];
/** Which DTZ map a WDL value reads. */
const WDL_TO_MAP = [1, 3, 0, 2, 0];
/** The flag that says a WDL value's DTZ map holds plies already (not moves, to be doubled). */
const PA_FLAGS = [8, 0, 0, 0, 4];

/** WDL once a fifty-move counter of `halfmove` is counted, from a DTZ. */
export function wdlFromDtz(dtz: number, halfmove: number): number {
  if (dtz > 0) return dtz + halfmove <= 100 ? 2 : 1;
  if (dtz < 0) return -dtz + halfmove <= 100 ? -2 : -1;
  return 0;
}
