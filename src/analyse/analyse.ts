// Analysing a game: every position searched (a fixed time or depth each),
// each move judged by lichess's model (model.ts), the better move and its
// line kept for the moves judged, and each player's accuracy.

import { NO_MOVE_UCI, parseUciMove } from '../board/notation.js';
import { Position } from '../board/position.js';
import { gameOutcome } from '../board/rules.js';
import { moveToSan } from '../board/san.js';
import { WHITE } from '../board/types.js';
import type { EngineHost } from '../engine/host.js';
import type { SearchDriver } from '../search/driver-list.js';
import { type UciScore, uciScore } from '../engine/search-lines.js';
import type { ReplayedGame } from './games.js';
import { type Judgement, type WhiteEval, gameAccuracy, judgeMove, winPercent } from './model.js';

export interface AnalysisLimits {
  movetime?: number;
  depth?: number;
  /** The search driver (default pvs). */
  driver?: SearchDriver;
}

/** The engine's view of one position. */
interface PositionEval {
  eval: WhiteEval;
  /** The best line from this position in SAN (empty at the end of a game). */
  line: string[];
  /** Its first move in UCI ('' when none). */
  bestUci: string;
  depth: number;
}

interface MoveAnalysis {
  san: string;
  white: boolean;
  /** "12." or "12..." */
  number: string;
  judgement: Judgement | null;
  /** Win percentage, white's view, before and after the move. */
  winBefore: number;
  winAfter: number;
}

export interface GameAnalysis {
  game: ReplayedGame;
  /** One per position: before the first move, ..., after the last. */
  positions: PositionEval[];
  moves: MoveAnalysis[];
  accuracy: { white: number | null; black: number | null };
  counts: { white: Record<Judgement, number>; black: Record<Judgement, number> };
}

/** Plies of the better line kept as a variation. */
const LINE_PLIES = 10;

function whiteEval(score: UciScore, side: number): WhiteEval {
  if ('mate' in score) return { mate: side === WHITE ? score.mate : 0 - score.mate };
  return { cp: side === WHITE ? score.cp : 0 - score.cp };
}

/** A line of UCI moves from pos in SAN (pos left as it was); stops at an illegal move. */
function sanLine(pos: Position, uci: readonly string[]): string[] {
  const out: string[] = [];
  let made = 0;
  try {
    for (const u of uci) {
      const move = parseUciMove(pos, u);
      out.push(moveToSan(pos, move));
      pos.makeMove(move);
      made++;
    }
  } catch {
    // What could be read.
  }
  for (let i = 0; i < made; i++) pos.unmakeMove();
  return out;
}

/**
 * Searches every position of the game with `engine` (one at a time) and
 * judges every move. progress(done) is called after each position.
 */
export async function analyseGame(
  engine: EngineHost,
  game: ReplayedGame,
  limits: AnalysisLimits,
  progress: (done: number) => void = () => {},
): Promise<GameAnalysis> {
  const pos = new Position(game.startFen);
  pos.chess960 = game.chess960;
  const whiteFirst = pos.side === WHITE;
  const positions: PositionEval[] = [];
  await engine.clear();
  for (let i = 0; i <= game.uci.length; i++) {
    if (i > 0) pos.makeMove(parseUciMove(pos, game.uci[i - 1]));
    const outcome = gameOutcome(pos);
    if (outcome !== null && (outcome.reason === 'checkmate' || outcome.reason === 'stalemate' || i === game.uci.length)) {
      // The game is over on the board: nothing to search.
      const ev: WhiteEval = outcome.reason === 'checkmate' ? { mated: pos.side === WHITE ? 'white' : 'black' } : { cp: 0 };
      positions.push({ eval: ev, line: [], bestUci: '', depth: 0 });
    } else {
      const params = limits.depth !== undefined ? { depth: limits.depth } : { movetime: limits.movetime ?? 500 };
      // No move overhead: nothing has to reach a GUI in time.
      const result = await engine.search({ fen: game.startFen, moves: game.uci.slice(0, i), chess960: game.chess960 }, params, {
        moveOverhead: 0,
        driver: limits.driver ?? 'pvs',
      }).done;
      const best = result.lines[0];
      const pv = best?.pv ?? (result.bestMove === NO_MOVE_UCI ? [] : [result.bestMove]);
      positions.push({
        eval: best === undefined ? { cp: 0 } : whiteEval(uciScore(best), pos.side),
        line: sanLine(pos, pv.slice(0, LINE_PLIES)),
        bestUci: pv[0] ?? '',
        depth: best?.depth ?? 0,
      });
    }
    progress(i + 1);
  }

  const moves: MoveAnalysis[] = [];
  const zero = (): Record<Judgement, number> => ({ inaccuracy: 0, mistake: 0, blunder: 0 });
  const counts = { white: zero(), black: zero() };
  const start = new Position(game.startFen);
  for (let i = 0; i < game.uci.length; i++) {
    const white = (i % 2 === 0) === whiteFirst;
    const number = `${start.fullmove + Math.floor(((whiteFirst ? 0 : 1) + i) / 2)}${white ? '.' : '...'}`;
    const before = positions[i];
    const after = positions[i + 1];
    // A move the engine would play itself is never marked (the two searches may disagree a little).
    const judgement = game.uci[i] === before.bestUci ? null : judgeMove(before.eval, after.eval, white);
    if (judgement !== null) counts[white ? 'white' : 'black'][judgement]++;
    moves.push({ san: game.san[i], white, number, judgement, winBefore: winPercent(before.eval), winAfter: winPercent(after.eval) });
  }
  return {
    game,
    positions,
    moves,
    accuracy: gameAccuracy(
      positions.map((p) => p.eval),
      whiteFirst,
    ),
    counts,
  };
}
