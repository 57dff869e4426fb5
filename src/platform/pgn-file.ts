// PGN files on disk, read as a stream: files of any size.

import { accessSync, constants, createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { type PgnGame, PgnReader } from '../board/pgn.js';
import { fileProblem } from '../util/errors.js';

/** The games of a PGN file, read as a stream (files of any size). */
export async function* readPgnFile(path: string): AsyncGenerator<PgnGame> {
  const rl = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  const reader = new PgnReader();
  for await (const line of rl) yield* reader.push(line);
  yield* reader.end();
}

/** Throws "cannot read <file>: <why>" for the first input that is not a readable file (checked before any output is written). */
export function checkReadable(files: readonly string[]): void {
  for (const file of files) {
    try {
      accessSync(file, constants.R_OK);
      if (!statSync(file).isFile()) throw new Error('not a file');
    } catch (e) {
      throw new Error(`cannot read ${file}: ${fileProblem(e)}`);
    }
  }
}
