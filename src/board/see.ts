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
  const bb = pos.bb;
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

  let occLo = bb[0] | bb[16];
  let occHi = bb[1] | bb[17];
  // Take the moving piece (and an en-passant victim) off; the target square stays "occupied".
  if (from < 32) occLo &= ~(1 << from);
  else occHi &= ~(1 << (from - 32));
  if (kind === EN_PASSANT) {
    const cap = to ^ 8;
    if (cap < 32) occLo &= ~(1 << cap);
    else occHi &= ~(1 << (cap - 32));
  }

  const diagLo = bb[BISHOP * 2] | bb[QUEEN * 2] | bb[(8 | BISHOP) * 2] | bb[(8 | QUEEN) * 2];
  const diagHi = bb[BISHOP * 2 + 1] | bb[QUEEN * 2 + 1] | bb[(8 | BISHOP) * 2 + 1] | bb[(8 | QUEEN) * 2 + 1];
  const straightLo = bb[ROOK * 2] | bb[QUEEN * 2] | bb[(8 | ROOK) * 2] | bb[(8 | QUEEN) * 2];
  const straightHi = bb[ROOK * 2 + 1] | bb[QUEEN * 2 + 1] | bb[(8 | ROOK) * 2 + 1] | bb[(8 | QUEEN) * 2 + 1];
  const t2 = to * 2;
  const bi = bishopIndex(to, occLo, occHi);
  const ri = rookIndex(to, occLo, occHi);
  const wp = (BLACK * 64 + to) * 2; // squares from which a white pawn attacks `to`
  const bp = (WHITE * 64 + to) * 2;
  let attLo =
    (PAWN_ATTACKS[wp] & bb[PAWN * 2]) |
    (PAWN_ATTACKS[bp] & bb[(8 | PAWN) * 2]) |
    (KNIGHT_ATTACKS[t2] & (bb[KNIGHT * 2] | bb[(8 | KNIGHT) * 2])) |
    (KING_ATTACKS[t2] & (bb[KING * 2] | bb[(8 | KING) * 2])) |
    (SLIDER_ATTACKS[bi] & diagLo) |
    (SLIDER_ATTACKS[ri] & straightLo);
  let attHi =
    (PAWN_ATTACKS[wp + 1] & bb[PAWN * 2 + 1]) |
    (PAWN_ATTACKS[bp + 1] & bb[(8 | PAWN) * 2 + 1]) |
    (KNIGHT_ATTACKS[t2 + 1] & (bb[KNIGHT * 2 + 1] | bb[(8 | KNIGHT) * 2 + 1])) |
    (KING_ATTACKS[t2 + 1] & (bb[KING * 2 + 1] | bb[(8 | KING) * 2 + 1])) |
    (SLIDER_ATTACKS[bi + 1] & diagHi) |
    (SLIDER_ATTACKS[ri + 1] & straightHi);

  let stm = pos.side;
  let result = 1;
  for (;;) {
    stm ^= 1;
    attLo &= occLo;
    attHi &= occHi;
    const own = stm << 3;
    const mineLo = attLo & bb[own * 2];
    const mineHi = attHi & bb[own * 2 + 1];
    if ((mineLo | mineHi) === 0) break;
    result ^= 1;

    // Least valuable attacker of the side to capture.
    let type = PAWN;
    let pLo = 0;
    let pHi = 0;
    for (; type <= KING; type++) {
      pLo = mineLo & bb[(own | type) * 2];
      pHi = mineHi & bb[(own | type) * 2 + 1];
      if ((pLo | pHi) !== 0) break;
    }
    if (type === KING) {
      // The king may only take last: if the other side still attacks, the capture fails.
      const otherLo = attLo & ~bb[own * 2];
      const otherHi = attHi & ~bb[own * 2 + 1];
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
