// The `eval` command's breakdown: every term's midgame, endgame and blended
// contribution for each colour, from a trace of the evaluation. Not hot.

import type { Position } from '../board/position.js';
import { WHITE } from '../board/types.js';
import { SCALE_NORMAL } from './endgame.js';
import { TRACE, TRACE_INFO, lastSums, traceEvaluate } from './evaluate.js';
import { NUM_PARAMS, TERMS } from './layout.js';
import { EG, MG } from './live-weights.js';
import { MAX_PHASE } from './psqt.js';

function cp(v: number): string {
  return (v / 100).toFixed(2);
}

/** A table of each term (White's point of view), the phase, the scale and the final score. */
export function explainEval(pos: Position): string {
  const score = traceEvaluate(pos);
  const [phase, scale, drawn] = TRACE_INFO;
  const blend = (m: number, e: number): number => (m * phase * SCALE_NORMAL + e * (MAX_PHASE - phase) * scale) / (MAX_PHASE * SCALE_NORMAL);
  const lines: string[] = [];
  const row = (cells: string[]): void => {
    lines.push(
      cells[0].padEnd(20) +
        cells
          .slice(1)
          .map((c) => c.padStart(8))
          .join(' '),
    );
  };
  row(['term', 'W mg', 'W eg', 'B mg', 'B eg', 'net mg', 'net eg', 'blended']);
  lines.push('-'.repeat(20 + 8 * 8));
  let totalMg = 0;
  let totalEg = 0;
  for (const t of TERMS) {
    let wMg = 0;
    let wEg = 0;
    let bMg = 0;
    let bEg = 0;
    for (let i = t.offset; i < t.offset + t.size; i++) {
      wMg += TRACE[i] * MG[i];
      wEg += TRACE[i] * EG[i];
      bMg += TRACE[NUM_PARAMS + i] * MG[i];
      bEg += TRACE[NUM_PARAMS + i] * EG[i];
    }
    if (wMg === 0 && wEg === 0 && bMg === 0 && bEg === 0) continue;
    totalMg += wMg - bMg;
    totalEg += wEg - bEg;
    row([t.name, cp(wMg), cp(wEg), cp(bMg), cp(bEg), cp(wMg - bMg), cp(wEg - bEg), cp(blend(wMg - bMg, wEg - bEg))]);
  }
  lines.push('-'.repeat(20 + 8 * 8));
  row(['total', '', '', '', '', cp(totalMg), cp(totalEg), cp(blend(totalMg, totalEg))]);
  const [mg, eg] = lastSums();
  if (mg !== totalMg || eg !== totalEg) lines.push(`warning: term sums ${mg}/${eg} differ from the trace ${totalMg}/${totalEg}`);
  lines.push('');
  lines.push(`phase ${phase}/${MAX_PHASE} (midgame weight ${Math.round((100 * phase) / MAX_PHASE)}%)`);
  lines.push(`endgame scale ${scale}/${SCALE_NORMAL}${drawn ? ' (insufficient material: draw)' : ''}`);
  const white = pos.side === WHITE ? score : -score;
  lines.push(`final evaluation ${cp(white)} (White's view), ${score} cp for the side to move`);
  return lines.join('\n');
}
