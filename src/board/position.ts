// The position: pieces on bitboards and a mailbox, side to move, castling,
// en passant, counters, the Polyglot Zobrist key (zobrist.ts), and
// make/unmake with an undo stack. FEN is read and written by fen.ts.
// Nothing here allocates after construction.

import {
  BISHOP_RAYS,
  KING_ATTACKS,
  KNIGHT_ATTACKS,
  PAWN_ATTACKS,
  ROOK_RAYS,
  SLIDER_ATTACKS,
  bishopIndex,
  hasSquare,
  lowestSquare,
  rookIndex,
} from './bitboard.js';
import { FenError, type ParsedFen, formatFen, parseFen } from './fen.js';
import {
  BISHOP,
  BLACK,
  CASTLE,
  DOUBLE_PUSH,
  EN_PASSANT,
  KING,
  KNIGHT,
  PAWN,
  QUEEN,
  ROOK,
  WHITE,
  makePiece,
  moveFrom,
  moveKind,
  moveTo,
  promotionType,
} from './types.js';
import { PHASE_WEIGHT, PSQ_EG, PSQ_MG } from './piece-square.js';
import {
  ZOBRIST_CASTLING,
  ZOBRIST_EP_FILE,
  ZOBRIST_PIECE,
  ZOBRIST_WHITE_TO_MOVE_HI,
  ZOBRIST_WHITE_TO_MOVE_LO,
  computeKey,
} from './zobrist.js';

export { FenError };

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** Castling rights: one bit per (colour, side). */
const WHITE_OO = 1;
const WHITE_OOO = 2;
const BLACK_OO = 4;
const BLACK_OOO = 8;

/** Longest game (in plies) the undo stack can hold, game history included. */
const STACK_SIZE = 8192;

/** The last stamp given to a position (see Position.stamp): shared by all positions of a thread. */
let lastStamp = 0;

export class Position {
  /** Piece code on each square (0 = empty). */
  readonly board = new Uint8Array(64);
  /**
   * Bitboards as (lo, hi) pairs: index piece * 2 for each piece code, and
   * (colour * 8) * 2 for all pieces of a colour (piece type 0 of that colour).
   */
  readonly bb = new Int32Array(32);
  readonly kingSq = new Int32Array(2);

  side = WHITE;
  /** Castling rights, a mix of WHITE_OO | WHITE_OOO | BLACK_OO | BLACK_OOO. */
  castling = 0;
  /** En-passant target square, set only when a pawn of the side to move can capture there; else -1. */
  ep = -1;
  halfmove = 0;
  fullmove = 1;
  keyLo = 0;
  keyHi = 0;
  /** Number of pieces of each piece code on the board. */
  readonly pieceCount = new Int32Array(16);
  /** Incrementally summed piece-square scores and game phase (piece-square.ts; the evaluation gives them meaning). */
  psqMg = 0;
  psqEg = 0;
  phase = 0;
  /** Write castling moves king-takes-rook (Chess960) instead of king two squares. */
  chess960 = false;

  // Castling geometry, per right index 0..3 (WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO).
  readonly castleRookSq = new Int32Array(4);
  readonly castleKingTo = new Int32Array(4);
  readonly castleRookTo = new Int32Array(4);
  /** Squares that must be empty to castle (everything the king and rook cross, less themselves). */
  readonly castlePath = new Int32Array(8);
  /** Rights lost when a move starts or ends on this square. */
  readonly castleMask = new Uint8Array(64);

  /** Undo stack, one entry per ply played since the position was set. */
  ply = 0;
  readonly stackMove = new Int32Array(STACK_SIZE);
  readonly stackCaptured = new Uint8Array(STACK_SIZE);
  readonly stackCastling = new Uint8Array(STACK_SIZE);
  readonly stackEp = new Int8Array(STACK_SIZE);
  readonly stackHalfmove = new Int32Array(STACK_SIZE);
  readonly stackKeyLo = new Int32Array(STACK_SIZE);
  readonly stackKeyHi = new Int32Array(STACK_SIZE);
  readonly stackMg = new Int32Array(STACK_SIZE);
  readonly stackEg = new Int32Array(STACK_SIZE);
  readonly stackPhase = new Int32Array(STACK_SIZE);
  /** The piece that moved from each ply (0 for a null move): with stackMove and stackCaptured, what moveChanges() reads. */
  readonly stackPiece = new Uint8Array(STACK_SIZE);
  /**
   * stamp[p] names the position at ply p: a number no other position of
   * this thread had, so that a cache keyed by it (the NNUE accumulators) is
   * never stale.
   */
  readonly stamp = new Int32Array(STACK_SIZE + 1);
  /** Whether the side to move is in check at each ply: 1 yes, 0 no, -1 not computed yet. */
  private readonly checkAtPly = new Int8Array(STACK_SIZE + 1).fill(-1);

  constructor(fen: string = START_FEN) {
    this.setFen(fen);
  }

  // -------------------------------------------------------------------------
  // Piece placement primitives.

  /** Puts piece on an empty square, updating bitboards, key and scores. */
  private addPiece(piece: number, sq: number): void {
    const half = sq >> 5;
    const bit = 1 << (sq & 31);
    this.board[sq] = piece;
    this.bb[piece * 2 + half] |= bit;
    this.bb[(piece & 8) * 2 + half] |= bit;
    this.pieceCount[piece]++;
    const z = (piece * 64 + sq) * 2;
    this.keyLo ^= ZOBRIST_PIECE[z];
    this.keyHi ^= ZOBRIST_PIECE[z + 1];
    this.psqMg += PSQ_MG[piece * 64 + sq];
    this.psqEg += PSQ_EG[piece * 64 + sq];
    this.phase += PHASE_WEIGHT[piece];
  }

  /** Removes the piece on sq, updating bitboards, key and scores. */
  private removePiece(sq: number): void {
    const piece = this.board[sq];
    const half = sq >> 5;
    const bit = ~(1 << (sq & 31));
    this.board[sq] = 0;
    this.bb[piece * 2 + half] &= bit;
    this.bb[(piece & 8) * 2 + half] &= bit;
    this.pieceCount[piece]--;
    const z = (piece * 64 + sq) * 2;
    this.keyLo ^= ZOBRIST_PIECE[z];
    this.keyHi ^= ZOBRIST_PIECE[z + 1];
    this.psqMg -= PSQ_MG[piece * 64 + sq];
    this.psqEg -= PSQ_EG[piece * 64 + sq];
    this.phase -= PHASE_WEIGHT[piece];
  }

  /** Board, bitboards and counts only: unmake restores key and scores from the stack. */
  private putRaw(piece: number, sq: number): void {
    const half = sq >> 5;
    const bit = 1 << (sq & 31);
    this.board[sq] = piece;
    this.bb[piece * 2 + half] |= bit;
    this.bb[(piece & 8) * 2 + half] |= bit;
    this.pieceCount[piece]++;
  }

  private removeRaw(sq: number): void {
    const piece = this.board[sq];
    const half = sq >> 5;
    const bit = ~(1 << (sq & 31));
    this.board[sq] = 0;
    this.bb[piece * 2 + half] &= bit;
    this.bb[(piece & 8) * 2 + half] &= bit;
    this.pieceCount[piece]--;
  }

  // -------------------------------------------------------------------------
  // Attacks.

  /** True when square sq is attacked by a piece of colour `by`, with occupancy (occLo, occHi). */
  isAttackedWith(sq: number, by: number, occLo: number, occHi: number): boolean {
    const p = by << 3;
    const s2 = sq * 2;
    // A pawn of `by` attacks sq when a pawn of the other colour on sq would attack it back.
    const pw = (((by ^ 1) * 64 + sq) * 2) | 0;
    if ((PAWN_ATTACKS[pw] & this.lo(p | PAWN)) | (PAWN_ATTACKS[pw + 1] & this.hi(p | PAWN))) return true;
    if ((KNIGHT_ATTACKS[s2] & this.lo(p | KNIGHT)) | (KNIGHT_ATTACKS[s2 + 1] & this.hi(p | KNIGHT))) return true;
    if ((KING_ATTACKS[s2] & this.lo(p | KING)) | (KING_ATTACKS[s2 + 1] & this.hi(p | KING))) return true;
    const rqLo = this.lo(p | ROOK) | this.lo(p | QUEEN);
    const rqHi = this.hi(p | ROOK) | this.hi(p | QUEEN);
    if ((ROOK_RAYS[s2] & rqLo) | (ROOK_RAYS[s2 + 1] & rqHi)) {
      const r = rookIndex(sq, occLo, occHi);
      if ((SLIDER_ATTACKS[r] & rqLo) | (SLIDER_ATTACKS[r + 1] & rqHi)) return true;
    }
    const bqLo = this.lo(p | BISHOP) | this.lo(p | QUEEN);
    const bqHi = this.hi(p | BISHOP) | this.hi(p | QUEEN);
    if ((BISHOP_RAYS[s2] & bqLo) | (BISHOP_RAYS[s2 + 1] & bqHi)) {
      const b = bishopIndex(sq, occLo, occHi);
      if ((SLIDER_ATTACKS[b] & bqLo) | (SLIDER_ATTACKS[b + 1] & bqHi)) return true;
    }
    return false;
  }

  isAttacked(sq: number, by: number): boolean {
    return this.isAttackedWith(sq, by, this.occLo(), this.occHi());
  }

  /** True when the side to move is in check (computed once per position reached). */
  inCheck(): boolean {
    let check = this.checkAtPly[this.ply];
    if (check < 0) {
      check = this.isAttacked(this.kingSq[this.side], this.side ^ 1) ? 1 : 0;
      this.checkAtPly[this.ply] = check;
    }
    return check === 1;
  }

  /** Saves what unmaking `move` restores on the undo stack, and enters the next ply; returns the saved ply. */
  private pushState(move: number): number {
    const ply = this.ply;
    this.stackMove[ply] = move;
    this.stackCastling[ply] = this.castling;
    this.stackEp[ply] = this.ep;
    this.stackHalfmove[ply] = this.halfmove;
    this.stackKeyLo[ply] = this.keyLo;
    this.stackKeyHi[ply] = this.keyHi;
    this.stackMg[ply] = this.psqMg;
    this.stackEg[ply] = this.psqEg;
    this.stackPhase[ply] = this.phase;
    this.ply = ply + 1;
    this.checkAtPly[ply + 1] = -1;
    this.stamp[ply + 1] = ++lastStamp;
    return ply;
  }

  /** Plays a legal move (from the move generator). */
  makeMove(move: number): void {
    const ply = this.pushState(move);

    const us = this.side;
    const from = moveFrom(move);
    const to = moveTo(move);
    const kind = moveKind(move);
    const piece = this.board[from];
    this.stackPiece[ply] = piece;

    if (this.ep >= 0) {
      this.keyLo ^= ZOBRIST_EP_FILE[(this.ep & 7) * 2];
      this.keyHi ^= ZOBRIST_EP_FILE[(this.ep & 7) * 2 + 1];
      this.ep = -1;
    }
    this.halfmove++;

    if (kind === CASTLE) {
      // `to` is the rook's square; king and rook land on their fixed files.
      const right = to > from ? 0 : 1;
      const r = us * 2 + right;
      const king = makePiece(us, KING);
      const rook = makePiece(us, ROOK);
      this.stackCaptured[ply] = 0;
      this.removePiece(from);
      this.removePiece(to);
      this.addPiece(king, this.castleKingTo[r]);
      this.addPiece(rook, this.castleRookTo[r]);
      this.kingSq[us] = this.castleKingTo[r];
    } else {
      let captured = this.board[to];
      if (kind === EN_PASSANT) {
        const capSq = to ^ 8;
        captured = this.board[capSq];
        this.removePiece(capSq);
      } else if (captured !== 0) {
        this.removePiece(to);
      }
      this.stackCaptured[ply] = captured;
      if (captured !== 0 || (piece & 7) === PAWN) this.halfmove = 0;

      this.removePiece(from);
      const arrived = kind >= 4 ? makePiece(us, promotionType(move)) : piece;
      this.addPiece(arrived, to);
      if ((piece & 7) === KING) this.kingSq[us] = to;

      if (kind === DOUBLE_PUSH) {
        // Record the en-passant square only if an enemy pawn can capture there.
        const epSq = (from + to) >> 1;
        const them = us ^ 1;
        const pa = ((us * 64 + epSq) * 2) | 0;
        const pawns = (them << 3) | PAWN;
        if ((PAWN_ATTACKS[pa] & this.lo(pawns)) | (PAWN_ATTACKS[pa + 1] & this.hi(pawns))) {
          this.ep = epSq;
          this.keyLo ^= ZOBRIST_EP_FILE[(epSq & 7) * 2];
          this.keyHi ^= ZOBRIST_EP_FILE[(epSq & 7) * 2 + 1];
        }
      }
    }

    const rights = this.castling & ~(this.castleMask[from] | this.castleMask[to]);
    if (rights !== this.castling) {
      this.keyLo ^= ZOBRIST_CASTLING[this.castling * 2] ^ ZOBRIST_CASTLING[rights * 2];
      this.keyHi ^= ZOBRIST_CASTLING[this.castling * 2 + 1] ^ ZOBRIST_CASTLING[rights * 2 + 1];
      this.castling = rights;
    }

    if (us === BLACK) this.fullmove++;
    this.side = us ^ 1;
    this.keyLo ^= ZOBRIST_WHITE_TO_MOVE_LO;
    this.keyHi ^= ZOBRIST_WHITE_TO_MOVE_HI;
  }

  /** Takes back the last move played with makeMove. */
  unmakeMove(): void {
    const ply = --this.ply;
    const move = this.stackMove[ply];
    const them = this.side;
    const us = them ^ 1;
    this.side = us;
    if (us === BLACK) this.fullmove--;
    const from = moveFrom(move);
    const to = moveTo(move);
    const kind = moveKind(move);

    if (kind === CASTLE) {
      const r = us * 2 + (to > from ? 0 : 1);
      this.removeRaw(this.castleKingTo[r]);
      this.removeRaw(this.castleRookTo[r]);
      this.putRaw(makePiece(us, KING), from);
      this.putRaw(makePiece(us, ROOK), to);
      this.kingSq[us] = from;
    } else {
      const moved = kind >= 4 ? makePiece(us, PAWN) : this.board[to];
      this.removeRaw(to);
      this.putRaw(moved, from);
      if ((moved & 7) === KING) this.kingSq[us] = from;
      const captured = this.stackCaptured[ply];
      if (captured !== 0) this.putRaw(captured, kind === EN_PASSANT ? to ^ 8 : to);
    }

    this.castling = this.stackCastling[ply];
    this.ep = this.stackEp[ply];
    this.halfmove = this.stackHalfmove[ply];
    this.keyLo = this.stackKeyLo[ply];
    this.keyHi = this.stackKeyHi[ply];
    this.psqMg = this.stackMg[ply];
    this.psqEg = this.stackEg[ply];
    this.phase = this.stackPhase[ply];
  }

  /**
   * What the move from ply q (already made) changed on the board, for
   * evaluations kept incrementally (the NNUE accumulators): writes up to 4
   * codes piece << 7 | square << 1 | (1 if the piece arrived, 0 if it left)
   * into out and returns how many. A null move changes nothing.
   */
  moveChanges(q: number, out: Int32Array): number {
    const piece = this.stackPiece[q];
    if (piece === 0) return 0;
    const move = this.stackMove[q];
    const from = moveFrom(move);
    const to = moveTo(move);
    const kind = moveKind(move);
    const us = piece >> 3;
    if (kind === CASTLE) {
      // `to` is the rook's square; king and rook land on their fixed files.
      const r = us * 2 + (to > from ? 0 : 1);
      const rook = makePiece(us, ROOK);
      out[0] = (piece << 7) | (from << 1);
      out[1] = (rook << 7) | (to << 1);
      out[2] = (piece << 7) | (this.castleKingTo[r] << 1) | 1;
      out[3] = (rook << 7) | (this.castleRookTo[r] << 1) | 1;
      return 4;
    }
    const arrived = kind >= 4 ? makePiece(us, promotionType(move)) : piece;
    out[0] = (piece << 7) | (from << 1);
    out[1] = (arrived << 7) | (to << 1) | 1;
    const captured = this.stackCaptured[q];
    if (captured === 0) return 2;
    out[2] = (captured << 7) | ((kind === EN_PASSANT ? to ^ 8 : to) << 1);
    return 3;
  }

  /** Passes the move (for null-move pruning); the side to move must not be in check. */
  makeNullMove(): void {
    const ply = this.pushState(0);
    this.stackPiece[ply] = 0;
    this.stackCaptured[ply] = 0;
    if (this.ep >= 0) {
      this.keyLo ^= ZOBRIST_EP_FILE[(this.ep & 7) * 2];
      this.keyHi ^= ZOBRIST_EP_FILE[(this.ep & 7) * 2 + 1];
      this.ep = -1;
    }
    this.halfmove++;
    this.side ^= 1;
    this.keyLo ^= ZOBRIST_WHITE_TO_MOVE_LO;
    this.keyHi ^= ZOBRIST_WHITE_TO_MOVE_HI;
  }

  unmakeNullMove(): void {
    const ply = --this.ply;
    this.side ^= 1;
    this.ep = this.stackEp[ply];
    this.halfmove = this.stackHalfmove[ply];
    this.keyLo = this.stackKeyLo[ply];
    this.keyHi = this.stackKeyHi[ply];
  }

  /**
   * True when the current position occurred before since the last irreversible
   * move (a capture, pawn move or castling-right change resets the clock).
   */
  isRepetition(): boolean {
    const stop = Math.max(0, this.ply - this.halfmove);
    for (let i = this.ply - 4; i >= stop; i -= 2) {
      if (this.stackKeyLo[i] === this.keyLo && this.stackKeyHi[i] === this.keyHi) return true;
    }
    return false;
  }

  /** Forgets the undo history (keeps the position); makeMove history before this point is lost. */
  clearHistory(): void {
    this.checkAtPly[0] = this.checkAtPly[this.ply];
    this.stamp[0] = this.stamp[this.ply];
    this.ply = 0;
  }

  // -------------------------------------------------------------------------
  // FEN.

  /** Sets the position from FEN (or X-FEN / Shredder-FEN castling, fen.ts); throws FenError if invalid. */
  setFen(fen: string): void {
    const parsed = parseFen(fen);
    const previous = this.kingSq[0] !== this.kingSq[1] ? this.fen() : START_FEN;
    this.load(parsed);
    if (this.isAttacked(this.kingSq[this.side ^ 1], this.side)) {
      this.load(parseFen(previous));
      throw new FenError('the side not to move is in check');
    }
  }

  private load(parsed: ParsedFen): void {
    this.board.fill(0);
    this.bb.fill(0);
    this.pieceCount.fill(0);
    this.keyLo = 0;
    this.keyHi = 0;
    this.psqMg = 0;
    this.psqEg = 0;
    this.phase = 0;
    this.ply = 0;
    this.checkAtPly[0] = -1;
    this.stamp[0] = ++lastStamp;
    for (let sq = 0; sq < 64; sq++) {
      const piece = parsed.board[sq];
      if (piece !== 0) {
        this.addPiece(piece, sq);
        if ((piece & 7) === KING) this.kingSq[piece >> 3] = sq;
      }
    }
    this.side = parsed.side;
    if (this.side === WHITE) {
      this.keyLo ^= ZOBRIST_WHITE_TO_MOVE_LO;
      this.keyHi ^= ZOBRIST_WHITE_TO_MOVE_HI;
    }
    this.castling = 0;
    this.castleMask.fill(0);
    this.castleRookSq.fill(-1);
    for (let r = 0; r < 4; r++) {
      const rookSq = parsed.castleRooks[r];
      if (rookSq < 0) continue;
      this.setCastlingRight(r, rookSq);
    }
    this.keyLo ^= ZOBRIST_CASTLING[this.castling * 2];
    this.keyHi ^= ZOBRIST_CASTLING[this.castling * 2 + 1];
    this.ep = -1;
    if (parsed.ep >= 0) {
      // Keep the square only if a pawn of the side to move can take there.
      const pa = (((this.side ^ 1) * 64 + parsed.ep) * 2) | 0;
      const pawns = (this.side << 3) | PAWN;
      if ((PAWN_ATTACKS[pa] & this.lo(pawns)) | (PAWN_ATTACKS[pa + 1] & this.hi(pawns))) {
        this.ep = parsed.ep;
        this.keyLo ^= ZOBRIST_EP_FILE[(parsed.ep & 7) * 2];
        this.keyHi ^= ZOBRIST_EP_FILE[(parsed.ep & 7) * 2 + 1];
      }
    }
    this.halfmove = parsed.halfmove;
    this.fullmove = parsed.fullmove;
  }

  private setCastlingRight(r: number, rookSq: number): void {
    const color = r >> 1;
    const kingFrom = this.kingSq[color];
    const backRank = color === WHITE ? 0 : 56;
    const kingTo = backRank + ((r & 1) === 0 ? 6 : 2);
    const rookTo = backRank + ((r & 1) === 0 ? 5 : 3);
    this.castling |= 1 << r;
    this.castleRookSq[r] = rookSq;
    this.castleKingTo[r] = kingTo;
    this.castleRookTo[r] = rookTo;
    let lo = 0;
    let hi = 0;
    const span = (a: number, b: number): void => {
      for (let s = Math.min(a, b); s <= Math.max(a, b); s++) {
        if (s !== kingFrom && s !== rookSq) {
          if (s < 32) lo |= 1 << s;
          else hi |= 1 << (s - 32);
        }
      }
    };
    span(kingFrom, kingTo);
    span(rookSq, rookTo);
    this.castlePath[r * 2] = lo;
    this.castlePath[r * 2 + 1] = hi;
    this.castleMask[kingFrom] |= color === WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO;
    this.castleMask[rookSq] |= 1 << r;
  }

  /** The position as FEN (fen.ts). */
  fen(): string {
    return formatFen(this);
  }

  // -------------------------------------------------------------------------
  // Queries.

  /** Number of pieces of the given code. */
  count(piece: number): number {
    return this.pieceCount[piece];
  }

  /** Whether colour `side` has a knight, bishop, rook or queen. */
  hasNonPawnMaterial(side: number): boolean {
    const c = this.pieceCount;
    const p = side << 3;
    return c[p | KNIGHT] + c[p | BISHOP] + c[p | ROOK] + c[p | QUEEN] > 0;
  }

  /** Bitboard of piece code `piece` (or colour * 8 for all of a colour): the low half, squares 0..31. */
  lo(piece: number): number {
    return this.bb[piece * 2];
  }

  /** The high half, squares 32..63. */
  hi(piece: number): number {
    return this.bb[piece * 2 + 1];
  }

  /** Occupied squares, low half (squares 0..31). */
  occLo(): number {
    return this.bb[0] | this.bb[16];
  }

  /** Occupied squares, high half (squares 32..63). */
  occHi(): number {
    return this.bb[1] | this.bb[17];
  }

  /** Key of the current position as a 16-digit hex string (Polyglot key). */
  keyHex(): string {
    return (this.keyHi >>> 0).toString(16).padStart(8, '0') + (this.keyLo >>> 0).toString(16).padStart(8, '0');
  }

  /** Recomputes the key from scratch (for tests of the incremental key). */
  computeKey(): [number, number] {
    return computeKey(this);
  }

  /** Whether a bit is set in the bitboard of piece code `piece`. */
  has(piece: number, sq: number): boolean {
    return hasSquare(this.bb[piece * 2], this.bb[piece * 2 + 1], sq);
  }

  /** The square of some piece of the given code, or -1. */
  firstSquare(piece: number): number {
    const lo = this.bb[piece * 2];
    const hi = this.bb[piece * 2 + 1];
    return (lo | hi) !== 0 ? lowestSquare(lo, hi) : -1;
  }
}
