// The engine's settings, declared once: every UCI option (its name, type,
// default and range or values, in the order `uci` lists them), and the
// numbers the front ends offer without an option (a search's depth,
// bench's, the stop grace). The UCI loop (uci/options.ts: its lines,
// setoption's checks and what setting each one does), the library's
// EngineOptions (api/engine.ts: defaults and ranges; `api` names the
// library's option), `kestrel play`, `kestrel analyse` and `bench` read
// them here; the README's options table and docs/api.md are held to them
// by test/engine/settings.test.ts. Where a front end's default differs on
// purpose, the setting names it, and says why. A number that belongs to a
// lower layer (the table's default size, the levels' Elo range, the book's
// depth) is declared there and gathered here.

import { BOOK_MODES } from '../book/reader.js';
import { BOOK_OPTION_DEFAULTS } from '../book/uci-book.js';
import { USE_NNUE_DEFAULT } from '../eval/index.js';
import { platform } from '../platform/index.js';
import { DEFAULT_BENCH_DEPTH } from '../search/bench.js';
import { SEARCH_DRIVERS } from '../search/driver-list.js';
import { MAX_DEPTH } from '../search/limits.js';
import { FULL_SKILL, FULL_STRENGTH_ELO, MIN_ELO } from '../search/strength.js';
import { MAX_THREADS } from '../search/threads.js';
import { DEFAULT_HASH_MB } from '../search/tt.js';
import type { TablebaseUse } from '../syzygy/root.js';

export type FrontEnd = 'uci' | 'api' | 'play' | 'analyse';

/** An integer in a range: a spin option, or (without a name) a number a front end takes elsewhere. */
export interface SpinSetting {
  readonly type: 'spin';
  /** The UCI option's name; absent: not an option. */
  readonly name?: string;
  readonly default: number;
  readonly min: number;
  readonly max: number;
  /** A front end's own default, where it differs. */
  readonly frontEnds?: Partial<Record<FrontEnd, number>>;
  /** The library's name for it (EngineOptions, AnalyseOptions), where it has one. */
  readonly api?: string;
}

interface OptionSetting {
  readonly name: string;
  readonly api?: string;
}

export type Setting =
  | SpinSetting
  | (OptionSetting & { readonly type: 'check'; readonly default: boolean })
  | (OptionSetting & { readonly type: 'combo'; readonly default: string; readonly values: readonly string[] })
  | (OptionSetting & { readonly type: 'string'; readonly default: string })
  | (OptionSetting & { readonly type: 'button' });

/** EvalFile's value for the network built into the engine. */
export const BUILT_IN_NETWORK = '<built-in>';

export const SETTINGS = {
  /** Megabytes of transposition table (and of the Monte Carlo tree); analyse looks longer at every position of a game. */
  hash: {
    name: 'Hash',
    type: 'spin',
    default: DEFAULT_HASH_MB,
    min: 1,
    max: platform.maxHashMb,
    frontEnds: { analyse: 64 },
    api: 'hash',
  },
  clearHash: { name: 'Clear Hash', type: 'button' },
  threads: { name: 'Threads', type: 'spin', default: 1, min: 1, max: MAX_THREADS, api: 'threads' },
  multiPv: { name: 'MultiPV', type: 'spin', default: 1, min: 1, max: 256 },
  ponder: { name: 'Ponder', type: 'check', default: false },
  /**
   * Milliseconds of the clock kept in reserve for the GUI and the pipes
   * between; the library's callers get their answer in-process.
   */
  moveOverhead: { name: 'Move Overhead', type: 'spin', default: 100, min: 0, max: 5000, frontEnds: { api: 10 } },
  chess960: { name: 'UCI_Chess960', type: 'check', default: false, api: 'chess960' },
  showWdl: { name: 'UCI_ShowWDL', type: 'check', default: false },
  limitStrength: { name: 'UCI_LimitStrength', type: 'check', default: false },
  /** UCI_Elo's default: a club player. */
  elo: { name: 'UCI_Elo', type: 'spin', default: 1500, min: MIN_ELO, max: FULL_STRENGTH_ELO },
  skill: { name: 'Skill Level', type: 'spin', default: FULL_SKILL, min: 0, max: FULL_SKILL },
  driver: { name: 'SearchDriver', type: 'combo', default: 'pvs', values: SEARCH_DRIVERS, api: 'driver' },
  useNnue: { name: 'UseNNUE', type: 'check', default: USE_NNUE_DEFAULT, api: 'nnue' },
  evalFile: { name: 'EvalFile', type: 'string', default: BUILT_IN_NETWORK, api: 'networkFile' },
  /** Folders of tables, separated as the host's PATH is; empty: none. */
  syzygyPath: { name: 'SyzygyPath', type: 'string', default: '', api: 'syzygyPath' },
  /** Tablebases: at the largest piece count the tables have, probe only this deep or deeper. */
  syzygyProbeDepth: { name: 'SyzygyProbeDepth', type: 'spin', default: 1, min: 1, max: 100, api: 'syzygy.probeDepth' },
  /** Tablebases: cursed wins and blessed losses count as draws. */
  syzygy50MoveRule: { name: 'Syzygy50MoveRule', type: 'check', default: true, api: 'syzygy.rule50' },
  /** Tablebases: probe positions of at most this many pieces (7, the most the format has). */
  syzygyProbeLimit: { name: 'SyzygyProbeLimit', type: 'spin', default: 7, min: 0, max: 7, api: 'syzygy.probeLimit' },
  ownBook: { name: 'OwnBook', type: 'check', default: BOOK_OPTION_DEFAULTS.OwnBook, api: 'book' },
  bookFile: {
    name: 'BookFile',
    type: 'string',
    /** The shipped book: its path beside the bundle (or `<built-in>` in the single executable), looked up when asked. */
    get default(): string {
      return platform.shippedBook().name;
    },
  },
  bookMode: { name: 'BookMode', type: 'combo', default: BOOK_OPTION_DEFAULTS.BookMode, values: BOOK_MODES },
  bookDepth: {
    name: 'BookDepth',
    type: 'spin',
    default: BOOK_OPTION_DEFAULTS.BookDepth,
    min: BOOK_OPTION_DEFAULTS.BookDepthMin,
    max: BOOK_OPTION_DEFAULTS.BookDepthMax,
  },

  // Not options.
  /**
   * Milliseconds a search may take to answer `stop` before the host answers
   * for it: a GUI waits for bestmove at once, the library, play and
   * analyse can wait longer for the search's own answer.
   */
  stopGraceMs: { type: 'spin', default: 2000, min: 0, max: 60_000, frontEnds: { uci: 500 } },
  /** The depth a search may be asked for (go depth, analyse --depth, the library's depth). */
  depth: { type: 'spin', default: MAX_DEPTH, min: 1, max: MAX_DEPTH },
  /** bench's depth. */
  benchDepth: { type: 'spin', default: DEFAULT_BENCH_DEPTH, min: 1, max: MAX_DEPTH },
} as const satisfies Record<string, Setting>;

/** How the search uses tablebases unless told otherwise (the defaults of SyzygyProbeDepth, Syzygy50MoveRule, SyzygyProbeLimit). */
export const DEFAULT_TABLEBASE_USE: TablebaseUse = {
  probeDepth: SETTINGS.syzygyProbeDepth.default,
  rule50: SETTINGS.syzygy50MoveRule.default,
  probeLimit: SETTINGS.syzygyProbeLimit.default,
};

/** A setting's default in a front end. */
export function defaultIn(setting: SpinSetting, frontEnd: FrontEnd): number {
  return setting.frontEnds?.[frontEnd] ?? setting.default;
}

/** The setting's range as text: "1..256". */
export function rangeText(setting: SpinSetting): string {
  return `${setting.min}..${setting.max}`;
}
