// Test suites in EPD: one position per line (the first four FEN fields), with
// operations such as `bm Qg6;` (best moves), `am Rxb2;` (moves to avoid) and
// `id "WAC.001";`.

import { readFileSync } from 'node:fs';
import { requireFile } from './args.js';

export interface EpdProblem {
  id: string;
  /** The position as a full FEN (move counters 0 and 1). */
  fen: string;
  /** Best moves in SAN (empty when there are none). */
  best: string[];
  /** Moves to avoid in SAN (empty when there are none). */
  avoid: string[];
}

/** The moves listed after an EPD operation like `bm Qg6 Rxb2;`. */
function operation(line: string, op: string): string[] {
  const m = new RegExp(`\\b${op} ([^;]+);`).exec(line);
  return m === null ? [] : m[1].trim().split(/\s+/);
}

/** The first `limit` problems of an EPD file. */
export function readEpdSuite(file: string, limit = Infinity): EpdProblem[] {
  requireFile(file, 'give the path of an EPD suite (Win at Chess is test/data/wac.epd, or ../shared/data/tactical/wac.epd)');
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(0, limit)
    .map((line) => {
      const fen = `${line.trim().split(/\s+/).slice(0, 4).join(' ')} 0 1`;
      return { id: /id "([^"]*)"/.exec(line)?.[1] ?? fen, fen, best: operation(line, 'bm'), avoid: operation(line, 'am') };
    });
}
