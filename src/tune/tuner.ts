// Texel tuning: find the weights whose evaluation best predicts game results.
// The prediction for a position is sigmoid(K * eval), eval in centipawns from
// White's side; the error is the mean squared difference to the result
// (1 / 0.5 / 0). K is fitted first with the starting weights (it only converts
// centipawns to winning chances), then every weight is optimised by Adam on
// the exact gradient, which the linear trace makes cheap.

import { NUM_PARAMS } from '../eval/layout.js';
import type { TraceSet } from './dataset.js';

/** The evaluation (White's view, unrounded) of every position under weights mg/eg. */
export function evaluateAll(set: TraceSet, mg: Float64Array, eg: Float64Array, out: Float64Array): void {
  const { start, index, coef, mgFactor, egFactor } = set;
  for (let p = 0; p < set.count; p++) {
    let m = 0;
    let e = 0;
    for (let j = start[p]; j < start[p + 1]; j++) {
      const i = index[j];
      m += coef[j] * mg[i];
      e += coef[j] * eg[i];
    }
    out[p] = mgFactor[p] * m + egFactor[p] * e;
  }
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Mean squared error of sigmoid(k * eval) against the results. */
export function meanSquaredError(set: TraceSet, mg: Float64Array, eg: Float64Array, k: number): number {
  const evals = new Float64Array(set.count);
  evaluateAll(set, mg, eg, evals);
  return errorOf(set, evals, k);
}

function errorOf(set: TraceSet, evals: Float64Array, k: number): number {
  let sum = 0;
  for (let p = 0; p < set.count; p++) {
    const d = sigmoid(k * evals[p]) - set.result[p];
    sum += d * d;
  }
  return set.count > 0 ? sum / set.count : 0;
}

/** The K minimising the error for fixed weights (golden-section search on log K). */
export function fitK(set: TraceSet, mg: Float64Array, eg: Float64Array): number {
  const evals = new Float64Array(set.count);
  evaluateAll(set, mg, eg, evals);
  let a = Math.log(1e-4);
  let b = Math.log(0.05);
  const ratio = (Math.sqrt(5) - 1) / 2;
  let c = b - ratio * (b - a);
  let d = a + ratio * (b - a);
  let fc = errorOf(set, evals, Math.exp(c));
  let fd = errorOf(set, evals, Math.exp(d));
  for (let iter = 0; iter < 60; iter++) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - ratio * (b - a);
      fc = errorOf(set, evals, Math.exp(c));
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + ratio * (b - a);
      fd = errorOf(set, evals, Math.exp(d));
    }
  }
  return Math.exp((a + b) / 2);
}

export interface TuneOptions {
  epochs: number;
  /** Adam step size in centipawns (default 1); decays to a tenth over the run. */
  learningRate?: number;
  /** Use this K instead of fitting it. */
  k?: number;
  /** Parameters (by index) left unchanged. */
  frozen?: ReadonlySet<number>;
  /** Progress lines (every `reportEvery` epochs). */
  log?: (line: string) => void;
  reportEvery?: number;
}

export interface TuneResult {
  k: number;
  errorBefore: number;
  errorAfter: number;
  mg: Float64Array;
  eg: Float64Array;
}

/** Optimises copies of mg/eg on set; full-batch Adam, deterministic. */
export function tune(set: TraceSet, startMg: ArrayLike<number>, startEg: ArrayLike<number>, options: TuneOptions): TuneResult {
  const mg = Float64Array.from(startMg);
  const eg = Float64Array.from(startEg);
  const k = options.k ?? fitK(set, mg, eg);
  const log = options.log ?? ((): void => {});
  const every = options.reportEvery ?? 10;
  const lr0 = options.learningRate ?? 1;
  const n = NUM_PARAMS;
  const gMg = new Float64Array(n);
  const gEg = new Float64Array(n);
  // Adam moments, mg then eg.
  const m1 = new Float64Array(2 * n);
  const m2 = new Float64Array(2 * n);
  const beta1 = 0.9;
  const beta2 = 0.999;
  const evals = new Float64Array(set.count);
  const { start, index, coef, mgFactor, egFactor, result } = set;

  const errorBefore = meanSquaredError(set, mg, eg, k);
  log(`positions ${set.count}, coefficients ${set.size}, K ${k.toFixed(6)}, error ${errorBefore.toFixed(6)}`);
  for (let epoch = 1; epoch <= options.epochs; epoch++) {
    evaluateAll(set, mg, eg, evals);
    gMg.fill(0);
    gEg.fill(0);
    let err = 0;
    for (let p = 0; p < set.count; p++) {
      const s = sigmoid(k * evals[p]);
      const diff = s - result[p];
      err += diff * diff;
      // d(error)/d(eval) for this position, without the constant 2K/N.
      const g = diff * s * (1 - s);
      const gm = g * mgFactor[p];
      const ge = g * egFactor[p];
      for (let j = start[p]; j < start[p + 1]; j++) {
        gMg[index[j]] += gm * coef[j];
        gEg[index[j]] += ge * coef[j];
      }
    }
    const scale = (2 * k) / set.count;
    // Cosine decay from lr0 to lr0 / 10.
    const lr = lr0 * (0.1 + 0.9 * 0.5 * (1 + Math.cos((Math.PI * (epoch - 1)) / options.epochs)));
    const c1 = 1 - Math.pow(beta1, epoch);
    const c2 = 1 - Math.pow(beta2, epoch);
    for (let q = 0; q < 2 * n; q++) {
      const i = q < n ? q : q - n;
      if (options.frozen?.has(i)) continue;
      const grad = (q < n ? gMg[i] : gEg[i]) * scale;
      m1[q] = beta1 * m1[q] + (1 - beta1) * grad;
      m2[q] = beta2 * m2[q] + (1 - beta2) * grad * grad;
      const step = (lr * (m1[q] / c1)) / (Math.sqrt(m2[q] / c2) + 1e-12);
      if (q < n) mg[i] -= step;
      else eg[i] -= step;
    }
    if (epoch % every === 0 || epoch === options.epochs) {
      log(`epoch ${epoch}/${options.epochs}  error ${(err / set.count).toFixed(6)}  lr ${lr.toFixed(3)}`);
    }
  }
  const errorAfter = meanSquaredError(set, mg, eg, k);
  return { k, errorBefore, errorAfter, mg, eg };
}
