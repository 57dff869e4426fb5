// A game's evaluation graph as SVG (opens in any browser): White's win
// percentage after every move, White's share light and Black's dark, the 50%
// line, inaccuracies, mistakes and blunders marked and named, the players,
// result and accuracies in the title.

import type { GameAnalysis } from './analyse.js';
import { type Judgement, winPercent } from './model.js';
import { playerSummary } from './annotate.js';

const WIDTH = 860;
const HEIGHT = 360;
const PLOT = { left: 56, right: 20, top: 78, bottom: 56 };
/** lichess's colours for the judgements. */
const COLORS: Record<Judgement, string> = { inaccuracy: '#56b4e9', mistake: '#e69f00', blunder: '#db3031' };
const LABELS: Record<Judgement, string> = { inaccuracy: 'inaccuracy ?!', mistake: 'mistake ?', blunder: 'blunder ??' };
const WHITE_AREA = '#f4f4f4';
const BLACK_AREA = '#4a4a4a';
/** Blunders are named on the graph up to this many (more would overlap). */
const MAX_NAMED = 8;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function fixed(n: number): string {
  return n.toFixed(1);
}

/** The graph of one analysed game. */
export function evaluationGraph(analysis: GameAnalysis): string {
  const tags = analysis.game.source.game.tags;
  const white = tags.White ?? '?';
  const black = tags.Black ?? '?';
  const result = analysis.game.source.game.result;
  const event = [tags.Event, tags.Date].filter((t) => t !== undefined && t !== '?' && t !== '' && t !== '????.??.??').join(', ');
  const wins = analysis.positions.map((p) => winPercent(p.eval));
  const plies = Math.max(1, wins.length - 1);
  const w = WIDTH - PLOT.left - PLOT.right;
  const h = HEIGHT - PLOT.top - PLOT.bottom;
  const x = (ply: number): number => PLOT.left + (ply / plies) * w;
  const y = (win: number): number => PLOT.top + (1 - win / 100) * h;
  const curve = wins.map((v, i) => `${fixed(x(i))},${fixed(y(v))}`).join(' ');
  const bottom = fixed(PLOT.top + h);

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif">`,
    `<title>${escapeXml(`${white} - ${black}, ${result}`)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="26" text-anchor="middle" font-size="18" font-weight="bold">${escapeXml(`${white} – ${black} · ${result}`)}</text>`,
    `<text x="${WIDTH / 2}" y="46" text-anchor="middle" font-size="12" fill="#555">${escapeXml(event)}</text>`,
    `<text x="${WIDTH / 2}" y="64" text-anchor="middle" font-size="12" fill="#333">${escapeXml(
      `White: ${playerSummary(analysis, 'white')} · Black: ${playerSummary(analysis, 'black')}`,
    )}</text>`,
    // Black's share: the whole plot; White's: the area under the curve.
    `<rect x="${PLOT.left}" y="${PLOT.top}" width="${w}" height="${h}" fill="${BLACK_AREA}"/>`,
    `<polygon points="${fixed(x(0))},${bottom} ${curve} ${fixed(x(plies))},${bottom}" fill="${WHITE_AREA}"/>`,
    `<polyline points="${curve}" fill="none" stroke="#888" stroke-width="1.2"/>`,
    `<line x1="${PLOT.left}" y1="${fixed(y(50))}" x2="${PLOT.left + w}" y2="${fixed(y(50))}" stroke="#d08a2c" stroke-width="1" stroke-dasharray="5,4"/>`,
    `<rect x="${PLOT.left}" y="${PLOT.top}" width="${w}" height="${h}" fill="none" stroke="#999"/>`,
  );
  // Axes: White's win percentage, and move numbers.
  for (const v of [0, 25, 50, 75, 100]) {
    out.push(`<text x="${PLOT.left - 6}" y="${fixed(y(v) + 4)}" text-anchor="end" font-size="11" fill="#444">${v}%</text>`);
  }
  out.push(
    `<text transform="translate(14 ${PLOT.top + h / 2}) rotate(-90)" text-anchor="middle" font-size="11" fill="#444">White's winning chances</text>`,
  );
  const moves = analysis.moves;
  const firstPlyOffset = moves.length > 0 && !moves[0].white ? 1 : 0;
  const fullmoves = Math.ceil((plies + firstPlyOffset) / 2);
  const step = fullmoves <= 20 ? 2 : fullmoves <= 50 ? 5 : fullmoves <= 100 ? 10 : 20;
  const firstNumber = moves.length > 0 ? Number.parseInt(moves[0].number, 10) : 1;
  for (let n = Math.ceil(firstNumber / step) * step; n <= firstNumber + fullmoves; n += step) {
    // White's move n is ply (n - first) * 2 - offset (0 = before the first move); its mark is after it.
    const ply = (n - firstNumber) * 2 + 1 - firstPlyOffset;
    if (ply < 0 || ply > plies) continue;
    out.push(
      `<line x1="${fixed(x(ply))}" y1="${bottom}" x2="${fixed(x(ply))}" y2="${fixed(PLOT.top + h + 4)}" stroke="#999"/>`,
      `<text x="${fixed(x(ply))}" y="${fixed(PLOT.top + h + 17)}" text-anchor="middle" font-size="11" fill="#444">${n}</text>`,
    );
  }
  out.push(`<text x="${PLOT.left + w / 2}" y="${HEIGHT - 22}" text-anchor="middle" font-size="11" fill="#444">move</text>`);
  // The judged moves, at the position they lead to.
  let named = 0;
  for (const [i, m] of moves.entries()) {
    if (m.judgement === null) continue;
    const cx = x(i + 1);
    const cy = y(wins[i + 1]);
    out.push(
      `<circle cx="${fixed(cx)}" cy="${fixed(cy)}" r="${m.judgement === 'blunder' ? 5 : 4}" fill="${COLORS[m.judgement]}" stroke="#fff" stroke-width="1.2"><title>${escapeXml(`${m.number} ${m.san}${m.judgement === 'blunder' ? '??' : m.judgement === 'mistake' ? '?' : '?!'}`)}</title></circle>`,
    );
    if (m.judgement === 'blunder' && named < MAX_NAMED) {
      named++;
      const above = cy > PLOT.top + 20;
      out.push(
        `<text x="${fixed(cx)}" y="${fixed(above ? cy - 9 : cy + 17)}" text-anchor="middle" font-size="10.5" font-weight="bold" fill="${COLORS.blunder}" stroke="#fff" stroke-width="2.5" paint-order="stroke">${escapeXml(`${m.number}${m.san}??`)}</text>`,
      );
    }
  }
  // Legend.
  let lx = PLOT.left;
  for (const j of ['inaccuracy', 'mistake', 'blunder'] as const) {
    out.push(
      `<circle cx="${lx + 5}" cy="${HEIGHT - 9}" r="4.5" fill="${COLORS[j]}"/>`,
      `<text x="${lx + 14}" y="${HEIGHT - 5}" font-size="11" fill="#333">${LABELS[j]}</text>`,
    );
    lx += 120;
  }
  out.push(
    `<text x="${WIDTH - PLOT.right}" y="${HEIGHT - 5}" text-anchor="end" font-size="10" fill="#777">Kestrel analysis, lichess's win-probability model</text>`,
  );
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** A file name for a game's graph: game-003-White-Black.svg (letters, digits and dashes only). */
export function graphFileName(number: number, white: string, black: string): string {
  const clean = (s: string): string =>
    s
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 30) || 'unknown';
  return `game-${String(number).padStart(3, '0')}-${clean(white)}-${clean(black)}.svg`;
}
