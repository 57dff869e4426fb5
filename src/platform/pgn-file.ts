// PGN files on disk, read as a stream: files of any size.

import { accessSync, closeSync, constants, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { type PgnGame, PgnReader } from '../board/pgn.js';
import { fileProblem } from '../util/errors.js';

/**
 * PGN text of bytes. PGN's own character set is Latin-1 (ISO 8859-1); most
 * files today are UTF-8. Bytes that are not UTF-8 are read as Latin-1, so
 * that names like Ljubojević's survive either way.
 */
export function decodePgn(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(isUtf8(bytes) ? 'utf8' : 'latin1');
}

function isUtf8(bytes: Uint8Array, last = true): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: !last });
    return true;
  } catch {
    return false;
  }
}

/** A file's encoding judged by its first 64 KiB (see decodePgn). */
function fileEncoding(path: string): 'utf8' | 'latin1' {
  const head = new Uint8Array(65536);
  const fd = openSync(path, 'r');
  try {
    const n = readSync(fd, head, 0, head.length, 0);
    return isUtf8(head.subarray(0, n), n < head.length) ? 'utf8' : 'latin1';
  } finally {
    closeSync(fd);
  }
}

/** The games of a PGN file, read as a stream (files of any size; UTF-8 or Latin-1). */
export async function* readPgnFile(path: string): AsyncGenerator<PgnGame> {
  const rl = createInterface({ input: createReadStream(path, fileEncoding(path)), crlfDelay: Infinity });
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
