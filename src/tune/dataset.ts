// Labelled positions for tuning, stored as evaluation traces: per position the
// non-zero coefficients (White minus Black count of each parameter), the
// midgame and endgame blend factors, and the game result. The evaluation is
// linear in the parameters, so the tuner never needs the positions again.

import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { FenError, Position } from '../board/position.js';
import { SCALE_NORMAL } from '../eval/endgame.js';
import { TRACE, TRACE_INFO, traceEvaluate } from '../eval/evaluate.js';
import { NUM_PARAMS } from '../eval/layout.js';
import { MAX_PHASE } from '../eval/psqt.js';
import { isQuiet } from './quiet.js';

/** A FEN and its game result for White: 1 win, 0.5 draw, 0 loss. */
export interface Labelled {
  fen: string;
  result: number;
}

const RESULT_WORDS: Record<string, number> = { '1-0': 1, '0-1': 0, '1/2-1/2': 0.5, '1/2': 0.5 };

function resultValue(text: string): number | null {
  if (text in RESULT_WORDS) return RESULT_WORDS[text];
  const v = Number(text);
  return text !== '' && (v === 0 || v === 0.5 || v === 1) ? v : null;
}

/**
 * Parses one line of labelled data; null for blank, comment or unreadable lines.
 * Accepted: `<fen> | 1.0`, `<fen> [1.0]`, `<fen> [1-0]`, EPD `<fen> c9 "1-0";`,
 * and `<fen>; 0.5`. Results are for White; words 1-0, 0-1, 1/2-1/2 also work.
 */
export function parseLabelledLine(line: string): Labelled | null {
  const text = line.trim();
  if (text === '' || text.startsWith('#')) return null;
  let fenPart: string;
  let resultText: string;
  let m: RegExpExecArray | null;
  if ((m = /^(.*?)\s*\|\s*([^|]+?)\s*$/.exec(text))) {
    [, fenPart, resultText] = m;
  } else if ((m = /^(.*?)\s*\[\s*([^\]]+?)\s*\]\s*$/.exec(text))) {
    [, fenPart, resultText] = m;
  } else if ((m = /^(.*?)\s*\bc9\s+"([^"]+)"/.exec(text))) {
    [, fenPart, resultText] = m;
  } else if ((m = /^(.*?)\s*;\s*(\S+)\s*$/.exec(text))) {
    [, fenPart, resultText] = m;
  } else {
    return null;
  }
  const result = resultValue(resultText);
  if (result === null) return null;
  // The FEN: four fields, plus the counters when present.
  const fields = fenPart.trim().split(/\s+/);
  if (fields.length < 4) return null;
  const counters = fields.slice(4, 6).filter((f) => /^\d+$/.test(f));
  const fen = [...fields.slice(0, 4), ...(counters.length === 2 ? counters : ['0', '1'])].join(' ');
  return { fen, result };
}

/** Growable store of traced positions. */
export class TraceSet {
  count = 0;
  /** Coefficients of position p: entries start[p] .. start[p + 1] - 1. */
  start = new Uint32Array(1024);
  index = new Uint16Array(1 << 16);
  coef = new Int16Array(1 << 16);
  /** Weight of the midgame sum in the score (phase / 24). */
  mgFactor = new Float32Array(1024);
  /** Weight of the endgame sum in the score ((24 - phase) / 24 * scale / 128). */
  egFactor = new Float32Array(1024);
  result = new Float32Array(1024);
  private entries = 0;

  /** Adds the trace left by the last traceEvaluate call, with its result for White. */
  addTrace(result: number): void {
    if (this.count + 2 > this.start.length) {
      const n = this.start.length * 2;
      this.start = grow(this.start, new Uint32Array(n));
      this.mgFactor = grow(this.mgFactor, new Float32Array(n));
      this.egFactor = grow(this.egFactor, new Float32Array(n));
      this.result = grow(this.result, new Float32Array(n));
    }
    if (this.entries + NUM_PARAMS > this.index.length) {
      const n = this.index.length * 2;
      this.index = grow(this.index, new Uint16Array(n));
      this.coef = grow(this.coef, new Int16Array(n));
    }
    const p = this.count;
    this.start[p] = this.entries;
    for (let i = 0; i < NUM_PARAMS; i++) {
      const c = TRACE[i] - TRACE[NUM_PARAMS + i];
      if (c !== 0) {
        this.index[this.entries] = i;
        this.coef[this.entries] = c;
        this.entries++;
      }
    }
    const [phase, scale] = TRACE_INFO;
    this.mgFactor[p] = phase / MAX_PHASE;
    this.egFactor[p] = ((MAX_PHASE - phase) / MAX_PHASE) * (scale / SCALE_NORMAL);
    this.result[p] = result;
    this.count = p + 1;
    this.start[this.count] = this.entries;
  }

  /** Total stored coefficients (for reporting). */
  get size(): number {
    return this.entries;
  }
}

function grow<T extends Uint32Array | Uint16Array | Int16Array | Float32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

export interface LoadStats {
  lines: number;
  used: number;
  badLines: number;
  inCheck: number;
  notQuiet: number;
  drawnByMaterial: number;
}

export interface LoadOptions {
  /** Drop positions where a capture wins material (default true). */
  quietFilter?: boolean;
  /** Stop after this many usable positions. */
  limit?: number;
}

/** Traces labelled positions into set (positions in check, not quiet, or dead drawn are skipped). */
export function addPositions(set: TraceSet, items: Iterable<Labelled>, stats: LoadStats, options: LoadOptions = {}): void {
  const pos = new Position();
  const quietFilter = options.quietFilter ?? true;
  for (const item of items) {
    if (options.limit !== undefined && stats.used >= options.limit) return;
    stats.lines++;
    try {
      pos.setFen(item.fen);
    } catch (e) {
      if (e instanceof FenError) {
        stats.badLines++;
        continue;
      }
      throw e;
    }
    if (pos.inCheck()) {
      stats.inCheck++;
      continue;
    }
    if (quietFilter && !isQuiet(pos)) {
      stats.notQuiet++;
      continue;
    }
    traceEvaluate(pos);
    if (TRACE_INFO[2] !== 0) {
      stats.drawnByMaterial++;
      continue;
    }
    set.addTrace(item.result);
    stats.used++;
  }
}

export function emptyStats(): LoadStats {
  return { lines: 0, used: 0, badLines: 0, inCheck: 0, notQuiet: 0, drawnByMaterial: 0 };
}

/** Reads a labelled data file (any format parseLabelledLine accepts) into a TraceSet. */
export async function loadDataset(path: string, options: LoadOptions = {}): Promise<{ set: TraceSet; stats: LoadStats }> {
  const set = new TraceSet();
  const stats = emptyStats();
  const rl = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let batch: Labelled[] = [];
  for await (const line of rl) {
    const item = parseLabelledLine(line);
    if (item === null) {
      if (line.trim() !== '' && !line.trim().startsWith('#')) stats.badLines++;
      continue;
    }
    batch.push(item);
    if (batch.length >= 4096) {
      addPositions(set, batch, stats, options);
      batch = [];
      if (options.limit !== undefined && stats.used >= options.limit) break;
    }
  }
  addPositions(set, batch, stats, options);
  rl.close();
  return { set, stats };
}
