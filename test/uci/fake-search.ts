// A Searcher that misbehaves on purpose (KESTREL_FAKE=<mode>), bundled in
// place of the real one by faults.test.ts to test the UCI layer's defences.

import type { Position } from '../../src/board/position.js';
import type { SearchControl } from '../../src/search/control.js';
import type { GoParams, SearchOptions } from '../../src/search/limits.js';

export class Searcher {
  nodes = 0;

  constructor(public hashMb = 16) {}

  setHashSize(mb: number): void {
    if (mb === 77) throw new RangeError('Array buffer allocation failed');
    this.hashMb = mb;
  }

  clear(): void {}

  go(pos: Position, params: GoParams, options: SearchOptions, control: SearchControl, emit: (line: string) => void): { bestMove: string; ponderMove: string | null } {
    void pos;
    void params;
    void options;
    const mode = process.env.KESTREL_FAKE;
    // 'mute' hangs without a line: the UCI layer has no move of the search's to fall back on.
    if (mode !== 'mute') emit('info depth 1 score cp 0 pv g1f3 g8f6');
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
        return { bestMove: 'e2e5', ponderMove: null };
      case 'badponder':
        return { bestMove: 'e2e4', ponderMove: 'e2e4' };
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
    return { bestMove: 'e2e4', ponderMove: null };
  }
}
