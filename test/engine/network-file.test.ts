// One loader for network files (src/engine/network-file.ts): what UCI's
// EvalFile and the library's networkFile accept, and the reasons both give
// for a file they refuse.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/api/engine.js';
import { InvalidNetworkError } from '../../src/api/errors.js';
import { NetworkFileError, loadNetwork } from '../../src/engine/network-file.js';
import { BUILT_IN_NETWORK } from '../../src/engine/settings.js';
import { EMBEDDED_NETWORK } from '../../src/eval/index.js';
import { shapeText } from '../../src/eval/nnue/network.js';
import { scratchDir } from '../scratch.js';
import { tinyNetworkFile } from '../tiny-network.js';

describe('loadNetwork', () => {
  const dir = scratchDir('kestrel-network-file-');
  const good = tinyNetworkFile();

  it('reads, checks and decodes a file, from its path or its bytes', () => {
    const path = join(dir, 'net.nnue');
    writeFileSync(path, good);
    const fromPath = loadNetwork(path);
    expect(fromPath.name).toBe('net.nnue');
    expect(shapeText(fromPath.net!)).toBe('768 -> 2x16 -> 1');
    expect(shapeText(loadNetwork(good).net!)).toBe('768 -> 2x16 -> 1');
  });

  it('takes the built-in network for an empty value or <built-in>', () => {
    for (const file of ['', BUILT_IN_NETWORK]) expect(loadNetwork(file)).toEqual({ net: null, name: EMBEDDED_NETWORK });
  });

  it('refuses a file it cannot read or decode, saying why; the library says the same', () => {
    const reason = (file: string | Uint8Array): string => {
      try {
        loadNetwork(file);
      } catch (e) {
        expect(e).toBeInstanceOf(NetworkFileError);
        return (e as Error).message;
      }
      return 'loaded';
    };
    expect(reason(join(dir, 'missing.nnue'))).toBe('no such file');
    expect(reason(dir)).toBe('it is a directory');
    expect(reason(new Uint8Array(100).fill(7))).toBe('not a Kestrel network file (bad magic)');
    expect(reason(good.subarray(0, 5000))).toMatch(/^wrong size: .*truncated/);
    expect(() => new Engine({ networkFile: join(dir, 'missing.nnue') })).toThrow(InvalidNetworkError);
    expect(() => new Engine({ networkFile: good.subarray(0, 5000) })).toThrow(/^network file \(bytes\): wrong size: /);
  });
});
