// The build's name, as the engine gives it (`id name`, `kestrel --version`,
// the library's VERSION, PGN headers): the package's version for a release;
// between releases the version, the commit's date and the commit, as
// `0.1.0-dev-20261207-e57b275` (Stockfish's dev-YYYYMMDD-<sha>), so that games
// and logs tell builds apart. From source (tsx): `0.1.0-dev`.

import pkg from '../../package.json' with { type: 'json' };
import { buildCommit, buildDate, isReleaseBuild } from '../util/build.js';

export function engineVersion(): string {
  const version = typeof pkg.version === 'string' && pkg.version !== '' ? pkg.version : '0.0.0';
  if (isReleaseBuild()) return version;
  const commit = buildCommit();
  return commit === 'source' ? `${version}-dev` : `${version}-dev-${buildDate()}-${commit}`;
}
