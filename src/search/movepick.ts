// Move ordering. Moves are generated once per node and scored in classes,
// then picked best-first with a lazy selection sort:
//   1. the transposition-table move
//   2. good captures and promotions, most valuable victim / least valuable
//      attacker first, nudged by capture history (see captureHist)
//   3. the two killer moves of this ply, then the counter-move to the opponent's last move
//   4. quiet moves by history score: the butterfly table (side, from, to)
//      plus the continuation tables of the last two moves (see contHist)
//   5. captures that lose material by static exchange (found lazily, when picked)
// The learned tables (killers, counter-moves, histories) live here too.

import type { Position } from '../board/position.js';
import { SEE_VALUE, seeGE } from '../board/see.js';
import { CASTLE, EN_PASSANT, MAX_PLY, PAWN, PROMO_QUEEN, moveKind, moveTo } from '../board/types.js';

const TT_MOVE_SCORE = 1 << 30;
const GOOD_NOISY_SCORE = 1 << 28;
const KILLER_1_SCORE = 1 << 27;
const KILLER_2_SCORE = KILLER_1_SCORE - 1;
const COUNTER_SCORE = KILLER_1_SCORE - 2;
const BAD_NOISY_SCORE = -(1 << 28);
/** Keeps a noisy move's score above GOOD_NOISY_SCORE whatever its capture history. */
const NOISY_HISTORY_OFFSET = 16384;
/** Below this, a score is a capture that pick() found to lose material. */
const BAD_NOISY_LIMIT = -(1 << 27);
/** History scores stay within ±HISTORY_MAX. */
export const HISTORY_MAX = 16384;
/** A move's continuation key: the piece that moves and its destination, piece * 64 + to (0..1023). */
const CONT_KEYS = 16 * 64;
/** The row of contHist that stands for "no previous move" (root, after a null move): always zero. */
export const NO_CONT = CONT_KEYS;

/** The continuation key of `move` in pos, before it is played. */
export function contKey(pos: Position, move: number): number {
  return pos.board[move & 63] * 64 + moveTo(move);
}

/** True for captures (en passant included); castling's "to" is our own rook, not a capture. */
export function isCapture(pos: Position, move: number): boolean {
  const kind = moveKind(move);
  return kind === EN_PASSANT || (kind !== CASTLE && pos.board[moveTo(move)] !== 0);
}

/** Captures and promotions: the moves quiescence search looks at. */
export function isNoisy(pos: Position, move: number): boolean {
  return moveKind(move) >= 4 || isCapture(pos, move);
}

/** Index into captureHist of a noisy move in pos, before it is played. */
export function captureKey(pos: Position, move: number): number {
  const kind = moveKind(move);
  const victim = kind === EN_PASSANT ? PAWN : kind === CASTLE ? 0 : pos.board[moveTo(move)] & 7;
  return pos.board[move & 63] * 512 + moveTo(move) * 8 + victim;
}

/**
 * What pick() learnt of a move's static exchange, from the score it was picked
 * with: 1 when it gains at least 0, -1 when it loses material, 0 when pick()
 * did not look (the hash move, quiet moves, under-promotions).
 */
export function pickedExchange(score: number): number {
  if (score >= GOOD_NOISY_SCORE) return score < TT_MOVE_SCORE ? 1 : 0;
  return score < BAD_NOISY_LIMIT ? -1 : 0;
}

export class MoveOrdering {
  readonly killers = new Int32Array(MAX_PLY * 2);
  /** Counter-move to the opponent's last move, indexed by that move's piece * 64 + destination. */
  readonly counters = new Int32Array(16 * 64);
  /** Butterfly history, indexed by side * 4096 + from * 64 + to. */
  readonly history = new Int32Array(2 * 64 * 64);
  /**
   * Continuation history: how well a quiet move did right after a given
   * move, indexed by (earlier move's key) * 1024 + (this move's key). The
   * search looks it up for the previous move (one ply back, a counter-move
   * table with scores) and ours before that (two plies back: plans that
   * take two moves). Row NO_CONT is never written.
   */
  readonly contHist = new Int16Array((CONT_KEYS + 1) * CONT_KEYS);
  /**
   * Capture history: how often a capture (or promotion) by this piece on this
   * square of this kind of victim caused a cutoff, indexed by
   * captureKey(): piece * 512 + to * 8 + victim type (see score()).
   */
  readonly captureHist = new Int16Array(16 * 64 * 8);

  clear(): void {
    this.killers.fill(0);
    this.counters.fill(0);
    this.history.fill(0);
    this.contHist.fill(0);
    this.captureHist.fill(0);
  }

  /** Ages history between searches so that old lessons weigh less. */
  age(): void {
    for (let i = 0; i < this.history.length; i++) this.history[i] >>= 1;
    for (let i = 0; i < this.captureHist.length; i++) this.captureHist[i] >>= 1;
    this.killers.fill(0);
  }

  /** The history of a quiet move: butterfly plus both continuations (key = contKey of the move). */
  historyOf(side: number, move: number, key: number, cont1: number, cont2: number): number {
    return this.history[side * 4096 + (move & 4095)] + this.contHist[cont1 * CONT_KEYS + key] + this.contHist[cont2 * CONT_KEYS + key];
  }

  /** Index into counters of the move that led to this position, or -1. */
  counterSlot(pos: Position): number {
    if (pos.ply === 0) return -1;
    const prev = pos.stackMove[pos.ply - 1];
    if (prev === 0) return -1;
    const to = moveTo(prev);
    return pos.board[to] * 64 + to;
  }

  /**
   * Scores moves[start..end) into scores[] by the classes above. cont1 and
   * cont2: the continuation keys of the moves one and two plies back, or NO_CONT.
   */
  score(
    pos: Position,
    moves: Int32Array,
    scores: Int32Array,
    start: number,
    end: number,
    ttMove: number,
    ply: number,
    cont1: number,
    cont2: number,
  ): void {
    const board = pos.board;
    const k1 = this.killers[ply * 2];
    const k2 = this.killers[ply * 2 + 1];
    const cs = this.counterSlot(pos);
    const counter = cs >= 0 ? this.counters[cs] : 0;
    const side = pos.side;
    for (let i = start; i < end; i++) {
      const m = moves[i];
      if (m === ttMove) {
        scores[i] = TT_MOVE_SCORE;
        continue;
      }
      const kind = m >> 12;
      const to = (m >> 6) & 63;
      const victim = kind === EN_PASSANT ? PAWN : kind === CASTLE ? 0 : board[to] & 7;
      if (victim !== 0 || kind >= 4) {
        // MVV-LVA; queen promotions rank with captures, under-promotions last among them.
        // Capture history (captureKey(), inline) counts an eighth: ±2048, about
        // the gap between a pawn and a minor piece as victims. It orders
        // captures of like victims and lifts one that keeps refuting above a
        // bigger victim.
        const promoBonus = kind === PROMO_QUEEN ? SEE_VALUE[5] : kind >= 4 ? -2000 : 0;
        scores[i] =
          GOOD_NOISY_SCORE + NOISY_HISTORY_OFFSET + SEE_VALUE[victim] * 8 + promoBonus +
          (this.captureHist[board[m & 63] * 512 + to * 8 + victim] >> 3) - (board[m & 63] & 7);
      } else if (m === k1) {
        scores[i] = KILLER_1_SCORE;
      } else if (m === k2) {
        scores[i] = KILLER_2_SCORE;
      } else if (m === counter) {
        scores[i] = COUNTER_SCORE;
      } else {
        scores[i] = this.historyOf(side, m, contKey(pos, m), cont1, cont2);
      }
    }
  }

  /**
   * Swaps the best remaining move into position i and returns it. A capture
   * that loses material by static exchange is demoted to the end instead.
   */
  pick(pos: Position, moves: Int32Array, scores: Int32Array, i: number, end: number): number {
    for (;;) {
      let best = i;
      let s = scores[i];
      for (let j = i + 1; j < end; j++) {
        const sj = scores[j];
        if (sj > s) {
          s = sj;
          best = j;
        }
      }
      const m = moves[best];
      if (s >= GOOD_NOISY_SCORE && s < TT_MOVE_SCORE && !seeGE(pos, m, 0)) {
        scores[best] = BAD_NOISY_SCORE + (s - GOOD_NOISY_SCORE);
        continue;
      }
      moves[best] = moves[i];
      scores[best] = scores[i];
      moves[i] = m;
      scores[i] = s;
      return m;
    }
  }

  /** A quiet move caused a beta cutoff: remember it, and punish the quiets tried before it. */
  updateQuietCutoff(
    pos: Position,
    move: number,
    ply: number,
    depth: number,
    tried: Int32Array,
    triedStart: number,
    triedCount: number,
    cont1: number,
    cont2: number,
  ): void {
    if (this.killers[ply * 2] !== move) {
      this.killers[ply * 2 + 1] = this.killers[ply * 2];
      this.killers[ply * 2] = move;
    }
    const cs = this.counterSlot(pos);
    if (cs >= 0) this.counters[cs] = move;
    const bonus = historyBonus(depth);
    const base = pos.side * 4096;
    this.updateHistory(base + (move & 4095), bonus);
    this.updateCont(cont1, cont2, contKey(pos, move), bonus);
    for (let i = 0; i < triedCount; i++) {
      const q = tried[triedStart + i];
      if (q === move) continue;
      this.updateHistory(base + (q & 4095), -bonus);
      this.updateCont(cont1, cont2, contKey(pos, q), -bonus);
    }
  }

  /**
   * A beta cutoff at this node: the noisy move that caused it (0 for a quiet
   * one) gains capture history, the noisy moves tried before it lose some.
   */
  updateCaptureCutoff(pos: Position, move: number, depth: number, tried: Int32Array, triedStart: number, triedCount: number): void {
    const bonus = historyBonus(depth);
    if (move !== 0) {
      const k = captureKey(pos, move);
      this.captureHist[k] = gravity(this.captureHist[k], bonus);
    }
    for (let i = 0; i < triedCount; i++) {
      const q = tried[triedStart + i];
      if (q === move) continue;
      const k = captureKey(pos, q);
      this.captureHist[k] = gravity(this.captureHist[k], -bonus);
    }
  }

  private updateCont(cont1: number, cont2: number, key: number, bonus: number): void {
    if (cont1 !== NO_CONT) this.contHist[cont1 * CONT_KEYS + key] = gravity(this.contHist[cont1 * CONT_KEYS + key], bonus);
    if (cont2 !== NO_CONT) this.contHist[cont2 * CONT_KEYS + key] = gravity(this.contHist[cont2 * CONT_KEYS + key], bonus);
  }

  /** History with gravity: the closer to the bound, the smaller the step, so scores stay bounded. */
  private updateHistory(index: number, bonus: number): void {
    this.history[index] = gravity(this.history[index], bonus);
  }
}

/**
 * The step of a history update after a cutoff at this depth: deeper cutoffs
 * teach more, up to a cap of 2500 (about 15% of HISTORY_MAX), so that a few
 * cutoffs already set a move apart.
 */
function historyBonus(depth: number): number {
  return Math.min(300 * depth - 250, 2500);
}

/** A history score moved by bonus, less the further it already is from zero: it stays within ±HISTORY_MAX. */
function gravity(h: number, bonus: number): number {
  return h + bonus - ((h * Math.abs(bonus)) / HISTORY_MAX | 0);
}
