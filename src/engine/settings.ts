// The engine's settings as the front ends offer them (UCI options, the
// library's EngineOptions, `kestrel play`, `kestrel analyse`, `bench`): each
// setting's default and range, written here once. Where a front end's
// default differs on purpose, the setting names it, and says why.

import { platform } from '../platform/index.js';
import { DEFAULT_BENCH_DEPTH } from '../search/bench.js';
import { MAX_DEPTH } from '../search/limits.js';
import { MAX_THREADS } from '../search/threads.js';
import { DEFAULT_HASH_MB } from '../search/tt.js';

export type FrontEnd = 'uci' | 'api' | 'play' | 'analyse';

export interface Setting {
  readonly default: number;
  readonly min: number;
  readonly max: number;
  /** A front end's own default, where it differs. */
  readonly frontEnds?: Partial<Record<FrontEnd, number>>;
}

export const SETTINGS = {
  /** Megabytes of transposition table (and of the Monte Carlo tree); analyse looks longer at every position of a game. */
  hash: { default: DEFAULT_HASH_MB, min: 1, max: platform.maxHashMb, frontEnds: { analyse: 64 } },
  threads: { default: 1, min: 1, max: MAX_THREADS },
  multiPv: { default: 1, min: 1, max: 256 },
  /**
   * Milliseconds of the clock kept in reserve for the GUI and the pipes
   * between; the library's callers get their answer in-process.
   */
  moveOverhead: { default: 100, min: 0, max: 5000, frontEnds: { api: 10 } },
  /**
   * Milliseconds a search may take to answer `stop` before the host answers
   * for it: a GUI waits for bestmove at once, the library, play and
   * analyse can wait longer for the search's own answer.
   */
  stopGraceMs: { default: 2000, min: 0, max: 60_000, frontEnds: { uci: 500 } },
  /** The depth a search may be asked for (go depth, analyse --depth, the library's depth). */
  depth: { default: MAX_DEPTH, min: 1, max: MAX_DEPTH },
  /** bench's depth. */
  benchDepth: { default: DEFAULT_BENCH_DEPTH, min: 1, max: MAX_DEPTH },
  /** Tablebases: at the largest piece count the tables have, probe only this deep or deeper (SyzygyProbeDepth). */
  syzygyProbeDepth: { default: 1, min: 1, max: 100 },
  /** Tablebases: probe positions of at most this many pieces (SyzygyProbeLimit; 7, the most the format has). */
  syzygyProbeLimit: { default: 7, min: 0, max: 7 },
} as const satisfies Record<string, Setting>;

/** A setting's default in a front end. */
export function defaultIn(setting: Setting, frontEnd: FrontEnd): number {
  return setting.frontEnds?.[frontEnd] ?? setting.default;
}

/** The setting's range as text: "1..256". */
export function rangeText(setting: Setting): string {
  return `${setting.min}..${setting.max}`;
}
