// A search Driver that misbehaves on purpose (KESTREL_FAKE=<mode>), bundled
// in place of the real one by faults.test.ts to test the UCI layer's defences.

import { makeMove } from '../../src/board/types.js';
import { NO_REPORT } from '../../src/search/limits.js';
import type { SearchRequest } from '../../src/search/request.js';

/** A move from square names (no legality check: the fake may play nonsense on purpose). */
function mv(from: string, to: string): number {
  const sq = (s: string): number => (s.charCodeAt(1) - 49) * 8 + s.charCodeAt(0) - 97;
  return makeMove(sq(from), sq(to), 0);
}

export class Driver {
  nodes = 0;

  constructor(public hashMb = 16) {}

  setHashSize(mb: number): void {
    if (mb === 77) throw new RangeError('Array buffer allocation failed');
    this.hashMb = mb;
  }

  clear(): void {}

  go(request: SearchRequest): { move: number; ponder: number; score: number } {
    const { control, report = NO_REPORT } = request;
    const mode = process.env.KESTREL_FAKE;
    // 'mute' hangs without a line: the UCI layer has no move of the search's to fall back on.
    if (mode !== 'mute') {
      report({
        type: 'line',
        depth: 1,
        seldepth: 1,
        multipv: 1,
        score: 0,
        bound: 'exact',
        nodes: 1,
        timeMs: 1,
        hashfull: 0,
        tbhits: null,
        pv: [mv('g1', 'f3'), mv('g8', 'f6')],
      });
    }
    const spin = (ms: number): void => {
      const t = Date.now();
      while (Date.now() - t < ms) {
        // busy
      }
    };
    switch (mode) {
      case 'throw':
        throw new Error('boom');
      case 'illegal':
        return { move: mv('e2', 'e5'), ponder: 0, score: 0 };
      case 'second':
        // A second line, whose move `go searchmoves` may allow where the first's it does not.
        report({
          type: 'line',
          depth: 1,
          seldepth: 1,
          multipv: 2,
          score: -10,
          bound: 'exact',
          nodes: 1,
          timeMs: 1,
          hashfull: 0,
          tbhits: null,
          pv: [mv('b1', 'c3')],
        });
        return { move: mv('g1', 'f3'), ponder: 0, score: 0 };
      case 'badponder':
        return { move: mv('e2', 'e4'), ponder: mv('e2', 'e4'), score: 0 };
      case 'hang':
      case 'mute':
        spin(6000);
        break;
      case 'exit':
        process.exit(3);
        break;
      case 'early':
        // Returns at once even for infinite / ponder: the worker must hold bestmove.
        break;
      default:
        while (!control.stopped) spin(1);
    }
    return { move: mv('e2', 'e4'), ponder: 0, score: 0 };
  }
}
