// PGN files on disk, read as a stream: files of any size.

import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { type PgnGame, pgnGamesFromLines } from '../board/pgn.js';

/** The games of a PGN file, read as a stream (files of any size). */
export async function* readPgnFile(path: string): AsyncGenerator<PgnGame> {
  const rl = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let batch: string[] = [];
  let sawMoves = false;
  for await (const raw of rl) {
    const line = raw.trim();
    // Hand over whole games: cut just before a tag line that follows movetext.
    if (line.startsWith('[') && sawMoves) {
      yield* pgnGamesFromLines(batch);
      batch = [];
      sawMoves = false;
    }
    if (line !== '' && !line.startsWith('[')) sawMoves = true;
    batch.push(line);
  }
  if (batch.length > 0) yield* pgnGamesFromLines(batch);
}
