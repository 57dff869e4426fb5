// Legal move generation straight into a caller's Int32Array: checkers and
// pinned pieces are found first, so every move written is legal and nothing
// is made and unmade to test it. Also the noisy generator (captures and
// promotions) that quiescence search uses; in check, call the full generator
// to get every evasion.

import {
  BETWEEN,
  BISHOP_RAYS,
  KING_ATTACKS,
  KNIGHT_ATTACKS,
  LINE,
  PAWN_ATTACKS,
  ROOK_RAYS,
  SLIDER_ATTACKS,
  bishopIndex,
  lowestSquare,
  lsb32,
  rookIndex,
} from './bitboard.js';
import type { Position } from './position.js';
import {
  BISHOP,
  CASTLE,
  DOUBLE_PUSH,
  EN_PASSANT,
  KING,
  KNIGHT,
  MAX_MOVES,
  PAWN,
  PROMO_BISHOP,
  PROMO_KNIGHT,
  PROMO_QUEEN,
  PROMO_ROOK,
  QUEEN,
  ROOK,
  WHITE,
} from './types.js';

/** Writes one move per square of (lo, hi), all from `from`; returns the new end index. */
function addTargets(out: Int32Array, n: number, from: number, lo: number, hi: number): number {
  while (lo !== 0) {
    out[n++] = from | (lsb32(lo) << 6);
    lo &= lo - 1;
  }
  while (hi !== 0) {
    out[n++] = from | ((32 + lsb32(hi)) << 6);
    hi &= hi - 1;
  }
  return n;
}

function addPromotions(out: Int32Array, n: number, from: number, to: number): number {
  const base = from | (to << 6);
  out[n] = base | (PROMO_QUEEN << 12);
  out[n + 1] = base | (PROMO_KNIGHT << 12);
  out[n + 2] = base | (PROMO_ROOK << 12);
  out[n + 3] = base | (PROMO_BISHOP << 12);
  return n + 4;
}

/**
 * Writes the legal moves of the side to move into out[start..] and returns the
 * end index. With noisyOnly, only captures and promotions (quiet promotions
 * included) are written. Never writes more than MAX_MOVES moves.
 */
export function generateMoves(pos: Position, out: Int32Array, start: number, noisyOnly: boolean): number {
  const bb = pos.bb;
  const board = pos.board;
  const us = pos.side;
  const them = us ^ 1;
  const up = us === WHITE ? 8 : -8;
  const ourPieces = us << 3;
  const theirPieces = them << 3;
  const usLo = pos.lo(ourPieces);
  const usHi = pos.hi(ourPieces);
  const themLo = pos.lo(theirPieces);
  const themHi = pos.hi(theirPieces);
  const occLo = usLo | themLo;
  const occHi = usHi | themHi;
  const ksq = pos.kingSq[us];
  const k2 = ksq * 2;
  let n = start;

  // --- Checkers and pinned pieces -----------------------------------------
  const pa = (us * 64 + ksq) * 2;
  let checkLo = (PAWN_ATTACKS[pa] & pos.lo(theirPieces | PAWN)) | (KNIGHT_ATTACKS[k2] & pos.lo(theirPieces | KNIGHT));
  let checkHi = (PAWN_ATTACKS[pa + 1] & pos.hi(theirPieces | PAWN)) | (KNIGHT_ATTACKS[k2 + 1] & pos.hi(theirPieces | KNIGHT));
  let pinLo = 0;
  let pinHi = 0;
  const qLo = pos.lo(theirPieces | QUEEN);
  const qHi = pos.hi(theirPieces | QUEEN);
  let sniperLo = (ROOK_RAYS[k2] & (pos.lo(theirPieces | ROOK) | qLo)) | (BISHOP_RAYS[k2] & (pos.lo(theirPieces | BISHOP) | qLo));
  let sniperHi = (ROOK_RAYS[k2 + 1] & (pos.hi(theirPieces | ROOK) | qHi)) | (BISHOP_RAYS[k2 + 1] & (pos.hi(theirPieces | BISHOP) | qHi));
  while ((sniperLo | sniperHi) !== 0) {
    const s = lowestSquare(sniperLo, sniperHi);
    if (sniperLo !== 0) sniperLo &= sniperLo - 1;
    else sniperHi &= sniperHi - 1;
    const bi = (ksq * 64 + s) * 2;
    const bLo = BETWEEN[bi] & occLo;
    const bHi = BETWEEN[bi + 1] & occHi;
    if ((bLo | bHi) === 0) {
      if (s < 32) checkLo |= 1 << s;
      else checkHi |= 1 << (s - 32);
    } else if (bLo === 0 ? (bHi & (bHi - 1)) === 0 : bHi === 0 && (bLo & (bLo - 1)) === 0) {
      // Exactly one piece between: if it is ours, it is pinned.
      pinLo |= bLo & usLo;
      pinHi |= bHi & usHi;
    }
  }

  // --- King moves ---------------------------------------------------------
  {
    let tLo = KING_ATTACKS[k2] & ~usLo;
    let tHi = KING_ATTACKS[k2 + 1] & ~usHi;
    if (noisyOnly) {
      tLo &= themLo;
      tHi &= themHi;
    }
    // The king does not shield squares behind it from sliders: take it off the board.
    const kLo = ksq < 32 ? occLo & ~(1 << ksq) : occLo;
    const kHi = ksq >= 32 ? occHi & ~(1 << (ksq - 32)) : occHi;
    while (tLo !== 0) {
      const to = lsb32(tLo);
      tLo &= tLo - 1;
      if (!pos.isAttackedWith(to, them, kLo, kHi)) out[n++] = ksq | (to << 6);
    }
    while (tHi !== 0) {
      const to = 32 + lsb32(tHi);
      tHi &= tHi - 1;
      if (!pos.isAttackedWith(to, them, kLo, kHi)) out[n++] = ksq | (to << 6);
    }
  }

  const checkers = checkLo | checkHi;
  if (checkers !== 0 && (checkLo === 0 ? (checkHi & (checkHi - 1)) !== 0 : checkHi !== 0 || (checkLo & (checkLo - 1)) !== 0)) {
    return n; // double check: only the king can move
  }

  // Squares a non-king piece may move to: anything not ours, or when in
  // check, the checker or a square between it and the king.
  let targetLo = ~usLo;
  let targetHi = ~usHi;
  if (checkers !== 0) {
    const c = lowestSquare(checkLo, checkHi);
    targetLo = BETWEEN[(ksq * 64 + c) * 2] | checkLo;
    targetHi = BETWEEN[(ksq * 64 + c) * 2 + 1] | checkHi;
  }
  // Captures (and, for pawns, promotions) only.
  const pieceTargetLo = noisyOnly ? targetLo & themLo : targetLo;
  const pieceTargetHi = noisyOnly ? targetHi & themHi : targetHi;

  // --- Knights (a pinned knight can never move) ---------------------------
  {
    let lo = pos.lo(ourPieces | KNIGHT) & ~pinLo;
    let hi = pos.hi(ourPieces | KNIGHT) & ~pinHi;
    while ((lo | hi) !== 0) {
      const from = lowestSquare(lo, hi);
      if (lo !== 0) lo &= lo - 1;
      else hi &= hi - 1;
      n = addTargets(out, n, from, KNIGHT_ATTACKS[from * 2] & pieceTargetLo, KNIGHT_ATTACKS[from * 2 + 1] & pieceTargetHi);
    }
  }

  // --- Sliders: diagonal movers, then straight movers (queens in both) ---
  for (let pass = 0; pass < 2; pass++) {
    const straight = pass === 1;
    const kind = straight ? ROOK : BISHOP;
    let lo = pos.lo(ourPieces | kind) | pos.lo(ourPieces | QUEEN);
    let hi = pos.hi(ourPieces | kind) | pos.hi(ourPieces | QUEEN);
    while ((lo | hi) !== 0) {
      const from = lowestSquare(lo, hi);
      if (lo !== 0) lo &= lo - 1;
      else hi &= hi - 1;
      const a = straight ? rookIndex(from, occLo, occHi) : bishopIndex(from, occLo, occHi);
      let tLo = SLIDER_ATTACKS[a] & pieceTargetLo;
      let tHi = SLIDER_ATTACKS[a + 1] & pieceTargetHi;
      if ((((from < 32 ? pinLo : pinHi) >>> from) & 1) !== 0) {
        const li = (ksq * 64 + from) * 2;
        tLo &= LINE[li];
        tHi &= LINE[li + 1];
      }
      n = addTargets(out, n, from, tLo, tHi);
    }
  }

  // --- Pawns ----------------------------------------------------------------
  {
    const pawnCode = ourPieces | PAWN;
    let lo = pos.lo(pawnCode);
    let hi = pos.hi(pawnCode);
    const lastRankFrom = us === WHITE ? 6 : 1; // rank a pawn promotes from
    const startRank = us === WHITE ? 1 : 6;
    while ((lo | hi) !== 0) {
      const from = lowestSquare(lo, hi);
      if (lo !== 0) lo &= lo - 1;
      else hi &= hi - 1;
      let allowLo = targetLo;
      let allowHi = targetHi;
      if ((((from < 32 ? pinLo : pinHi) >>> from) & 1) !== 0) {
        const li = (ksq * 64 + from) * 2;
        allowLo &= LINE[li];
        allowHi &= LINE[li + 1];
      }
      const promotes = from >> 3 === lastRankFrom;
      // Pushes.
      const to = from + up;
      if (board[to] === 0) {
        const ok = (((to < 32 ? allowLo : allowHi) >>> to) & 1) !== 0;
        if (promotes) {
          if (ok) n = addPromotions(out, n, from, to);
        } else if (!noisyOnly) {
          if (ok) out[n++] = from | (to << 6);
          const to2 = to + up;
          if (from >> 3 === startRank && board[to2] === 0 && (((to2 < 32 ? allowLo : allowHi) >>> to2) & 1) !== 0) {
            out[n++] = from | (to2 << 6) | (DOUBLE_PUSH << 12);
          }
        }
      }
      // Captures.
      const ai = (us * 64 + from) * 2;
      let cLo = PAWN_ATTACKS[ai] & themLo & allowLo;
      let cHi = PAWN_ATTACKS[ai + 1] & themHi & allowHi;
      if (promotes) {
        while (cLo !== 0) {
          n = addPromotions(out, n, from, lsb32(cLo));
          cLo &= cLo - 1;
        }
        while (cHi !== 0) {
          n = addPromotions(out, n, from, 32 + lsb32(cHi));
          cHi &= cHi - 1;
        }
      } else {
        n = addTargets(out, n, from, cLo, cHi);
      }
      // En passant: rare, so test it by lifting both pawns off the board and
      // asking whether the king is then attacked (this covers the rank pin).
      const ep = pos.ep;
      if (ep >= 0 && (((ep < 32 ? PAWN_ATTACKS[ai] : PAWN_ATTACKS[ai + 1]) >>> ep) & 1) !== 0) {
        const capSq = ep - up;
        let eLo = occLo;
        let eHi = occHi;
        if (from < 32) eLo ^= 1 << from;
        else eHi ^= 1 << (from - 32);
        if (capSq < 32) eLo ^= 1 << capSq;
        else eHi ^= 1 << (capSq - 32);
        if (ep < 32) eLo |= 1 << ep;
        else eHi |= 1 << (ep - 32);
        const theirPawn = (theirPieces | PAWN) * 2 + (capSq >> 5);
        const capBit = 1 << (capSq & 31);
        bb[theirPawn] ^= capBit;
        const legal = !pos.isAttackedWith(ksq, them, eLo, eHi);
        bb[theirPawn] ^= capBit;
        if (legal) out[n++] = from | (ep << 6) | (EN_PASSANT << 12);
      }
    }
  }

  // --- Castling -------------------------------------------------------------
  if (!noisyOnly && checkers === 0 && (pos.castling & (3 << (us * 2))) !== 0) {
    for (let r = us * 2; r < us * 2 + 2; r++) {
      if ((pos.castling & (1 << r)) === 0) continue;
      if (((pos.castlePath[r * 2] & occLo) | (pos.castlePath[r * 2 + 1] & occHi)) !== 0) continue;
      const kingTo = pos.castleKingTo[r];
      const rookSq = pos.castleRookSq[r];
      // The king may not pass through or land on an attacked square.
      const step = kingTo > ksq ? 1 : -1;
      let safe = true;
      for (let s = ksq + step; safe && s !== kingTo + step; s += step) {
        if (pos.isAttackedWith(s, them, occLo, occHi)) safe = false;
      }
      if (!safe) continue;
      // Chess960: the castling rook may have been shielding the king's target square.
      const rLo = rookSq < 32 ? occLo & ~(1 << rookSq) : occLo;
      const rHi = rookSq >= 32 ? occHi & ~(1 << (rookSq - 32)) : occHi;
      if (pos.isAttackedWith(kingTo, them, rLo, rHi)) continue;
      out[n++] = ksq | (rookSq << 6) | (CASTLE << 12);
    }
  }
  return n;
}

/** Legal-move scratch list for the rare moves isPseudoLegal checks by generation. */
const scratch = new Int32Array(MAX_MOVES);

/**
 * Whether `move` (say, from the transposition table, where another position
 * may have put it) could be played here: our piece moves as that piece can,
 * to a square not ours. It may still leave our king in check; the caller makes
 * the move and tests that. Castling and en passant are checked against the
 * legal list (rare, and their conditions are many).
 */
export function isPseudoLegal(pos: Position, move: number): boolean {
  const from = move & 63;
  const to = (move >> 6) & 63;
  const kind = move >> 12;
  const us = pos.side;
  const board = pos.board;
  const piece = board[from];
  if (piece === 0 || piece >> 3 !== us) return false;
  if (kind === CASTLE || kind === EN_PASSANT) {
    const end = generateMoves(pos, scratch, 0, false);
    for (let i = 0; i < end; i++) if (scratch[i] === move) return true;
    return false;
  }
  const target = board[to];
  if (target !== 0 && (target >> 3 === us || (target & 7) === KING)) return false;
  const type = piece & 7;
  if (type === PAWN) {
    const up = us === WHITE ? 8 : -8;
    const lastRank = us === WHITE ? 7 : 0;
    if ((to >> 3 === lastRank) !== kind >= PROMO_KNIGHT) return false;
    if (kind === DOUBLE_PUSH) {
      return from >> 3 === (us === WHITE ? 1 : 6) && to === from + 2 * up && board[from + up] === 0 && target === 0;
    }
    if (to === from + up) return target === 0;
    const a = (us * 64 + from) * 2 + (to >> 5);
    return target !== 0 && ((PAWN_ATTACKS[a] >>> to) & 1) !== 0;
  }
  if (kind !== 0) return false;
  const half = to >> 5;
  let attacks: number;
  if (type === KNIGHT) attacks = KNIGHT_ATTACKS[from * 2 + half];
  else if (type === KING) attacks = KING_ATTACKS[from * 2 + half];
  else {
    const occLo = pos.occLo();
    const occHi = pos.occHi();
    attacks = 0;
    if (type !== ROOK) attacks |= SLIDER_ATTACKS[bishopIndex(from, occLo, occHi) + half];
    if (type !== BISHOP) attacks |= SLIDER_ATTACKS[rookIndex(from, occLo, occHi) + half];
  }
  return ((attacks >>> to) & 1) !== 0;
}
