// The build's name and the facts it is made of, shared by build.mjs (which
// writes them into every bundle: src/util/build.ts, src/engine/version.ts)
// and release.mjs (which names the files after it): the package's version
// for the commit tagged v<version>, else <version>-dev-<YYYYMMDD>-<commit>,
// with -modified when src/ or the lockfile has uncommitted changes.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The commit being built, the commit's date (YYYYMMDD) and whether it is a release; commit '' outside git. */
export function buildFacts(root) {
  const git = (...args) => {
    const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
    return r.status === 0 ? r.stdout.trim() : null;
  };
  const head = git('rev-parse', '--short=7', 'HEAD');
  if (head === null) return { commit: '', date: '', release: false };
  const dirty = (git('status', '--porcelain', '--', 'src', 'package-lock.json') ?? '') !== '';
  const commit = `${head}${dirty ? '-modified' : ''}`;
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const release = !dirty && (git('tag', '--points-at', 'HEAD') ?? '').split('\n').includes(`v${version}`);
  return { commit, date: git('log', '-1', '--format=%cd', '--date=format:%Y%m%d') ?? '', release };
}

/** The name src/engine/version.ts gives a bundle built from root now. */
export function buildName(root) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const { commit, date, release } = buildFacts(root);
  if (release) return version;
  return commit === '' ? `${version}-dev` : `${version}-dev-${date}-${commit}`;
}
