// The search's lines as the host reports them: structured (numbers and
// moves in UCI notation, in SAN when asked), made in the search worker where
// the position is known. Each front end turns them into what it shows: UCI
// `info` text (uci/info.ts), the library's SearchLine (api/), or the
// terminal's thinking line (play/).

import { generateMoves } from '../board/movegen.js';
import { moveToUci } from '../board/notation.js';
import type { Position } from '../board/position.js';
import { moveToSan } from '../board/san.js';
import { MAX_MOVES } from '../board/types.js';
import type { SearchLine } from '../search/limits.js';
import { DECISIVE_BOUND, INFINITE, MATE, MATE_BOUND, TB_WIN } from '../search/score.js';

/** The centipawns a tablebase win at the root shows as (less a centipawn per ply to it). */
const TB_WIN_CP = 20000;

/**
 * A line of the search (a completed iteration, the final word, or an
 * aspiration window's failure) with its moves in notation: score in the
 * search's units from the side to move's view (mates near ±MATE), timeMs at
 * least 1.
 */
export interface EngineLine extends Omit<SearchLine, 'type' | 'pv'> {
  /** The line in UCI notation (cut at the first move that is not legal, which should not happen). */
  pv: string[];
  /** The same line in SAN, when the job asked for it; else empty. */
  pvSan: string[];
}

/** Something a search reports besides its lines. */
export interface CurrentMove {
  depth: number;
  /** UCI notation. */
  move: string;
  number: number;
}

const scratch = new Int32Array(MAX_MOVES);

/** The search's line as an EngineLine; pos is the position searched (left as it was). */
export function engineLine(pos: Position, event: SearchLine, san: boolean): EngineLine {
  const pv: string[] = [];
  const pvSan: string[] = [];
  let played = 0;
  for (const move of event.pv) {
    if (move === 0) break;
    const n = generateMoves(pos, scratch, 0, false);
    if (!scratch.subarray(0, n).includes(move)) break;
    pv.push(moveToUci(pos, move));
    if (san) pvSan.push(moveToSan(pos, move));
    pos.makeMove(move);
    played++;
  }
  for (let i = 0; i < played; i++) pos.unmakeMove();
  return {
    depth: event.depth,
    seldepth: event.seldepth,
    multipv: event.multipv,
    score: event.score,
    bound: event.bound,
    nodes: event.nodes,
    timeMs: event.timeMs,
    hashfull: event.hashfull,
    tbhits: event.tbhits,
    pv,
    pvSan,
  };
}

/** A line's score as shown: no move searched (-INFINITE) shows as 0. */
export function shownScore(line: EngineLine): number {
  return line.score === -INFINITE ? 0 : line.score;
}

/** A score as centipawns, or as moves to mate (negative when being mated). */
export interface ScoreValue {
  unit: 'cp' | 'mate';
  value: number;
}

export function scoreValue(score: number): ScoreValue {
  if (score >= MATE_BOUND) return { unit: 'mate', value: Math.floor((MATE - score + 1) / 2) };
  if (score <= -MATE_BOUND) return { unit: 'mate', value: -Math.floor((MATE + score) / 2) };
  // A tablebase win n plies away shows as TB_WIN_CP - n centipawns: decisive, but not a mate in so many moves.
  if (score >= DECISIVE_BOUND) return { unit: 'cp', value: TB_WIN_CP - (TB_WIN - score) };
  if (score <= -DECISIVE_BOUND) return { unit: 'cp', value: -TB_WIN_CP + (TB_WIN + score) };
  return { unit: 'cp', value: score };
}

/**
 * The WDL model: the chance of a win is a logistic of the score, one half at
 * WDL_EVEN_CP and with a slope of WDL_SCALE_CP per unit; a loss the same
 * from the other side, the rest draws.
 */
const WDL_EVEN_CP = 150;
const WDL_SCALE_CP = 60;

/** Win/draw/loss per mille for a score, from the WDL model. */
export function wdlOf(score: number): [number, number, number] {
  if (score >= DECISIVE_BOUND) return [1000, 0, 0];
  if (score <= -DECISIVE_BOUND) return [0, 0, 1000];
  const win = Math.round(1000 / (1 + Math.exp((WDL_EVEN_CP - score) / WDL_SCALE_CP)));
  const loss = Math.round(1000 / (1 + Math.exp((WDL_EVEN_CP + score) / WDL_SCALE_CP)));
  return [win, 1000 - win - loss, loss];
}

/** A score as UCI writes it: centipawns, or moves to mate (negative: being mated). */
export type UciScore = { cp: number } | { mate: number };

/** A line's shown score in UCI's terms. */
export function uciScore(line: EngineLine): UciScore {
  const s = scoreValue(shownScore(line));
  return s.unit === 'mate' ? { mate: s.value } : { cp: s.value };
}
