// The analysis as PGN: the game's own tags plus an Annotator, every move
// with the evaluation after it as [%eval ...] (lichess and ChessBase read
// it), ?!, ? or ?? on the moves judged, with the better move named and its
// line as a variation, and each player's accuracy at the end.

import { type PgnMove, evalCommand, writePgn } from '../board/pgn-write.js';
import { Position } from '../board/position.js';
import type { GameAnalysis } from './analyse.js';
import { GLYPHS, type Judgement, type WhiteEval } from './model.js';

const NAMES: Record<Judgement, string> = { inaccuracy: 'Inaccuracy', mistake: 'Mistake', blunder: 'Blunder' };

/** The [%eval] command of an evaluation; none for a mate on the board. */
function evalText(e: WhiteEval): string | null {
  if ('mated' in e) return null;
  return evalCommand(e);
}

const PLURALS: Record<Judgement, string> = { inaccuracy: 'inaccuracies', mistake: 'mistakes', blunder: 'blunders' };

function count(n: number, judgement: Judgement): string {
  return `${n} ${n === 1 ? judgement : PLURALS[judgement]}`;
}

/** "accuracy 84%, 1 inaccuracy, 0 mistakes, 2 blunders" */
export function playerSummary(analysis: GameAnalysis, side: 'white' | 'black'): string {
  const a = analysis.accuracy[side];
  const c = analysis.counts[side];
  const accuracy = a === null ? 'no moves' : `accuracy ${Math.round(a)}%`;
  return `${accuracy}, ${count(c.inaccuracy, 'inaccuracy')}, ${count(c.mistake, 'mistake')}, ${count(c.blunder, 'blunder')}`;
}

/** The annotated game as PGN text. `annotator` names the analysis (engine, time or depth). */
export function annotatedPgn(analysis: GameAnalysis, annotator: string): string {
  const { game, positions, moves } = analysis;
  const clocks = game.source.game.comments ?? [];
  const pgnMoves: PgnMove[] = moves.map((m, i) => {
    const parts: string[] = [];
    const ev = evalText(positions[i + 1].eval);
    if (ev !== null) parts.push(ev);
    // Keep the game's own clock readings.
    const clock = /\[%clk [^\]]+\]/.exec(clocks[i] ?? '');
    if (clock !== null) parts.push(clock[0]);
    const out: PgnMove = { san: m.san };
    if (m.judgement !== null) {
      out.glyph = GLYPHS[m.judgement];
      const better = positions[i].line;
      parts.push(better.length > 0 ? `${NAMES[m.judgement]}. ${better[0]} was best.` : `${NAMES[m.judgement]}.`);
      if (better.length > 0) {
        const line: PgnMove[] = better.map((san) => ({ san }));
        const after = positions[i].eval;
        const best = evalText(after);
        if (best !== null) line[0].comment = best;
        out.variations = [line];
      }
    }
    if (parts.length > 0) out.comment = parts.join(' ');
    return out;
  });
  const summary = `White: ${playerSummary(analysis, 'white')}. Black: ${playerSummary(analysis, 'black')}.`;
  if (pgnMoves.length > 0) {
    const last = pgnMoves[pgnMoves.length - 1];
    last.comment = `${last.comment ?? ''} ${summary}`.trim();
  }
  const tags = Object.entries(game.source.game.tags).filter(([name]) => name !== 'Annotator');
  tags.push(['Annotator', annotator]);
  const start = new Position(game.startFen);
  return writePgn({
    tags,
    fullmove: start.fullmove,
    side: start.side === 0 ? 'w' : 'b',
    moves: pgnMoves,
    result: game.source.game.result,
  });
}
