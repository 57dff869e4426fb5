// What OpenBench asks of the engine (docs/openbench.md): `make EXE=<name>`
// writes one self-contained file that runs away from the tree, `<name>
// bench` prints what OpenBench's client parses, and arguments run as UCI
// lines, among them `genfens`. The product is built once (one esbuild
// bundle, through the Makefile where make is installed) into a temporary
// folder, with nothing else there.

import { execFileSync, spawnSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { generateMoves } from '../../src/board/movegen.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { ROOT } from '../uci/engine-process.js';
import { scratchDir } from '../scratch.js';

const dir = scratchDir('kestrel-ob-');
// A name of OpenBench's form <Engine>-<sha8>: its client kills processes by name.
const product = join(dir, 'Kestrel-0B7E5700');
const hasMake = spawnSync('make', ['--version']).status === 0;

function run(args: string[], input = ''): string {
  const r = spawnSync(product, args, { cwd: dir, input, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`${product} ${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** OpenBench's Client/bench.py parse_stream_output: the last node and nps counts, lines read as words. */
function openBenchParse(output: string): { bench: number | null; nps: number | null } {
  let bench: string | null = null;
  let nps: string | null = null;
  for (const raw of output.trim().split('\n').reverse()) {
    const line = raw.replace(/[^a-zA-Z0-9 ]+/g, ' ');
    const n = /(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)/i.exec(line);
    const b = /(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)/i.exec(line);
    if (n !== null) nps ??= n[0];
    if (b !== null) bench ??= b[0];
  }
  const int = (m: string | null): number | null => (m === null ? null : Number(/\d+/.exec(m)![0]));
  return { bench: int(bench), nps: int(nps) };
}

/** The FENs of genfens's output lines, checked to be what OpenBench's client reads. */
function genfens(args: string): string[] {
  const out = run([`genfens ${args}`, 'quit']);
  const fens = out
    .split('\n')
    .filter((l) => l.startsWith('info string genfens '))
    .map((l) => l.split('genfens ')[1].trimEnd());
  const moves = new Int32Array(MAX_MOVES);
  for (const fen of fens) {
    expect(fen.split(' ')).toHaveLength(6); // OpenBench's convert_fen_to_epd takes fields five and six as the counters
    const pos = new Position(fen);
    expect(pos.fen()).toBe(fen);
    expect(generateMoves(pos, moves, 0, false)).toBeGreaterThan(0);
  }
  expect(new Set(fens.map((f) => f.split(' ').slice(0, 4).join(' '))).size).toBe(fens.length);
  return fens;
}

describe('the OpenBench product', () => {
  beforeAll(() => {
    if (hasMake) execFileSync('make', ['-j', `EXE=${product}`, 'CC=node'], { cwd: ROOT, stdio: 'pipe' });
    else execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--script', product], { cwd: ROOT, stdio: 'pipe' });
  }, 120_000);

  it('is one executable file that speaks UCI away from the tree, with helper threads and the book', () => {
    expect(statSync(product).mode & 0o111).not.toBe(0);
    const out = run(
      [],
      [
        'uci',
        'setoption name Threads value 2',
        'setoption name OwnBook value true',
        'isready',
        'go depth 4',
        'position startpos moves a2a3 h7h6 h2h3',
        'go depth 6',
        'quit',
        '',
      ].join('\n'),
    );
    expect(out).toMatch(/^id name Kestrel /m);
    expect(out).toMatch(/^option name BookFile type string default <built-in>$/m);
    expect(out).toMatch(/^uciok$/m);
    expect(out).toMatch(/^info string book move /m);
    expect(out).not.toMatch(/error/);
    expect(out.match(/^bestmove \S+/gm) ?? []).toHaveLength(2);
  });

  it('prints a bench OpenBench parses, the same count as the bundle', () => {
    const parsed = openBenchParse(run(['bench', '4']));
    const bundle = execFileSync(process.execPath, [join(ROOT, 'dist', 'kestrel.js'), 'bench', '4'], { encoding: 'utf8' });
    expect(parsed.bench).toBe(Number(/Nodes searched: (\d+)/.exec(bundle)![1]));
    expect(parsed.nps).toBeGreaterThan(0);
  });

  it('runs arguments as UCI lines, and its subcommands as before', () => {
    const out = run(['uci', 'isready', 'position startpos moves e2e4', 'd', 'quit']);
    expect(out).toMatch(/^uciok$/m);
    expect(out).toMatch(/^readyok$/m);
    expect(out).toMatch(/Fen: rnbqkbnr\/pppppppp\/8\/8\/4P3\/8\/PPPP1PPP\/RNBQKBNR b KQkq - 0 1/);
    expect(run(['perft', '3'])).toMatch(/^Nodes searched: 8902$/m);
    const typo = spawnSync(product, ['pert', '3'], { encoding: 'utf8' });
    expect(typo.status).not.toBe(0);
    expect(typo.stderr).toMatch(/unknown command 'pert'/);
  });

  it('genfens: N legal, distinct, full FENs, the same for the same seed', () => {
    const a = genfens('12 seed 1234567890 book None');
    expect(a).toHaveLength(12);
    expect(genfens('12 seed 1234567890 book None')).toEqual(a);
    const b = genfens('12 seed 7 book None');
    expect(b).toHaveLength(12);
    expect(b).not.toEqual(a);
  });

  it('genfens: from an EPD book, and errors that OpenBench cannot take for positions', () => {
    const book = join(dir, 'book.epd');
    writeFileSync(
      book,
      [
        'rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - hmvc 2; fmvn 3;',
        'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3',
        '[Event "not a position"]',
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1', // shaped like one, checked when drawn
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'bad.epd'), '8/8/8/8/8/8/8/8 w - - 0 1\n');
    writeFileSync(join(dir, 'stalemate.epd'), '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\n');
    const fens = genfens('6 seed 3 book book.epd');
    expect(fens).toHaveLength(6);
    for (const fen of fens) expect(Number(fen.split(' ')[5])).toBeGreaterThanOrEqual(4); // book ply 4 and 2 or 3 random plies
    const bad = run([
      'genfens 3 seed 1 book missing.epd',
      'genfens 3 seed x book None',
      'genfens 2 seed 1 book bad.epd',
      'genfens 1 seed 1 book stalemate.epd plies 0', // every draw decided: an error, not a search forever
      'quit',
    ]);
    expect(bad).not.toMatch(/^info string genfens /m);
    expect(bad.match(/^info string error: genfens: /gm) ?? []).toHaveLength(4);
    expect(bad).toContain('only 0 distinct openings in 200 draws: 200 book lines that are not legal positions, 0 openings');
    expect(bad).toContain('only 0 distinct openings in 100 draws: 0 book lines that are not legal positions, 100 openings decided');
  });
});
