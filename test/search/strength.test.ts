// Strength levels: the table, the UCI options' rule, the choice among the
// best moves, and that middle levels play like weaker players, not random
// ones: no move that hangs the queen to a one-move capture.

import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { seeGE } from '../../src/board/see.js';
import { MAX_MOVES, QUEEN, moveTo } from '../../src/board/types.js';
import { SearchControl } from '../../src/search/control.js';
import { DEFAULT_SEARCH_OPTIONS, type SearchEvent, type SearchReport } from '../../src/search/limits.js';
import { MATE } from '../../src/search/score.js';
import { type SearchResult, Searcher } from '../../src/search/search.js';
import {
  FULL_SKILL,
  FULL_STRENGTH_ELO,
  MIN_ELO,
  STRENGTH_LEVELS,
  chooseCandidate,
  limitForElo,
  limitForSkill,
  limitFromOptions,
  limitedSearch,
} from '../../src/search/strength.js';
import { mulberry32, unitInterval } from '../../src/util/random.js';

describe('the level table', () => {
  it('has one row per Skill Level below full strength, stronger as it goes', () => {
    expect(STRENGTH_LEVELS.length).toBe(FULL_SKILL);
    expect(STRENGTH_LEVELS.map((row) => row.skill)).toEqual(STRENGTH_LEVELS.map((_, i) => i));
    for (let i = 1; i < STRENGTH_LEVELS.length; i++) {
      const [a, b] = [STRENGTH_LEVELS[i - 1], STRENGTH_LEVELS[i]];
      expect(b.elo).toBeGreaterThan(a.elo);
      expect(b.nodes).toBeGreaterThan(a.nodes);
      expect(b.temperature).toBeLessThanOrEqual(a.temperature);
      expect(b.margin).toBeLessThanOrEqual(a.margin);
    }
    expect(STRENGTH_LEVELS[0].elo).toBe(MIN_ELO);
    expect(STRENGTH_LEVELS[STRENGTH_LEVELS.length - 1].elo).toBeLessThan(FULL_STRENGTH_ELO);
  });

  it('maps Skill Level to rows and 20 to full strength', () => {
    expect(limitForSkill(0)?.nodes).toBe(STRENGTH_LEVELS[0].nodes);
    expect(limitForSkill(7)?.label).toBe('level 7');
    expect(limitForSkill(20)).toBeNull();
    expect(limitForSkill(99)).toBeNull();
    expect(limitForSkill(-3)?.elo).toBe(STRENGTH_LEVELS[0].elo);
  });

  it('interpolates UCI_Elo between rows: nodes geometrically, the rest linearly', () => {
    const a = STRENGTH_LEVELS[7];
    const b = STRENGTH_LEVELS[8];
    const elo = Math.round((a.elo + b.elo) / 2);
    const t = (elo - a.elo) / (b.elo - a.elo);
    const mid = limitForElo(elo)!;
    expect(mid.nodes).toBe(Math.round(a.nodes * (b.nodes / a.nodes) ** t));
    expect(mid.temperature).toBe(Math.round(a.temperature + (b.temperature - a.temperature) * t));
    expect(limitForElo(a.elo)!.nodes).toBe(a.nodes);
    expect(limitForElo(100)!.elo).toBe(MIN_ELO);
    expect(limitForElo(FULL_STRENGTH_ELO)).toBeNull();
    expect(limitForElo(FULL_STRENGTH_ELO)).toBeNull();
  });

  it('lets UCI_LimitStrength win over Skill Level, as Stockfish does', () => {
    expect(limitFromOptions(true, 1500, 3)?.label).toBe('Elo 1500');
    expect(limitFromOptions(false, 1500, 3)?.label).toBe('level 3');
    expect(limitFromOptions(false, 1500, 20)).toBeNull();
  });
});

describe('the choice among candidates', () => {
  const candidates = [
    { score: 50, pv: [1] },
    { score: 30, pv: [2] },
    { score: 0, pv: [3] },
    { score: -400, pv: [4] },
  ];

  it('is the same for the same seed, and varies with it', () => {
    const limit = { temperature: 40, margin: 100 };
    const picks = (seed: number): number[] => {
      const random = unitInterval(mulberry32(seed));
      return Array.from({ length: 20 }, () => chooseCandidate(candidates, limit, random));
    };
    expect(picks(7)).toEqual(picks(7));
    expect(picks(7)).not.toEqual(picks(8));
  });

  it('never plays a move beyond the margin, and prefers better moves', () => {
    const random = unitInterval(mulberry32(1));
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 2000; i++) counts[chooseCandidate(candidates, { temperature: 40, margin: 100 }, random)]++;
    expect(counts[3]).toBe(0);
    expect(counts[0]).toBeGreaterThan(counts[1]);
    expect(counts[1]).toBeGreaterThan(counts[2]);
    expect(counts[2]).toBeGreaterThan(0);
  });

  it('always plays a forced mate it has found', () => {
    const mate = [{ score: MATE - 5, pv: [1] }, ...candidates];
    const random = unitInterval(mulberry32(3));
    for (let i = 0; i < 100; i++) expect(chooseCandidate(mate, { temperature: 10_000, margin: 100_000 }, random)).toBe(0);
  });
});

/** Middle-game positions with queens on the board, from the bench set. */
const POSITIONS = [
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'r1bq1rk1/ppp2ppp/5n2/2bp4/2NPP3/2P5/PP3PPP/RNBQK2R w KQ - 0 9',
  'r1b1kb1r/pp1npppp/2p5/7q/2P5/4QN2/PP1P1PPP/R1B1KB1R w KQkq - 1 9',
  'r1b1k2r/1pqnbppp/2pp1n2/p3p3/2PPPPP1/2N2N1P/PP6/R1BQKB1R w KQkq - 1 9',
  'rnbqk2r/p1p2ppp/1p1p4/4n3/2P2N2/4P3/PP1Q1PPP/RN2KB1R w KQkq - 0 9',
  'rnb1k2r/ppq1bppp/2p1p3/3nP3/2B5/2N2N2/PPP2PPP/R1BQ1RK1 w kq - 1 9',
  'r1b1k2r/pp1nbppp/1qp1pn2/3p4/2PP4/2NBPN2/PPQB1PPP/R3K2R w KQkq - 7 9',
  'r1bqkb1r/ppp2ppp/3p1n2/3Pp3/2P1Pn2/2N2N2/PP2QPPP/R1B1KB1R w KQkq - 3 9',
  'r1b1kb1r/pp1npp1p/3p1np1/2q5/2BNPP2/2N5/PPP3PP/R1BQ1RK1 w kq - 5 9',
  'rnbq1rk1/p1pp2pp/1p2p3/5p2/2PPn3/3BP3/PPQ2PPP/R1B1K1NR w KQ - 0 9',
  '1k5r/pppbn1pp/4q1r1/1P3p2/2NPp3/1QP5/P4PPP/R1B1R1K1 w - - 0 1',
  '8/p1q2pkp/2Pr2p1/8/P3Q3/6P1/5P1P/2R3K1 w - - 0 1',
  '4r1k1/pq3p1p/2p1r1p1/2Q1p3/3nN1P1/1P6/P1P2P1P/3RR1K1 w - - 0 1',
  'r1b1qrk1/pp1nppbp/3p1np1/2p5/2PP1B2/2N1PN1P/PP2BPP1/R2QK2R w KQ - 3 9',
];

/** After `move`, can the opponent take the mover's queen and come out ahead (a static exchange above zero)? */
function hangsQueen(pos: Position, move: number): boolean {
  const us = pos.side;
  pos.makeMove(move);
  const replies = new Int32Array(MAX_MOVES);
  const n = generateMoves(pos, replies, 0, false);
  let hangs = false;
  for (let i = 0; i < n && !hangs; i++) {
    const victim = pos.board[moveTo(replies[i])];
    if (victim !== 0 && (victim & 7) === QUEEN && victim >> 3 === us && seeGE(pos, replies[i], 1)) hangs = true;
  }
  pos.unmakeMove();
  return hangs;
}

/** A search at Skill Level `skill` with `seed`, no other limit. */
function searchAtSkill(searcher: Searcher, pos: Position, skill: number, seed: number, report?: SearchReport): SearchResult {
  const params = { infinite: false, ponder: false, searchmoves: [] };
  return limitedSearch(
    searcher,
    { pos, params, options: DEFAULT_SEARCH_OPTIONS, control: new SearchControl(), report },
    limitForSkill(skill, seed)!,
  );
}

describe('limited search', () => {
  it('(the test sees a hanging queen)', () => {
    const pos = new Position('rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3');
    expect(hangsQueen(pos, parseUciMove(pos, 'd1g4'))).toBe(true);
    expect(hangsQueen(pos, parseUciMove(pos, 'd1f3'))).toBe(false);
  });

  it('at middle levels, never hangs the queen to a one-move capture', () => {
    const searcher = new Searcher(4);
    const seen = new Set<string>();
    for (const skill of [6, 9, 12]) {
      for (const fen of POSITIONS) {
        for (let seed = 1; seed <= 3; seed++) {
          const pos = new Position(fen);
          searcher.clear();
          const result = searchAtSkill(searcher, pos, skill, seed);
          expect(result.move).not.toBe(0);
          const uci = moveToUci(pos, result.move);
          seen.add(`${fen} ${uci}`);
          expect(hangsQueen(pos, result.move), `level ${skill} seed ${seed} plays ${uci} in ${fen}`).toBe(false);
        }
      }
    }
    // Not always the same move: the levels do choose.
    expect(seen.size).toBeGreaterThan(POSITIONS.length * 1.5);
  }, 60_000);

  it('is reproducible for a seed, reports the move it plays last, and keeps to the MultiPV asked for', () => {
    const run = (seed: number): { move: string; events: SearchEvent[] } => {
      const searcher = new Searcher(2);
      const pos = new Position(POSITIONS[1]);
      const events: SearchEvent[] = [];
      const result = searchAtSkill(searcher, pos, 2, seed, (e) => events.push(e));
      return { move: moveToUci(pos, result.move), events };
    };
    const moves = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const a = run(seed);
      expect(run(seed).move).toBe(a.move);
      moves.add(a.move);
      const lines = a.events.filter((e) => e.type === 'line');
      expect(lines.every((e) => e.multipv === 1)).toBe(true);
      const last = lines[lines.length - 1];
      const pos = new Position(POSITIONS[1]);
      expect(last.type === 'line' ? moveToUci(pos, last.pv[0]) : '').toBe(a.move);
    }
    expect(moves.size).toBeGreaterThan(1);
  }, 30_000);
});
