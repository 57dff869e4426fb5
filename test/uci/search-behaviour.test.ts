// What the search finds, seen through the UCI loop of the built engine:
// mates with the right `score mate N`, draws scored as 0, and a bench whose
// node count does not change from run to run.

import { describe, expect, it } from 'vitest';
import { type EngineProcess, useEngines } from './engine-process.js';

const engine = useEngines();

/** Runs `go <go>` from `position <position>` and returns the last info line with a score, and the bestmove line. */
async function think(e: EngineProcess, position: string, go: string): Promise<{ info: string; bestmove: string }> {
  e.send(`position ${position}`);
  e.send(`go ${go}`);
  const lines = await e.collectUntil(/^bestmove /, 30000);
  const scored = lines.filter((l) => / score /.test(l));
  return { info: scored[scored.length - 1] ?? '', bestmove: lines[lines.length - 1] };
}

describe('mates', () => {
  it.each([
    ['6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1', 1, 'd1d8'],
    ['r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1', 2, null],
    ['r3q1kr/ppp5/3p2pQ/8/3PP1b1/5R2/PPP3P1/5RK1 w - - 0 1', 3, null],
  ])(
    'finds the mate in %#: %s',
    async (fen, moves, best) => {
      const e = await engine();
      const { info, bestmove } = await think(e, `fen ${fen}`, 'depth 12');
      expect(info).toMatch(new RegExp(` score mate ${moves} `));
      if (best !== null) expect(bestmove).toMatch(new RegExp(`^bestmove ${best}`));
    },
    40000,
  );

  it('go mate 2 stops once the mate is found', async () => {
    const e = await engine();
    const { info } = await think(e, 'fen r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1', 'mate 2');
    expect(info).toMatch(/ score mate 2 /);
  }, 40000);

  it('the losing side sees a negative score', async () => {
    const e = await engine();
    // White (bare king against king and queen) is lost.
    const { info } = await think(e, 'fen 7k/8/8/8/8/5q2/8/6K1 w - - 0 1', 'depth 8');
    expect(info).toMatch(/ score (cp -\d+|mate -\d+) /);
  }, 40000);
});

describe('draws', () => {
  it('a move that repeats the position a third time scores 0', async () => {
    const e = await engine();
    const { info } = await think(e, 'startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1', 'depth 3 searchmoves f6g8');
    expect(info).toMatch(/ score cp 0 /);
  }, 20000);

  it('the fifty-move rule: a queen up, but every move ends the game drawn', async () => {
    const e = await engine();
    const { info } = await think(e, 'fen 7k/8/8/8/8/1Q6/8/K7 w - - 99 80', 'depth 6');
    expect(info).toMatch(/ score cp 0 /);
  }, 20000);

  it('a lone knight cannot win', async () => {
    const e = await engine();
    const { info } = await think(e, 'fen 8/8/4k3/8/8/3NK3/8/8 w - - 0 1', 'depth 8');
    expect(info).toMatch(/ score cp 0 /);
  }, 20000);
});

describe('bench', () => {
  it('gives the same node count every run', async () => {
    const e = await engine();
    const counts: string[] = [];
    for (let run = 0; run < 2; run++) {
      e.send('bench 5');
      // Nodes/second is bench's last line: only then may the next command come.
      const lines = await e.collectUntil(/^Nodes\/second: \d+$/, 30000);
      counts.push(lines.find((l) => l.startsWith('Nodes searched:')) ?? 'missing');
    }
    expect(counts[0]).toBe(counts[1]);
  }, 70000);
});
