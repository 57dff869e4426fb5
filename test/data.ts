// The data files the tests read, all inside the repository in test/data/
// (test/data/README.md gives each file's source and licence).

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import { scratchDir } from './scratch.js';

/** The path of a file in test/data/. */
function testDataPath(name: string): string {
  return fileURLToPath(new URL(`./data/${name}`, import.meta.url));
}

/** The text of a file in test/data/. */
export function readTestData(name: string): string {
  return readFileSync(testDataPath(name), 'utf8');
}

/** The FENs of an EPD file in test/data/ (the part before the first ';' of each line). */
export function suiteFens(name: string): string[] {
  return readTestData(name)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.split(';')[0].trim());
}

let eightMoves: string | null = null;

/** 8moves_v3.pgn (stored brotli-compressed), unpacked once into a temporary file; returns its path. */
export function eightMovesPgn(): string {
  if (eightMoves === null) {
    const path = join(scratchDir('kestrel-data-'), '8moves_v3.pgn');
    writeFileSync(path, brotliDecompressSync(readFileSync(testDataPath('8moves_v3.pgn.br'))));
    eightMoves = path;
  }
  return eightMoves;
}
