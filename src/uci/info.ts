// The search's reports as UCI `info` lines (scores as `cp N` or `mate N`,
// win/draw/loss estimates, lines of moves in UCI notation), and as
// structured lines for the library (src/api), with the moves in SAN too.

import { generateMoves } from '../board/movegen.js';
import { moveToUci } from '../board/notation.js';
import type { Position } from '../board/position.js';
import { MAX_MOVES } from '../board/types.js';
import { moveToSan } from '../board/san.js';
import type { SearchEvent, SearchLine } from '../search/limits.js';
import { INFINITE, MATE, MATE_BOUND } from '../search/search.js';

/** A score as centipawns, or as moves to mate (negative when being mated). */
export interface ScoreValue {
  unit: 'cp' | 'mate';
  value: number;
}

function scoreValue(score: number): ScoreValue {
  if (score >= MATE_BOUND) return { unit: 'mate', value: Math.floor((MATE - score + 1) / 2) };
  if (score <= -MATE_BOUND) return { unit: 'mate', value: -Math.floor((MATE + score) / 2) };
  return { unit: 'cp', value: score };
}

/** Formats a score for `info`: `cp N` or `mate N` (in moves, negative when being mated). */
function formatScore(score: number): string {
  const s = scoreValue(score);
  return `${s.unit} ${s.value}`;
}

/** Win/draw/loss per mille for a score, from a simple logistic model. */
function wdlOf(score: number): [number, number, number] {
  if (score >= MATE_BOUND) return [1000, 0, 0];
  if (score <= -MATE_BOUND) return [0, 0, 1000];
  const win = Math.round(1000 / (1 + Math.exp((150 - score) / 60)));
  const loss = Math.round(1000 / (1 + Math.exp((150 + score) / 60)));
  return [win, 1000 - win - loss, loss];
}

function wdl(score: number): string {
  return wdlOf(score).join(' ');
}

const scratch = new Int32Array(MAX_MOVES);

/** A line of moves from pos in UCI notation (and SAN if san is given); stops at the first move that is not legal (should not happen). */
function pvToUci(pos: Position, pv: readonly number[], san?: string[]): string {
  const parts: string[] = [];
  let played = 0;
  for (const move of pv) {
    if (move === 0) break;
    const n = generateMoves(pos, scratch, 0, false);
    if (!scratch.subarray(0, n).includes(move)) break;
    parts.push(moveToUci(pos, move));
    if (san !== undefined) san.push(moveToSan(pos, move));
    pos.makeMove(move);
    played++;
  }
  for (let i = 0; i < played; i++) pos.unmakeMove();
  return parts.join(' ');
}

/** A line of the search as the library reports it. */
export interface LineInfo {
  depth: number;
  seldepth: number;
  multipv: number;
  score: ScoreValue;
  bound: 'exact' | 'lower' | 'upper';
  /** Win/draw/loss per mille, side to move's view. */
  wdl: [number, number, number];
  nodes: number;
  nps: number;
  timeMs: number;
  hashfull: number | null;
  pv: string[];
  pvSan: string[];
}

/** A search line as structured data, pos being the position searched. */
export function describeLine(pos: Position, event: SearchLine): LineInfo {
  const score = event.score === -INFINITE ? 0 : event.score;
  const pvSan: string[] = [];
  const pv = pvToUci(pos, event.pv, pvSan);
  return {
    depth: event.depth,
    seldepth: event.seldepth,
    multipv: event.multipv,
    score: scoreValue(score),
    bound: event.bound,
    wdl: wdlOf(score),
    nodes: event.nodes,
    nps: Math.round((event.nodes * 1000) / Math.max(1, event.timeMs)),
    timeMs: event.timeMs,
    hashfull: event.hashfull,
    pv: pv === '' ? [] : pv.split(' '),
    pvSan,
  };
}

/** A search event as a UCI `info` line, pos being the position searched; showWdl adds `wdl` to exact lines. */
export function formatSearchEvent(pos: Position, event: SearchEvent, showWdl: boolean): string {
  if (event.type === 'note') return `info string ${event.text}`;
  if (event.type === 'currmove') return `info depth ${event.depth} currmove ${moveToUci(pos, event.move)} currmovenumber ${event.number}`;
  // A score of -INFINITE (no move searched) shows as 0.
  const score = event.score === -INFINITE ? 0 : event.score;
  const bound = event.bound === 'lower' ? ' lowerbound' : event.bound === 'upper' ? ' upperbound' : '';
  const nps = Math.round((event.nodes * 1000) / event.timeMs);
  const pv = pvToUci(pos, event.pv);
  return (
    `info depth ${event.depth} seldepth ${event.seldepth} multipv ${event.multipv} score ${formatScore(score)}${bound}` +
    (showWdl && event.bound === 'exact' ? ` wdl ${wdl(event.score)}` : '') +
    ` nodes ${event.nodes} nps ${nps}${event.hashfull !== null ? ` hashfull ${event.hashfull}` : ''} time ${event.timeMs}` +
    (pv !== '' ? ` pv ${pv}` : '')
  );
}

/** A score as UCI writes it: centipawns, or moves to mate (negative: being mated). */
export type UciScore = { cp: number } | { mate: number };

/** An `info depth ...` line read back (the parts the play and analyse commands use). */
export interface InfoLine {
  depth: number;
  multipv: number;
  /** Side to move's view. */
  score: UciScore;
  bound: 'exact' | 'lower' | 'upper';
  nodes: number;
  timeMs: number;
  /** The line in UCI notation. */
  pv: string[];
}

/** Reads an `info depth ...` line as formatSearchEvent writes it; null for other lines (currmove, strings). */
export function parseInfoLine(text: string): InfoLine | null {
  const t = text.split(' ');
  if (t[0] !== 'info' || t[1] !== 'depth') return null;
  const at = (name: string): number => t.indexOf(name);
  const num = (name: string, fallback: number): number => {
    const i = at(name);
    return i < 0 || i + 1 >= t.length ? fallback : Number(t[i + 1]);
  };
  const s = at('score');
  if (s < 0 || s + 2 >= t.length) return null;
  const value = Number(t[s + 2]);
  const score: UciScore = t[s + 1] === 'mate' ? { mate: value } : { cp: value };
  const bound = t[s + 3] === 'lowerbound' ? 'lower' : t[s + 3] === 'upperbound' ? 'upper' : 'exact';
  const p = at('pv');
  return {
    depth: num('depth', 0),
    multipv: num('multipv', 1),
    score,
    bound,
    nodes: num('nodes', 0),
    timeMs: num('time', 0),
    pv: p < 0 ? [] : t.slice(p + 1),
  };
}
