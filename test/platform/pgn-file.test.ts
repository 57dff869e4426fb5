// PGN files on disk: UTF-8 or Latin-1 (the standard's own character set),
// and inputs checked before any output is written.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkReadable, decodePgn, readPgnFile } from '../../src/platform/pgn-file.js';
import { scratchDir } from '../scratch.js';

const dir = scratchDir('kestrel-pgn-file-');
const GAME = '[White "Ljubojević"]\n[Black "Ñíguez"]\n\n1. e4 e5 1-0\n';

async function gamesOf(path: string): Promise<Record<string, string>[]> {
  const tags: Record<string, string>[] = [];
  for await (const game of readPgnFile(path)) tags.push(game.tags);
  return tags;
}

describe('PGN files', () => {
  it('reads UTF-8 and Latin-1 files alike', async () => {
    const utf8 = join(dir, 'utf8.pgn');
    writeFileSync(utf8, GAME, 'utf8');
    const latin1 = join(dir, 'latin1.pgn');
    // Latin-1 has no ć: that name comes through as written in UTF-8 only.
    writeFileSync(latin1, Buffer.from(GAME.replace('ć', 'c'), 'latin1'));
    expect(await gamesOf(utf8)).toEqual([{ White: 'Ljubojević', Black: 'Ñíguez' }]);
    expect(await gamesOf(latin1)).toEqual([{ White: 'Ljubojevic', Black: 'Ñíguez' }]);
    expect(decodePgn(Buffer.from('Ñíguez', 'latin1'))).toBe('Ñíguez');
    expect(decodePgn(Buffer.from('Ñíguez', 'utf8'))).toBe('Ñíguez');
  });

  it('names the first input that is not a readable file', () => {
    expect(() => checkReadable([join(dir, 'utf8.pgn'), join(dir, 'none.pgn')])).toThrow(/cannot read .*none\.pgn: no such file/);
    expect(() => checkReadable([dir])).toThrow(/not a file/);
  });
});
