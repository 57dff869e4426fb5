// A game being played: the position, the moves with what is known about
// them (SAN, who played them, the engine's evaluation, the clock), how it
// ended (by the rules, or by resignation, agreement or a flag fall), and the
// game as PGN.

import { moveToUci, parseUciMove } from '../board/notation.js';
import { type PgnMove, clockCommand, evalCommand, pgnDate, writePgn } from '../board/pgn-write.js';
import { Position, START_FEN } from '../board/position.js';
import { type Outcome, cannotMateBy, gameOutcome } from '../board/rules.js';
import { moveToSan } from '../board/san.js';
import { WHITE, moveFrom, moveTo } from '../board/types.js';
import type { UciScore } from '../engine/search-lines.js';
import { type PositionSpec, positionSpec } from '../engine/messages.js';

export interface PlayedMove {
  move: number;
  uci: string;
  san: string;
  from: number;
  to: number;
  /** The engine's evaluation of the position after the move, white's view (engine moves only). */
  eval?: UciScore;
  /** The mover's clock after the move (with a time control). */
  clockMs?: number;
}

export interface GameEnd {
  result: '1-0' | '0-1' | '1/2-1/2';
  /** What happened, as a sentence: "Checkmate: White wins." */
  text: string;
  /** PGN's Termination tag. */
  termination: 'normal' | 'time forfeit';
}

const COLOR = ['White', 'Black'];

/** The sentence for an outcome by the rules. */
function outcomeText(outcome: Outcome): string {
  switch (outcome.reason) {
    case 'checkmate':
      return `Checkmate: ${outcome.result === '1-0' ? 'White' : 'Black'} wins.`;
    case 'stalemate':
      return 'Stalemate: a draw.';
    case 'threefold repetition':
      return 'Draw by threefold repetition.';
    case 'fifty-move rule':
      return 'Draw by the fifty-move rule.';
    default:
      return 'Draw: neither side can mate (insufficient material).';
  }
}

/** The side that resigns loses. */
export function resignation(loser: number): GameEnd {
  return {
    result: loser === WHITE ? '0-1' : '1-0',
    text: `${COLOR[loser]} resigns: ${COLOR[loser ^ 1]} wins.`,
    termination: 'normal',
  };
}

export function drawAgreed(): GameEnd {
  return { result: '1/2-1/2', text: 'Draw agreed.', termination: 'normal' };
}

/** side's time is up in pos: it loses, unless the other side cannot mate at all (a draw). */
export function timeForfeit(pos: Position, side: number): GameEnd {
  const other = side ^ 1;
  const draw = cannotMateBy(pos, other);
  return {
    result: draw ? '1/2-1/2' : other === WHITE ? '1-0' : '0-1',
    text: draw
      ? `${COLOR[side]}'s time is up, but ${COLOR[other]} cannot mate: a draw.`
      : `${COLOR[side]}'s time is up: ${COLOR[other]} wins.`,
    termination: 'time forfeit',
  };
}

export class Game {
  readonly pos = new Position();
  readonly moves: PlayedMove[] = [];
  end: GameEnd | null = null;
  /** Side to move and move number of the first move. */
  private startSide = WHITE;
  private startFullmove = 1;

  constructor(readonly startFen: string = START_FEN) {
    this.pos.setFen(startFen);
    this.startSide = this.pos.side;
    this.startFullmove = this.pos.fullmove;
    // A position given may be over already (mate, stalemate).
    const outcome = gameOutcome(this.pos);
    if (outcome !== null) this.end = { result: outcome.result, text: outcomeText(outcome), termination: 'normal' };
  }

  /** Plays a legal move; returns its record. The game's end by the rules is checked. */
  play(move: number, extra: Pick<PlayedMove, 'eval' | 'clockMs'> = {}): PlayedMove {
    const record: PlayedMove = {
      move,
      uci: moveToUci(this.pos, move),
      san: moveToSan(this.pos, move),
      from: moveFrom(move),
      to: moveTo(move),
      ...extra,
    };
    this.pos.makeMove(move);
    this.moves.push(record);
    const outcome = gameOutcome(this.pos);
    if (outcome !== null) this.end = { result: outcome.result, text: outcomeText(outcome), termination: 'normal' };
    return record;
  }

  /** Takes back the last move (and any end of the game). */
  undo(): PlayedMove | undefined {
    const last = this.moves.pop();
    if (last !== undefined) this.pos.unmakeMove();
    const outcome = gameOutcome(this.pos);
    this.end = outcome === null ? null : { result: outcome.result, text: outcomeText(outcome), termination: 'normal' };
    return last;
  }

  get lastMove(): PlayedMove | null {
    return this.moves.length === 0 ? null : this.moves[this.moves.length - 1];
  }

  /** The position for the search worker. */
  spec(): PositionSpec {
    return positionSpec(
      this.startFen,
      this.moves.map((m) => m.uci),
      false,
    );
  }

  /** The side that played move i. */
  sideOf(i: number): number {
    return (this.startSide + i) % 2;
  }

  /** "12." or "12..." for the move about to be played (or for move index i). */
  moveNumber(i = this.moves.length): string {
    const ply = this.startSide + i;
    return `${this.startFullmove + Math.floor(ply / 2)}${ply % 2 === 0 ? '.' : '...'}`;
  }

  /** The moves in SAN with numbers, the last `count` plies at most ("... 12. Nf3 Nc6"). */
  movesText(count = Infinity): string {
    const first = Math.max(0, this.moves.length - count);
    const parts: string[] = [];
    for (let i = first; i < this.moves.length; i++) {
      const white = (this.startSide + i) % 2 === 0;
      if (white || i === first) parts.push(this.moveNumber(i));
      parts.push(this.moves[i].san);
    }
    return (first > 0 ? '... ' : '') + parts.join(' ');
  }

  /** The game as PGN: tags, moves with [%eval] and [%clk] comments, the result and how the game ended. */
  toPgn(tags: ReadonlyArray<readonly [string, string]>): string {
    const result = this.end?.result ?? '*';
    const moves: PgnMove[] = this.moves.map((m) => {
      const parts: string[] = [];
      if (m.eval !== undefined) parts.push(evalCommand(m.eval));
      if (m.clockMs !== undefined) parts.push(clockCommand(m.clockMs));
      return parts.length > 0 ? { san: m.san, comment: parts.join(' ') } : { san: m.san };
    });
    if (this.end !== null && moves.length > 0) {
      const last = moves[moves.length - 1];
      last.comment = `${last.comment ?? ''} ${this.end.text}`.trim();
    }
    const all: Array<readonly [string, string]> = [['Date', pgnDate()], ...tags];
    if (this.startFen !== START_FEN) all.push(['SetUp', '1'], ['FEN', this.startFen]);
    all.push(['Termination', this.end === null ? 'unterminated' : this.end.termination]);
    return writePgn({
      tags: all,
      fullmove: this.startFullmove,
      side: this.startSide === WHITE ? 'w' : 'b',
      moves,
      result,
    });
  }

  /** The side name of a colour. */
  static colorName(side: number): string {
    return COLOR[side];
  }

  /** Replays moves given in UCI (tests, resuming). */
  replay(ucis: readonly string[]): void {
    for (const u of ucis) this.play(parseUciMove(this.pos, u));
  }
}
