// Static exchange evaluation: does a capture sequence on one square, each side
// recapturing with its least valuable attacker and free to stop, leave the
// mover at least `threshold` ahead? Sliders behind the capturers (x-rays)
// join in as the pieces in front of them leave. Pins are ignored.

import { KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS, SLIDER_ATTACKS, bishopIndex, lsb32, rookIndex } from './bitboard.js';
import type { Position } from './position.js';
import {
  BISHOP,
  BLACK,
  CASTLE,
  EN_PASSANT,
  KING,
  KNIGHT,
  PAWN,
  QUEEN,
  ROOK,
  WHITE,
  isPromotion,
  moveFrom,
  moveKind,
  moveTo,
  promotionType,
} from './types.js';

/** Exchange values by piece type (index 0 = none). */
export const SEE_VALUE = new Int32Array([0, 100, 320, 330, 500, 950, 20000, 0]);

/** True when the static exchange of `move` gains at least `threshold` centipawns. */
export function seeGE(pos: Position, move: number, threshold: number): boolean {
  const kind = moveKind(move);
  if (kind === CASTLE) return threshold <= 0;
  const from = moveFrom(move);
  const to = moveTo(move);
  const board = pos.board;

  let swap = SEE_VALUE[kind === EN_PASSANT ? PAWN : board[to] & 7] - threshold;
  let nextVictim = board[from] & 7;
  if (isPromotion(move)) {
    const promo = promotionType(move);
    swap += SEE_VALUE[promo] - SEE_VALUE[PAWN];
    nextVictim = promo;
  }
  if (swap < 0) return false;
  swap = SEE_VALUE[nextVictim] - swap;
  if (swap <= 0) return true;

  let occLo = pos.occLo();
  let occHi = pos.occHi();
  // Take the moving piece (and an en-passant victim) off; the target square stays "occupied".
  if (from < 32) occLo &= ~(1 << from);
  else occHi &= ~(1 << (from - 32));
  if (kind === EN_PASSANT) {
    const cap = to ^ 8;
    if (cap < 32) occLo &= ~(1 << cap);
    else occHi &= ~(1 << (cap - 32));
  }

  const diagLo = pos.lo(BISHOP) | pos.lo(QUEEN) | pos.lo(8 | BISHOP) | pos.lo(8 | QUEEN);
  const diagHi = pos.hi(BISHOP) | pos.hi(QUEEN) | pos.hi(8 | BISHOP) | pos.hi(8 | QUEEN);
  const straightLo = pos.lo(ROOK) | pos.lo(QUEEN) | pos.lo(8 | ROOK) | pos.lo(8 | QUEEN);
  const straightHi = pos.hi(ROOK) | pos.hi(QUEEN) | pos.hi(8 | ROOK) | pos.hi(8 | QUEEN);
  const t2 = to * 2;
  const bi = bishopIndex(to, occLo, occHi);
  const ri = rookIndex(to, occLo, occHi);
  const wp = (BLACK * 64 + to) * 2; // squares from which a white pawn attacks `to`
  const bp = (WHITE * 64 + to) * 2;
  let attLo =
    (PAWN_ATTACKS[wp] & pos.lo(PAWN)) |
    (PAWN_ATTACKS[bp] & pos.lo(8 | PAWN)) |
    (KNIGHT_ATTACKS[t2] & (pos.lo(KNIGHT) | pos.lo(8 | KNIGHT))) |
    (KING_ATTACKS[t2] & (pos.lo(KING) | pos.lo(8 | KING))) |
    (SLIDER_ATTACKS[bi] & diagLo) |
    (SLIDER_ATTACKS[ri] & straightLo);
  let attHi =
    (PAWN_ATTACKS[wp + 1] & pos.hi(PAWN)) |
    (PAWN_ATTACKS[bp + 1] & pos.hi(8 | PAWN)) |
    (KNIGHT_ATTACKS[t2 + 1] & (pos.hi(KNIGHT) | pos.hi(8 | KNIGHT))) |
    (KING_ATTACKS[t2 + 1] & (pos.hi(KING) | pos.hi(8 | KING))) |
    (SLIDER_ATTACKS[bi + 1] & diagHi) |
    (SLIDER_ATTACKS[ri + 1] & straightHi);

  let stm = pos.side;
  let result = 1;
  for (;;) {
    stm ^= 1;
    attLo &= occLo;
    attHi &= occHi;
    const own = stm << 3;
    const mineLo = attLo & pos.lo(own);
    const mineHi = attHi & pos.hi(own);
    if ((mineLo | mineHi) === 0) break;
    result ^= 1;

    // Least valuable attacker of the side to capture.
    let type = PAWN;
    let pLo = 0;
    let pHi = 0;
    for (; type <= KING; type++) {
      pLo = mineLo & pos.lo(own | type);
      pHi = mineHi & pos.hi(own | type);
      if ((pLo | pHi) !== 0) break;
    }
    if (type === KING) {
      // The king may only take last: if the other side still attacks, the capture fails.
      const otherLo = attLo & ~pos.lo(own);
      const otherHi = attHi & ~pos.hi(own);
      return (otherLo | otherHi) !== 0 ? result === 0 : result === 1;
    }
    swap = SEE_VALUE[type] - swap;
    if (swap < result) break;
    if (pLo !== 0) occLo &= ~(pLo & -pLo);
    else occHi &= ~(1 << lsb32(pHi));
    // Reveal x-ray attackers behind the piece that just captured.
    if (type === PAWN || type === BISHOP || type === QUEEN) {
      const i = bishopIndex(to, occLo, occHi);
      attLo |= SLIDER_ATTACKS[i] & diagLo;
      attHi |= SLIDER_ATTACKS[i + 1] & diagHi;
    }
    if (type === ROOK || type === QUEEN) {
      const i = rookIndex(to, occLo, occHi);
      attLo |= SLIDER_ATTACKS[i] & straightLo;
      attHi |= SLIDER_ATTACKS[i + 1] & straightHi;
    }
  }
  return result === 1;
}
