#!/usr/bin/env node
// Calibrates Kestrel's strength levels by games (docs/levels.md):
//
//   - at and above 1350: Kestrel at UCI_Elo X against Stockfish 15.1 at
//     UCI_Elo X (Stockfish's levels are calibrated against CCRL 40/4);
//   - below 1350: Kestrel at UCI_Elo X against Kestrel at UCI_Elo 1350 (once
//     that level is calibrated), where the expected difference is X - 1350.
//
// Each level is a fastchess match; the games go to <out>/level-<X>.pgn and
// the result, read back from the PGN, is the Elo difference with its 95%
// error bar. A level whose interval excludes 0 (or, below 1350, the
// expected difference) needs re-tuning: write its measured Elo into the elo
// column of STRENGTH_LEVELS (src/search/strength.ts).
//
//   node scripts/calibrate-levels.mjs --levels 1500,2000,2500 --games 200
//   node scripts/calibrate-levels.mjs --below 800,1000,1200 --games 200
//   node scripts/calibrate-levels.mjs --levels 1500 --dry-run      (prints the commands)
//   node scripts/calibrate-levels.mjs --levels 1500,2000 --report  (tables from PGNs already played)
//
// Options: --kestrel <dist/kestrel.js> --stockfish </usr/games/stockfish>
// --fastchess <fastchess> --tc <10+0.1> --games <200> --concurrency <2>
// --openings <file.pgn|.epd|.pgn.br> (default test/data/8moves_v3.pgn.br,
// unpacked into <out>) --out <dir> (default ~/kestrel-data/calibration)
// --anchor <1350> --seed <1>.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const o = {
    kestrel: join(ROOT, 'dist', 'kestrel.js'),
    stockfish: '/usr/games/stockfish',
    fastchess: 'fastchess',
    tc: '10+0.1',
    games: 200,
    concurrency: 2,
    openings: join(ROOT, 'test', 'data', '8moves_v3.pgn.br'),
    out: join(homedir(), 'kestrel-data', 'calibration'),
    anchor: 1350,
    seed: 1,
    levels: [],
    below: [],
    dryRun: false,
    report: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    const list = () =>
      next()
        .split(',')
        .map((x) => Number(x.trim()))
        .filter((x) => Number.isInteger(x));
    if (a === '--levels') o.levels = list();
    else if (a === '--below') o.below = list();
    else if (a === '--games') o.games = Number(next());
    else if (a === '--concurrency') o.concurrency = Number(next());
    else if (a === '--anchor') o.anchor = Number(next());
    else if (a === '--seed') o.seed = Number(next());
    else if (a === '--dry-run') o.dryRun = true;
    else if (a === '--report') o.report = true;
    else if (['--kestrel', '--stockfish', '--fastchess', '--tc', '--openings', '--out'].includes(a)) o[a.slice(2)] = next();
    else throw new Error(`unknown argument ${a} (see the comment at the top of this script)`);
  }
  o.out = resolve(o.out);
  o.openings = resolve(o.openings);
  if (o.levels.length === 0 && o.below.length === 0) throw new Error('give --levels X,Y,... and/or --below X,Y,...');
  if (!(o.games >= 2) || o.games % 2 !== 0) throw new Error('--games must be even (each opening is played with both colours)');
  return o;
}

/** The openings file fastchess reads (a .br file is unpacked into the output folder). */
function openingsFile(o) {
  if (!o.openings.endsWith('.br')) return o.openings;
  const plain = join(o.out, o.openings.replace(/^.*[\\/]/, '').replace(/\.br$/, ''));
  if (!existsSync(plain) && !o.dryRun) writeFileSync(plain, brotliDecompressSync(readFileSync(o.openings)));
  return plain;
}

/** The fastchess arguments of one level's match. */
function matchArgs(o, level, openings) {
  const kestrel = (name, elo) => [
    '-engine',
    'cmd=node',
    `args=${resolve(o.kestrel)}`,
    `name=${name}`,
    'option.UCI_LimitStrength=true',
    `option.UCI_Elo=${elo}`,
  ];
  const opponent =
    level >= o.anchor && !o.below.includes(level)
      ? ['-engine', `cmd=${o.stockfish}`, `name=Stockfish-${level}`, 'option.UCI_LimitStrength=true', `option.UCI_Elo=${level}`]
      : kestrel(`Kestrel-${o.anchor}`, o.anchor);
  const format = openings.endsWith('.epd') ? 'epd' : 'pgn';
  return [
    ...kestrel(`Kestrel-${level}`, level),
    ...opponent,
    '-each',
    `tc=${o.tc}`,
    'option.Hash=16',
    'option.Threads=1',
    '-openings',
    `file=${openings}`,
    `format=${format}`,
    'order=random',
    '-srand',
    String(o.seed + level),
    '-rounds',
    String(o.games / 2),
    '-games',
    '2',
    '-repeat',
    '-concurrency',
    String(o.concurrency),
    '-recover',
    '-pgnout',
    `file=${join(o.out, `level-${level}.pgn`)}`,
  ];
}

/** Kestrel-<level>'s wins, draws and losses in a PGN file. */
function tally(file, level) {
  const text = readFileSync(file, 'utf8');
  const me = `Kestrel-${level}`;
  let w = 0;
  let d = 0;
  let l = 0;
  for (const game of text.split(/\n(?=\[Event )/)) {
    const white = /\[White "([^"]*)"\]/.exec(game)?.[1];
    const result = /\[Result "([^"]*)"\]/.exec(game)?.[1];
    if (white === undefined || result === undefined || result === '*') continue;
    if (result === '1/2-1/2') d++;
    else if ((result === '1-0') === (white === me)) w++;
    else l++;
  }
  return { w, d, l };
}

/** Elo difference and the half-width of its 95% interval, from the score's trinomial variance. */
export function eloDifference({ w, d, l }) {
  const n = w + d + l;
  if (n === 0) return null;
  const s = (w + d / 2) / n;
  const elo = (p) => (p <= 0 ? -Infinity : p >= 1 ? Infinity : -400 * Math.log10(1 / p - 1));
  const variance = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n;
  const margin = 1.959964 * Math.sqrt(variance / n);
  return { score: s, elo: elo(s), error: (elo(Math.min(1, s + margin)) - elo(Math.max(0, s - margin))) / 2, n };
}

function fmt(x) {
  return Number.isFinite(x) ? (x >= 0 ? `+${x.toFixed(0)}` : x.toFixed(0)) : String(x);
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  mkdirSync(o.out, { recursive: true });
  const openings = openingsFile(o);
  const rows = [];
  for (const level of [...o.levels, ...o.below]) {
    const args = matchArgs(o, level, openings);
    const file = join(o.out, `level-${level}.pgn`);
    if (o.dryRun) {
      console.log(`${o.fastchess} ${args.join(' ')}`);
      continue;
    }
    if (!o.report) {
      console.error(`level ${level}: ${o.games} games at ${o.tc}, into ${file}`);
      // In the output folder, where fastchess also leaves its config.json.
      const r = spawnSync(o.fastchess, args, { cwd: o.out, stdio: ['ignore', 'inherit', 'inherit'] });
      if (r.status !== 0) throw new Error(`fastchess failed for level ${level} (exit ${r.status})`);
    }
    if (!existsSync(file)) {
      console.error(`level ${level}: no games (${file})`);
      continue;
    }
    const t = tally(file, level);
    const e = eloDifference(t);
    const vsStockfish = level >= o.anchor && !o.below.includes(level);
    const expected = vsStockfish ? 0 : level - o.anchor;
    const opponent = vsStockfish ? `Stockfish 15.1 UCI_Elo ${level}` : `Kestrel UCI_Elo ${o.anchor}`;
    const verdict = e === null ? '' : Math.abs(e.elo - expected) > e.error ? 're-tune' : 'ok';
    rows.push(
      `| ${level} | ${opponent} | ${o.tc} | ${e?.n ?? 0} | +${t.w} =${t.d} -${t.l} | ${e === null ? '' : `${(e.score * 100).toFixed(1)}%`} | ${e === null ? '' : `${fmt(e.elo)} ± ${Number.isFinite(e.error) ? e.error.toFixed(0) : '∞'}`} | ${fmt(expected)} | ${verdict} |`,
    );
  }
  if (rows.length > 0) {
    console.log('| UCI_Elo | opponent | tc | games | W D L | score | Elo difference (95%) | expected | verdict |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
  }
}

// Run as a script (importing it gives eloDifference alone).
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (e) {
    console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  }
}
