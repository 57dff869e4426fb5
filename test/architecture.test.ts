// The layers of src/ import one way (docs/development.md): a module may import
// from its own folder and from the folders below its own, never from one
// above or beside it. And no cycle of imports inside src/search/, type-only
// imports included. (Elsewhere a few type-only cycles are by design: fen.ts
// and zobrist.ts take a Position, which imports them.)

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src', import.meta.url));

/** The folders each folder of src/ may import from (besides itself). */
const ALLOWED: Record<string, readonly string[]> = {
  util: [],
  board: ['util'],
  eval: ['board', 'util'],
  syzygy: ['board', 'util'],
  search: ['syzygy', 'eval', 'board', 'util'],
  platform: ['board', 'util'],
  book: ['platform', 'board', 'util'],
  tune: ['search', 'syzygy', 'eval', 'board', 'platform', 'util'],
  train: ['search', 'syzygy', 'eval', 'board', 'platform', 'util'],
  engine: ['search', 'syzygy', 'eval', 'board', 'book', 'platform', 'util'],
  uci: ['engine', 'search', 'syzygy', 'eval', 'board', 'book', 'platform', 'util'],
  api: ['engine', 'search', 'syzygy', 'eval', 'board', 'book', 'platform', 'util'],
  play: ['engine', 'search', 'syzygy', 'eval', 'board', 'book', 'platform', 'util'],
  analyse: ['engine', 'search', 'syzygy', 'eval', 'board', 'book', 'platform', 'util'],
  browser: ['api', 'uci', 'engine', 'search', 'syzygy', 'eval', 'board', 'book', 'platform', 'util'],
  cli: ['uci', 'api', 'play', 'analyse', 'train', 'tune', 'engine', 'search', 'syzygy', 'eval', 'board', 'book', 'platform', 'util'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The src/ files a file imports (static, type-only, re-exports and dynamic imports alike). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g)) {
    const spec = m[1] ?? m[2];
    const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
    if (target.startsWith(SRC) && target.endsWith('.ts')) found.push(target);
  }
  return found;
}

/** A file's layer: the first folder under src/. */
const layerOf = (file: string): string => relative(SRC, file).split('/')[0];

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f)]));

describe('the architecture of src/', () => {
  it('has a rule for every folder, and reads the imports', () => {
    for (const f of files) expect(Object.keys(ALLOWED), relative(SRC, f)).toContain(layerOf(f));
    const search = graph.get(join(SRC, 'search/search.ts'))!;
    expect(search).toContain(join(SRC, 'search/params.ts'));
    expect(search).toContain(join(SRC, 'board/position.ts'));
  });

  it('imports one way: from a folder below, never above or beside', () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      const from = layerOf(file);
      for (const t of targets) {
        const to = layerOf(t);
        if (to !== from && !ALLOWED[from].includes(to)) wrong.push(`${relative(SRC, file)} imports ${relative(SRC, t)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has no import cycle in src/search/, type-only imports included', () => {
    const inSearch = (f: string): boolean => layerOf(f) === 'search';
    // Tarjan's strongly connected components: a component of more than one file is a cycle.
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    let next = 0;
    const visit = (v: string): void => {
      index.set(v, next);
      low.set(v, next++);
      stack.push(v);
      onStack.add(v);
      for (const w of graph.get(v) ?? []) {
        if (!graph.has(w) || !inSearch(w)) continue;
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(relative(SRC, w));
        } while (w !== v);
        if (component.length > 1 || graph.get(v)!.includes(v)) cycles.push(component.sort());
      }
    };
    for (const f of files) if (inSearch(f) && !index.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });
});
