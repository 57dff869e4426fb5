// Perft suites: EPD lines `<fen> ;D1 20 ;D2 400 ...` giving the exact node
// count of each position at each depth. Parsing and checking live here; the
// command that prints the results is in perft-commands.ts.

import { Perft } from '../board/perft.js';
import { FenError, Position } from '../board/position.js';
import { setPosition } from './load-position.js';

export interface SuiteEntry {
  /** 1-based line number in the file. */
  line: number;
  fen: string;
  /** Expected counts, by increasing depth. */
  counts: Array<{ depth: number; nodes: number }>;
}

interface SuiteMismatch {
  entry: SuiteEntry;
  depth: number;
  expected: number;
  actual: number;
}

export interface SuiteOptions {
  /** Check only depths up to this (default: all). */
  maxDepth?: number;
  /** Called after each count, so a caller can show progress. */
  onCount?: (index: number, total: number, nodes: number, ms: number) => void;
  onMismatch?: (mismatch: SuiteMismatch) => void;
}

export interface SuiteResult {
  positions: number;
  /** Number of (position, depth) counts compared. */
  checks: number;
  deepest: number;
  nodes: number;
  ms: number;
  mismatches: SuiteMismatch[];
}

/** A suite file that cannot be used, with the line at fault in the message. */
export class SuiteError extends Error {}

/**
 * Parses a suite (blank lines and '#' comments allowed) and validates every
 * FEN; throws SuiteError naming the first bad line. Without chess960,
 * Chess960 castling rights count as bad.
 */
export function parsePerftSuite(text: string, chess960: boolean): SuiteEntry[] {
  const entries: SuiteEntry[] = [];
  const probe = new Position();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    const [fen, ...fields] = line.split(';').map((s) => s.trim());
    try {
      setPosition(probe, fen, chess960);
    } catch (e) {
      if (e instanceof FenError) throw new SuiteError(`line ${i + 1}: bad FEN '${fen}': ${e.message}`);
      throw e;
    }
    const counts: SuiteEntry['counts'] = [];
    for (const field of fields) {
      const m = /^D(\d+)\s+(\d+)$/.exec(field);
      if (m === null) throw new SuiteError(`line ${i + 1}: expected ';D<depth> <nodes>', got ';${field}'`);
      counts.push({ depth: Number(m[1]), nodes: Number(m[2]) });
    }
    counts.sort((a, b) => a.depth - b.depth);
    entries.push({ line: i + 1, fen, counts });
  }
  return entries;
}

/** Runs perft on every entry at every listed depth (up to maxDepth) and compares the counts. */
export function runPerftSuite(entries: SuiteEntry[], chess960: boolean, options: SuiteOptions = {}): SuiteResult {
  const maxDepth = options.maxDepth ?? Infinity;
  const pos = new Position();
  const perft = new Perft();
  const result: SuiteResult = { positions: 0, checks: 0, deepest: 0, nodes: 0, ms: 0, mismatches: [] };
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const counts = entry.counts.filter((c) => c.depth <= maxDepth);
    if (counts.length === 0) continue;
    setPosition(pos, entry.fen, chess960);
    result.positions++;
    for (const { depth, nodes: expected } of counts) {
      const t0 = performance.now();
      const actual = perft.count(pos, depth);
      result.ms += performance.now() - t0;
      result.nodes += actual;
      result.checks++;
      result.deepest = Math.max(result.deepest, depth);
      if (actual !== expected) {
        const mismatch = { entry, depth, expected, actual };
        result.mismatches.push(mismatch);
        options.onMismatch?.(mismatch);
      }
      options.onCount?.(i, entries.length, result.nodes, result.ms);
    }
  }
  return result;
}
