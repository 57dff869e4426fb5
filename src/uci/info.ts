// The host's search reports as UCI `info` lines: scores as `cp N` or
// `mate N`, win/draw/loss estimates, lines of moves in UCI notation.

import { EMERGENCY_MATE, type EmergencyChoice } from '../engine/fallback.js';
import { type CurrentMove, type EngineLine, scoreValue, shownScore, wdlOf } from '../engine/search-lines.js';
import { NO_MOVE_UCI } from '../board/notation.js';

/** A search line as a UCI `info` line; showWdl adds `wdl` to exact lines. */
export function formatLine(line: EngineLine, showWdl: boolean): string {
  const s = scoreValue(shownScore(line));
  const bound = line.bound === 'lower' ? ' lowerbound' : line.bound === 'upper' ? ' upperbound' : '';
  const nps = Math.round((line.nodes * 1000) / line.timeMs);
  return (
    `info depth ${line.depth} seldepth ${line.seldepth} multipv ${line.multipv} score ${s.unit} ${s.value}${bound}` +
    // The estimate is of the score as searched (a root without moves: lost).
    (showWdl && line.bound === 'exact' ? ` wdl ${wdlOf(line.score).join(' ')}` : '') +
    ` nodes ${line.nodes} nps ${nps}${line.hashfull !== null ? ` hashfull ${line.hashfull}` : ''}` +
    `${line.tbhits !== null ? ` tbhits ${line.tbhits}` : ''} time ${line.timeMs}` +
    (line.pv.length > 0 ? ` pv ${line.pv.join(' ')}` : '')
  );
}

/** The root move a long search starts on. */
export function formatCurrentMove(c: CurrentMove): string {
  return `info depth ${c.depth} currmove ${c.move} currmovenumber ${c.number}`;
}

/**
 * The `info` line that reports the host's emergency choice, so that a
 * bestmove is never without one (an unknown score, after an error, shows as
 * cp 0); null when there is no move.
 */
export function formatEmergency(choice: EmergencyChoice): string | null {
  if (choice.move === NO_MOVE_UCI) return null;
  const score =
    choice.score === null ? 'cp 0' : choice.score >= EMERGENCY_MATE ? 'mate 1' : `cp ${Math.max(-20000, Math.min(20000, choice.score))}`;
  return `info depth 2 score ${score} pv ${choice.move}`;
}
