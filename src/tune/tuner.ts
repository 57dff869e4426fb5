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
import {
  addPenaltyHessianTimes,
  errorByGame,
  errorOf,
  fitK,
  gradient,
  largestEigenvalue,
  meanSquaredError,
  pairedDifference,
  sumOf,
  trainingTargets,
} from './objective.js';

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

const ADAM_BETA1 = 0.9;
const ADAM_BETA2 = 0.999;

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

/** What moves and by how much, decided once from the data's curvature at the start (stepPlan). */
interface StepPlan {
  /** Penalty strengths per parameter (options.l2 and options.smooth times one position's curvature). */
  l2: number;
  smooth: number;
  /** Neighbouring piece-square parameters pulled together (with smooth > 0). */
  edges: [number, number][];
  /** moves[q]: whether value q moves (q < n: midgame of parameter q, else endgame of q - n). */
  moves: Uint8Array;
  /** The preconditioner of 'newton' and 'gd' per value, and the largest eigenvalue it leaves ('adam': 1). */
  precond: Float64Array;
  lambda: number;
  /** Parameter pairs tuned. */
  freeCount: number;
}

/**
 * The step plan at the starting weights mg/eg. evals, gMg and gEg are
 * scratch space (the data gradient is taken here for its curvature).
 */
function stepPlan(
  set: TraceSet,
  target: Float32Array,
  mg: Float64Array,
  eg: Float64Array,
  k: number,
  tie: Int32Array,
  optimizer: Optimizer,
  options: TuneOptions,
  scratch: { evals: Float64Array; gMg: Float64Array; gEg: Float64Array },
): StepPlan {
  const n = NUM_PARAMS;
  const hMg = new Float64Array(n);
  const hEg = new Float64Array(n);
  const slope2 = new Float64Array(set.count);
  // The data curvature at the start: the preconditioner of 'newton' and 'gd', and which parameters the data uses.
  gradient(set, target, mg, eg, k, scratch.evals, scratch.gMg, scratch.gEg, { hMg, hEg, slope2 });

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
  return { l2, smooth, edges, moves, precond, lambda, freeCount: free.reduce((a, b) => a + b, 0) };
}

/** The optimiser's update of the moving values, with its state (momentum, Adam's moments). */
class Stepper {
  private readonly m1 = new Float64Array(2 * NUM_PARAMS);
  private readonly m2 = new Float64Array(2 * NUM_PARAMS);

  constructor(
    private readonly optimizer: Optimizer,
    private readonly lr0: number,
    private readonly momentum: number,
    private readonly plan: StepPlan,
    private readonly epochs: number,
  ) {}

  /** Step number `step` (1, 2, ...) along the gradient gMg/gEg, applied to mg/eg. */
  step(step: number, gMg: Float64Array, gEg: Float64Array, mg: Float64Array, eg: Float64Array): void {
    const n = NUM_PARAMS;
    const { m1, m2, lr0 } = this;
    const { moves, precond, lambda } = this.plan;
    for (let q = 0; q < 2 * n; q++) {
      if (!moves[q]) continue;
      const i = q < n ? q : q - n;
      const grad = q < n ? gMg[i] : gEg[i];
      let delta: number;
      if (this.optimizer === 'adam') {
        // Cosine-annealed learning rate, from lr0 down to a tenth of it.
        const lr = lr0 * (0.1 + 0.9 * 0.5 * (1 + Math.cos((Math.PI * (step - 1)) / this.epochs)));
        m1[q] = ADAM_BETA1 * m1[q] + (1 - ADAM_BETA1) * grad;
        m2[q] = ADAM_BETA2 * m2[q] + (1 - ADAM_BETA2) * grad * grad;
        delta = -(lr * (m1[q] / (1 - ADAM_BETA1 ** step))) / (Math.sqrt(m2[q] / (1 - ADAM_BETA2 ** step)) + 1e-12);
      } else {
        // Preconditioned step with heavy-ball momentum.
        m1[q] = this.momentum * m1[q] - (lr0 / lambda) * grad * precond[q];
        delta = m1[q];
      }
      if (q < n) mg[i] += delta;
      else eg[i] += delta;
    }
  }
}

/**
 * Early stopping: measures each epoch's weights on the held-out games.
 * `lowest` is the epoch of the lowest validation error, `best` the epoch
 * kept (the latest within `tolerance` standard errors of the lowest), with
 * its weights. Without validation data nothing is measured.
 */
class EarlyStopping {
  lowestValid = Infinity;
  lowestEpoch = 0;
  bestValid = Infinity;
  bestEpoch = 0;
  readonly bestMg: Float64Array;
  readonly bestEg: Float64Array;
  private lowestByGame: Float64Array = new Float64Array(0);

  constructor(
    private readonly valid: TraceSet | undefined,
    private readonly k: number,
    readonly tolerance: number,
    mg: Float64Array,
    eg: Float64Array,
  ) {
    this.bestMg = Float64Array.from(mg);
    this.bestEg = Float64Array.from(eg);
  }

  /** The validation error of epoch's weights mg/eg (NaN without validation data); keeps them if they are the best. */
  observe(epoch: number, mg: Float64Array, eg: Float64Array): number {
    const valid = this.valid;
    if (!valid) return NaN;
    const byGame = errorByGame(valid, mg, eg, this.k);
    const v = sumOf(byGame) / valid.count;
    let keep = false;
    if (v < this.lowestValid) {
      this.lowestValid = v;
      this.lowestEpoch = epoch;
      this.lowestByGame = byGame;
      keep = true;
    } else if (this.tolerance > 0) {
      const { diff, se } = pairedDifference(byGame, this.lowestByGame, valid.count);
      keep = diff < this.tolerance * se;
    }
    if (keep) {
      this.bestValid = v;
      this.bestEpoch = epoch;
      this.bestMg.set(mg);
      this.bestEg.set(eg);
    }
    return v;
  }
}

/** Adds the penalties' gradient at mg/eg (quadratic in the change from w0: their Hessian times the change) to gMg/gEg; dMg/dEg are scratch. */
function addPenaltyGradient(
  plan: StepPlan,
  w0Mg: Float64Array,
  w0Eg: Float64Array,
  mg: Float64Array,
  eg: Float64Array,
  scratch: { dMg: Float64Array; dEg: Float64Array },
  gMg: Float64Array,
  gEg: Float64Array,
): void {
  const { dMg, dEg } = scratch;
  for (let i = 0; i < NUM_PARAMS; i++) {
    dMg[i] = mg[i] - w0Mg[i];
    dEg[i] = eg[i] - w0Eg[i];
  }
  addPenaltyHessianTimes(plan.l2, plan.smooth, plan.edges, dMg, dEg, gMg, gEg);
}

/** Tied parameters' gradients added into their canonical parameter's. */
function foldTies(tie: Int32Array, gMg: Float64Array, gEg: Float64Array): void {
  for (let i = 0; i < NUM_PARAMS; i++) {
    if (tie[i] !== i) {
      gMg[tie[i]] += gMg[i];
      gEg[tie[i]] += gEg[i];
    }
  }
}

/** Tied parameters take their canonical parameter's value. */
function spreadTies(tie: Int32Array, mg: Float64Array, eg: Float64Array): void {
  for (let i = 0; i < NUM_PARAMS; i++) {
    if (tie[i] !== i) {
      mg[i] = mg[tie[i]];
      eg[i] = eg[tie[i]];
    }
  }
}

/** Optimises copies of mg/eg on set; full batch, deterministic. */
export function tune(set: TraceSet, startMg: ArrayLike<number>, startEg: ArrayLike<number>, options: TuneOptions): TuneResult {
  const n = NUM_PARAMS;
  const optimizer = options.optimizer ?? 'newton';
  const lr0 = options.learningRate ?? DEFAULT_LR[optimizer];
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
  const plan = stepPlan(set, target, mg, eg, k, tie, optimizer, options, { evals, gMg, gEg });
  const stepper = new Stepper(optimizer, lr0, options.momentum ?? DEFAULT_MOMENTUM[optimizer], plan, options.epochs);
  const penaltyScratch = { dMg: new Float64Array(n), dEg: new Float64Array(n) };
  log(
    `positions ${set.count}${valid ? ` + ${valid.count} validation` : ''}, coefficients ${set.size}, ` +
      `K ${k.toFixed(6)} (fixed), ${plan.freeCount} of ${n} parameter pairs tuned, ${optimizer} lr ${lr0}` +
      `${optimizer !== 'adam' ? ` (step scale 1/${plan.lambda.toPrecision(3)})` : ''}` +
      `${plan.l2 > 0 ? `, l2 ${options.l2}` : ''}${plan.smooth > 0 ? `, smooth ${options.smooth}` : ''}`,
  );
  if (blend > 0) {
    log(
      Number.isNaN(scoreK)
        ? 'blend: the data has no search scores; training on the results'
        : `blend ${blend}: targets ${1 - blend} * result + ${blend} * sigmoid(${scoreK.toFixed(6)} * score); the scores' own error ${scoreError.toFixed(6)}`,
    );
  }
  log(`start: train ${errorBefore.toFixed(6)}${valid ? `  valid ${validBefore.toFixed(6)}` : ''}`);

  const early = new EarlyStopping(valid, k, options.tolerance ?? 0, mg, eg);
  let epoch = 0;
  for (; ; epoch++) {
    const fitted = gradient(set, target, mg, eg, k, evals, gMg, gEg);
    const train = target === set.result ? fitted : errorOf(set, evals, k);
    const v = early.observe(epoch, mg, eg);
    const stop = epoch >= options.epochs || epoch - early.lowestEpoch > patience;
    if (epoch > 0 && (epoch % every === 0 || stop)) {
      log(
        `epoch ${epoch}/${options.epochs}  train ${train.toFixed(6)}` +
          (valid
            ? `  valid ${v.toFixed(6)}  (lowest ${early.lowestValid.toFixed(6)} at ${early.lowestEpoch}` +
              (early.tolerance > 0 ? `, kept ${early.bestEpoch}` : '') +
              ')'
            : ''),
      );
    }
    if (stop) {
      if (epoch < options.epochs) log(`stopped: no lower validation error for ${patience} epochs`);
      break;
    }
    // The penalties' gradient, ties folded into their canonical parameter, one step, ties spread again.
    addPenaltyGradient(plan, w0Mg, w0Eg, mg, eg, penaltyScratch, gMg, gEg);
    foldTies(tie, gMg, gEg);
    stepper.step(epoch + 1, gMg, gEg, mg, eg);
    spreadTies(tie, mg, eg);
  }
  const outMg = valid ? early.bestMg : mg;
  const outEg = valid ? early.bestEg : eg;
  return {
    k,
    scoreK,
    scoreError,
    errorBefore,
    errorAfter: meanSquaredError(set, outMg, outEg, k),
    validBefore,
    validAfter: valid ? early.bestValid : NaN,
    bestEpoch: valid ? early.bestEpoch : epoch,
    validLowest: valid ? early.lowestValid : NaN,
    lowestEpoch: valid ? early.lowestEpoch : epoch,
    epochs: epoch,
    mg: outMg,
    eg: outEg,
  };
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
