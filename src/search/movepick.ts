// The staged move picker of a node. The stages, in the order moves come out:
//   1. the hash move, tried before any move is generated (it often cuts off at once);
//   2. good captures and promotions: most valuable victim, least valuable
//      attacker, nudged by capture history;
//   3. the two killer moves of this ply, then the counter-move to the opponent's last move;
//   4. quiet moves by history (butterfly plus the continuations of the last two moves);
//   5. captures that lose material by static exchange, found lazily when picked.
// Stages 2 to 5 share one list, generated once when the hash move is done:
// every move is scored by its class, and a lazy selection sort takes the
// best remaining one at a time (demoting a capture that fails its exchange
// test), so that the order is exactly the scores' order. Once the search
// gives up on ordering quiet moves (most will be pruned), the rest come in
// list order. Quiescence uses the same picker over the noisy moves only.

import { generateMoves } from '../board/movegen.js';
import type { Position } from '../board/position.js';
import { SEE_VALUE, seeGE } from '../board/see.js';
import { CASTLE, EN_PASSANT, PAWN, PROMO_QUEEN, QUEEN } from '../board/types.js';
import { type MoveHistory, contKey, isNoisy } from './history.js';
import { CAPTURE_HISTORY_SHIFT, MVV_SCALE, UNDERPROMOTION_PENALTY } from './params.js';

// Ordering scores by class (stage 4 lies within ±3 * HISTORY_MAX, far inside the killers' and bad captures').
const TT_MOVE_SCORE = 1 << 30;
const GOOD_NOISY_SCORE = 1 << 28;
const KILLER_1_SCORE = 1 << 27;
const KILLER_2_SCORE = KILLER_1_SCORE - 1;
const COUNTER_SCORE = KILLER_1_SCORE - 2;
const BAD_NOISY_SCORE = -(1 << 28);
/** Keeps a noisy move's score above GOOD_NOISY_SCORE whatever its capture history. */
const NOISY_HISTORY_OFFSET = 16384;
/** Below this, a score is a capture that the picker found to lose material. */
const BAD_NOISY_LIMIT = -(1 << 27);

const STAGE_HASH_MOVE = 0;
const STAGE_GENERATE = 1;
const STAGE_SORTED = 2;
const STAGE_LIST_ORDER = 3;

export class MovePicker {
  private stage = STAGE_HASH_MOVE;
  private pos!: Position;
  private ttMove = 0;
  /** The hash move comes first, before generation; else it is only ranked first in the list. */
  private ttFirst = false;
  private ply = 0;
  private cont1 = 0;
  private cont2 = 0;
  private noisyOnly = false;
  private skipQuiet = false;
  private end = 0;
  private next = 0;
  /** Legal moves generated (noisy ones only for quiescence), once generation has run; -1 before. */
  generated = -1;
  /** Whether the last move returned was the hash move of stage 1. */
  fromTT = false;
  /**
   * What the picker learnt of the last move's static exchange: 1 when it
   * gains at least 0, -1 when it loses material, 0 when it did not look
   * (the hash move, quiet moves, under-promotions, list order).
   */
  exchange = 0;

  constructor(
    private readonly history: MoveHistory,
    private readonly moves: Int32Array,
    private readonly scores: Int32Array,
    /** Where this picker's moves start in moves[] and scores[]. */
    private readonly start: number,
  ) {}

  /**
   * Starts on a node. ttMove: the hash move if it may be played here (else
   * 0); ttFirst: try it before generating. cont1, cont2: the continuation
   * keys of the moves one and two plies back, or NO_CONT. noisyOnly: the
   * captures and promotions only (quiescence, not in check).
   */
  init(pos: Position, ttMove: number, ttFirst: boolean, ply: number, cont1: number, cont2: number, noisyOnly: boolean): void {
    this.pos = pos;
    this.ttMove = ttMove;
    this.ttFirst = ttFirst;
    this.ply = ply;
    this.cont1 = cont1;
    this.cont2 = cont2;
    this.noisyOnly = noisyOnly;
    this.skipQuiet = false;
    this.generated = -1;
    this.fromTT = false;
    this.stage = ttFirst ? STAGE_HASH_MOVE : STAGE_GENERATE;
  }

  /** The hash move of stage 1 turned out not to be legal here (a key collision): it is not ranked first later. */
  forgetHashMove(): void {
    this.ttMove = 0;
    this.ttFirst = false;
  }

  /** From now on the remaining moves come in list order, unsorted. */
  stopSorting(): void {
    if (this.stage === STAGE_SORTED) this.stage = STAGE_LIST_ORDER;
  }

  /** From now on only noisy moves come, in list order. */
  skipQuiets(): void {
    this.skipQuiet = true;
    this.stopSorting();
  }

  /** The next move to search, or 0 when there is none left. */
  nextMove(): number {
    const stage = this.stage;
    if (stage === STAGE_SORTED) return this.nextSorted();
    if (stage === STAGE_GENERATE) {
      this.generate();
      return this.nextSorted();
    }
    this.exchange = 0;
    if (stage === STAGE_HASH_MOVE) {
      this.stage = STAGE_GENERATE;
      this.fromTT = true;
      return this.ttMove;
    }
    return this.nextInListOrder();
  }

  /**
   * Stages 2-5: the best remaining move of the scored list, swapped into
   * place (a lazy selection sort). A capture that loses material by static
   * exchange is demoted to the end instead, and the scan runs again.
   */
  private nextSorted(): number {
    const moves = this.moves;
    const scores = this.scores;
    const end = this.end;
    while (this.next < end) {
      const i = this.next;
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
      if (s >= GOOD_NOISY_SCORE && s < TT_MOVE_SCORE && !seeGE(this.pos, m, 0)) {
        scores[best] = BAD_NOISY_SCORE + (s - GOOD_NOISY_SCORE);
        continue;
      }
      moves[best] = moves[i];
      scores[best] = scores[i];
      moves[i] = m;
      scores[i] = s;
      this.next = i + 1;
      this.exchange = pickedExchange(s);
      // The hash move was searched already in stage 1.
      if (m !== this.ttMove || !this.ttFirst) return m;
    }
    return 0;
  }

  /** Generates and scores the moves. */
  private generate(): void {
    this.fromTT = false;
    this.end = generateMoves(this.pos, this.moves, this.start, this.noisyOnly);
    this.next = this.start;
    this.generated = this.end - this.start;
    this.score();
    this.stage = STAGE_SORTED;
  }

  /** Once sorting has stopped: the rest in list order, without quiet moves once they are skipped. */
  private nextInListOrder(): number {
    while (this.next < this.end) {
      const move = this.moves[this.next++];
      if (move === this.ttMove && this.ttFirst) continue;
      if (this.skipQuiet && !isNoisy(this.pos, move)) continue;
      return move;
    }
    return 0;
  }

  /** Scores the generated moves by the classes above. */
  private score(): void {
    const pos = this.pos;
    const moves = this.moves;
    const scores = this.scores;
    const history = this.history;
    const board = pos.board;
    const ply = this.ply;
    const ttMove = this.ttMove;
    const k1 = history.killers[ply * 2];
    const k2 = history.killers[ply * 2 + 1];
    const cs = history.counterSlot(pos);
    const counter = cs >= 0 ? history.counters[cs] : 0;
    const side = pos.side;
    for (let i = this.start; i < this.end; i++) {
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
        // Capture history (captureKey(), inline) counts an eighth (CAPTURE_HISTORY_SHIFT):
        // ±2048, about the gap between a pawn and a minor piece as victims
        // (times MVV_SCALE). It orders
        // captures of like victims and lifts one that keeps refuting above a
        // bigger victim.
        const promoBonus = kind === PROMO_QUEEN ? SEE_VALUE[QUEEN] : kind >= 4 ? UNDERPROMOTION_PENALTY : 0;
        scores[i] =
          GOOD_NOISY_SCORE +
          NOISY_HISTORY_OFFSET +
          SEE_VALUE[victim] * MVV_SCALE +
          promoBonus +
          (history.captureHist[board[m & 63] * 512 + to * 8 + victim] >> CAPTURE_HISTORY_SHIFT) -
          (board[m & 63] & 7);
      } else if (m === k1) {
        scores[i] = KILLER_1_SCORE;
      } else if (m === k2) {
        scores[i] = KILLER_2_SCORE;
      } else if (m === counter) {
        scores[i] = COUNTER_SCORE;
      } else {
        scores[i] = history.historyOf(side, m, contKey(pos, m), this.cont1, this.cont2);
      }
    }
  }
}

/** What pick() learnt of a move's static exchange from the score it was picked with (see MovePicker.exchange). */
function pickedExchange(score: number): number {
  if (score >= GOOD_NOISY_SCORE) return score < TT_MOVE_SCORE ? 1 : 0;
  return score < BAD_NOISY_LIMIT ? -1 : 0;
}
