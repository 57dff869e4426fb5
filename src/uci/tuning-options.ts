// The search parameters as UCI options, in a tuning build only
// (src/search/tuning.ts, docs/openbench.md): `setoption name <NAME> value
// <number>` for each, listed after the usual options. A value outside the
// range is clamped and an integer parameter's value rounded, with an info
// string; a value that is not a number is refused. The host keeps every
// value set so far, and sends them to the search worker for the next search.

import {
  type SearchParameterValues,
  clampParameter,
  findSearchParameter,
  searchParameterOptionLines,
  setSearchParameters,
} from '../search/tuning.js';

export { searchParameterOptionLines };

export class TuningOptions {
  /** current: the values set so far (kept by the engine host; absent: none). */
  constructor(private readonly current: () => SearchParameterValues | undefined) {}

  /**
   * Handles `setoption` if it names a search parameter (args: the tokens
   * after `setoption`): returns every value set so far, to send on, or
   * 'refused'; null when the option is not a search parameter (then the
   * usual options take it). Messages go to `info`.
   */
  set(args: readonly string[], info: (text: string) => void): SearchParameterValues | 'refused' | null {
    if (args.length < 2 || args[0].toLowerCase() !== 'name') return null;
    const p = findSearchParameter(args[1]);
    if (p === undefined) return null;
    const at = args.findIndex((t) => t.toLowerCase() === 'value');
    const text = at > 0 ? args[at + 1] : undefined;
    const value = text === undefined || text === '' ? Number.NaN : Number(text);
    if (!Number.isFinite(value)) {
      info(`setoption: ${p.name} needs a number, got '${text ?? ''}'; value unchanged`);
      return 'refused';
    }
    const used = clampParameter(p, value);
    if (used !== value) info(`setoption: ${p.name} ${text} is taken as ${used} (range ${p.min} to ${p.max}${p.float ? '' : ', integers'})`);
    // This thread searches too (genfens).
    setSearchParameters({ [p.name]: used });
    return { ...this.current(), [p.name]: used };
  }
}
