// The engine's version, from package.json (inlined into the bundle at build time).

import pkg from '../../package.json' with { type: 'json' };

export function engineVersion(): string {
  return typeof pkg.version === 'string' && pkg.version !== '' ? pkg.version : 'dev';
}
