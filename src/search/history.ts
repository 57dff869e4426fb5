// What the search learns about moves as it goes, for move ordering and
// reductions: killer moves and counter-moves, the butterfly history (side,
// from, to), continuation history (a quiet move after a given earlier move)
// and capture history. Cutoffs reward the move that caused them and punish
// the moves tried before it. The opponent's quiet move that led to a node
// learns from the node too: from how the static evaluation swung across it,
// and when every move of the node failed low (it was a good move).

import type { Position } from '../board/position.js';
import { CASTLE, EN_PASSANT, MAX_PLY, PAWN, moveKind, moveTo } from '../board/types.js';
import {
  EVAL_GAIN_HISTORY_MAX,
  EVAL_GAIN_HISTORY_SCALE,
  FAIL_LOW_HISTORY_SHARE,
  HISTORY_AGE_SHIFT,
  HISTORY_BONUS_MAX,
  HISTORY_BONUS_OFFSET,
  HISTORY_BONUS_SLOPE,
  HISTORY_MAX,
} from './params.js';

/** A move's continuation key: the piece that moves and its destination, piece * 64 + to (0..1023). */
const CONT_KEYS = 16 * 64;
/** The row of contHist that stands for "no previous move" (root, after a null move): always zero. */
export const NO_CONT = CONT_KEYS;

/** The continuation key of `move` in pos, before it is played. */
export function contKey(pos: Position, move: number): number {
  return pos.board[move & 63] * 64 + moveTo(move);
}

/** True for captures (en passant included); castling's "to" is our own rook, not a capture. */
function isCapture(pos: Position, move: number): boolean {
  const kind = moveKind(move);
  return kind === EN_PASSANT || (kind !== CASTLE && pos.board[moveTo(move)] !== 0);
}

/** Captures and promotions: the moves quiescence search looks at. */
export function isNoisy(pos: Position, move: number): boolean {
  return moveKind(move) >= 4 || isCapture(pos, move);
}

/** The move that led to pos if it was a quiet one (not a capture, a promotion or a null move), else 0. */
export function priorQuietMove(pos: Position): number {
  if (pos.ply === 0) return 0;
  const move = pos.stackMove[pos.ply - 1];
  return moveKind(move) < 4 && pos.stackCaptured[pos.ply - 1] === 0 ? move : 0;
}

/** Index into captureHist of a noisy move in pos, before it is played: piece * 512 + to * 8 + victim type. */
function captureKey(pos: Position, move: number): number {
  const kind = moveKind(move);
  const victim = kind === EN_PASSANT ? PAWN : kind === CASTLE ? 0 : pos.board[moveTo(move)] & 7;
  return pos.board[move & 63] * 512 + moveTo(move) * 8 + victim;
}

export class MoveHistory {
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
  /** Capture history: how often a capture (or promotion) of this kind caused a cutoff, indexed by captureKey(). */
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
    for (let i = 0; i < this.history.length; i++) this.history[i] >>= HISTORY_AGE_SHIFT;
    for (let i = 0; i < this.captureHist.length; i++) this.captureHist[i] >>= HISTORY_AGE_SHIFT;
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

  /** A quiet move caused a beta cutoff: it becomes this ply's first killer and the counter-move to the last move. */
  rememberRefutation(pos: Position, move: number, ply: number): void {
    if (this.killers[ply * 2] !== move) {
      this.killers[ply * 2 + 1] = this.killers[ply * 2];
      this.killers[ply * 2] = move;
    }
    const cs = this.counterSlot(pos);
    if (cs >= 0) this.counters[cs] = move;
  }

  /**
   * A quiet move caused a beta cutoff at this depth: it gains butterfly and
   * continuation history, the quiets tried before it lose as much.
   */
  updateQuietCutoff(
    pos: Position,
    move: number,
    depth: number,
    tried: Int32Array,
    triedStart: number,
    triedCount: number,
    cont1: number,
    cont2: number,
  ): void {
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
   * The opponent's quiet move `prior` (priorQuietMove) led to a static
   * evaluation of evalNow for the side to move, from evalBefore for the
   * opponent: its butterfly history gains the opponent's gain, -(evalNow +
   * evalBefore) times EVAL_GAIN_HISTORY_SCALE, within ±EVAL_GAIN_HISTORY_MAX.
   */
  updatePriorEvalGain(pos: Position, prior: number, evalNow: number, evalBefore: number): void {
    const gain = 0 - EVAL_GAIN_HISTORY_SCALE * (evalNow + evalBefore); // (0 - x, not -x: never -0)
    const bonus = gain < -EVAL_GAIN_HISTORY_MAX ? -EVAL_GAIN_HISTORY_MAX : gain > EVAL_GAIN_HISTORY_MAX ? EVAL_GAIN_HISTORY_MAX : gain | 0;
    this.updateHistory((pos.side ^ 1) * 4096 + (prior & 4095), bonus);
  }

  /**
   * Every move of this node (at this depth) failed low: the opponent's quiet
   * move `prior` that led here, continuation key priorKey, was a good one.
   * It gains butterfly history and continuation history after the moves
   * before it (prior1, prior2: the continuation keys of the moves one and two
   * plies before it, or NO_CONT).
   */
  updatePriorFailLow(pos: Position, prior: number, depth: number, priorKey: number, prior1: number, prior2: number): void {
    const bonus = (historyBonus(depth) * FAIL_LOW_HISTORY_SHARE) | 0;
    this.updateHistory((pos.side ^ 1) * 4096 + (prior & 4095), bonus);
    this.updateCont(prior1, prior2, priorKey, bonus);
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

/** The step of a history update after a cutoff at this depth: deeper cutoffs teach more, up to a cap. */
function historyBonus(depth: number): number {
  return Math.min(HISTORY_BONUS_SLOPE * depth - HISTORY_BONUS_OFFSET, HISTORY_BONUS_MAX);
}

/** A history score moved by bonus, less the further it already is from zero: it stays within ±HISTORY_MAX. */
function gravity(h: number, bonus: number): number {
  return h + bonus - (((h * Math.abs(bonus)) / HISTORY_MAX) | 0);
}
