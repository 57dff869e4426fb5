// Upcoming repetitions by cuckoo tables (src/board/cuckoo.ts): the table holds
// every reversible move of a piece on an empty board, and a position is
// recognised when one move of the side to move leads back to an earlier one.

import { describe, expect, it } from 'vitest';
import { cuckooEntries, upcomingRepetition } from '../../src/board/cuckoo.js';
import { parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';

function play(fen: string, moves: string): Position {
  const pos = new Position(fen);
  for (const uci of moves.split(' ').filter((m) => m !== '')) pos.makeMove(parseUciMove(pos, uci));
  return pos;
}

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

describe('cuckoo tables', () => {
  it('hold the 3668 moves of knights, bishops, rooks, queens and kings of both colours', () => {
    // Per colour: knight 168, bishop 280, rook 448, queen 728, king 210 square pairs.
    expect(cuckooEntries()).toBe(3668);
  });

  it('see a move back to an earlier position of the game', () => {
    // Black can play Nf6-g8 back to the start position.
    expect(upcomingRepetition(play(START, 'g1f3 g8f6 f3g1'))).toBe(true);
    // White can play Nf3-g1 back to the position after 1. Nc3, black's knight home again.
    expect(upcomingRepetition(play(START, 'b1c3 g8f6 g1f3 f6g8'))).toBe(true);
    // Too few moves, or the opponent's pieces are not back where they stood.
    expect(upcomingRepetition(play(START, 'g1f3 g8f6'))).toBe(false);
    expect(upcomingRepetition(play(START, 'g1f3 g8f6 b1c3'))).toBe(false);
    // A pawn move since makes every earlier position unreachable.
    expect(upcomingRepetition(play(START, 'g1f3 g8f6 f3g1 e7e6 g1f3'))).toBe(false);
  });

  it('needs the squares between to be empty, and crosses no null move', () => {
    // After Ra1-b1-b5-a5 with the black king back on e8, Ra5-a1 would repeat
    // the first position: possible without the knight on a3, not with it.
    const moves = 'e8d8 a1b1 d8c8 b1b5 c8d8 b5a5 d8e8';
    expect(upcomingRepetition(play('4k3/8/8/8/8/8/8/R3K3 b - - 0 1', moves))).toBe(true);
    expect(upcomingRepetition(play('4k3/8/8/8/8/N7/8/R3K3 b - - 0 1', moves))).toBe(false);
    // Black passes twice around Ng1-f3: Nf3-g1 would give the first position again, but not by moves.
    const pos = new Position(START.replace(' w ', ' b '));
    pos.makeNullMove();
    pos.makeMove(parseUciMove(pos, 'g1f3'));
    pos.makeNullMove();
    expect(upcomingRepetition(pos)).toBe(false);
  });
});
