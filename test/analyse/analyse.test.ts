// `kestrel analyse` on a real game collection (test/data/kestrel-levels.pgn,
// four games of Kestrel at Elo 1000 against Kestrel at Elo 1700 played by
// fastchess) with a broken game added: the annotated PGN, the graphs, the
// report of the bad game.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parsePgn } from '../../src/board/pgn.js';
import { ROOT } from '../uci/engine-process.js';
import { scratchDir } from '../scratch.js';

const KESTREL = join(ROOT, 'dist', 'kestrel.js');
/** The build's name, as `kestrel --version` prints it (the version, and between releases the commit). */
const NAME = spawnSync(process.execPath, [KESTREL, '--version'], { encoding: 'utf8' }).stdout.trim();
const COLLECTION = readFileSync(join(ROOT, 'test', 'data', 'kestrel-levels.pgn'), 'utf8');
const BROKEN = ['[Event "broken"]', '[White "X"]', '[Black "Y"]', '', '1. e4 e5 2. Ke3 Nc6 *', ''].join('\n');

const dir = scratchDir('kestrel-analyse-');

let run: { status: number | null; stdout: string; stderr: string };
let annotated: string;
const svgDir = join(dir, 'svg');

beforeAll(() => {
  const input = join(dir, 'games.pgn');
  // The broken game goes second, so that a game after it is analysed too.
  const games = COLLECTION.split(/\n(?=\[Event )/);
  writeFileSync(input, [games[0], BROKEN, ...games.slice(1)].join('\n'));
  const r = spawnSync(process.execPath, [KESTREL, 'analyse', input, '--depth', '5', '--out', join(dir, 'out.pgn'), '--svg', svgDir], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  run = { status: r.status, stdout: r.stdout, stderr: r.stderr };
  annotated = existsSync(join(dir, 'out.pgn')) ? readFileSync(join(dir, 'out.pgn'), 'utf8') : '';
}, 120_000);

describe('kestrel analyse', () => {
  it('reports the bad game by number and line, and analyses the others', () => {
    const brokenLine = COLLECTION.split(/\n(?=\[Event )/)[0].split('\n').length + 5;
    expect(run.stderr).toContain(`game 2, line ${brokenLine}: move 2. Ke3 is not legal here; game skipped`);
    expect(run.stderr).toMatch(/1 game of .* could not be read/);
    expect(run.status).toBe(1);
    for (const n of [1, 3, 4, 5])
      expect(run.stderr).toMatch(new RegExp(`game ${n}: Kestrel-\\d+ - Kestrel-\\d+ \\S+: White accuracy \\d+%`));
  });

  it('writes every game with an evaluation after every move, glyphs, better lines and accuracies', () => {
    const input = parsePgn(COLLECTION);
    const output = parsePgn(annotated);
    expect(output.length).toBe(4);
    for (const [i, game] of output.entries()) {
      expect(game.tags.Annotator).toBe(`Kestrel ${NAME}, depth 5 a move`);
      expect(game.tags.White).toBe(input[i].tags.White);
      expect(game.result).toBe(input[i].result);
      // The same moves (glyphs aside), each with its evaluation.
      expect(game.moves.map((m) => m.replace(/[?!]+$/, ''))).toEqual(input[i].moves);
      const comments = (game.comments ?? []).map((c) => c.replace(/\s+/g, ' '));
      expect(comments.length).toBe(game.moves.length);
      for (const c of comments.slice(0, -1)) expect(c).toMatch(/^\[%eval (-?\d+\.\d\d|#-?\d+)\]/);
      expect(comments[comments.length - 1]).toMatch(
        /White: accuracy \d+%, \d+ inaccurac(y|ies), \d+ mistakes?, \d+ blunders?\. Black: accuracy \d+%/,
      );
    }
    // Judged moves: a glyph, the better move named, and its line as a variation.
    expect(annotated).toMatch(
      /\d+\.(\.\.)? [^\s{]+(\?\?|\?!|\?) \{\[%eval [^\]]+\] (Blunder|Mistake|Inaccuracy)\. \S+ was best\.\} \(\d+\./,
    );
    const glyphs = (annotated.match(/[A-Za-z0-9#+=]\?\?|[A-Za-z0-9#+=]\?!|[A-Za-z0-9#+=]\?(?![?!])/g) ?? []).length;
    const named = (annotated.replace(/\s+/g, ' ').match(/ was best\./g) ?? []).length;
    expect(glyphs).toBeGreaterThan(4);
    expect(named).toBe(glyphs);
  });

  it('draws a graph per game: a curve point per position, a mark per judged move, players and result in the title', () => {
    const files = readdirSync(svgDir).sort();
    expect(files).toEqual([
      'game-001-Kestrel-1000-Kestrel-1700.svg',
      'game-003-Kestrel-1700-Kestrel-1000.svg',
      'game-004-Kestrel-1000-Kestrel-1700.svg',
      'game-005-Kestrel-1700-Kestrel-1000.svg',
    ]);
    const games = parsePgn(annotated);
    for (const [i, file] of files.entries()) {
      const svg = readFileSync(join(svgDir, file), 'utf8');
      const game = games[i];
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
      expect(svg).toContain(`<title>${game.tags.White} - ${game.tags.Black}, ${game.result}</title>`);
      const points = /<polyline points="([^"]+)"/.exec(svg)![1].split(' ');
      expect(points.length).toBe(game.moves.length + 1);
      for (const p of points) {
        const [x, y] = p.split(',').map(Number);
        expect(x).toBeGreaterThanOrEqual(0);
        expect(y).toBeGreaterThanOrEqual(0);
      }
      const judged = game.moves.filter((m) => /[?!]$/.test(m)).length;
      expect((svg.match(/<circle cx=/g) ?? []).length - 3).toBe(judged); // three in the legend
      expect(svg).toMatch(/White: accuracy \d+%/);
    }
  });

  it.skipIf(spawnSync('rsvg-convert', ['--version']).status !== 0)('renders: rsvg-convert makes a PNG of each graph', () => {
    for (const file of readdirSync(svgDir)) {
      const png = join(dir, `${file}.png`);
      const r = spawnSync('rsvg-convert', [join(svgDir, file), '-o', png]);
      expect(r.status).toBe(0);
      expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
    }
  });

  it('searches with the driver asked for, and names it in the Annotator tag', () => {
    const one = join(dir, 'one.pgn');
    writeFileSync(one, COLLECTION.split(/\n(?=\[Event )/)[0]);
    const r = spawnSync(process.execPath, [KESTREL, 'analyse', one, '--movetime', '30', '--driver', 'mcts'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status).toBe(0);
    const [game] = parsePgn(r.stdout);
    expect(game.tags.Annotator).toBe(`Kestrel ${NAME} (mcts), 30 ms a move`);
    const comments = (game.comments ?? []).map((c) => c.replace(/\s+/g, ' '));
    expect(comments.length).toBe(game.moves.length);
    for (const c of comments.slice(0, -1)) expect(c).toMatch(/^\[%eval (-?\d+\.\d\d|#-?\d+)\]/);
    const bad = spawnSync(process.execPath, [KESTREL, 'analyse', one, '--driver', 'alphabeta'], { encoding: 'utf8' });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr.trim()).toBe(
      "error: --driver must be one of pvs, mtdf, mcts, mcts-qs, mcts-uniform, mcts-qs-uniform, got 'alphabeta'",
    );
  }, 120_000);

  it('says what tablebases the search worker found before the first game', () => {
    // King and pawn against king: the tables answer every position.
    const endgame = join(dir, 'kpk.pgn');
    writeFileSync(endgame, '[Event "kpk"]\n[White "X"]\n[Black "Y"]\n[SetUp "1"]\n[FEN "8/8/8/4k3/8/8/4KP2/8 w - - 0 1"]\n\n1. f4 Kf5 *\n');
    const folders = [join(ROOT, 'test', 'data', 'syzygy'), join(dir, 'none')].join(delimiter);
    const r = spawnSync(process.execPath, [KESTREL, 'analyse', endgame, '--depth', '4', '--syzygy', folders], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    const said = r.stderr.trim().split('\n');
    expect(said.slice(0, 2)).toEqual([
      `SyzygyPath: cannot read the folder ${join(dir, 'none')}: no such file`,
      'SyzygyPath: 11 tables (7 with DTZ) up to 4 pieces',
    ]);
    expect(said[2]).toMatch(/^game 1: X - Y \*: /);
  }, 60_000);

  it('fails cleanly on a missing file and on both --movetime and --depth', () => {
    const missing = spawnSync(process.execPath, [KESTREL, 'analyse', join(dir, 'nope.pgn')], { encoding: 'utf8' });
    expect(missing.status).not.toBe(0);
    expect(missing.stderr.trim()).toMatch(/^error: cannot read .*nope\.pgn: no such file$/);
    const both = spawnSync(process.execPath, [KESTREL, 'analyse', join(dir, 'games.pgn'), '--depth', '3', '--movetime', '10'], {
      encoding: 'utf8',
    });
    expect(both.stderr.trim()).toBe('error: give --movetime or --depth, not both');
  });
});
