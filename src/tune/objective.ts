// The objective of Texel tuning (see tuner.ts) and its derivatives: the
// evaluations of traced positions, the error of sigmoid(K * eval) against
// the targets (and by game, with the paired difference of two weight sets),
// the fitted K, the exact gradient with the Gauss-Newton curvature, the
// penalties' Hessian, and the largest eigenvalue that scales the steps.

import { NUM_PARAMS } from '../eval/layout.js';
import { lcg32, unitInterval } from '../util/random.js';
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

export function errorOf(set: TraceSet, evals: Float64Array, k: number): number {
  let sum = 0;
  for (let p = 0; p < set.count; p++) {
    const d = sigmoid(k * evals[p]) - set.result[p];
    sum += d * d;
  }
  return set.count > 0 ? sum / set.count : 0;
}

/** Squared error summed per game (index: set.game), for paired comparisons by game. */
export function errorByGame(set: TraceSet, mg: Float64Array, eg: Float64Array, k: number): Float64Array {
  const evals = new Float64Array(set.count);
  evaluateAll(set, mg, eg, evals);
  const out = new Float64Array(set.games);
  for (let p = 0; p < set.count; p++) {
    const d = sigmoid(k * evals[p]) - set.result[p];
    out[set.game[p]] += d * d;
  }
  return out;
}

export function sumOf(values: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum;
}

/**
 * Mean difference a - b of two errors given per game (summed squared errors
 * of n positions in all), and its standard error: the games are the
 * independent units, not the positions.
 */
export function pairedDifference(a: ArrayLike<number>, b: ArrayLike<number>, n: number): { diff: number; se: number } {
  const games = a.length;
  let sum = 0;
  let sum2 = 0;
  for (let g = 0; g < games; g++) {
    const d = a[g] - b[g];
    sum += d;
    sum2 += d * d;
  }
  if (games === 0 || n === 0) return { diff: 0, se: 0 };
  const mean = sum / games;
  const variance = Math.max(0, sum2 / games - mean * mean);
  return { diff: sum / n, se: (Math.sqrt(games * variance) * Math.sqrt(games / Math.max(1, games - 1))) / n };
}

/** The K minimising the error for fixed weights (golden-section search on log K). */
export function fitK(set: TraceSet, mg: Float64Array, eg: Float64Array): number {
  const evals = new Float64Array(set.count);
  evaluateAll(set, mg, eg, evals);
  return fitScale(set, evals);
}

/** The K minimising the error of sigmoid(K * evals) (golden-section search on log K). */
function fitScale(set: TraceSet, evals: Float64Array): number {
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

/**
 * Data gradient of the mean squared error at mg/eg (into gMg/gEg), and the
 * error itself. With curvature set, also the Gauss-Newton diagonal of the
 * error (into hMg/hEg).
 */
export function gradient(
  set: TraceSet,
  result: Float32Array,
  mg: Float64Array,
  eg: Float64Array,
  k: number,
  evals: Float64Array,
  gMg: Float64Array,
  gEg: Float64Array,
  curvature?: { hMg: Float64Array; hEg: Float64Array; slope2: Float64Array },
): number {
  const { start, index, coef, mgFactor, egFactor } = set;
  evaluateAll(set, mg, eg, evals);
  gMg.fill(0);
  gEg.fill(0);
  let err = 0;
  for (let p = 0; p < set.count; p++) {
    const s = sigmoid(k * evals[p]);
    const diff = s - result[p];
    err += diff * diff;
    const slope = s * (1 - s);
    // d(error)/d(eval) for this position, without the constant 2K/N.
    const g = diff * slope;
    const gm = g * mgFactor[p];
    const ge = g * egFactor[p];
    for (let j = start[p]; j < start[p + 1]; j++) {
      gMg[index[j]] += gm * coef[j];
      gEg[index[j]] += ge * coef[j];
    }
    if (curvature !== undefined) {
      curvature.slope2[p] = slope * slope;
      const hm = slope * slope * mgFactor[p] * mgFactor[p];
      const he = slope * slope * egFactor[p] * egFactor[p];
      for (let j = start[p]; j < start[p + 1]; j++) {
        const c2 = coef[j] * coef[j];
        curvature.hMg[index[j]] += hm * c2;
        curvature.hEg[index[j]] += he * c2;
      }
    }
  }
  const n = Math.max(1, set.count);
  const scale = (2 * k) / n;
  for (let i = 0; i < gMg.length; i++) {
    gMg[i] *= scale;
    gEg[i] *= scale;
  }
  if (curvature !== undefined) {
    const hScale = (2 * k * k) / n;
    for (let i = 0; i < gMg.length; i++) {
      curvature.hMg[i] *= hScale;
      curvature.hEg[i] *= hScale;
    }
  }
  return err / n;
}

/**
 * The Gauss-Newton Hessian of the mean squared error (at the weights where
 * slope2 = (s (1 - s))^2 was taken) times the vector v (into out).
 */
function hessianTimes(
  set: TraceSet,
  slope2: Float64Array,
  k: number,
  vMg: Float64Array,
  vEg: Float64Array,
  outMg: Float64Array,
  outEg: Float64Array,
): void {
  const { start, index, coef, mgFactor, egFactor } = set;
  outMg.fill(0);
  outEg.fill(0);
  for (let p = 0; p < set.count; p++) {
    let m = 0;
    let e = 0;
    for (let j = start[p]; j < start[p + 1]; j++) {
      m += coef[j] * vMg[index[j]];
      e += coef[j] * vEg[index[j]];
    }
    const d = slope2[p] * (mgFactor[p] * m + egFactor[p] * e);
    const dm = d * mgFactor[p];
    const de = d * egFactor[p];
    for (let j = start[p]; j < start[p + 1]; j++) {
      outMg[index[j]] += dm * coef[j];
      outEg[index[j]] += de * coef[j];
    }
  }
  const scale = (2 * k * k) / Math.max(1, set.count);
  for (let i = 0; i < outMg.length; i++) {
    outMg[i] *= scale;
    outEg[i] *= scale;
  }
}

/**
 * Adds the penalties' Hessian times (xMg, xEg) to (outMg, outEg): the L2 pull
 * (l2 per parameter) and the pull between neighbouring piece-square entries
 * (smooth per edge). Both penalties are quadratic in the change from the
 * starting weights, so with x = that change this is their gradient.
 */
export function addPenaltyHessianTimes(
  l2: number,
  smooth: number,
  edges: readonly [number, number][],
  xMg: Float64Array,
  xEg: Float64Array,
  outMg: Float64Array,
  outEg: Float64Array,
): void {
  if (l2 > 0) {
    for (let i = 0; i < xMg.length; i++) {
      outMg[i] += l2 * xMg[i];
      outEg[i] += l2 * xEg[i];
    }
  }
  for (const [a, b] of edges) {
    const dm = smooth * (xMg[a] - xMg[b]);
    const de = smooth * (xEg[a] - xEg[b]);
    outMg[a] += dm;
    outMg[b] -= dm;
    outEg[a] += de;
    outEg[b] -= de;
  }
}

/**
 * Training targets: the game results, or with blend > 0 the results mixed
 * with the winning chances of the positions' search scores (on the scale
 * fitted to those scores; scoreK and scoreError are NaN without scores).
 */
export function trainingTargets(set: TraceSet, blend: number): { target: Float32Array; scoreK: number; scoreError: number } {
  if (blend <= 0) return { target: set.result, scoreK: NaN, scoreError: NaN };
  const scored = set.subset((p) => !Number.isNaN(set.score[p]));
  if (scored.count === 0) return { target: set.result, scoreK: NaN, scoreError: NaN };
  const scores = Float64Array.from(scored.score.subarray(0, scored.count));
  const scoreK = fitScale(scored, scores);
  const target = Float32Array.from(set.result);
  for (let p = 0; p < set.count; p++) {
    if (!Number.isNaN(set.score[p])) target[p] = (1 - blend) * set.result[p] + blend * sigmoid(scoreK * set.score[p]);
  }
  return { target, scoreK, scoreError: errorOf(scored, scores, scoreK) };
}

/**
 * Largest eigenvalue of diag(precond) * H on the moving parameters (precond > 0), H the
 * objective's Hessian (data Gauss-Newton plus penalties) with tied parameters summed.
 */
export function largestEigenvalue(
  set: TraceSet,
  slope2: Float64Array,
  k: number,
  tie: Int32Array,
  precond: Float64Array,
  l2: number,
  smooth: number,
  edges: readonly [number, number][],
): number {
  const n = NUM_PARAMS;
  const u = new Float64Array(2 * n);
  // A deterministic start with a component along every direction.
  const random = unitInterval(lcg32(12345));
  for (let q = 0; q < 2 * n; q++) {
    const r = random();
    if (precond[q] > 0) u[q] = 1 + (r - 0.5) * 0.5;
  }
  const vMg = new Float64Array(n);
  const vEg = new Float64Array(n);
  const hMg = new Float64Array(n);
  const hEg = new Float64Array(n);
  const w = new Float64Array(2 * n);
  let lambda = 0;
  for (let iter = 0; iter < 30; iter++) {
    let norm = 0;
    for (let q = 0; q < 2 * n; q++) norm += u[q] * u[q];
    norm = Math.sqrt(norm);
    if (norm === 0) return 1;
    for (let q = 0; q < 2 * n; q++) u[q] /= norm;
    // Expand to all parameters (tied ones share the value), multiply, fold back.
    for (let i = 0; i < n; i++) {
      vMg[i] = u[tie[i]];
      vEg[i] = u[n + tie[i]];
    }
    hessianTimes(set, slope2, k, vMg, vEg, hMg, hEg);
    addPenaltyHessianTimes(l2, smooth, edges, vMg, vEg, hMg, hEg);
    w.fill(0);
    for (let i = 0; i < n; i++) {
      w[tie[i]] += hMg[i];
      w[n + tie[i]] += hEg[i];
    }
    let dot = 0;
    for (let q = 0; q < 2 * n; q++) {
      w[q] *= precond[q];
      dot += w[q] * u[q];
    }
    lambda = dot;
    u.set(w);
  }
  return Math.max(lambda, 1e-12);
}
