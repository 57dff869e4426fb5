// The UCI options: their declarations (printed after `uci`), their current
// values, and the parsing of `setoption name <N> [value <V>]`.
//
// Names match case-insensitively, with any run of whitespace equal to one
// space. A spin value outside [min, max] is clamped (with an info string); a
// value that is not an integer, a check value other than true/false, or a
// combo value not in the list is refused and the old value kept.

import { BOOK_MODES } from '../book/reader.js';
import { BOOK_OPTION_DEFAULTS } from '../book/uci-book.js';
import { platform } from '../platform/index.js';
import { USE_NNUE_DEFAULT } from '../eval/index.js';
import { SEARCH_DRIVERS, type SearchDriver } from '../search/driver-list.js';
import type { StrengthLimit } from '../search/limits.js';
import { FULL_SKILL, FULL_STRENGTH_ELO, MIN_ELO, limitFromOptions } from '../search/strength.js';
import { type Setting, SETTINGS, defaultIn } from '../engine/settings.js';
import type { SyzygySettings } from '../engine/tablebase-files.js';

/** A spin option's default and range: the engine's setting as UCI offers it. */
function spin(setting: Setting): { default: number; min: number; max: number } {
  return { default: defaultIn(setting, 'uci'), min: setting.min, max: setting.max };
}

/** UCI_Elo's default: a club player. */
const DEFAULT_ELO = 1500;

/** EvalFile's value for the network built into the engine. */
export const BUILT_IN_NETWORK = '<built-in>';

export type OptionName =
  | 'Hash'
  | 'Clear Hash'
  | 'Threads'
  | 'MultiPV'
  | 'Ponder'
  | 'Move Overhead'
  | 'UCI_Chess960'
  | 'UCI_ShowWDL'
  | 'SearchDriver'
  | 'OwnBook'
  | 'BookFile'
  | 'BookMode'
  | 'BookDepth'
  | 'UseNNUE'
  | 'EvalFile'
  | 'UCI_LimitStrength'
  | 'UCI_Elo'
  | 'Skill Level'
  | 'SyzygyPath'
  | 'SyzygyProbeDepth'
  | 'Syzygy50MoveRule'
  | 'SyzygyProbeLimit';

type OptionDecl =
  | { name: OptionName; type: 'spin'; default: number; min: number; max: number }
  | { name: OptionName; type: 'check'; default: boolean }
  | { name: OptionName; type: 'combo'; default: string; vars: string[] }
  | { name: OptionName; type: 'button' }
  | { name: OptionName; type: 'string'; default: string };

const OPTION_DECLS: readonly OptionDecl[] = [
  { name: 'Hash', type: 'spin', ...spin(SETTINGS.hash) },
  { name: 'Clear Hash', type: 'button' },
  { name: 'Threads', type: 'spin', ...spin(SETTINGS.threads) },
  { name: 'MultiPV', type: 'spin', ...spin(SETTINGS.multiPv) },
  { name: 'Ponder', type: 'check', default: false },
  { name: 'Move Overhead', type: 'spin', ...spin(SETTINGS.moveOverhead) },
  { name: 'UCI_Chess960', type: 'check', default: false },
  { name: 'UCI_ShowWDL', type: 'check', default: false },
  { name: 'UCI_LimitStrength', type: 'check', default: false },
  { name: 'UCI_Elo', type: 'spin', default: DEFAULT_ELO, min: MIN_ELO, max: FULL_STRENGTH_ELO },
  { name: 'Skill Level', type: 'spin', default: FULL_SKILL, min: 0, max: FULL_SKILL },
  { name: 'SearchDriver', type: 'combo', default: 'pvs', vars: [...SEARCH_DRIVERS] },
  { name: 'UseNNUE', type: 'check', default: USE_NNUE_DEFAULT },
  { name: 'EvalFile', type: 'string', default: BUILT_IN_NETWORK },
  { name: 'SyzygyPath', type: 'string', default: '' },
  { name: 'SyzygyProbeDepth', type: 'spin', ...spin(SETTINGS.syzygyProbeDepth) },
  { name: 'Syzygy50MoveRule', type: 'check', default: true },
  { name: 'SyzygyProbeLimit', type: 'spin', ...spin(SETTINGS.syzygyProbeLimit) },
  { name: 'OwnBook', type: 'check', default: BOOK_OPTION_DEFAULTS.OwnBook },
  { name: 'BookFile', type: 'string', default: platform.shippedBook().name },
  { name: 'BookMode', type: 'combo', default: BOOK_OPTION_DEFAULTS.BookMode, vars: [...BOOK_MODES] },
  {
    name: 'BookDepth',
    type: 'spin',
    default: BOOK_OPTION_DEFAULTS.BookDepth,
    min: BOOK_OPTION_DEFAULTS.BookDepthMin,
    max: BOOK_OPTION_DEFAULTS.BookDepthMax,
  },
];

/** The `option name ...` lines answering `uci`, in declaration order. */
export function optionLines(): string[] {
  return OPTION_DECLS.map((d) => {
    switch (d.type) {
      case 'spin':
        return `option name ${d.name} type spin default ${d.default} min ${d.min} max ${d.max}`;
      case 'check':
        return `option name ${d.name} type check default ${d.default}`;
      case 'combo':
        return `option name ${d.name} type combo default ${d.default} ${d.vars.map((v) => `var ${v}`).join(' ')}`;
      case 'button':
        return `option name ${d.name} type button`;
      default:
        return `option name ${d.name} type string default ${d.default === '' ? '<empty>' : d.default}`;
    }
  });
}

export type OptionValue = number | boolean | string | null;

/** The outcome of one `setoption`: the option and its new value, plus anything to report. */
export interface SetOptionResult {
  /** Null when nothing changes (unknown option, refused value). Buttons give value null. */
  name: OptionName | null;
  value: OptionValue;
  /** Info strings to print (warnings, refusals). */
  messages: string[];
}

export class OptionValues {
  private readonly values = new Map<OptionName, OptionValue>();

  constructor() {
    for (const d of OPTION_DECLS) if (d.type !== 'button') this.values.set(d.name, d.default);
  }

  get hash(): number {
    return this.values.get('Hash') as number;
  }
  get threads(): number {
    return this.values.get('Threads') as number;
  }
  get multiPv(): number {
    return this.values.get('MultiPV') as number;
  }
  get moveOverhead(): number {
    return this.values.get('Move Overhead') as number;
  }
  get chess960(): boolean {
    return this.values.get('UCI_Chess960') as boolean;
  }
  get showWdl(): boolean {
    return this.values.get('UCI_ShowWDL') as boolean;
  }
  get driver(): SearchDriver {
    return this.values.get('SearchDriver') as SearchDriver;
  }
  /** The tablebase options: the folders (SyzygyPath) and how the search uses the tables. */
  get syzygy(): SyzygySettings {
    return {
      path: this.values.get('SyzygyPath') as string,
      use: {
        probeDepth: this.values.get('SyzygyProbeDepth') as number,
        rule50: this.values.get('Syzygy50MoveRule') as boolean,
        probeLimit: this.values.get('SyzygyProbeLimit') as number,
      },
    };
  }
  /** The strength limit of UCI_LimitStrength, UCI_Elo and Skill Level (null: full strength), its moves chosen with `seed`. */
  strength(seed: number): StrengthLimit | null {
    return limitFromOptions(
      this.values.get('UCI_LimitStrength') as boolean,
      this.values.get('UCI_Elo') as number,
      this.values.get('Skill Level') as number,
      seed,
    );
  }

  /**
   * Applies the arguments of `setoption` (the tokens after the command) and
   * says what changed. Never throws.
   */
  set(args: string[]): SetOptionResult {
    const messages: string[] = [];
    if (args.length === 0 || args[0].toLowerCase() !== 'name') {
      return { name: null, value: null, messages: ['setoption: expected "setoption name <name> [value <value>]"'] };
    }
    const valueAt = args.findIndex((t, i) => i > 0 && t.toLowerCase() === 'value');
    const nameTokens = args.slice(1, valueAt < 0 ? args.length : valueAt);
    const valueTokens = valueAt < 0 ? null : args.slice(valueAt + 1);
    const wanted = nameTokens.join(' ');
    if (wanted === '') return { name: null, value: null, messages: ['setoption: missing option name'] };
    const decl = OPTION_DECLS.find((d) => d.name.toLowerCase() === wanted.toLowerCase());
    if (decl === undefined) return { name: null, value: null, messages: [`unknown option: ${wanted}`] };

    const text = valueTokens === null ? null : valueTokens.join(' ');
    if (decl.type === 'button') {
      if (text !== null && text !== '') messages.push(`option ${decl.name} is a button; value '${text}' ignored`);
      return { name: decl.name, value: null, messages };
    }
    if (text === null || text === '') {
      return { name: null, value: null, messages: [`option ${decl.name} needs a value; kept ${this.values.get(decl.name)}`] };
    }
    const old = this.values.get(decl.name);
    let value: OptionValue;
    switch (decl.type) {
      case 'spin': {
        if (!/^[+-]?\d+$/.test(text)) {
          return { name: null, value: null, messages: [`option ${decl.name}: '${text}' is not an integer; kept ${old}`] };
        }
        const n = Number(text);
        value = Math.min(decl.max, Math.max(decl.min, n));
        if (value !== n) messages.push(`option ${decl.name}: ${text} is outside ${decl.min}..${decl.max}; set to ${value}`);
        break;
      }
      case 'check': {
        const t = text.toLowerCase();
        if (t !== 'true' && t !== 'false') {
          return { name: null, value: null, messages: [`option ${decl.name}: '${text}' is not true or false; kept ${old}`] };
        }
        value = t === 'true';
        break;
      }
      case 'string':
        value = text === '<empty>' ? '' : text;
        break;
      case 'combo': {
        const v = decl.vars.find((x) => x.toLowerCase() === text.toLowerCase());
        if (v === undefined) {
          return {
            name: null,
            value: null,
            messages: [`option ${decl.name}: '${text}' is not one of ${decl.vars.join(', ')}; kept ${old}`],
          };
        }
        value = v;
        break;
      }
    }
    this.values.set(decl.name, value);
    return { name: decl.name, value, messages };
  }
}
