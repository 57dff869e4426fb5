// The root of a search as the tablebases see it: its moves ranked by the
// tables (by DTZ where the files are there, else by WDL), the moves the
// search may then play, and the score a line shows for each. The search
// (search/search.ts) asks this at the start of each `go`; the library's
// probe() ranks the moves of a position the same way.

import { generateMoves } from '../board/movegen.js';
import type { Position } from '../board/position.js';
import { MAX_MOVES } from '../board/types.js';
import { PROBE_FAILED, type Tablebases, WDL_TO_DTZ } from './tablebases.js';

/** How the search uses tablebases (UCI options SyzygyProbeDepth, Syzygy50MoveRule, SyzygyProbeLimit). */
export interface TablebaseUse {
  /** At the largest piece count probed, probe only at this depth or more (smaller ones always). */
  probeDepth: number;
  /** Cursed wins and blessed losses (won or lost, but drawn by the fifty-move rule) count as near-draws; false: as wins and losses. */
  rule50: boolean;
  /** Probe positions of at most this many pieces (and no more than the largest table has). */
  probeLimit: number;
}

/** How the tables ranked a root (restrictRoot). */
export type RootRanking = 'dtz' | 'wdl' | 'partial' | 'none';

/** The rank of a win that zeroes in time (and of a loss, negated). */
const WIN_RANK = 1000;
/** The rank of a cursed win by WDL (and of a blessed loss, negated): below every win in time by DTZ. */
const CURSED_WIN_RANK = 899;
/** The root ranks of the WDL values -2..2 (rankRootMoves without DTZ). */
const WDL_TO_RANK = [-WIN_RANK, -CURSED_WIN_RANK, 0, CURSED_WIN_RANK, WIN_RANK];
/** The rank rankRootMoves gives, when asked for a partial ranking, to a move the tables cannot answer for. */
const UNRANKED = -0x40000000;
/** Plies of the fifty-move rule. */
const RULE50_PLIES = 100;

/**
 * The lowest rank of a win within the fifty-move rule: a DTZ rank falls
 * from WIN_RANK by the plies to zeroing and the counter, and reaches this
 * at the rule's edge; a cursed win ranks below.
 */
const WIN_IN_TIME_RANK = 900;
/**
 * A cursed win ranked above this (a blessed loss below its negative) shows
 * half the excess in centipawns: up to 49 at the rule's edge, less the
 * further the win is spoilt; one ranked lower shows as little as a line can.
 */
const NEAR_EDGE_RANK = 800;
/** The least excess over NEAR_EDGE_RANK a line shows (halved: 1 cp for a cursed win, -2 for a blessed loss, the shift rounding down). */
const MIN_EDGE_EXCESS = 3;

/** The root rank of a WDL value (without the fifty-move rule, cursed wins and blessed losses as won and lost). */
function wdlRank(wdl: number, useRule50: boolean): number {
  return WDL_TO_RANK[(useRule50 ? wdl : wdl > 0 ? 2 : wdl < 0 ? -2 : 0) + 2];
}

/** Scratch for the mate test of rankRootMoves. */
const scratch = new Int32Array(MAX_MOVES);

/**
 * Ranks the root moves moves[0..count) of pos into ranks[]: the higher,
 * the better, moves of equal rank alike. With DTZ tables (dtz true): a win
 * that zeroes in time ranks WIN_RANK (below, as the fifty-move counter
 * nears: WIN_RANK - (dtz + counter)); a draw 0; a loss -WIN_RANK (above,
 * as the counter nears: a hope to hold by the rule). With WDL alone:
 * WIN_RANK, CURSED_WIN_RANK, 0 and their negatives for win, cursed win,
 * draw, blessed loss, loss (without the rule, cursed wins and blessed
 * losses count as won and lost). repeated: the position has been seen
 * before since the last capture or pawn move (a win then ranks below
 * WIN_RANK, to avoid drifting into a repetition). False when any move's
 * probe fails (a table its capture or promotion leads to is missing, or a
 * file is damaged): then no move is ranked, and the caller must not use
 * ranks[].
 */
export function rankRootMoves(
  tb: Tablebases,
  pos: Position,
  moves: ArrayLike<number>,
  count: number,
  ranks: Int32Array,
  dtz: boolean,
  useRule50: boolean,
  repeated: boolean,
  /** If given, each move's DTZ from the root (dtz true) or WDL. */
  values?: Int32Array,
  /** Rank the moves that can be ranked, the others UNRANKED (the result says whether all could be). */
  partial = false,
): boolean {
  const counter = pos.halfmove;
  let complete = true;
  for (let i = 0; i < count; i++) {
    pos.makeMove(moves[i]);
    let v: number;
    let mated = false;
    let failed: boolean;
    if (dtz) {
      if (pos.halfmove === 0) {
        // A capture or pawn move: the WDL after it is the whole story.
        const w = tb.probeWdl(pos);
        failed = w === PROBE_FAILED;
        v = failed ? 0 : WDL_TO_DTZ[2 - w];
      } else {
        const d = tb.probeDtz(pos);
        failed = d === PROBE_FAILED;
        v = failed ? 0 : 0 - d;
        if (v > 0) v++;
        else if (v < 0) v--;
      }
      if (v === 2) mated = pos.inCheck() && generateMoves(pos, scratch, 0, false) === 0;
    } else {
      const w = tb.probeWdl(pos);
      failed = w === PROBE_FAILED;
      v = failed ? 0 : 0 - w;
    }
    pos.unmakeMove();
    // A move the tables cannot answer for ranks nothing: the root is not ranked at all (or that move is not).
    if (failed) {
      if (!partial) return false;
      complete = false;
      ranks[i] = UNRANKED;
      if (values !== undefined) values[i] = 0;
      continue;
    }
    if (mated) v = 1;
    if (values !== undefined) values[i] = v;
    if (dtz) {
      // (A win, however near the fifty-move edge, above a draw; a loss below it.)
      ranks[i] =
        v > 0
          ? v + counter < RULE50_PLIES && !repeated
            ? WIN_RANK
            : Math.max(1, WIN_RANK - (v + counter))
          : v < 0
            ? -v * 2 + counter < RULE50_PLIES
              ? -WIN_RANK
              : Math.min(-1, -WIN_RANK + (-v + counter))
            : 0;
    } else ranks[i] = wdlRank(v, useRule50);
  }
  return complete;
}

/**
 * Which root moves the tables let the search play (keep[i] = 1), among
 * those it may (allowed[i] = 1; searchmoves and MultiPV leave some out):
 * with every move ranked (by DTZ where the root's table has it, else by
 * WDL), the best-ranked, and ranks[] hold the ranks ('dtz', 'wdl'). When
 * some moves lead where the tables cannot answer ('partial'), only what
 * is proven is used: a ranked move that another ranked move beats by WDL
 * is left out, and the moves not ranked are kept, unless a ranked move
 * has the root's own WDL (none can do better). 'none': no move ranked,
 * every allowed move kept.
 */
export function restrictRoot(
  tb: Tablebases,
  pos: Position,
  moves: ArrayLike<number>,
  count: number,
  allowed: Uint8Array,
  keep: Uint8Array,
  ranks: Int32Array,
  useRule50: boolean,
  repeated: boolean,
): RootRanking {
  let kind: RootRanking = 'none';
  if (tb.hasDtz(pos) && rankRootMoves(tb, pos, moves, count, ranks, true, useRule50, repeated)) kind = 'dtz';
  else if (rankRootMoves(tb, pos, moves, count, ranks, false, useRule50, repeated, undefined, true)) kind = 'wdl';
  let best = UNRANKED;
  for (let i = 0; i < count; i++) if (allowed[i] !== 0 && ranks[i] > best) best = ranks[i];
  if (best === UNRANKED) kind = 'none';
  else if (kind === 'none') kind = 'partial';
  // In a partial ranking, the unranked moves may be left out only if a ranked one has the root's value.
  let dropUnranked = kind !== 'partial';
  if (kind === 'partial') {
    const w = tb.probeWdl(pos);
    dropUnranked = w !== PROBE_FAILED && wdlRank(w, useRule50) === best;
  }
  for (let i = 0; i < count; i++) {
    keep[i] = allowed[i] !== 0 && (kind === 'none' || ranks[i] === best || (ranks[i] === UNRANKED && !dropUnranked)) ? 1 : 0;
  }
  return kind;
}

/**
 * A search's root in the tables: its moves ranked (restrictRoot), which of
 * them the search may still play, and what a line shows for each. One per
 * searcher, its buffers reused from search to search.
 */
export class TablebaseRoot {
  /** The root's moves as ranked (a copy: the search reorders its own as it sorts), and their ranks. */
  private readonly moves = new Int32Array(MAX_MOVES);
  private readonly ranks = new Int32Array(MAX_MOVES);
  /** The root moves the search may play, and those the tables keep. */
  private readonly mayPlay = new Uint8Array(MAX_MOVES);
  private readonly keep = new Uint8Array(MAX_MOVES);
  private count = 0;
  private rule50 = true;
  /** Every move ranked ('dtz' or 'wdl'): the lines show the tables' verdict. */
  ranked = false;
  /** How many of the moves the search may play the tables keep. */
  kept = 0;
  /** Probing below the root adds nothing the ranks do not give (ranked by DTZ, or drawn or lost by WDL). */
  settled = false;

  /** Forgets the last search's root (a search whose root is not in the tables). */
  reset(): void {
    this.ranked = false;
  }

  /**
   * Ranks the root moves rootMoves[0..count) of pos, of which the search
   * may play those `excluded` does not name; 'none' when the tables rank
   * none of them (then nothing else is set).
   */
  rank(
    tb: Tablebases,
    pos: Position,
    rootMoves: Int32Array,
    count: number,
    excluded: (move: number) => boolean,
    rule50: boolean,
  ): RootRanking {
    const moves = this.moves;
    moves.set(rootMoves.subarray(0, count));
    this.count = count;
    this.rule50 = rule50;
    const may = this.mayPlay;
    for (let i = 0; i < count; i++) may[i] = excluded(moves[i]) ? 0 : 1;
    const keep = this.keep;
    const kind = restrictRoot(tb, pos, moves, count, may, keep, this.ranks, rule50, pos.isRepetition());
    if (kind === 'none') return kind;
    this.ranked = kind !== 'partial';
    this.kept = 0;
    let best = -Infinity;
    for (let i = 0; i < count; i++) {
      if (may[i] !== 0 && keep[i] !== 0) this.kept++;
      if (keep[i] !== 0) best = Math.max(best, this.ranks[i]);
    }
    this.settled = kind === 'dtz' || (kind === 'wdl' && best <= 0);
    return kind;
  }

  /** Appends to out, from index `at`, the moves the search may play that the tables leave out; returns the new length. */
  leftOut(out: Int32Array, at: number): number {
    for (let i = 0; i < this.count; i++) if (this.mayPlay[i] !== 0 && this.keep[i] === 0) out[at++] = this.moves[i];
    return at;
  }

  /**
   * The score a line shows for root move `move` of a ranked root: `win` (the
   * search's score of a move into a won table) for a win, its negative for a
   * loss, 0 for a draw, and a few centipawns either side for a win or loss
   * the fifty-move rule spoils (nearer its edge, more).
   */
  score(move: number, win: number): number {
    let rank = 0;
    for (let i = 0; i < this.count; i++) {
      if (this.moves[i] === move) {
        rank = this.ranks[i];
        break;
      }
    }
    const bound = this.rule50 ? WIN_IN_TIME_RANK : 1;
    if (rank >= bound) return win;
    if (rank <= -bound) return -win;
    if (rank > 0) return Math.max(MIN_EDGE_EXCESS, rank - NEAR_EDGE_RANK) >> 1;
    if (rank < 0) return Math.min(-MIN_EDGE_EXCESS, rank + NEAR_EDGE_RANK) >> 1;
    return 0;
  }
}
