// Setting a position from FEN given on the command line or in a suite file,
// where standard chess and Chess960 are told apart by a flag.

import { FenError, type Position } from '../board/position.js';

/**
 * Sets pos to fen in standard or Chess960 mode; throws FenError for a bad FEN
 * (pos unchanged) or, without chess960, for castling rights that only
 * Chess960 allows (pos then holds the new position), saying what to do:
 * `advice`.
 */
export function setPosition(pos: Position, fen: string, chess960: boolean, advice = 'need --chess960'): void {
  pos.setFen(fen);
  pos.chess960 = chess960;
  if (chess960) return;
  for (let r = 0; r < 4; r++) {
    if ((pos.castling & (1 << r)) === 0) continue;
    // Standard castling: king on the e-file, rook in the corner (h-file for right 0/2, a-file for 1/3).
    const backRank = (r >> 1) * 56;
    if (pos.kingSq[r >> 1] !== backRank + 4 || pos.castleRookSq[r] !== backRank + (r & 1 ? 0 : 7)) {
      throw new FenError(`castling rights with the king or rook off its standard square ${advice}`);
    }
  }
}
