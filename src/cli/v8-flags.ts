// V8 settings for a hot-loop program, set once at startup.
//
// TurboFan inlines small functions into the function it optimizes only up to
// a total of 920 bytes of bytecode per optimized function. The search, the
// move picker and the evaluation call many small helpers (attack lookups,
// popcount64, add(), the table probe) from many places, so with the default
// budget the later call sites stay real calls. A larger budget lets V8 inline
// them: `npx tsx bench/compare-builds.ts` measures the difference (see the
// README's speed section). Flags are process-wide, so the search worker
// thread, started later, compiles with them too.

import { setFlagsFromString } from 'node:v8';

/** Bytes of bytecode TurboFan may inline into one optimized function (V8 default 920). */
const INLINING_BUDGET = 2000;

export function tuneV8(): void {
  setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${INLINING_BUDGET}`);
}
