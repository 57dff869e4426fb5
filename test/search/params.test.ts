// Every tuned number of the search lives in src/search/params.ts with a
// one-line comment that ends with its tuning range: the table an SPSA tuner
// reads. Each value must lie within its range.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as params from '../../src/search/params.js';

const SOURCE = readFileSync(new URL('../../src/search/params.ts', import.meta.url), 'utf8');

/** name -> [min, max] from the comment above each export. */
function ranges(): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  const re = /\/\*\*[^\n]*\[(-?[\d.]+), (-?[\d.]+)\] \*\/\nexport const (\w+) = /g;
  for (const m of SOURCE.matchAll(re)) out.set(m[3], [Number(m[1]), Number(m[2])]);
  return out;
}

describe('search parameters', () => {
  it('each has a one-line comment with a range, and lies within it', () => {
    const r = ranges();
    const names = Object.keys(params);
    expect(names.length).toBeGreaterThan(30);
    for (const name of names) {
      const range = r.get(name);
      expect(range, `${name} has no [min, max] range in its comment`).toBeDefined();
      const value = (params as Record<string, number>)[name];
      expect(value, name).toBeGreaterThanOrEqual(range![0]);
      expect(value, name).toBeLessThanOrEqual(range![1]);
    }
  });
});
