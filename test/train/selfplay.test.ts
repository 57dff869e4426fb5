// `kestrel selfplay` end to end, through the built command line: a handful of
// games at a few hundred nodes a move.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { gameOutcome } from '../../src/board/rules.js';
import { Searcher } from '../../src/search/search.js';
import { DEFAULT_SELFPLAY_SETTINGS, SelfPlayer } from '../../src/train/selfplay.js';
import { RESULT_DRAW, RESULT_WHITE_WIN, decodeGame, indexGames, unpackMove } from '../../src/train/viriformat.js';
import { emptyStore } from './fixtures.js';
import { scratchDir } from '../scratch.js';

const KESTREL = fileURLToPath(new URL('../../dist/kestrel.js', import.meta.url));
const dir = scratchDir('kestrel-selfplay-');

const SMALL = ['--soft-nodes', '300', '--hard-nodes', '1000', '--seed', '42'];

function selfplay(out: string, ...args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [KESTREL, 'selfplay', '--out', out, ...SMALL, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stderr: r.stderr };
}

describe('kestrel selfplay', () => {
  it('writes the same games whatever the thread count, and resumes an interrupted file', () => {
    const one = join(dir, 'one.vf');
    const two = join(dir, 'two.vf');
    const r1 = selfplay(one, '--games', '4');
    expect(r1.status).toBe(0);
    expect(r1.stderr).toMatch(/games 4 \(\+4\)\s+positions \d+ \(\+\d+\)\s+\d+ positions\/s\s+W \d+% D \d+% B \d+%/);
    expect(selfplay(two, '--games', '4', '--threads', '2').status).toBe(0);
    const bytes = readFileSync(one);
    expect(readFileSync(two).equals(bytes)).toBe(true);
    const index = indexGames(bytes);
    expect(index.offsets.length).toBe(4);
    expect(index.completeBytes).toBe(bytes.length);

    // Cut the file in the middle of its third game, then ask for four again.
    const resumed = join(dir, 'resumed.vf');
    writeFileSync(resumed, bytes.subarray(0, index.offsets[2] + 40));
    // data-info counts what a manifest records: the complete games, then the torn tail.
    const firstTwo = index.plies[0] + index.plies[1];
    const info = (...args: string[]): string =>
      spawnSync(process.execPath, [KESTREL, 'data-info', ...args], { encoding: 'utf8', timeout: 60_000 }).stdout;
    expect(info(resumed)).toBe(
      `${resumed}: 2 games, ${firstTwo} positions, ${index.offsets[2]} bytes (then 40 bytes of a half-written game)\n`,
    );
    expect(info(one, '--games', '2')).toBe(`${one}: 2 games, ${firstTwo} positions, ${index.offsets[2]} bytes\n`);
    expect(info(one, resumed).split('\n')[2]).toBe(
      `total: 6 games, ${2 * firstTwo + index.plies[2] + index.plies[3]} positions, ${bytes.length + index.offsets[2]} bytes`,
    );
    const r3 = selfplay(resumed, '--games', '4');
    expect(r3.stderr).toMatch(/cut off \d+ bytes of a half-written game/);
    expect(r3.stderr).toMatch(/2 games \(\d+ positions\) already there; resuming at game 2/);
    expect(readFileSync(resumed).equals(bytes)).toBe(true);

    // Every recorded move is legal and every result agrees with how the game stands.
    for (let g = 0; g < 4; g++) {
      const game = decodeGame(bytes, index.offsets[g], index.plies[g]);
      const pos = new Position(game.fen);
      for (const packed of game.moves) {
        expect(gameOutcome(pos)).toBeNull();
        pos.makeMove(unpackMove(pos, packed));
      }
      const end = gameOutcome(pos);
      if (end !== null) expect(end.result === '1-0' ? 2 : end.result === '0-1' ? 0 : 1).toBe(game.result);
    }
  }, 120_000);

  it('resumes a seed from the data store alone, and adds its new games to it as chunks', () => {
    const one = join(dir, 'store-ref.vf');
    expect(selfplay(one, '--games', '4').status).toBe(0);
    const store = emptyStore(mkdtempSync(join(dir, 'store-')));
    const first = join(dir, 'store-a.vf');
    const r1 = selfplay(first, '--games', '2', '--store', store, '--network', 'none');
    expect(r1.stderr).toMatch(/store: row 1, hce-s42\/0000000-0000001\.vfc: games 0-1/);
    // A new machine: no local file, only the store.
    const second = join(dir, 'store-b.vf');
    const r2 = selfplay(second, '--games', '4', '--store', store, '--network', 'none');
    expect(r2.stderr).toMatch(/made from the store's 1 chunks of seed 42 \(games 0-1\)/);
    expect(r2.stderr).toMatch(/resuming at game 2/);
    expect(r2.stderr).toMatch(/store: row 2, hce-s42\/0000002-0000003\.vfc: games 2-3/);
    const none = join(dir, 'store-hce.vf');
    expect(selfplay(none, '--games', '4', '--network', 'none').status).toBe(0);
    expect(readFileSync(second).equals(readFileSync(none))).toBe(true);
    // The built-in network's games are another run: the store has none of them yet.
    const r3 = selfplay(join(dir, 'store-c.vf'), '--games', '1', '--store', store, '--chunk-minutes', '1');
    expect(r3.stderr).toMatch(/store: row 3, [0-9a-f]{8}-s42\/0000000-0000000\.vfc/);
    expect(
      readFileSync(one)
        .subarray(0, indexGames(readFileSync(one)).offsets[1])
        .equals(readFileSync(join(dir, 'store-c.vf'))),
    ).toBe(true);
    // A file of another run is refused rather than mixed in.
    const r4 = selfplay(one, '--games', '5', '--store', store, '--network', 'none');
    expect(r4.status).not.toBe(0);
    expect(r4.stderr).toMatch(/differs from the store's hce-s42\/0000000-0000001\.vfc/);
    const info = spawnSync(process.execPath, [KESTREL, 'data-info', '--verify', store], { encoding: 'utf8', timeout: 60_000 });
    expect(info.stdout).toMatch(/every chunk agrees with the manifest/);
    expect(info.status).toBe(0);
  }, 180_000);

  it('says when to stop is missing, and refuses bad numbers', () => {
    const out = join(dir, 'x.vf');
    let r = selfplay(out);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/say when to stop/);
    r = selfplay(out, '--games', '0');
    expect(r.stderr).toMatch(/--games must be a positive integer/);
    r = selfplay(out, '--games', '1', '--book', join(dir, 'missing.epd'));
    expect(r.stderr).toMatch(/cannot read the openings file/);
  }, 30_000);

  it('starts from a level opening and scores a game that runs too long a draw', () => {
    const searcher = new Searcher(1);
    const player = new SelfPlayer(searcher, { ...DEFAULT_SELFPLAY_SETTINGS, softNodes: 200, hardNodes: 500, maxPlies: 6 });
    const game = player.play(7, 0);
    expect(game.plies).toBe(6);
    expect(game.result).toBe(RESULT_DRAW);
    const decoded = decodeGame(game.bytes, 0, game.plies);
    // Eight or nine random plies from the start position: White's move 5 or Black's.
    expect(new Position(decoded.fen).fullmove).toBe(5);
    expect(Math.abs(decoded.scores[0])).toBeLessThanOrEqual(DEFAULT_SELFPLAY_SETTINGS.maxOpeningScore + 100);
  });

  it('adjudicates a win both sides agree on, and a long level stretch as a draw', () => {
    const searcher = new Searcher(1);
    const small = { ...DEFAULT_SELFPLAY_SETTINGS, softNodes: 200, hardNodes: 500 };
    // White a queen and two rooks up (Black's pawn rules out stalemate): both sides' scores say so at once.
    const won = new SelfPlayer(searcher, {
      ...small,
      book: ['k7/p7/8/8/8/8/5PPP/3QRRK1 w - - 0 1'],
      randomPlies: 0,
      maxOpeningScore: 100_000,
      winScore: 1000,
    }).play(3, 0);
    expect(won.result).toBe(RESULT_WHITE_WIN);
    expect(won.plies).toBe(small.winPlies);
    // Any score counts as level here, from the first ply on.
    const drawn = new SelfPlayer(searcher, { ...small, drawFromPly: 0, drawScore: 100_000, drawPlies: 3 }).play(3, 1);
    expect(drawn.result).toBe(RESULT_DRAW);
    expect(drawn.plies).toBe(3);
  });
});
