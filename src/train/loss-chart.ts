// A picture of training: training and validation loss by epoch, as an SVG
// file that opens in any browser.

export interface LossPoint {
  epoch: number;
  train: number;
  valid: number;
}

const W = 640;
const H = 400;
const M = { left: 70, right: 20, top: 40, bottom: 50 };

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The chart of points (epochs from 1) under a title. */
export function lossChartSvg(points: readonly LossPoint[], title: string): string {
  const values = points.flatMap((p) => [p.train, p.valid]);
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (!(hi > lo)) {
    lo -= 0.001;
    hi += 0.001;
  }
  const pad = (hi - lo) * 0.1;
  lo -= pad;
  hi += pad;
  const last = Math.max(1, points.length);
  const x = (epoch: number): number => M.left + ((epoch - 1) / Math.max(1, last - 1)) * (W - M.left - M.right);
  const y = (v: number): number => M.top + ((hi - v) / (hi - lo)) * (H - M.top - M.bottom);
  const line = (key: 'train' | 'valid'): string => points.map((p) => `${x(p.epoch).toFixed(1)},${y(p[key]).toFixed(1)}`).join(' ');
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="22" text-anchor="middle" font-size="14">${esc(title)}</text>`,
  ];
  for (let i = 0; i <= 5; i++) {
    const v = lo + ((hi - lo) * i) / 5;
    out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#ddd"/>`);
    out.push(`<text x="${M.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v.toFixed(5)}</text>`);
  }
  for (const p of points) out.push(`<text x="${x(p.epoch).toFixed(1)}" y="${H - M.bottom + 18}" text-anchor="middle">${p.epoch}</text>`);
  out.push(`<text x="${W / 2}" y="${H - 10}" text-anchor="middle">epoch</text>`);
  out.push(`<text x="16" y="${H / 2}" text-anchor="middle" transform="rotate(-90 16 ${H / 2})">loss</text>`);
  out.push(`<polyline points="${line('train')}" fill="none" stroke="#1f77b4" stroke-width="2"/>`);
  out.push(`<polyline points="${line('valid')}" fill="none" stroke="#d62728" stroke-width="2"/>`);
  for (const p of points) {
    out.push(`<circle cx="${x(p.epoch).toFixed(1)}" cy="${y(p.train).toFixed(1)}" r="3" fill="#1f77b4"/>`);
    out.push(`<circle cx="${x(p.epoch).toFixed(1)}" cy="${y(p.valid).toFixed(1)}" r="3" fill="#d62728"/>`);
  }
  out.push(`<rect x="${W - 190}" y="${M.top}" width="170" height="44" fill="white" stroke="#999"/>`);
  out.push(`<line x1="${W - 180}" x2="${W - 150}" y1="${M.top + 14}" y2="${M.top + 14}" stroke="#1f77b4" stroke-width="2"/>`);
  out.push(`<text x="${W - 144}" y="${M.top + 18}">training loss</text>`);
  out.push(`<line x1="${W - 180}" x2="${W - 150}" y1="${M.top + 32}" y2="${M.top + 32}" stroke="#d62728" stroke-width="2"/>`);
  out.push(`<text x="${W - 144}" y="${M.top + 36}">validation loss</text>`);
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
