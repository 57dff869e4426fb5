// The bench signature, as Stockfish's CI checks it: `kestrel bench` must
// search exactly the number of nodes that the latest commit carrying a
// `Bench: <nodes>` line says. A commit that changes search or evaluation
// behaviour quotes its new count; one that does not must leave it as it was.

import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const KESTREL = fileURLToPath(new URL('../dist/kestrel.js', import.meta.url));

function git(args: string[]): string | null {
  const r = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  return r.status === 0 ? r.stdout : null;
}

const signed = git(['log', '-1', '--grep=^Bench: ', '--format=%h%n%B']);
const signature = signed === null ? null : /^Bench: (\d+)/m.exec(signed);
const uncommitted = git(['status', '--porcelain', '--', 'src/search', 'src/eval', 'src/board']);
const skip =
  signature === null
    ? 'no git history with a Bench: line (not a clone of the repository?)'
    : uncommitted !== null && uncommitted.trim() !== ''
      ? 'src/ has uncommitted changes: commit them (with their Bench: line) and run the tests again'
      : null;
if (skip !== null) console.warn(`\n*** bench signature check SKIPPED: ${skip} ***\n`);

describe('bench signature', () => {
  it.skipIf(skip !== null)(
    `kestrel bench gives the node count of the latest Bench: line`,
    () => {
      const out = execFileSync(process.execPath, [KESTREL, 'bench'], { encoding: 'utf8' });
      const nodes = /Nodes searched: (\d+)/.exec(out)?.[1];
      expect(nodes, `commit ${signed?.split('\n')[0]} says Bench: ${signature?.[1]}`).toBe(signature?.[1]);
    },
    120_000,
  );
});
