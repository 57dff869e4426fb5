// Hash through the UCI protocol: a table the process cannot have is refused
// for real (the engine runs with its data segment limited, so the
// allocation itself fails) and the table in use stays, entries and all.

import { existsSync } from 'node:fs';
import { totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { EngineProcess, useEngines } from './engine-process.js';

const engine = useEngines();
const BESTMOVE = /^bestmove /;
const FEN = 'r1bq1rk1/ppp2ppp/5n2/2bp4/2NPP3/2P5/PP3PPP/RNBQK2R w KQ - 0 9';

/** The nodes of the last `info depth` line of a `go depth` on FEN. */
async function searchNodes(e: EngineProcess, depth: number): Promise<number> {
  e.send(`position fen ${FEN}`);
  e.send(`go depth ${depth}`);
  const lines = await e.collectUntil(BESTMOVE, 30000);
  const last = lines.filter((l) => l.startsWith(`info depth ${depth} `)).pop();
  expect(last).toBeDefined();
  return Number(/ nodes (\d+)/.exec(last!)![1]);
}

describe('Hash', () => {
  it.runIf(process.platform === 'linux' && existsSync('/bin/sh'))(
    'a table the process cannot get is refused, and the one in use keeps its entries (the allocation fails for real)',
    async () => {
      // 2 GiB of data: the engine runs, a table of 8 GiB cannot be had.
      const limited = engine.track(new EngineProcess({ dataLimitKb: 2 * 1024 * 1024 }));
      expect(await limited.sync(15000)).toEqual([]);
      limited.send('setoption name Hash value 64');
      expect(await limited.sync(15000)).toEqual([]);
      await searchNodes(limited, 7);
      limited.send('setoption name Hash value 8192');
      const said = await limited.sync(15000);
      expect(said.some((l) => /^info string error: resizing the hash to 8192 MB failed/.test(l))).toBe(true);
      expect(said).toContain('info string Hash: keeping the table of 64 MB and its entries');
      const afterRefusal = await searchNodes(limited, 7);

      // The same two searches in an engine whose table was never touched in between: the same tree, entry for entry.
      const free = engine.track(new EngineProcess());
      free.send('setoption name Hash value 64');
      expect(await free.sync(15000)).toEqual([]);
      await searchNodes(free, 7);
      expect(afterRefusal).toBe(await searchNodes(free, 7));
      // ...and a table emptied in between gives another.
      free.send('ucinewgame');
      await free.sync(15000);
      expect(await searchNodes(free, 7)).not.toBe(afterRefusal);
      for (const e of [limited, free]) {
        e.send('quit');
        expect(await e.waitExit(5000)).toBe(0);
      }
    },
    90000,
  );

  it.runIf(totalmem() < 128 * 2 ** 30)('a table larger than the machine is refused before anything is allocated', async () => {
    const e = await engine();
    e.send('setoption name Hash value 131072');
    const said = await e.sync(15000);
    expect(
      said.some((l) => /^info string error: resizing the hash to 131072 MB failed: 131072 MB is more than this machine's memory/.test(l)),
    ).toBe(true);
    expect(said).toContain('info string Hash: keeping the table of 16 MB and its entries');
    e.send('go depth 5');
    await e.waitFor(BESTMOVE, 15000);
  });
});
