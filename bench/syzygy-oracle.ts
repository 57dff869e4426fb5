// Two oracles for Kestrel's Syzygy prober.
//
// Against an independent prober: Fathom (Debian's libfathom-dev), through
// contrib/syzygy/oracle.c. For every table found in the folder, random
// legal positions of its material (either side to move, some with an en
// passant capture, some with a fifty-move counter) are probed by both, and
// three values compared: the WDL at a counter of 0, the WDL once the
// position's counter is counted, and |DTZ| (or mate, stalemate). Prints
// each disagreement and the count.
//
//   gcc -O2 -o oracle contrib/syzygy/oracle.c -lfathom
//   npx tsx bench/syzygy-oracle.ts <tables folder> <oracle> [--per-table 1000] [--seed 1] [--write <file>] [--tables KQvK,KRvK]
//
// --write saves the positions and Fathom's answers (what test/syzygy reads).
//
// Against the full set, for folders that lack tables (--partial N): N
// random positions of the folder's tables (3 to 7 pieces, whatever it
// holds), each one whose moves the full set tells apart and from which a
// capture or promotion leads into another table. Each is searched to a
// fixed depth with no tables, then with --subsets random subsets of the
// folder's files (each table's WDL file and DTZ file kept or left out at
// random rates; the position's own table more often). The full set judges
// (WDL once the fifty-move counter is counted; cursed wins and blessed
// losses as draws): with a subset, the move played must never be worse
// than the move played with no tables, and every move the subset's root
// ranking keeps (restrictRoot in syzygy/root.ts, by DTZ where the search would,
// else by WDL) must have the best value; where only some moves could be
// ranked, the moves kept must include one of the best value. Every probe answer a subset gives,
// at the root and in the search, is compared with the full set's too; a
// move worse than without tables is searched again alone, beside the other,
// to tell the tables' doing from the search's (move order and pruning
// differ whenever anything does).
// Prints each failure and the counts.
//
//   npx tsx bench/syzygy-oracle.ts <tables folder> --partial 1000 [--subsets 4] [--depth 6] [--seed 1]

import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { generateMoves } from '../src/board/movegen.js';
import { moveToUci } from '../src/board/notation.js';
import { Position } from '../src/board/position.js';
import { MAX_MOVES } from '../src/board/types.js';
import { SearchControl } from '../src/search/control.js';
import { DEFAULT_SEARCH_OPTIONS } from '../src/search/limits.js';
import { Searcher } from '../src/search/search.js';
import { restrictRoot } from '../src/syzygy/root.js';
import { PROBE_FAILED, type TableStore, Tablebases, wdlFromDtz } from '../src/syzygy/tablebases.js';
import { xorshift32 } from '../src/util/random.js';
import { numberOption, positionals, repeatedOption, requireFile } from './args.js';
import { openTables, randomTablePosition } from './syzygy-common.js';

const args = process.argv.slice(2);
const [folder, oracle] = positionals(args);
const partial = numberOption(args, '--partial', 0);
if (folder === undefined || (oracle === undefined && partial === 0)) {
  console.error('usage: syzygy-oracle.ts <tables folder> <oracle> [--per-table 1000] [--seed 1] [--write <file>] [--tables KQvK,KRvK]');
  console.error('       syzygy-oracle.ts <tables folder> --partial <positions> [--subsets 4] [--depth 6] [--seed 1]');
  process.exit(2);
}
const random = xorshift32(numberOption(args, '--seed', 1));
const next = (n: number): number => random() % n;

/** Kestrel against Fathom on random positions of every table of the folder. */
function againstFathom(oracle: string): void {
  requireFile(oracle, 'the oracle: gcc -O2 -o oracle contrib/syzygy/oracle.c -lfathom (apt-get install libfathom-dev)');
  const perTable = numberOption(args, '--per-table', 1000);
  const write = repeatedOption(args, '--write')[0];
  const only = repeatedOption(args, '--tables')[0]?.split(',');
  const tb = openTables(folder);

  const fens: string[] = [];
  const names = tb.tableNames().filter((name) => only === undefined || only.includes(name));
  for (const name of names) {
    let made = 0;
    for (let tries = 0; made < perTable && tries < perTable * 100; tries++) {
      const fen = randomTablePosition(name, next, { enPassant: true, counter: true });
      if (fen === null) continue;
      fens.push(fen);
      made++;
    }
  }
  const answers = execFileSync(oracle, [folder], { input: `${fens.join('\n')}\n`, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'ignore'] })
    .toString()
    .trim()
    .split('\n');

  /** Kestrel's answer in the oracle's words. */
  const moves = new Int32Array(MAX_MOVES);
  function kestrel(fen: string): string {
    const pos = new Position(fen);
    const w0 = tb.probeWdl(pos);
    const first = w0 === PROBE_FAILED ? 'fail' : String(w0);
    if (generateMoves(pos, moves, 0, false) === 0) return `${first} ${pos.inCheck() ? 'mate' : 'stalemate'}`;
    const dtz = tb.probeDtz(pos);
    return `${first} ${dtz === PROBE_FAILED ? 'fail' : `${wdlFromDtz(dtz, pos.halfmove)} ${Math.abs(dtz)}`}`;
  }

  let differ = 0;
  const t0 = performance.now();
  for (let i = 0; i < fens.length; i++) {
    const mine = kestrel(fens[i]);
    if (mine === answers[i]) continue;
    differ++;
    if (differ <= 20) console.log(`${fens[i]}: Kestrel '${mine}', Fathom '${answers[i]}'`);
  }
  const ms = performance.now() - t0;
  const eps = fens.filter((f) => f.split(' ')[3] !== '-').length;
  const counters = fens.filter((f) => f.split(' ')[4] !== '0').length;
  console.log(
    `${fens.length} positions (${eps} with en passant, ${counters} with a fifty-move counter) of ${names.length} tables: ` +
      `${differ} differ; Kestrel probed WDL and DTZ of each in ${(ms / fens.length).toFixed(3)} ms`,
  );
  if (write !== undefined) {
    writeFileSync(write, `${fens.map((f, i) => `${f};${answers[i]}`).join('\n')}\n`);
    console.log(`written to ${write}`);
  }
}

/** The full set's verdict on a position after a move, from the mover's view: 2 won, 1 drawn (by the rule too), 0 lost; -1 unknown. */
function verdict(full: Tablebases, pos: Position): number {
  const d = full.probeDtz(pos);
  const w = d !== PROBE_FAILED ? wdlFromDtz(d, pos.halfmove) : full.probeWdl(pos);
  if (w === PROBE_FAILED) return -1;
  return w === -2 ? 2 : w === 2 ? 0 : 1;
}

/** The pieces of a position as a table names them (white first): what a capture or promotion changes. */
function materialName(pos: Position): string {
  const side = (black: number): string => `K${[5, 4, 3, 2, 1].map((t, i) => 'QRBNP'[i].repeat(pos.pieceCount[black + t])).join('')}`;
  return `${side(0)}v${side(8)}`;
}

/** Tables in memory, and folders over any subset of them. */
class MemoryTables {
  readonly files = new Map<string, Uint8Array>();
  constructor(folder: string) {
    for (const name of readdirSync(folder))
      if (/\.rtb[wz]$/.test(name)) this.files.set(name, new Uint8Array(readFileSync(`${folder}/${name}`)));
  }
  /** Tablebases over the files named. */
  subset(names: Iterable<string>): Tablebases {
    const chosen = new Set(names);
    const store: TableStore = {
      list: () => [...chosen],
      open: (path) => {
        const bytes = this.files.get(path.slice(path.lastIndexOf('/') + 1));
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
    const tb = new Tablebases(store);
    tb.scan('/memory');
    return tb;
  }
}

/** Folders lacking tables against the full set (see the head of this file). */
function againstFullSet(count: number): void {
  const subsets = numberOption(args, '--subsets', 4);
  const depth = numberOption(args, '--depth', 6);
  const full = openTables(folder!);
  const memory = new MemoryTables(folder!);
  const tables = full.tableNames();
  const searcher = new Searcher(4);
  const use = { probeDepth: 1, rule50: true, probeLimit: 7 };
  /** The move a search to `depth` plays in pos with tb (null: none), from an empty hash table. */
  const search = (pos: Position, tb: Tablebases | null, searchmoves: string[]): { move: number; score: number } => {
    searcher.clear();
    searcher.setTablebases(tb, use);
    return searcher.go({
      pos,
      params: { depth, infinite: false, ponder: false, searchmoves },
      options: DEFAULT_SEARCH_OPTIONS,
      control: new SearchControl(),
    });
  };
  const play = (pos: Position, tb: Tablebases | null): number => search(pos, tb, []).move;
  const moves = new Int32Array(MAX_MOVES);
  const ranks = new Int32Array(MAX_MOVES);
  const mayPlay = new Uint8Array(MAX_MOVES).fill(1);
  const keep = new Uint8Array(MAX_MOVES);
  let positions = 0;
  let trials = 0;
  let ranked = 0;
  let partialRanked = 0;
  let changed = 0;
  let worse = 0;
  let badRank = 0;
  let shortOfBest = 0;
  let shortWithout = 0;
  let ordering = 0;
  let answers = 0;
  let wrongAnswers = 0;
  const t0 = performance.now();
  for (let tries = 0; positions < count && tries < count * 1000; tries++) {
    const name = tables[next(tables.length)];
    const fen = randomTablePosition(name, next, { enPassant: true, counter: false });
    if (fen === null) continue;
    const pos = new Position(fen);
    const n = generateMoves(pos, moves, 0, false);
    if (n < 2) continue;
    // The full set's verdict on every move, and whether a capture or promotion (now or by the reply) leads elsewhere.
    const values = new Int32Array(n);
    const home = materialName(pos);
    let elsewhere = false;
    const replies = new Int32Array(MAX_MOVES);
    for (let i = 0; i < n; i++) {
      pos.makeMove(moves[i]);
      values[i] = verdict(full, pos);
      if (materialName(pos) !== home) elsewhere = true;
      const r = generateMoves(pos, replies, 0, true);
      for (let j = 0; j < r && !elsewhere; j++) {
        pos.makeMove(replies[j]);
        if (materialName(pos) !== home) elsewhere = true;
        pos.unmakeMove();
      }
      pos.unmakeMove();
    }
    if (values.includes(-1) || !elsewhere) continue;
    const best = Math.max(...values);
    if (Math.min(...values) === best) continue; // every move alike: nothing to choose
    positions++;
    const value = (move: number): number => values[Array.prototype.indexOf.call(moves.subarray(0, n), move)];
    const without = play(pos, null);
    const v0 = value(without);
    if (v0 < best) shortWithout++;
    for (let k = 0; k < subsets; k++) {
      // Each table's WDL file kept at one random rate (its own table more often), its DTZ file at another.
      const keepWdl = next(101) / 100;
      const keepDtz = next(101) / 100;
      const names: string[] = [];
      for (const t of tables) {
        if (next(100) >= (t === name ? 75 : 100 * keepWdl)) continue;
        if (memory.files.has(`${t}.rtbw`)) names.push(`${t}.rtbw`);
        if (memory.files.has(`${t}.rtbz`) && next(100) < 100 * keepDtz) names.push(`${t}.rtbz`);
      }
      const tb = memory.subset(names);
      // Every answer the subset gives (at the root and in the search) against the full set's.
      for (const kind of ['probeWdl', 'probeDtz'] as const) {
        const probe = tb[kind].bind(tb);
        tb[kind] = (p: Position): number => {
          const v = probe(p);
          if (v === PROBE_FAILED) return v;
          answers++;
          if (v !== full[kind](p)) {
            wrongAnswers++;
            if (wrongAnswers <= 20) console.log(`${p.fen()}: [${names.join(' ')}] ${kind} ${v}, the full set ${full[kind](p)}`);
          }
          return v;
        };
      }
      trials++;
      // The root's ranking, as the search makes it: a complete one keeps only moves of the best value,
      // a partial one at least one of them.
      const kind = restrictRoot(tb, pos, moves, n, mayPlay, keep, ranks, true, false);
      if (kind !== 'none') {
        if (kind === 'partial') partialRanked++;
        else ranked++;
        let keptBest = -1;
        for (let i = 0; i < n; i++) {
          if (keep[i] === 0) continue;
          keptBest = Math.max(keptBest, values[i]);
          if (kind === 'partial' || values[i] === best) continue;
          badRank++;
          if (badRank <= 20)
            console.log(`${fen}: [${names.join(' ')}] ranks ${moveToUci(pos, moves[i])} first (${values[i]}), best ${best}`);
        }
        if (keptBest < best) {
          badRank++;
          if (badRank <= 20) console.log(`${fen}: [${names.join(' ')}] ${kind} ranking keeps no move of the best value ${best}`);
        }
      }
      const move = play(pos, tb);
      if (move !== without) changed++;
      const v = value(move);
      if (v < best) shortOfBest++;
      if (v < v0) {
        worse++;
        // Asked of each move alone, does the same search with the subset score the better one higher? Then
        // it misjudged the move it played in the search of all (move order, pruning), not by the tables.
        const played = search(pos, tb, [moveToUci(pos, move)]).score;
        const other = search(pos, tb, [moveToUci(pos, without)]).score;
        if (other > played) ordering++;
        if (worse <= 20)
          console.log(
            `${fen}: [${names.join(' ')}] plays ${moveToUci(pos, move)} (${v}), without tables ${moveToUci(pos, without)} (${v0}); ` +
              `searched alone with the subset: ${played} and ${other}`,
          );
      }
    }
  }
  const s = (performance.now() - t0) / 1000;
  console.log(
    `${positions} positions x ${subsets} subsets = ${trials} trials at depth ${depth} (${s.toFixed(0)} s): ` +
      `${answers} probe answers, ${wrongAnswers} unlike the full set's; ` +
      `${ranked} ranked at the root and ${partialRanked} in part, ${badRank} rankings keeping a move short of the full set's value; ` +
      `${changed} moves other than without tables, ${worse} worse than without tables ` +
      `(of which ${ordering} scored below the other move when each was searched alone with the subset) ` +
      `(short of the best: ${shortOfBest} with a subset, ${shortWithout} of ${positions} without tables)`,
  );
}

if (partial > 0) againstFullSet(partial);
else againstFathom(oracle!);
