// Folders that hold only some of the tables: what a probe cannot answer
// (a capture or promotion leads into a table that is not there) ranks no
// root move and restricts nothing; the search then searches those moves
// as it would without tables. The positions are drawn only by one move;
// with the old ranking a failed DTZ probe ranked its move above every draw.

import { copyFileSync, fstatSync, openSync, readSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { moveToUci } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { SearchControl } from '../../src/search/control.js';
import { DEFAULT_SEARCH_OPTIONS } from '../../src/search/limits.js';
import { TB_WIN } from '../../src/search/score.js';
import { Searcher } from '../../src/search/search.js';
import { rankRootMoves, restrictRoot } from '../../src/syzygy/root.js';
import { PROBE_FAILED, type TableStore, Tablebases } from '../../src/syzygy/tablebases.js';
import { scratchDir } from '../scratch.js';
import '../../src/eval/index.js';

const FOLDER = fileURLToPath(new URL('../data/syzygy', import.meta.url));
const store: TableStore = {
  list: (folder) => readdirSync(folder),
  open: (path) => {
    const fd = openSync(path, 'r');
    return { size: fstatSync(fd).size, read: (into, offset, length, position) => readSync(fd, into, offset, length, position) };
  },
};

/** Tablebases over a new folder holding copies of the committed files named. */
function subset(...files: string[]): Tablebases {
  const dir = scratchDir('kestrel-syzygy-subset-');
  for (const f of files) copyFileSync(join(FOLDER, f), join(dir, f));
  const tb = new Tablebases(store);
  expect(tb.scan(dir).problems).toEqual([]);
  return tb;
}

const full = new Tablebases(store);
full.scan(FOLDER);

/** The root moves of fen, and the full folder's WDL after each (mover's view). */
function rootMoves(fen: string): { pos: Position; moves: Int32Array; count: number; truth: Map<string, number> } {
  const pos = new Position(fen);
  const moves = new Int32Array(MAX_MOVES);
  const count = generateMoves(pos, moves, 0, false);
  const truth = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const uci = moveToUci(pos, moves[i]);
    pos.makeMove(moves[i]);
    truth.set(uci, 0 - full.probeWdl(pos));
    pos.unmakeMove();
  }
  return { pos, moves: moves.subarray(0, count), count, truth };
}

/** The move a search to `depth` plays in fen with these tables (null: none), and its score. */
function search(fen: string, tb: Tablebases | null, depth: number): { move: string; score: number } {
  const searcher = new Searcher(4);
  searcher.setTablebases(tb, { probeDepth: 1, rule50: true, probeLimit: 7 });
  const pos = new Position(fen);
  const result = searcher.go({
    pos,
    params: { depth, infinite: false, ponder: false, searchmoves: [] },
    options: DEFAULT_SEARCH_OPTIONS,
    control: new SearchControl(),
  });
  return { move: moveToUci(pos, result.move), score: result.score };
}

const play = (fen: string, tb: Tablebases | null, depth: number): string => search(fen, tb, depth).move;

// White to move draws only by catching the pawn (h3g2); every other king move loses to f1=Q.
const CATCH = '8/6k1/4P3/8/8/7K/5p2/8 w - - 0 1';
// Only b5c4 draws; after any move Black's king can take h3, into KvKP.
const RACE = '8/8/8/1K6/3p4/7P/6k1/8 w - - 0 1';

describe('Syzygy tablebases with tables missing', () => {
  it('ranks no root move whose DTZ cannot be read, and ranks by WDL where that can', () => {
    // Without KQvKP: a king move lets Black win by promoting, a win whose DTZ the prober must find through KQvKP.
    const tb = subset('KPvKP.rtbw', 'KPvKP.rtbz', 'KPvK.rtbw', 'KPvK.rtbz');
    const { pos, moves, count, truth } = rootMoves(CATCH);
    expect(truth.get('h3g2')).toBe(0);
    expect([...truth.values()].filter((v) => v === 0)).toHaveLength(1);
    const ranks = new Int32Array(count);
    expect(rankRootMoves(tb, pos, moves, count, ranks, true, true, false)).toBe(false);
    expect(pos.fen()).toBe(CATCH);
    // By WDL the table answers alone (no capture follows any move): h3g2 above the rest.
    expect(rankRootMoves(tb, pos, moves, count, ranks, false, true, false)).toBe(true);
    const best = Math.max(...ranks);
    const top = Array.from(moves).filter((_, i) => ranks[i] === best);
    expect(top.map((m) => moveToUci(pos, m))).toEqual(['h3g2']);
  });

  it('ranks nothing when a move leads into a missing table, and the probe says it failed', () => {
    // Without KPvK: every reply may capture into it.
    const tb = subset('KPvKP.rtbw', 'KPvKP.rtbz');
    const { pos, moves, count, truth } = rootMoves(RACE);
    expect(truth.get('b5c4')).toBe(0);
    expect([...truth.values()].filter((v) => v === 0)).toHaveLength(1);
    expect(tb.probeWdl(pos)).toBe(0); // the root itself is in the table
    const ranks = new Int32Array(count);
    expect(rankRootMoves(tb, pos, moves, count, ranks, true, true, false)).toBe(false);
    expect(rankRootMoves(tb, pos, moves, count, ranks, false, true, false)).toBe(false);
    pos.makeMove(moves[0]);
    expect(tb.probeDtz(pos)).toBe(PROBE_FAILED);
    expect(tb.probeWdl(pos)).toBe(PROBE_FAILED);
  });

  it('plays the drawing move with a partial folder, as with all tables and with none', () => {
    for (const [fen, draw] of [
      [CATCH, 'h3g2'],
      [RACE, 'b5c4'],
    ]) {
      expect(play(fen, null, 8), fen).toBe(draw);
      expect(play(fen, full, 8), fen).toBe(draw);
      expect(play(fen, subset('KPvKP.rtbw', 'KPvKP.rtbz', 'KPvK.rtbw', 'KPvK.rtbz'), 8), fen).toBe(draw);
      expect(play(fen, subset('KPvKP.rtbw', 'KPvKP.rtbz'), 8), fen).toBe(draw);
      expect(play(fen, subset('KPvKP.rtbw'), 8), fen).toBe(draw);
    }
  });

  it('keeps a win the tables find below the root at a PV node', () => {
    // KRvKR is not in the folder: the root is not ranked. Rxf6 leads into KRvK, won; the probe there
    // could not cut the full window of the first iterations, and the searched score (an evaluation)
    // replaced it: depths 2 and 3 played f1c1.
    for (const depth of [2, 3, 5]) {
      const { move, score } = search('8/8/5r1k/2K5/8/8/8/5R2 w - - 0 1', full, depth);
      expect(move, `depth ${depth}`).toBe('f1f6');
      expect(score, `depth ${depth}`).toBeGreaterThan(TB_WIN - 10);
    }
  });

  it('where only some moves can be ranked, leaves out only the moves proven worse', () => {
    // Only KRvKN: a move that lets the knight or king take the rook leads into KNvK, which is not there.
    const tb = subset('KRvKN.rtbw', 'KRvKN.rtbz');
    const kept = (fen: string): { kind: string; moves: string[]; truth: Map<string, number> } => {
      const { pos, moves, count, truth } = rootMoves(fen);
      const keep = new Uint8Array(count);
      const kind = restrictRoot(tb, pos, moves, count, new Uint8Array(count).fill(1), keep, new Int32Array(count), true, false);
      return { kind, moves: Array.from(moves, (m) => moveToUci(pos, m)).filter((_, i) => keep[i] !== 0), truth };
    };
    // Only Kc6 wins (the others draw, Rd5 into KNvK); the root's own WDL is known: the one winning move alone.
    const won = kept('2k5/8/1n1K4/4R3/8/8/8/8 w - - 0 1');
    expect(won.kind).toBe('partial');
    expect(won.moves).toEqual(['d6c6']);
    expect(won.truth.get('d6c6')).toBe(2);
    // Kxe1 leads into KRvK (not there), so the root's own WDL is unknown too: the known wins and every
    // unknown move are kept, the known draws left out.
    const open = kept('R7/8/1k6/8/8/8/3K4/4n3 w - - 0 1');
    expect(open.kind).toBe('partial');
    expect(open.moves.sort()).toEqual(['a8a3', 'a8a5', 'a8a6', 'a8a7', 'a8b8', 'a8f8', 'd2e1']);
    for (const [move, value] of open.truth) if (!open.moves.includes(move)) expect(value, move).toBe(0);
    // The search keeps to them.
    expect(open.truth.get(play('R7/8/1k6/8/8/8/3K4/4n3 w - - 0 1', tb, 6))).toBe(2);
    expect(play('2k5/8/1n1K4/4R3/8/8/8/8 w - - 0 1', tb, 4)).toBe('d6c6');
  });
});
