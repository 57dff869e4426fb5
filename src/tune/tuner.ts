// Texel tuning: find the weights whose evaluation best predicts game results.
// The prediction for a position is sigmoid(K * eval), eval in centipawns from
// White's side; the error is the mean squared difference to the result
// (1 / 0.5 / 0). K is fitted once on the starting weights and then kept
// fixed (it only converts centipawns to winning chances; refitting it while
// the weights move would let the whole scale drift). The evaluation is linear
// in the weights, so the exact gradient comes cheaply from the stored traces.
//
// Self-play data is small and strongly correlated: every position of a game
// shares the game's one result, so with 548 parameter pairs an unregularised
// fit learns the games by heart (piece-square entries of +-200 that predict
// the training games and nothing else: on 600 self-play games the old
// defaults, Adam at 1 cp per epoch for 400 epochs, took the error on
// held-out games from 0.0957 up to 0.1100). Hence:
//  - a validation set of held-out GAMES (dataset.ts splitByGame), measured
//    every epoch; the weights of the best validation epoch are returned
//    (early stopping), and the run stops after `patience` epochs without a
//    new best;
//  - an L2 pull towards the STARTING weights, `l2`, and optionally a pull of
//    neighbouring piece-square entries towards each other, `smooth`; both
//    are measured in positions: a parameter seen (with coefficient 1, at an
//    even evaluation) in fewer than about `l2` training positions stays near
//    its starting value, one seen in many more follows the data;
//  - an optimiser that moves each parameter by how much evidence it has:
//    'newton' divides the gradient by the parameter's curvature (the data's
//    Gauss-Newton diagonal at the start plus the penalty's), 'gd' (plain
//    gradient descent, with momentum) by the largest curvature; both scale
//    the step by the largest eigenvalue of the preconditioned Hessian (power
//    iteration), so lr 1 never overshoots however the parameters are
//    coupled, and 'newton' reaches the penalised optimum in a few dozen
//    epochs, monotonically; 'adam' is the old optimiser (every parameter
//    moves at the same rate, so only its small learning rate, the penalty
//    and early stopping hold the rare ones back);
//  - parameter tying (mirrorTies: file-mirrored piece-square tables) and
//    freezing (paramsOfGroups: e.g. everything but material and mobility);
//  - optionally, training targets that blend the game result with the
//    engine's search score of the position (`blend`, the share of the
//    score's winning chance sigmoid(K' * score), K' fitted on the scores):
//    the score differs from position to position where the result does not,
//    so it tells the tuner which positions of a game were actually good.
//    Validation always measures the error against the game results.
// Parameters that no training position uses are never changed.

import { NUM_PARAMS, PST_KING, PST_PAWN, TERMS } from '../eval/layout.js';
import type { TraceSet } from './dataset.js';
import { lcg32, unitInterval } from '../util/random.js';

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

function sumOf(values: Float64Array): number {
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

// --- Parameter groups and ties ---------------------------------------------------

/** Names for several terms at once in paramsOfGroups (besides term names and their prefixes). */
const GROUPS: Readonly<Record<string, readonly string[]>> = {
  psqt: ['pstPawn', 'pstKnight', 'pstBishop', 'pstRook', 'pstQueen', 'pstKing'],
  mobility: ['mobilityKnight', 'mobilityBishop', 'mobilityRook', 'mobilityQueen'],
  passers: ['passed', 'passedFreePath', 'passedSafeStop', 'passedOwnKingDist', 'passedTheirKingDist'],
  pawns: ['isolated', 'doubled', 'backward', 'phalanx', 'supported'],
  king: ['kingAttack', 'kingAttackers', 'pawnShield', 'pawnStorm'],
  pieces: ['bishopPair', 'rookOpenFile', 'rookSemiOpenFile', 'rookSeventh', 'pawnThreat', 'tempo'],
};

/**
 * The parameter indices of the named groups: a name from GROUPS (psqt,
 * mobility, passers, pawns, king, pieces), or a term name from layout.ts, or
 * a prefix of term names (`pst`, `passed`, `mobility`); case-insensitive.
 * Throws on a name that matches nothing.
 */
export function paramsOfGroups(names: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (const raw of names) {
    const name = raw.trim().toLowerCase();
    if (name === '') continue;
    const group = Object.entries(GROUPS).find(([g]) => g.toLowerCase() === name)?.[1];
    const terms = TERMS.filter((t) =>
      group !== undefined ? group.includes(t.name) : t.name.toLowerCase() === name || t.name.toLowerCase().startsWith(name),
    );
    if (terms.length === 0) throw new Error(`unknown parameter group '${raw}' (groups: ${Object.keys(GROUPS).join(', ')}, or term names)`);
    for (const t of terms) for (let i = 0; i < t.size; i++) out.add(t.offset + i);
  }
  return out;
}

/** No ties: tie[i] = i. */
function noTies(): Int32Array {
  return Int32Array.from({ length: NUM_PARAMS }, (_, i) => i);
}

/**
 * Ties of file-mirrored piece-square tables: the square on file h shares the
 * parameter of file a, g of b, and so on (tie[i] is the file a-d index).
 * The evaluation still reads 64 entries per table; the tuner writes both halves.
 */
export function mirrorTies(): Int32Array {
  const tie = noTies();
  for (let base = PST_PAWN; base <= PST_KING; base += 64) {
    for (let sq = 0; sq < 64; sq++) if ((sq & 7) >= 4) tie[base + sq] = base + (sq ^ 7);
  }
  return tie;
}

/** Pairs of piece-square parameters on neighbouring squares (same rank or file, one step apart). */
function pstNeighbours(): [number, number][] {
  const pairs: [number, number][] = [];
  for (let base = PST_PAWN; base <= PST_KING; base += 64) {
    for (let sq = 0; sq < 64; sq++) {
      if ((sq & 7) < 7) pairs.push([base + sq, base + sq + 1]);
      if (sq < 56) pairs.push([base + sq, base + sq + 8]);
    }
  }
  return pairs;
}

// --- Tuning --------------------------------------------------------------------------

export type Optimizer = 'adam' | 'gd' | 'newton';
export const OPTIMIZERS: readonly Optimizer[] = ['adam', 'gd', 'newton'];

/** Default step size of each optimiser (Adam: centipawns per epoch; the others: fraction of the largest step that does not overshoot). */
export const DEFAULT_LR: Readonly<Record<Optimizer, number>> = { adam: 1, gd: 1, newton: 0.8 };
/** Default momentum of 'gd' and 'newton' (half Newton steps converge in a few dozen epochs without it, and monotonically). */
const DEFAULT_MOMENTUM: Readonly<Record<Optimizer, number>> = { adam: 0, gd: 0.9, newton: 0 };

export interface TuneOptions {
  epochs: number;
  /** Default 'newton'. */
  optimizer?: Optimizer;
  /** Step size (default DEFAULT_LR of the optimiser); Adam's decays to a tenth over the run (cosine). */
  learningRate?: number;
  /** Momentum of 'gd' and 'newton' (default DEFAULT_MOMENTUM). */
  momentum?: number;
  /** Use this K instead of fitting it on the starting weights. */
  k?: number;
  /** Parameters (by index, midgame and endgame) left unchanged. */
  frozen?: ReadonlySet<number>;
  /** L2 pull towards the starting weights, in positions (default 0). */
  l2?: number;
  /** Pull between neighbouring piece-square entries (of their changes), in positions (default 0). */
  smooth?: number;
  /** tie[i]: the parameter that i shares its value with (tie[i] <= i; tie[tie[i]] = tie[i]); e.g. mirrorTies(). */
  tie?: Int32Array;
  /** Share (0..1) of the search score's winning chance in the training targets, where the data has scores (default 0). */
  blend?: number;
  /** Held-out positions (whole games): measured every epoch; the best epoch's weights are returned. */
  valid?: TraceSet;
  /** Stop after this many epochs without a better validation error (default: never stop early). */
  patience?: number;
  /**
   * Validation errors above the lowest by less than this many standard
   * errors (of the difference, by game) count as ties, and the latest epoch
   * of a tie is kept (default 0: the lowest error wins). The validation set
   * is a few hundred games: its small differences are noise, and later
   * epochs are nearer the penalised optimum, which is what generalises.
   */
  tolerance?: number;
  /** Progress lines (every `reportEvery` epochs). */
  log?: (line: string) => void;
  reportEvery?: number;
}

export interface TuneResult {
  k: number;
  /** With blend: K' of the search scores, and their error against the training results (else NaN). */
  scoreK: number;
  scoreError: number;
  /** Training error of the starting weights and of the returned ones. */
  errorBefore: number;
  errorAfter: number;
  /** Validation error of the starting weights and of the returned ones (NaN without validation data). */
  validBefore: number;
  validAfter: number;
  /** The epoch (steps taken) whose weights are returned, and the number of steps taken. */
  bestEpoch: number;
  epochs: number;
  /** The lowest validation error met and its epoch (the returned weights' may be higher within the tolerance). */
  validLowest: number;
  lowestEpoch: number;
  mg: Float64Array;
  eg: Float64Array;
}

/**
 * Data gradient of the mean squared error at mg/eg (into gMg/gEg), and the
 * error itself. With curvature set, also the Gauss-Newton diagonal of the
 * error (into hMg/hEg).
 */
function gradient(
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
function addPenaltyHessianTimes(
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

const ADAM_BETA1 = 0.9;
const ADAM_BETA2 = 0.999;

/**
 * Training targets: the game results, or with blend > 0 the results mixed
 * with the winning chances of the positions' search scores (on the scale
 * fitted to those scores; scoreK and scoreError are NaN without scores).
 */
function trainingTargets(set: TraceSet, blend: number): { target: Float32Array; scoreK: number; scoreError: number } {
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

/** Each parameter replaced by the mean of its tie group (tie[i] is the group's canonical parameter). */
function tiedMeans(weights: Float64Array, tie: Int32Array): Float64Array {
  const n = weights.length;
  const members = new Float64Array(n);
  const sums = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    members[tie[i]]++;
    sums[tie[i]] += weights[i];
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = sums[tie[i]] / members[tie[i]];
  return out;
}

/** Optimises copies of mg/eg on set; full batch, deterministic. */
export function tune(set: TraceSet, startMg: ArrayLike<number>, startEg: ArrayLike<number>, options: TuneOptions): TuneResult {
  const n = NUM_PARAMS;
  const optimizer = options.optimizer ?? 'newton';
  const lr0 = options.learningRate ?? DEFAULT_LR[optimizer];
  const momentum = options.momentum ?? DEFAULT_MOMENTUM[optimizer];
  const log = options.log ?? ((): void => {});
  const every = options.reportEvery ?? 10;
  const valid = options.valid !== undefined && options.valid.count > 0 ? options.valid : undefined;
  const patience = options.patience ?? Infinity;
  const tie = options.tie ?? noTies();

  const origMg = Float64Array.from(startMg);
  const origEg = Float64Array.from(startEg);
  const k = options.k ?? fitK(set, origMg, origEg);
  const errorBefore = meanSquaredError(set, origMg, origEg, k);

  const blend = Math.min(1, Math.max(0, options.blend ?? 0));
  const { target, scoreK, scoreError } = trainingTargets(set, blend);
  // Summed by game, as in every epoch below, so that an unchanged epoch 0 scores exactly validBefore.
  const validBefore = valid ? sumOf(errorByGame(valid, origMg, origEg, k)) / valid.count : NaN;

  // Tied parameters start from (and are pulled towards) the mean of their members.
  const w0Mg = tiedMeans(origMg, tie);
  const w0Eg = tiedMeans(origEg, tie);
  const mg = Float64Array.from(w0Mg);
  const eg = Float64Array.from(w0Eg);

  const evals = new Float64Array(set.count);
  const gMg = new Float64Array(n);
  const gEg = new Float64Array(n);
  const hMg = new Float64Array(n);
  const hEg = new Float64Array(n);
  const slope2 = new Float64Array(set.count);
  // The data curvature at the start: the preconditioner of 'newton' and 'gd', and which parameters the data uses.
  gradient(set, target, mg, eg, k, evals, gMg, gEg, { hMg, hEg, slope2 });

  // Penalty strengths per parameter: one position's curvature (coefficient 1, even evaluation) is 2 (K/4)^2 / N.
  const unit = (2 * (k / 4) * (k / 4)) / Math.max(1, set.count);
  const l2 = (options.l2 ?? 0) * unit;
  const smooth = (options.smooth ?? 0) * unit;
  const used = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (hMg[i] > 0 || hEg[i] > 0) used[i] = 1;
  const edges = smooth > 0 ? pstNeighbours().filter(([a, b]) => used[a] && used[b]) : [];
  const degree = new Float64Array(n);
  for (const [a, b] of edges) {
    degree[a]++;
    degree[b]++;
  }
  // Which parameters move: used by the data (in any tied member), not frozen; only the canonical one of a tie.
  const groupUsed = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (used[i]) groupUsed[tie[i]] = 1;
  const free = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (tie[i] === i && groupUsed[i] && !options.frozen?.has(i)) free[i] = 1;

  // Curvature of the whole objective (data + penalties), summed over ties: 'newton' divides by it.
  // A midgame or endgame value that no position weighs (all its positions at phase 0 or 24) stays;
  // the others get at least one position's curvature, so that rare ones cannot take huge steps.
  const cMg = new Float64Array(n);
  const cEg = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    cMg[tie[i]] += hMg[i] + l2 + smooth * degree[i];
    cEg[tie[i]] += hEg[i] + l2 + smooth * degree[i];
  }
  const moves = new Uint8Array(2 * n);
  const groupH = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    groupH[tie[i]] += hMg[i];
    groupH[n + tie[i]] += hEg[i];
  }
  let cMax = 0;
  for (let i = 0; i < n; i++) {
    if (!free[i]) continue;
    moves[i] = groupH[i] > 0 ? 1 : 0;
    moves[n + i] = groupH[n + i] > 0 ? 1 : 0;
    cMg[i] = Math.max(cMg[i], unit);
    cEg[i] = Math.max(cEg[i], unit);
    if (moves[i]) cMax = Math.max(cMax, cMg[i]);
    if (moves[n + i]) cMax = Math.max(cMax, cEg[i]);
  }

  // Step sizes of 'newton' and 'gd': the preconditioner divided by the largest eigenvalue of
  // preconditioner times Hessian (power iteration), so that lr 1 is the largest step that does
  // not overshoot along any direction, however strongly the parameters are coupled.
  const precond = new Float64Array(2 * n);
  let lambda = 1;
  if (optimizer !== 'adam') {
    for (let i = 0; i < n; i++) {
      if (moves[i]) precond[i] = optimizer === 'newton' ? 1 / cMg[i] : 1 / cMax;
      if (moves[n + i]) precond[n + i] = optimizer === 'newton' ? 1 / cEg[i] : 1 / cMax;
    }
    lambda = largestEigenvalue(set, slope2, k, tie, precond, l2, smooth, edges);
  }

  const m1 = new Float64Array(2 * n);
  const m2 = new Float64Array(2 * n);
  // The change from the starting weights (for the penalty gradient).
  const dMg = new Float64Array(n);
  const dEg = new Float64Array(n);
  const freeCount = free.reduce((a, b) => a + b, 0);
  log(
    `positions ${set.count}${valid ? ` + ${valid.count} validation` : ''}, coefficients ${set.size}, ` +
      `K ${k.toFixed(6)} (fixed), ${freeCount} of ${n} parameter pairs tuned, ${optimizer} lr ${lr0}` +
      `${optimizer !== 'adam' ? ` (step scale 1/${lambda.toPrecision(3)})` : ''}` +
      `${l2 > 0 ? `, l2 ${options.l2}` : ''}${smooth > 0 ? `, smooth ${options.smooth}` : ''}`,
  );
  if (blend > 0) {
    log(
      Number.isNaN(scoreK)
        ? 'blend: the data has no search scores; training on the results'
        : `blend ${blend}: targets ${1 - blend} * result + ${blend} * sigmoid(${scoreK.toFixed(6)} * score); the scores' own error ${scoreError.toFixed(6)}`,
    );
  }
  log(`start: train ${errorBefore.toFixed(6)}${valid ? `  valid ${validBefore.toFixed(6)}` : ''}`);

  // Early stopping: `lowest` is the epoch of the lowest validation error, `best` the epoch kept (the latest within the tolerance of lowest).
  const tolerance = options.tolerance ?? 0;
  let lowestValid = Infinity;
  let lowestEpoch = 0;
  let bestValid = Infinity;
  let bestEpoch = 0;
  const bestMg = Float64Array.from(mg);
  const bestEg = Float64Array.from(eg);
  let lowestByGame: Float64Array = new Float64Array(0);
  let epoch = 0;
  for (; ; epoch++) {
    const fitted = gradient(set, target, mg, eg, k, evals, gMg, gEg);
    const train = target === set.result ? fitted : errorOf(set, evals, k);
    let v = NaN;
    if (valid) {
      const byGame = errorByGame(valid, mg, eg, k);
      v = sumOf(byGame) / valid.count;
      let keep = false;
      if (v < lowestValid) {
        lowestValid = v;
        lowestEpoch = epoch;
        lowestByGame = byGame;
        keep = true;
      } else if (tolerance > 0) {
        const { diff, se } = pairedDifference(byGame, lowestByGame, valid.count);
        keep = diff < tolerance * se;
      }
      if (keep) {
        bestValid = v;
        bestEpoch = epoch;
        bestMg.set(mg);
        bestEg.set(eg);
      }
    }
    const stop = epoch >= options.epochs || epoch - lowestEpoch > patience;
    if (epoch > 0 && (epoch % every === 0 || stop)) {
      log(
        `epoch ${epoch}/${options.epochs}  train ${train.toFixed(6)}` +
          (valid
            ? `  valid ${v.toFixed(6)}  (lowest ${lowestValid.toFixed(6)} at ${lowestEpoch}` +
              (tolerance > 0 ? `, kept ${bestEpoch}` : '') +
              ')'
            : ''),
      );
    }
    if (stop) {
      if (epoch < options.epochs) log(`stopped: no lower validation error for ${patience} epochs`);
      break;
    }
    // Penalty gradients (the penalty is quadratic in the change: its Hessian times the change), then ties folded into their canonical parameter.
    for (let i = 0; i < n; i++) {
      dMg[i] = mg[i] - w0Mg[i];
      dEg[i] = eg[i] - w0Eg[i];
    }
    addPenaltyHessianTimes(l2, smooth, edges, dMg, dEg, gMg, gEg);
    for (let i = 0; i < n; i++) {
      if (tie[i] !== i) {
        gMg[tie[i]] += gMg[i];
        gEg[tie[i]] += gEg[i];
      }
    }
    const step = epoch + 1;
    for (let q = 0; q < 2 * n; q++) {
      if (!moves[q]) continue;
      const i = q < n ? q : q - n;
      const grad = q < n ? gMg[i] : gEg[i];
      let delta: number;
      if (optimizer === 'adam') {
        // Cosine-annealed learning rate, from lr0 down to a tenth of it.
        const lr = lr0 * (0.1 + 0.9 * 0.5 * (1 + Math.cos((Math.PI * (step - 1)) / options.epochs)));
        m1[q] = ADAM_BETA1 * m1[q] + (1 - ADAM_BETA1) * grad;
        m2[q] = ADAM_BETA2 * m2[q] + (1 - ADAM_BETA2) * grad * grad;
        delta = -(lr * (m1[q] / (1 - ADAM_BETA1 ** step))) / (Math.sqrt(m2[q] / (1 - ADAM_BETA2 ** step)) + 1e-12);
      } else {
        // Preconditioned step with heavy-ball momentum.
        m1[q] = momentum * m1[q] - (lr0 / lambda) * grad * precond[q];
        delta = m1[q];
      }
      if (q < n) mg[i] += delta;
      else eg[i] += delta;
    }
    for (let i = 0; i < n; i++) {
      if (tie[i] !== i) {
        mg[i] = mg[tie[i]];
        eg[i] = eg[tie[i]];
      }
    }
  }
  const outMg = valid ? bestMg : mg;
  const outEg = valid ? bestEg : eg;
  return {
    k,
    scoreK,
    scoreError,
    errorBefore,
    errorAfter: meanSquaredError(set, outMg, outEg, k),
    validBefore,
    validAfter: valid ? bestValid : NaN,
    bestEpoch: valid ? bestEpoch : epoch,
    validLowest: valid ? lowestValid : NaN,
    lowestEpoch: valid ? lowestEpoch : epoch,
    epochs: epoch,
    mg: outMg,
    eg: outEg,
  };
}

/**
 * Largest eigenvalue of diag(precond) * H on the moving parameters (precond > 0), H the
 * objective's Hessian (data Gauss-Newton plus penalties) with tied parameters summed.
 */
function largestEigenvalue(
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

/** Material plus the average of its piece-square table over the squares used (P: ranks 2-7), mg and eg: the piece's value as the evaluation sees it. */
export function effectiveMaterial(mg: ArrayLike<number>, eg: ArrayLike<number>): [number, number][] {
  const material = TERMS.find((t) => t.name === 'material')!.offset;
  const out: [number, number][] = [];
  for (let type = 1; type <= 5; type++) {
    const base = PST_PAWN + (type - 1) * 64;
    const from = type === 1 ? 8 : 0;
    const to = type === 1 ? 56 : 64;
    let m = 0;
    let e = 0;
    for (let sq = from; sq < to; sq++) {
      m += mg[base + sq];
      e += eg[base + sq];
    }
    out.push([mg[material + type - 1] + m / (to - from), eg[material + type - 1] + e / (to - from)]);
  }
  return out;
}
