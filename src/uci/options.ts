// The UCI options: the engine's settings that have an option name
// (engine/settings.ts declares each one: name, type, default, range or
// values, in the order `uci` lists them), their current values, the
// parsing of `setoption name <N> [value <V>]`, and what setting each one
// does (OPTION_EFFECTS). The value of an option that sets what the search
// worker boots with (Hash, UseNNUE, the tablebase options) is kept once,
// by the engine host, and read through it (HeldOptions).
//
// Names match case-insensitively, with any run of whitespace equal to one
// space. A spin value outside [min, max] is clamped (with an info string); a
// value that is not an integer, a check value other than true/false, or a
// combo value not in the list is refused and the old value kept. A string
// option shows and reads the empty value as `<empty>`.

import type { BookController } from '../book/uci-book.js';
import type { Maintenance } from '../engine/messages.js';
import { SETTINGS } from '../engine/settings.js';
import type { SyzygySettings } from '../engine/tablebase-files.js';
import { HAS_SHARED_MEMORY } from '../util/shared-memory.js';
import type { StrengthLimit } from '../search/limits.js';
import { limitFromOptions } from '../search/strength.js';

type Settings = typeof SETTINGS;

/** The settings that are UCI options, by their key in SETTINGS. */
export type OptionKey = { [K in keyof Settings]: Settings[K] extends { readonly name: string } ? K : never }[keyof Settings];
type OptionName = Settings[OptionKey]['name'];

/** An option's value: a spin's number, a check's boolean, a combo's value, a string's text; a button has none. */
type ValueOf<K extends OptionKey> = Settings[K] extends { readonly type: 'spin' }
  ? number
  : Settings[K] extends { readonly type: 'check' }
    ? boolean
    : Settings[K] extends { readonly type: 'button' }
      ? null
      : Settings[K] extends { readonly values: readonly (infer V)[] }
        ? V
        : string;

export type OptionValue = number | boolean | string | null;

/**
 * Options whose current value another object keeps (the engine host: what
 * a new search worker boots with), each read through its getter. setoption
 * does not store such a value: its effect (apply()) gives it to the keeper.
 */
export type HeldOptions = { readonly [K in OptionKey]?: () => ValueOf<K> };

/** The options in the order `uci` lists them (SETTINGS's). */
const OPTION_KEYS = (Object.keys(SETTINGS) as (keyof Settings)[]).filter((k): k is OptionKey => 'name' in SETTINGS[k]);

/** How a string option shows and reads the empty value. */
const EMPTY = '<empty>';

/** Threads as the search can use them: 1 where threads cannot share memory. */
export function usableThreads(threads: number): number {
  return HAS_SHARED_MEMORY ? threads : 1;
}

/** What an option's effect may do to the UCI engine (uci.ts gives it). */
export interface OptionEffects {
  /** A change of the search worker's state, applied in order with the jobs. */
  configure(change: Maintenance): void;
  /** Writes an info string. */
  info(text: string): void;
  readonly book: BookController;
  setChess960(on: boolean): void;
  /** UseNNUE: evaluate with the network in use, or (false) with the hand-crafted evaluation. */
  setUseNnue(on: boolean): void;
  /** EvalFile: a network file, or the built-in network. */
  loadEvalFile(path: string): void;
}

/** An option that has no effect when set: the next search reads it (Ponder: only the GUI does). */
const NEXT_SEARCH = null;

type Effect<K extends OptionKey> = ((engine: OptionEffects, value: ValueOf<K>, options: OptionValues) => void) | typeof NEXT_SEARCH;

/** Tablebases: the folders or how the search uses them changed (`change`: the new settings from the current ones). */
const syzygyChanged =
  <V>(change: (current: SyzygySettings, value: V) => SyzygySettings) =>
  (engine: OptionEffects, value: V, options: OptionValues): void =>
    engine.configure({ type: 'syzygy', settings: change(options.syzygy, value) });

/** What setting each option does. */
const OPTION_EFFECTS: { [K in OptionKey]: Effect<K> } = {
  hash: (engine, mb) => engine.configure({ type: 'hash', mb }),
  clearHash: (engine) => engine.configure({ type: 'clear' }),
  threads: (engine, threads) => {
    if (usableThreads(threads) < threads) {
      engine.info('Threads: this host has no shared memory (a page that is not cross-origin isolated); searching with 1 thread');
    }
    engine.configure({ type: 'threads', threads: usableThreads(threads) });
  },
  multiPv: NEXT_SEARCH,
  ponder: NEXT_SEARCH,
  moveOverhead: NEXT_SEARCH,
  chess960: (engine, on) => engine.setChess960(on),
  showWdl: NEXT_SEARCH,
  limitStrength: NEXT_SEARCH,
  elo: NEXT_SEARCH,
  skill: NEXT_SEARCH,
  driver: NEXT_SEARCH,
  useNnue: (engine, on) => engine.setUseNnue(on),
  evalFile: (engine, path) => engine.loadEvalFile(path),
  syzygyPath: syzygyChanged((current, path) => ({ ...current, path })),
  syzygyProbeDepth: syzygyChanged((current, probeDepth) => ({ ...current, use: { ...current.use, probeDepth } })),
  syzygy50MoveRule: syzygyChanged((current, rule50) => ({ ...current, use: { ...current.use, rule50 } })),
  syzygyProbeLimit: syzygyChanged((current, probeLimit) => ({ ...current, use: { ...current.use, probeLimit } })),
  ownBook: (engine, on) => engine.book.setOwnBook(on),
  bookFile: (engine, path) => engine.book.setFile(path),
  bookMode: (engine, mode) => engine.book.setMode(mode),
  bookDepth: (engine, plies) => engine.book.setDepth(plies),
};

/** The `option name ...` lines answering `uci`, in declaration order. */
export function optionLines(): string[] {
  return OPTION_KEYS.map((key) => {
    const d = SETTINGS[key];
    switch (d.type) {
      case 'spin':
        return `option name ${d.name} type spin default ${d.default} min ${d.min} max ${d.max}`;
      case 'check':
        return `option name ${d.name} type check default ${d.default}`;
      case 'combo':
        return `option name ${d.name} type combo default ${d.default} ${d.values.map((v) => `var ${v}`).join(' ')}`;
      case 'button':
        return `option name ${d.name} type button`;
      default:
        return `option name ${d.name} type string default ${d.default === '' ? EMPTY : d.default}`;
    }
  });
}

/** The outcome of one `setoption`: the option and its new value, plus anything to report. */
export interface SetOptionResult {
  /** The option set, by its key and its name; null when nothing changes (unknown option, refused value). Buttons give value null. */
  key: OptionKey | null;
  name: OptionName | null;
  value: OptionValue;
  /** Info strings to print (warnings, refusals). */
  messages: string[];
}

/** A refusal: nothing changes. */
const refused = (message: string): SetOptionResult => ({ key: null, name: null, value: null, messages: [message] });

export class OptionValues {
  /** The values of the options not held elsewhere. */
  private readonly values = new Map<OptionKey, OptionValue>();

  /** held: the options whose value another object keeps (none: every value is kept here). */
  constructor(private readonly held: HeldOptions = {}) {
    for (const key of OPTION_KEYS) {
      const d = SETTINGS[key];
      if (d.type !== 'button' && held[key] === undefined) this.values.set(key, d.default);
    }
  }

  /** An option's current value. */
  get<K extends Exclude<OptionKey, 'clearHash'>>(key: K): ValueOf<K> {
    return this.current(key) as ValueOf<K>;
  }

  /** An option's current value, wherever it is kept. */
  private current(key: OptionKey): OptionValue | undefined {
    const held: (() => OptionValue) | undefined = this.held[key];
    return held !== undefined ? held() : this.values.get(key);
  }

  /** The tablebase options: the folders (SyzygyPath) and how the search uses the tables. */
  get syzygy(): SyzygySettings {
    return {
      path: this.get('syzygyPath'),
      use: { probeDepth: this.get('syzygyProbeDepth'), rule50: this.get('syzygy50MoveRule'), probeLimit: this.get('syzygyProbeLimit') },
    };
  }

  /** The strength limit of UCI_LimitStrength, UCI_Elo and Skill Level (null: full strength), its moves chosen with `seed`. */
  strength(seed: number): StrengthLimit | null {
    return limitFromOptions(this.get('limitStrength'), this.get('elo'), this.get('skill'), seed);
  }

  /**
   * Applies the arguments of `setoption` (the tokens after the command) to
   * the values, and says what changed (apply() then does what it sets, and
   * gives a held option its value). Never throws.
   */
  set(args: string[]): SetOptionResult {
    if (args.length === 0 || args[0].toLowerCase() !== 'name') {
      return refused('setoption: expected "setoption name <name> [value <value>]"');
    }
    const valueAt = args.findIndex((t, i) => i > 0 && t.toLowerCase() === 'value');
    const nameTokens = args.slice(1, valueAt < 0 ? args.length : valueAt);
    const valueTokens = valueAt < 0 ? null : args.slice(valueAt + 1);
    const wanted = nameTokens.join(' ');
    if (wanted === '') return refused('setoption: missing option name');
    const key = OPTION_KEYS.find((k) => SETTINGS[k].name.toLowerCase() === wanted.toLowerCase());
    if (key === undefined) return refused(`unknown option: ${wanted}`);
    return this.parse(key, valueTokens === null ? null : valueTokens.join(' '));
  }

  /** Does on `engine` what setting the option of `result` (set()'s) does: nothing when it was refused. */
  apply(result: SetOptionResult, engine: OptionEffects): void {
    if (result.key === null) return;
    const effect = OPTION_EFFECTS[result.key] as ((engine: OptionEffects, value: OptionValue, options: OptionValues) => void) | null;
    effect?.(engine, result.value, this);
  }

  /** Sets option `key` to `text` (null: no value given), if it is a value of the option's. */
  private parse(key: OptionKey, text: string | null): SetOptionResult {
    const decl = SETTINGS[key];
    const messages: string[] = [];
    if (decl.type === 'button') {
      if (text !== null && text !== '') messages.push(`option ${decl.name} is a button; value '${text}' ignored`);
      return { key, name: decl.name, value: null, messages };
    }
    const old = this.current(key);
    if (text === null || text === '') return refused(`option ${decl.name} needs a value; kept ${old}`);
    let value: OptionValue;
    switch (decl.type) {
      case 'spin': {
        if (!/^[+-]?\d+$/.test(text)) return refused(`option ${decl.name}: '${text}' is not an integer; kept ${old}`);
        const n = Number(text);
        value = Math.min(decl.max, Math.max(decl.min, n));
        if (value !== n) messages.push(`option ${decl.name}: ${text} is outside ${decl.min}..${decl.max}; set to ${value}`);
        break;
      }
      case 'check': {
        const t = text.toLowerCase();
        if (t !== 'true' && t !== 'false') return refused(`option ${decl.name}: '${text}' is not true or false; kept ${old}`);
        value = t === 'true';
        break;
      }
      case 'string':
        value = text === EMPTY ? '' : text;
        break;
      case 'combo': {
        const v = decl.values.find((x) => x.toLowerCase() === text.toLowerCase());
        if (v === undefined) return refused(`option ${decl.name}: '${text}' is not one of ${decl.values.join(', ')}; kept ${old}`);
        value = v;
        break;
      }
    }
    if (this.held[key] === undefined) this.values.set(key, value);
    return { key, name: decl.name, value, messages };
  }
}
