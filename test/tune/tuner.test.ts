import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { traceEvaluate } from '../../src/eval/evaluate.js';
import { NUM_PARAMS } from '../../src/eval/layout.js';
import { EG, MG } from '../../src/eval/live-weights.js';
import { TraceSet, addPositions, emptyStats, loadDataset, parseLabelledLine } from '../../src/tune/dataset.js';
import { weightsSource } from '../../src/tune/emit.js';
import { runTune } from '../../src/tune/main.js';
import { isQuiet } from '../../src/tune/quiet.js';
import { evaluateAll, fitK, meanSquaredError } from '../../src/tune/objective.js';
import { tune } from '../../src/tune/tuner.js';
import { WALK_FENS } from '../eval/fixtures.js';
import { BASE_EG, BASE_MG, KNIGHT, labelByKnightBonus } from './fixtures.js';
import { scratchDir } from '../scratch.js';

describe('labelled data', () => {
  it('parses the supported line formats', () => {
    const fen = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
    expect(parseLabelledLine(`${fen} | 1.0`)).toEqual({ fen, result: 1 });
    expect(parseLabelledLine(`${fen} [0.5]`)).toEqual({ fen, result: 0.5 });
    expect(parseLabelledLine(`${fen} [0-1]`)).toEqual({ fen, result: 0 });
    expect(parseLabelledLine('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 "1/2-1/2";')).toEqual({
      fen: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
      result: 0.5,
    });
    expect(parseLabelledLine(`${fen}; 1-0`)).toEqual({ fen, result: 1 });
    expect(parseLabelledLine('# comment')).toBeNull();
    expect(parseLabelledLine(`${fen} | 0.7`)).toBeNull();
  });

  it('finds quiet positions', () => {
    expect(isQuiet(new Position())).toBe(true);
    // White can take a hanging queen.
    expect(isQuiet(new Position('rnb1kbnr/pppp1ppp/8/4p1q1/3P4/2N5/PPP1PPPP/R1BQKBNR w KQkq - 0 1'))).toBe(false);
    // Equal trade only: still quiet.
    expect(isQuiet(new Position('4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1'))).toBe(false);
    expect(isQuiet(new Position('4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1'))).toBe(true);
    // In check is never quiet.
    expect(isQuiet(new Position('4k3/8/8/8/8/8/4q3/4K3 w - - 0 1'))).toBe(false);
  });
});

/** Trace set of quiet walk positions labelled by a hidden "true" evaluation with a knight worth `knightBonus` more. */
function syntheticSet(knightBonus: number): { set: TraceSet; k: number } {
  const set = new TraceSet();
  const items = WALK_FENS.slice(0, 1500).map((fen) => ({ fen, result: 0.5 }));
  addPositions(set, items, emptyStats());
  const k = 0.006;
  labelByKnightBonus(set, knightBonus, k);
  return { set, k };
}

describe('texel tuner', () => {
  it('stored traces give the evaluation back', () => {
    const set = new TraceSet();
    const stats = emptyStats();
    const pos = new Position();
    const mg = Float64Array.from(MG);
    const eg = Float64Array.from(EG);
    let compared = 0;
    for (const fen of WALK_FENS.slice(0, 400)) {
      const before = set.count;
      addPositions(set, [{ fen, result: 0.5 }], stats);
      if (set.count === before) continue;
      pos.setFen(fen);
      const white = traceEvaluate(pos) * (pos.side === 0 ? 1 : -1);
      const evals = new Float64Array(set.count);
      evaluateAll(set, mg, eg, evals);
      // The integer evaluation truncates; the tuner's does not.
      expect(Math.abs(evals[set.count - 1] - white)).toBeLessThan(1);
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
    expect(stats.notQuiet + stats.inCheck + stats.drawnByMaterial + stats.used).toBe(400);
  });

  it('fits K and recovers a mis-valued weight, reducing the error', () => {
    const { set, k } = syntheticSet(150);
    const mg = Float64Array.from(BASE_MG);
    const eg = Float64Array.from(BASE_EG);
    const fitted = fitK(set, mg, eg);
    expect(fitted).toBeGreaterThan(0.001);
    expect(fitted).toBeLessThan(0.05);
    const result = tune(set, mg, eg, { epochs: 150, optimizer: 'adam', learningRate: 3, k });
    expect(result.errorAfter).toBeLessThan(result.errorBefore * 0.5);
    expect(result.errorAfter).toBeCloseTo(meanSquaredError(set, result.mg, result.eg, k), 10);
    // The knight got more valuable (the truth is +150).
    expect(result.mg[KNIGHT] + result.eg[KNIGHT] - BASE_MG[KNIGHT] - BASE_EG[KNIGHT]).toBeGreaterThan(100);
  });

  it('runs end to end from a data file to a weights module', async () => {
    const dir = scratchDir('kestrel-tune-');
    const data = join(dir, 'data.txt');
    const out = join(dir, 'weights.ts');
    const lines = WALK_FENS.slice(0, 300).map((fen, i) => `${fen} | ${['1.0', '0.5', '0.0'][i % 3]}`);
    writeFileSync(data, `${lines.join('\n')}\n`);
    const { stats } = await loadDataset(data);
    expect(stats.lines).toBe(300);
    expect(stats.used).toBeGreaterThan(50);
    await runTune({ data, out, epochs: 5, validFraction: 0 });
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('export const WEIGHTS: WeightSet = {');
    expect(text).toContain('Tuned by `kestrel tune`');
    expect(text.match(/\[-?\d+, -?\d+\]/g)?.length).toBe(NUM_PARAMS);
  });

  it('writes weights.ts in the format it is read from', () => {
    const current = readFileSync(new URL('../../src/eval/weights.ts', import.meta.url), 'utf8');
    const emitted = weightsSource(MG, EG);
    const body = (s: string): string => s.slice(s.indexOf('import type'));
    expect(body(emitted)).toBe(body(current));
  });
});
