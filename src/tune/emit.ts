// Writes a parameter vector as the TypeScript source of src/eval/weights.ts,
// so a tuning run's output can replace that file as it is.

import { TERMS } from '../eval/layout.js';

function pair(mg: number, eg: number): string {
  return `[${Math.round(mg)}, ${Math.round(eg)}]`;
}

/** The text of a weights.ts module holding mg/eg; `header` lines become comments at the top. */
export function weightsSource(mg: ArrayLike<number>, eg: ArrayLike<number>, header: readonly string[] = []): string {
  const out: string[] = [];
  out.push("// Evaluation weights: [midgame, endgame] pairs in centipawns, from White's");
  out.push('// point of view. What each term means, and its order: src/eval/layout.ts.');
  out.push('// Piece-square tables are listed from a1 (first pair) to h8, one rank a row.');
  for (const line of header) out.push(`// ${line}`);
  out.push('');
  out.push("import type { WeightSet } from './layout.js';");
  out.push('');
  out.push('export const WEIGHTS: WeightSet = {');
  for (const t of TERMS) {
    out.push(`  // ${t.doc}`);
    const values: string[] = [];
    for (let i = 0; i < t.size; i++) values.push(pair(mg[t.offset + i], eg[t.offset + i]));
    if (t.size <= 8) {
      out.push(`  ${t.name}: [${values.join(', ')}],`);
    } else {
      out.push(`  ${t.name}: [`);
      for (let row = 0; row < t.size; row += 8) {
        const label = t.size === 64 ? `/* rank ${row / 8 + 1} */ ` : '';
        out.push(`    ${label}${values.slice(row, row + 8).join(', ')},`);
      }
      out.push('  ],');
    }
  }
  out.push('};');
  out.push('');
  return out.join('\n');
}
