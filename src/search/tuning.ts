// Search parameters set at run time, for SPSA tuning on OpenBench
// (docs/openbench.md). A tuning build (`make TUNE=1`, scripts/build.mjs
// --tune) turns every number of params.ts into a variable and adds to that
// module the table of them (name, default, the `[min, max]` of its comment,
// integer or not) and a setter; this module finds them there. In a normal
// build the table is empty, nothing can be set, and the search reads the
// numbers exactly as before.
//
// Each thread has its own copy of the numbers: the engine host sends the
// values to the search worker, which passes them on to its helpers.

import * as P from './params.js';

export interface SearchParameter {
  name: string;
  /** The default (params.ts). */
  value: number;
  min: number;
  max: number;
  /** Takes any number in its range; otherwise integers only. */
  float: boolean;
}

/** Values by parameter name. */
export type SearchParameterValues = Readonly<Record<string, number>>;

// Looked up by name: in a normal build params.ts has neither.
const exported = P as unknown as Record<string, unknown>;
const TABLE_EXPORT = 'SEARCH_PARAMETER_TABLE';
const SETTER_EXPORT = 'setSearchParameter';
const table = (exported[TABLE_EXPORT] ?? []) as readonly SearchParameter[];
const setter = exported[SETTER_EXPORT] as ((name: string, value: number) => void) | undefined;
const byName = new Map(table.map((p) => [p.name.toLowerCase(), p]));
const listeners: Array<() => void> = [];

/** Whether this is a tuning build. */
export const TUNING_BUILD = table.length > 0 && setter !== undefined;

/** The parameter of that name (any case), if this build can set it. */
export function findSearchParameter(name: string): SearchParameter | undefined {
  return byName.get(name.toLowerCase());
}

/** The value the search uses for `value`: within the range, and whole for an integer parameter. */
export function clampParameter(p: SearchParameter, value: number): number {
  const v = p.float ? value : Math.round(value);
  return v < p.min ? p.min : v > p.max ? p.max : v;
}

/** Sets these parameters in this thread (clamped), then recomputes what is derived from them. */
export function setSearchParameters(values: SearchParameterValues): void {
  if (!TUNING_BUILD) return;
  for (const [name, value] of Object.entries(values)) {
    const p = findSearchParameter(name);
    if (p !== undefined && Number.isFinite(value)) setter!(p.name, clampParameter(p, value));
  }
  for (const listener of listeners) listener();
}

/** Calls listener after every change of the parameters (for tables computed from them). */
export function onSearchParametersChanged(listener: () => void): void {
  listeners.push(listener);
}

/** A number as OpenBench's input and UCI print it: no exponent, no float noise. */
function format(x: number): string {
  return String(Number(x.toPrecision(6)));
}

/**
 * OpenBench's SPSA input, one line per parameter: `NAME, int|float, value,
 * min, max, c_end, r_end`. c_end, the final size of a step, is a twentieth
 * of the range (at least 0.5 for an integer: OpenBench's own floor); r_end,
 * the final learning rate, 0.002.
 */
export function spsaInputLines(): string[] {
  return table.map((p) => {
    const c = (p.max - p.min) / 20;
    const cEnd = p.float ? c : Math.max(0.5, c);
    return [p.name, p.float ? 'float' : 'int', format(p.value), format(p.min), format(p.max), format(cEnd), '0.002'].join(', ');
  });
}

/** The `option name ...` lines of the parameters, after the usual options (a tuning build only). */
export function searchParameterOptionLines(): string[] {
  return table.map((p) => `option name ${p.name} type spin default ${format(p.value)} min ${format(p.min)} max ${format(p.max)}`);
}
