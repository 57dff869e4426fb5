// The static evaluation: a tapered sum of linear terms. Material and piece
// placement come summed incrementally from the Position (psqt.ts); mobility,
// pawn structure, king safety and piece terms are computed here. Every term is
// added through term(param, count), so the same code also produces the trace
// the tuner needs: how often each colour earned each parameter.
//
// Final score: (mg * phase + eg * scale/128 * (24 - phase)) / 24, where phase
// runs from 24 (all pieces) to 0 (pawns and kings only) and scale shrinks the
// endgame part in drawish material (endgame.ts). Pawn structure and king
// shelter are cached by pawn placement (pawn-cache.ts). No allocation per call.
//
// The terms are summed packed: one int32 holds mg + eg * 65536 (live-weights.ts,
// PACKED), so adding a term is one load and one addition; the two halves are
// split once at the end (unpackMg/unpackEg). Each half must stay within
// ±32767: the fast path adds material and placement only after the split,
// and the tracer's recount of them stays near ±10,000 even for nine queens.

import {
  KING_ATTACKS,
  KNIGHT_ATTACKS,
  PAWN_ATTACKS,
  SLIDER_ATTACKS,
  bishopIndex,
  lowestSquare,
  pawnAttacks,
  popcount64,
  rookIndex,
} from '../board/bitboard.js';
import type { Position } from '../board/position.js';
import { cannotMate } from '../board/rules.js';
import { BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE } from '../board/types.js';
import { SCALE_NORMAL, endgameScale } from './endgame.js';
import { PAWN_CACHE, PC_KING, PC_PAWNS, PC_PASSED_HI, PC_PASSED_LO, PC_SHELTER, pawnCacheHit, pawnCacheSlot } from './pawn-cache.js';
import {
  BACKWARD,
  BISHOP_PAIR,
  DOUBLED,
  ISOLATED,
  KING_ATTACK,
  KING_ATTACKERS,
  MATERIAL,
  MOB_BISHOP,
  MOB_KNIGHT,
  MOB_QUEEN,
  MOB_ROOK,
  NUM_PARAMS,
  PASSED,
  PASSED_FREE,
  PASSED_KING_OWN,
  PASSED_KING_THEIR,
  PASSED_SAFE,
  PAWN_THREAT,
  PHALANX,
  ROOK_OPEN,
  ROOK_SEMI_OPEN,
  ROOK_SEVENTH,
  SHIELD,
  STORM,
  SUPPORTED,
  TEMPO,
  pstOffset,
} from './layout.js';
import { PACKED, unpackEg, unpackMg } from './live-weights.js';
import { MAX_PHASE } from './psqt.js';
import { ADJACENT_FILES, AHEAD_RANKS, BESIDE, DISTANCE, FILE_MASK, FORWARD_FILE, KING_ZONE, PASSED_SPAN, SUPPORT_SPAN } from './tables.js';

/** Mobility table offset by piece type. */
const MOB_OFFSET = Int32Array.of(0, 0, MOB_KNIGHT, MOB_BISHOP, MOB_ROOK, MOB_QUEEN);

// --- Per-call state, shared by the helpers below ----------------------------
/** Midgame and endgame totals of the last evaluation (lastSums). */
let mg = 0;
let eg = 0;
/** The colour whose terms are being traced. */
let us = 0;
let tracing = false;
/** Squares attacked by the pawns of colour c: PAWN_ATT[c * 2 + half]. */
const PAWN_ATT = new Int32Array(4);
/** Squares attacked by anything of colour c (filled by evalPieces). */
const ATTACKED = new Int32Array(4);
/** Passed pawns of colour c: PASSERS[c * 2 + half] (filled by pawnTerms). */
const PASSERS = new Int32Array(4);
/** Number of pieces of colour c attacking the enemy king zone. */
const ZONE_ATTACKERS = new Int32Array(2);

/**
 * Trace of the last traceEvaluate call: TRACE[c * NUM_PARAMS + i] is how many
 * times colour c earned parameter i (its coefficient in the linear sum).
 */
export const TRACE = new Int32Array(2 * NUM_PARAMS);
/** Phase (0..24), endgame scale (0..128) and 1 if drawn by insufficient material, of the last traceEvaluate. */
export const TRACE_INFO = new Int32Array(3);

/** The colour whose terms the next term() calls are. */
function colour(c: number): void {
  us = c;
}

/**
 * Parameter i earned n times by colour `us`: its packed value, which the
 * caller adds to that colour's score. Each helper sums its terms in a local
 * variable (a register, where a module variable would be a memory access per
 * term) and the caller adds White's and subtracts Black's. Math.imul, not
 * `*`: an integer product is never -0 (0 * -1 is, in doubles), and a -0
 * makes V8 deoptimize the evaluation and recompile it for doubles. For the
 * same reason a score changes sign as `0 - x`, never `-x`.
 */
function term(i: number, n: number): number {
  if (tracing) TRACE[us * NUM_PARAMS + i] += n;
  return Math.imul(PACKED[i], n);
}

/** Material and placement from scratch, White minus Black (trace mode; the fast path uses pos.psqMg/psqEg). */
function pieceSquares(board: Uint8Array): number {
  let s = 0;
  for (let sq = 0; sq < 64; sq++) {
    const piece = board[sq];
    if (piece === 0) continue;
    colour(piece >> 3);
    const type = piece & 7;
    let v = term(pstOffset(type) + (us === WHITE ? sq : sq ^ 56), 1);
    if (type !== KING) v += term(MATERIAL + type - 1, 1);
    s += us === WHITE ? v : 0 - v;
  }
  return s;
}

/** Knights, bishops, rooks, queens of colour c: mobility, king attacks, rook files, bishop pair, pawn threats (c's score, packed). */
function evalPieces(pos: Position, kingSq: Int32Array, c: number, occLo: number, occHi: number): number {
  colour(c);
  let s = 0;
  const them = c ^ 1;
  const own = c << 3;
  const enemy = them << 3;
  // Mobility counts safe squares: not our own pieces, not attacked by an enemy pawn.
  const safeLo = ~(pos.lo(own) | PAWN_ATT[them * 2]);
  const safeHi = ~(pos.hi(own) | PAWN_ATT[them * 2 + 1]);
  const zi = (them * 64 + kingSq[them]) * 2;
  const zoneLo = KING_ZONE[zi];
  const zoneHi = KING_ZONE[zi + 1];
  const ownPawnsLo = pos.lo(own | PAWN);
  const ownPawnsHi = pos.hi(own | PAWN);
  const allPawnsLo = ownPawnsLo | pos.lo(enemy | PAWN);
  const allPawnsHi = ownPawnsHi | pos.hi(enemy | PAWN);
  let attLo = PAWN_ATT[c * 2] | KING_ATTACKS[kingSq[c] * 2];
  let attHi = PAWN_ATT[c * 2 + 1] | KING_ATTACKS[kingSq[c] * 2 + 1];
  let attackers = 0;

  for (let type = KNIGHT; type <= QUEEN; type++) {
    let lo = pos.lo(own | type);
    let hi = pos.hi(own | type);
    const mob = MOB_OFFSET[type];
    while ((lo | hi) !== 0) {
      const sq = lowestSquare(lo, hi);
      if (lo !== 0) lo &= lo - 1;
      else hi &= hi - 1;
      let aLo: number;
      let aHi: number;
      if (type === KNIGHT) {
        aLo = KNIGHT_ATTACKS[sq * 2];
        aHi = KNIGHT_ATTACKS[sq * 2 + 1];
      } else if (type === BISHOP) {
        const b = bishopIndex(sq, occLo, occHi);
        aLo = SLIDER_ATTACKS[b];
        aHi = SLIDER_ATTACKS[b + 1];
      } else if (type === ROOK) {
        const r = rookIndex(sq, occLo, occHi);
        aLo = SLIDER_ATTACKS[r];
        aHi = SLIDER_ATTACKS[r + 1];
        // Open files give rooks scope; a file with only enemy pawns gives a target.
        const f = (sq & 7) * 2;
        if (((FILE_MASK[f] & allPawnsLo) | (FILE_MASK[f + 1] & allPawnsHi)) === 0) s += term(ROOK_OPEN, 1);
        else if (((FILE_MASK[f] & ownPawnsLo) | (FILE_MASK[f + 1] & ownPawnsHi)) === 0) s += term(ROOK_SEMI_OPEN, 1);
        // The 7th rank: enemy pawns still at home, or the enemy king cut off on the back rank.
        if ((c === WHITE ? sq >> 3 : 7 - (sq >> 3)) === 6) {
          const rank7 = c === WHITE ? 0xff0000 : 0xff00;
          const rank8 = c === WHITE ? 7 : 0;
          const ep = enemy | PAWN;
          if (kingSq[them] >> 3 === rank8 || ((c === WHITE ? pos.hi(ep) : pos.lo(ep)) & rank7) !== 0) s += term(ROOK_SEVENTH, 1);
        }
      } else {
        const r = rookIndex(sq, occLo, occHi);
        const b = bishopIndex(sq, occLo, occHi);
        aLo = SLIDER_ATTACKS[r] | SLIDER_ATTACKS[b];
        aHi = SLIDER_ATTACKS[r + 1] | SLIDER_ATTACKS[b + 1];
      }
      s += term(mob + popcount64(aLo & safeLo, aHi & safeHi), 1);
      // King attack: every square of the enemy king zone this piece hits.
      if (((aLo & zoneLo) | (aHi & zoneHi)) !== 0) {
        attackers++;
        s += term(KING_ATTACK + type - KNIGHT, popcount64(aLo & zoneLo, aHi & zoneHi));
      }
      attLo |= aLo;
      attHi |= aHi;
    }
  }
  ATTACKED[c * 2] = attLo;
  ATTACKED[c * 2 + 1] = attHi;
  ZONE_ATTACKERS[c] = attackers;

  // Two bishops cover both square colours.
  if (pos.count(own | BISHOP) >= 2) s += term(BISHOP_PAIR, 1);
  // Enemy pieces attacked by our pawns must move or be lost.
  const targetLo = pos.lo(enemy) & ~pos.lo(enemy | PAWN) & ~pos.lo(enemy | KING);
  const targetHi = pos.hi(enemy) & ~pos.hi(enemy | PAWN) & ~pos.hi(enemy | KING);
  const threats = popcount64(targetLo & PAWN_ATT[c * 2], targetHi & PAWN_ATT[c * 2 + 1]);
  if (threats !== 0) s += term(PAWN_THREAT, threats);
  return s;
}

/**
 * Pawn-only terms of colour c: isolated, backward, doubled, connected and the
 * passed pawns' base bonus (c's score, packed). Records c's passed pawns in PASSERS.
 */
function pawnStructure(pos: Position, c: number): number {
  colour(c);
  let s = 0;
  const them = c ^ 1;
  const ownLo = pos.lo((c << 3) | PAWN);
  const ownHi = pos.hi((c << 3) | PAWN);
  const enemyLo = pos.lo((them << 3) | PAWN);
  const enemyHi = pos.hi((them << 3) | PAWN);
  const up = c === WHITE ? 8 : -8;
  let passedLo = 0;
  let passedHi = 0;
  let lo = ownLo;
  let hi = ownHi;
  while ((lo | hi) !== 0) {
    const sq = lowestSquare(lo, hi);
    if (lo !== 0) lo &= lo - 1;
    else hi &= hi - 1;
    const f = (sq & 7) * 2;
    const rank = c === WHITE ? sq >> 3 : 7 - (sq >> 3);
    const i = (c * 64 + sq) * 2;
    const stop = sq + up;

    if (((ADJACENT_FILES[f] & ownLo) | (ADJACENT_FILES[f + 1] & ownHi)) === 0) {
      // Isolated: no pawn can ever defend it.
      s += term(ISOLATED, 1);
    } else if (
      ((SUPPORT_SPAN[i] & ownLo) | (SUPPORT_SPAN[i + 1] & ownHi)) === 0 &&
      (PAWN_ATT[them * 2 + (stop >> 5)] & (1 << (stop & 31))) !== 0
    ) {
      // Backward: its neighbours are all ahead of it and an enemy pawn guards its stop square.
      s += term(BACKWARD, 1);
    }
    const aheadOwn = ((FORWARD_FILE[i] & ownLo) | (FORWARD_FILE[i + 1] & ownHi)) !== 0;
    // Doubled: the rear pawn of two on a file is blocked by its own side.
    if (aheadOwn) s += term(DOUBLED, 1);
    // Connected pawns defend each other or advance side by side.
    if (((BESIDE[sq * 2] & ownLo) | (BESIDE[sq * 2 + 1] & ownHi)) !== 0) s += term(PHALANX + rank, 1);
    const d = (them * 64 + sq) * 2;
    if (((PAWN_ATTACKS[d] & ownLo) | (PAWN_ATTACKS[d + 1] & ownHi)) !== 0) s += term(SUPPORTED + rank, 1);

    // Passed: no enemy pawn ahead on its own or adjacent files (front pawn of a file only).
    if (aheadOwn || ((PASSED_SPAN[i] & enemyLo) | (PASSED_SPAN[i + 1] & enemyHi)) !== 0) continue;
    s += term(PASSED + rank, 1);
    if (sq < 32) passedLo |= 1 << sq;
    else passedHi |= 1 << (sq - 32);
  }
  PASSERS[c * 2] = passedLo;
  PASSERS[c * 2 + 1] = passedHi;
  return s;
}

/**
 * Pawn structure of both colours and each king's pawn shelter, White minus
 * Black, from the pawn cache when it holds this structure (and king square);
 * never while tracing.
 */
function pawnTerms(pos: Position, kingSq: Int32Array): number {
  const wLo = pos.lo(PAWN);
  const wHi = pos.hi(PAWN);
  const bLo = pos.lo(8 | PAWN);
  const bHi = pos.hi(8 | PAWN);
  if (tracing) {
    return (
      pawnStructure(pos, WHITE) -
      pawnStructure(pos, BLACK) +
      kingShelter(pos, kingSq[WHITE], WHITE) -
      kingShelter(pos, kingSq[BLACK], BLACK)
    );
  }
  let sum: number;
  const slot = pawnCacheSlot(wLo, wHi, bLo, bHi);
  if (pawnCacheHit(slot, wLo, wHi, bLo, bHi)) {
    sum = PAWN_CACHE[slot + PC_PAWNS];
    // Passed pawns of both colours share one set: the colour of each is in the pawn sets.
    const pLo = PAWN_CACHE[slot + PC_PASSED_LO];
    const pHi = PAWN_CACHE[slot + PC_PASSED_HI];
    PASSERS[0] = pLo & wLo;
    PASSERS[1] = pHi & wHi;
    PASSERS[2] = pLo & bLo;
    PASSERS[3] = pHi & bHi;
  } else {
    sum = pawnStructure(pos, WHITE) - pawnStructure(pos, BLACK);
    PAWN_CACHE[slot] = wLo;
    PAWN_CACHE[slot + 1] = wHi;
    PAWN_CACHE[slot + 2] = bLo;
    PAWN_CACHE[slot + 3] = bHi;
    PAWN_CACHE[slot + PC_PAWNS] = sum;
    PAWN_CACHE[slot + PC_PASSED_LO] = PASSERS[0] | PASSERS[2];
    PAWN_CACHE[slot + PC_PASSED_HI] = PASSERS[1] | PASSERS[3];
    PAWN_CACHE[slot + PC_KING] = -1;
    PAWN_CACHE[slot + PC_KING + 1] = -1;
  }
  // Each colour's shelter is cached signed: White's added, Black's subtracted.
  for (let c = 0; c < 2; c++) {
    const ksq = kingSq[c];
    const s = slot + PC_SHELTER + c;
    if (PAWN_CACHE[slot + PC_KING + c] !== ksq) {
      const shelter = kingShelter(pos, ksq, c);
      PAWN_CACHE[slot + PC_KING + c] = ksq;
      PAWN_CACHE[s] = c === WHITE ? shelter : 0 - shelter;
    }
    sum += PAWN_CACHE[s];
  }
  return sum;
}

/** Passed pawns of colour c, beyond their base bonus: free path, safe stop square, king distances (c's score, packed). */
function passedPawns(kingSq: Int32Array, c: number, occLo: number, occHi: number): number {
  colour(c);
  let s = 0;
  const them = c ^ 1;
  const ownKing = kingSq[c] * 64;
  const theirKing = kingSq[them] * 64;
  const up = c === WHITE ? 8 : -8;
  let lo = PASSERS[c * 2];
  let hi = PASSERS[c * 2 + 1];
  while ((lo | hi) !== 0) {
    const sq = lowestSquare(lo, hi);
    if (lo !== 0) lo &= lo - 1;
    else hi &= hi - 1;
    const rank = c === WHITE ? sq >> 3 : 7 - (sq >> 3);
    const i = (c * 64 + sq) * 2;
    const stop = sq + up;
    if (((FORWARD_FILE[i] & occLo) | (FORWARD_FILE[i + 1] & occHi)) === 0) s += term(PASSED_FREE + rank, 1);
    if ((ATTACKED[them * 2 + (stop >> 5)] & (1 << (stop & 31))) === 0) s += term(PASSED_SAFE + rank, 1);
    // In the endgame the kings race to the pawn: ours to escort it, theirs to stop it.
    s += term(PASSED_KING_OWN + rank, DISTANCE[ownKing + stop]);
    s += term(PASSED_KING_THEIR + rank, DISTANCE[theirKing + stop]);
  }
  return s;
}

/** Rank distance from the king to the nearest pawn of (lo, hi) ahead of it on one file; 0 when none. */
function nearestAhead(lo: number, hi: number, c: number, kingRank: number): number {
  if ((lo | hi) === 0) return 0;
  let sq: number;
  if (c === WHITE) sq = lowestSquare(lo, hi);
  else sq = hi !== 0 ? 63 - Math.clz32(hi) : 31 - Math.clz32(lo);
  const d = c === WHITE ? (sq >> 3) - kingRank : kingRank - (sq >> 3);
  return d < 7 ? d : 7;
}

/** Pawn shelter of colour c's king on ksq: own pawns in front on its three files, and enemy pawns storming them (c's score, packed). */
function kingShelter(pos: Position, ksq: number, c: number): number {
  colour(c);
  let s = 0;
  const kingRank = ksq >> 3;
  let kf = ksq & 7;
  if (kf < 1) kf = 1;
  else if (kf > 6) kf = 6;
  const ai = (c * 8 + kingRank) * 2;
  const aheadLo = AHEAD_RANKS[ai];
  const aheadHi = AHEAD_RANKS[ai + 1];
  const ownLo = pos.lo((c << 3) | PAWN) & aheadLo;
  const ownHi = pos.hi((c << 3) | PAWN) & aheadHi;
  const enemyLo = pos.lo(((c ^ 1) << 3) | PAWN) & aheadLo;
  const enemyHi = pos.hi(((c ^ 1) << 3) | PAWN) & aheadHi;
  for (let f = kf - 1; f <= kf + 1; f++) {
    const mLo = FILE_MASK[f * 2];
    const mHi = FILE_MASK[f * 2 + 1];
    // Own pawns close in front shelter the king; enemy pawns close in front open lines to it.
    s += term(SHIELD + nearestAhead(ownLo & mLo, ownHi & mHi, c, kingRank), 1);
    s += term(STORM + nearestAhead(enemyLo & mLo, enemyHi & mHi, c, kingRank), 1);
  }
  return s;
}

/**
 * Pieces of colour c attacking the enemy king zone, counted in evalPieces:
 * many together are worth more than the sum of single attacks.
 */
function kingAttackers(c: number): number {
  colour(c);
  return term(KING_ATTACKERS + (ZONE_ATTACKERS[c] < 7 ? ZONE_ATTACKERS[c] : 7), 1);
}

/** The whole evaluation from White's point of view (mg/eg left in the module state). */
function evalWhite(pos: Position): number {
  const kingSq = pos.kingSq;
  const phase = pos.phase < MAX_PHASE ? pos.phase : MAX_PHASE;
  let sum = 0;
  if (tracing) {
    TRACE.fill(0);
    sum = pieceSquares(pos.board);
  }
  const occLo = pos.occLo();
  const occHi = pos.occHi();

  pawnAttacks(pos.lo(PAWN), pos.hi(PAWN), WHITE, PAWN_ATT, 0);
  pawnAttacks(pos.lo(8 | PAWN), pos.hi(8 | PAWN), BLACK, PAWN_ATT, 2);

  sum += evalPieces(pos, kingSq, WHITE, occLo, occHi) - evalPieces(pos, kingSq, BLACK, occLo, occHi);
  sum += pawnTerms(pos, kingSq);
  sum += passedPawns(kingSq, WHITE, occLo, occHi) - passedPawns(kingSq, BLACK, occLo, occHi);
  sum += kingAttackers(WHITE) - kingAttackers(BLACK);
  // The side to move is a tempo up.
  colour(pos.side);
  const tempo = term(TEMPO, 1);
  sum += pos.side === WHITE ? tempo : 0 - tempo;

  mg = unpackMg(sum);
  eg = unpackEg(sum);
  if (!tracing) {
    mg += pos.psqMg;
    eg += pos.psqEg;
  }

  const drawn = cannotMate(pos);
  const scale = drawn ? 0 : endgameScale(pos, phase, eg > 0 ? WHITE : BLACK);
  if (tracing) {
    TRACE_INFO[0] = phase;
    TRACE_INFO[1] = scale;
    TRACE_INFO[2] = drawn ? 1 : 0;
  }
  if (drawn) return 0;
  // Truncating division keeps the score exactly antisymmetric under colour
  // flip; Math.imul keeps the products integers (never -0, as in term()).
  return ((Math.imul(mg, phase * SCALE_NORMAL) + Math.imul(eg, (MAX_PHASE - phase) * scale)) / (MAX_PHASE * SCALE_NORMAL)) | 0;
}

/** Static evaluation in centipawns from the side to move's point of view. Allocation-free. */
export function evaluate(pos: Position): number {
  const v = evalWhite(pos);
  return pos.side === WHITE ? v : 0 - v;
}

/**
 * evaluate() that also fills TRACE (per-colour coefficient of every
 * parameter) and TRACE_INFO; material and placement are recounted from the
 * board. Returns the same score as evaluate(). Not for the search.
 */
export function traceEvaluate(pos: Position): number {
  tracing = true;
  try {
    const v = evalWhite(pos);
    return pos.side === WHITE ? v : 0 - v;
  } finally {
    tracing = false;
  }
}

/** Midgame and endgame sums (White's view) of the last evaluate/traceEvaluate call, for explain and tests. */
export function lastSums(): [number, number] {
  return [mg, eg];
}
