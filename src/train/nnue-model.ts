// The network in floating point, as the trainer holds it, and the forward
// and backward pass over one position. Parameters live in one Float32Array:
//   W1 [768 * K * H] (input-major; K king buckets), b1 [H], W2 [B * 2H], b2 [B].
// Forward: each perspective's accumulator is b1 plus the W1 rows of its
// active inputs; the activation is SCReLU, clamp(x, 0, 1)^2; the output is
// W2 . [stm activations, other side's activations] + b2 of the position's
// bucket, in units of `scale` centipawns. The loss is
// (sigmoid(output * scale / sigmoidScale) - target)^2, the target a blend of
// the game's result and sigmoid(search score / sigmoidScale): sigmoidScale
// is the centipawns that turn a score into an expected result (fitted to
// the games, bench/fit-scale.ts), scale the centipawns of an output unit
// (the search's); they may differ.

import { ACTIVATION_SCRELU, type KingBuckets, type Network, inputCount, maxOutputWeight, outputBucket } from '../eval/nnue/network.js';
import { MAX_FEATURES, type PositionSet, activeRows, storedOf } from './nnue-data.js';
import { unitInterval, xorshift32 } from '../util/random.js';

/** Float weights are kept within this, so that W1 * QA and W2 * QB fit the quantised types. */
export const WEIGHT_CLIP = 1.98;

export interface Shape {
  hidden: number;
  buckets: number;
  /** King buckets of the inputs (network.ts), or null (or absent) for none. */
  kings?: KingBuckets | null;
}

export interface Layout {
  w1: number;
  b1: number;
  w2: number;
  b2: number;
  size: number;
}

export function layoutOf(shape: Shape): Layout {
  const h = shape.hidden;
  const w1 = 0;
  const b1 = inputCount(shape.kings ?? null) * h;
  const w2 = b1 + h;
  const b2 = w2 + shape.buckets * 2 * h;
  return { w1, b1, w2, b2, size: b2 + shape.buckets };
}

/** Initial weights: small random W1 and W2 (uniform, from xorshift32; seed 0 counts as 1), zero biases. */
export function initParams(shape: Shape, params: Float32Array, seed: number): void {
  const l = layoutOf(shape);
  const random = unitInterval(xorshift32(seed | 0 || 1));
  const uniform = (a: number): number => random() * 2 * a - a;
  params.fill(0);
  // About 30 inputs are active: their sum then starts with a spread of about 0.3.
  for (let i = l.w1; i < l.b1; i++) params[i] = uniform(0.1);
  for (let i = l.b1; i < l.w2; i++) params[i] = 0.1;
  const a = 1 / Math.sqrt(2 * shape.hidden);
  for (let i = l.w2; i < l.b2; i++) params[i] = uniform(a);
}

export interface LossSettings {
  /** Weight of the game result in the target (the rest is the search score). */
  wdl: number;
  /** Centipawns per output unit. */
  scale: number;
  /** Centipawns of the sigmoid that maps a score (the network's or the search's) to an expected result. */
  sigmoidScale: number;
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** The training target of position p: the blend of its game's result and its search score, from the side to move's view. */
function targetOf(set: PositionSet, p: number, loss: LossSettings): number {
  const s = storedOf(set, p);
  const side = set.sides[s];
  const whiteResult = set.results[s] / 2;
  const result = side === 0 ? whiteResult : 1 - whiteResult;
  const score = side === 0 ? set.scores[s] : -set.scores[s];
  return loss.wdl * result + (1 - loss.wdl) * sigmoid(score / loss.sigmoidScale);
}

/** A forward and backward pass over one position, whoever computes it: the reference below, or wasm-gradients.ts. */
export interface PositionPass {
  /** The output of position p of set (in units of scale, before the sigmoid), with the output weights of `bucket`. */
  forward(set: PositionSet, p: number, bucket: number): number;
  /** Adds the gradients of the position of the last forward(), g being the derivative of its loss by its output. */
  backward(g: number, bucket: number): void;
}

/**
 * Runs positions order[from..to) of set (order null: from..to themselves)
 * through pass, forward and (withGradients) backward; returns their summed
 * loss.
 */
export function passPositions(
  pass: PositionPass,
  buckets: number,
  set: PositionSet,
  order: Int32Array | null,
  from: number,
  to: number,
  loss: LossSettings,
  withGradients: boolean,
): number {
  let total = 0;
  // The output in units of the sigmoid's scale (exactly 1 when the two scales agree).
  const k = loss.scale / loss.sigmoidScale;
  for (let n = from; n < to; n++) {
    const p = order === null ? n : order[n];
    const bucket = outputBucket(set.counts[storedOf(set, p)], buckets);
    const prediction = sigmoid(pass.forward(set, p, bucket) * k);
    const error = prediction - targetOf(set, p, loss);
    total += error * error;
    if (withGradients) pass.backward(2 * error * prediction * (1 - prediction) * k, bucket);
  }
  return total;
}

/** What a training worker runs its share of a batch through: the reference pass below, or wasm-gradients.ts. */
export interface GradientPass {
  /**
   * Adds the gradients of positions order[from..to) of set (order null:
   * from..to themselves) under the weights params to grads (unless null);
   * returns their summed loss.
   */
  run(
    params: Float32Array,
    grads: Float32Array | null,
    set: PositionSet,
    order: Int32Array | null,
    from: number,
    to: number,
    loss: LossSettings,
  ): number;
}

/** The reference pass, in TypeScript over the float weights (the test oracle of the WebAssembly one). */
export class ReferencePass implements PositionPass, GradientPass {
  private readonly layout: Layout;
  private readonly h: number;
  private readonly buckets: number;
  private readonly kings: KingBuckets | null;
  /** The accumulators of the last forward() (the side to move's and the other's); backward() turns them into their gradients. */
  private readonly accUs: Float32Array;
  private readonly accThem: Float32Array;
  private readonly rowsUs = new Int32Array(MAX_FEATURES);
  private readonly rowsThem = new Int32Array(MAX_FEATURES);
  private count = 0;
  private params: Float32Array = new Float32Array(0);
  private grads: Float32Array | null = null;

  constructor(shape: Shape) {
    this.layout = layoutOf(shape);
    this.h = shape.hidden;
    this.buckets = shape.buckets;
    this.kings = shape.kings ?? null;
    this.accUs = new Float32Array(shape.hidden);
    this.accThem = new Float32Array(shape.hidden);
  }

  run(
    params: Float32Array,
    grads: Float32Array | null,
    set: PositionSet,
    order: Int32Array | null,
    from: number,
    to: number,
    loss: LossSettings,
  ): number {
    this.params = params;
    this.grads = grads;
    return passPositions(this, this.buckets, set, order, from, to, loss, grads !== null);
  }

  /** The float network's evaluation of position p of set under the weights params, in units of scale from the side to move's view. */
  evaluate(params: Float32Array, set: PositionSet, p: number): number {
    this.params = params;
    return this.forward(set, p, outputBucket(set.counts[storedOf(set, p)], this.buckets));
  }

  forward(set: PositionSet, p: number, bucket: number): number {
    const { h, params, accUs, accThem, rowsUs, rowsThem } = this;
    const l = this.layout;
    const count = activeRows(set, p, h, rowsUs, rowsThem, this.kings);
    this.count = count;
    for (let j = 0; j < h; j++) {
      accUs[j] = params[l.b1 + j];
      accThem[j] = params[l.b1 + j];
    }
    for (let k = 0; k < count; k++) {
      const us = rowsUs[k];
      const them = rowsThem[k];
      for (let j = 0; j < h; j++) {
        accUs[j] += params[us + j];
        accThem[j] += params[them + j];
      }
    }
    // W2 . [clamp(acc, 0, 1)^2 of each perspective] + b2.
    const w2 = l.w2 + bucket * 2 * h;
    let out = params[l.b2 + bucket];
    for (let j = 0; j < h; j++) {
      const u = accUs[j] < 0 ? 0 : accUs[j] > 1 ? 1 : accUs[j];
      const t = accThem[j] < 0 ? 0 : accThem[j] > 1 ? 1 : accThem[j];
      out += params[w2 + j] * u * u + params[w2 + h + j] * t * t;
    }
    return out;
  }

  backward(g: number, bucket: number): void {
    const { h, params, accUs, accThem, rowsUs, rowsThem } = this;
    const grads = this.grads!;
    const l = this.layout;
    const w2 = l.w2 + bucket * 2 * h;
    grads[l.b2 + bucket] += g;
    // Through the output layer, into the accumulators (acc* now hold their gradients).
    for (let j = 0; j < h; j++) {
      const x = accUs[j];
      const y = accThem[j];
      const u = x < 0 ? 0 : x > 1 ? 1 : x;
      const t = y < 0 ? 0 : y > 1 ? 1 : y;
      grads[w2 + j] += g * u * u;
      grads[w2 + h + j] += g * t * t;
      accUs[j] = x > 0 && x < 1 ? g * params[w2 + j] * 2 * x : 0;
      accThem[j] = y > 0 && y < 1 ? g * params[w2 + h + j] * 2 * y : 0;
      grads[l.b1 + j] += accUs[j] + accThem[j];
    }
    for (let k = 0; k < this.count; k++) {
      const us = rowsUs[k];
      const them = rowsThem[k];
      for (let j = 0; j < h; j++) {
        grads[us + j] += accUs[j];
        grads[them + j] += accThem[j];
      }
    }
  }
}

/**
 * params of a narrower network (from) laid out for a wider one (to, the
 * same buckets): its neurons keep their weights, and each new one starts
 * as initParams would start it but with zero output weights, so the wider
 * network evaluates exactly as the narrow one until training moves them
 * (widening a trained network instead of starting from random weights).
 */
export function widen(params: Float32Array, from: Shape, to: Shape, seed: number): Float32Array {
  if (to.buckets !== from.buckets || to.hidden < from.hidden || !sameKings(from.kings ?? null, to.kings ?? null))
    throw new Error(`cannot widen ${from.hidden}x${from.buckets} to ${to.hidden}x${to.buckets}`);
  const a = layoutOf(from);
  const b = layoutOf(to);
  const wide = new Float32Array(b.size);
  initParams(to, wide, seed);
  const h = from.hidden;
  const H = to.hidden;
  const inputs = inputCount(from.kings ?? null);
  for (let i = 0; i < inputs; i++) wide.set(params.subarray(a.w1 + i * h, a.w1 + (i + 1) * h), b.w1 + i * H);
  wide.set(params.subarray(a.b1, a.b1 + h), b.b1);
  wide.fill(0, b.w2, b.b2);
  for (let k = 0; k < to.buckets; k++) {
    wide.set(params.subarray(a.w2 + k * 2 * h, a.w2 + k * 2 * h + h), b.w2 + k * 2 * H);
    wide.set(params.subarray(a.w2 + k * 2 * h + h, a.w2 + (k + 1) * 2 * h), b.w2 + k * 2 * H + H);
  }
  wide.set(params.subarray(a.b2, a.b2 + from.buckets), b.b2);
  return wide;
}

/**
 * The float weights a quantised network stands for: quantise() undone, up
 * to its rounding (half a step of QA, QB or QA * QB), with the output in
 * units of `scale` centipawns. A network whose .f32 was not kept can still be
 * trained on from where it stands.
 */
export function dequantise(net: Network, scale: number): Float32Array {
  const l = layoutOf(net);
  const params = new Float32Array(l.size);
  for (let i = 0; i < net.w1.length; i++) params[l.w1 + i] = net.w1[i] / net.qa;
  for (let i = 0; i < net.hidden; i++) params[l.b1 + i] = net.b1[i] / net.qa;
  const output = net.scale / scale;
  for (let i = 0; i < net.w2.length; i++) params[l.w2 + i] = (net.w2[i] / net.qb) * output;
  for (let i = 0; i < net.buckets; i++) params[l.b2 + i] = (net.b2[i] / (net.qa * net.qb)) * output;
  return params;
}

/**
 * The network rounded to the file's integer types. W2 is scaled by the
 * largest QB from minQb up (at most 1024; any integer, not only a power of
 * two) that keeps every output weight within ±127: the output weights keep
 * as much precision as they can, and the WebAssembly kernel's int16 products
 * (clamped activation times weight) still fit. (x7: QB 91 instead of the
 * power of two 64 brought the test-set loss from 0.003038 to 0.003007.)
 * Activation 2 squares before it multiplies (network.ts) and allows weights
 * within ±4095: QB 1024 for any weight within WEIGHT_CLIP. Both bounds are
 * one inside maxOutputWeight, the kernel's own.
 */
export function quantise(
  shape: Shape,
  params: Float32Array,
  qa: number,
  minQb: number,
  scale: number,
  activation = ACTIVATION_SCRELU,
): Network {
  const h = shape.hidden;
  const l = layoutOf(shape);
  let maxW2 = 0;
  for (let i = l.w2; i < l.b2; i++) maxW2 = Math.max(maxW2, Math.abs(params[i]));
  // One inside the kernel's bound, as every shipped network was quantised.
  const limit = maxOutputWeight(activation) - 1;
  const qb = Math.max(minQb, Math.min(1024, Math.floor(limit / maxW2)));
  const q = (x: number, f: number): number => Math.round(Math.max(-WEIGHT_CLIP, Math.min(WEIGHT_CLIP, x)) * f);
  const w1 = new Int16Array(inputCount(shape.kings ?? null) * h);
  for (let i = 0; i < w1.length; i++) w1[i] = q(params[l.w1 + i], qa);
  const b1 = new Int16Array(h);
  for (let i = 0; i < h; i++) b1[i] = q(params[l.b1 + i], qa);
  const w2 = new Int16Array(shape.buckets * 2 * h);
  for (let i = 0; i < w2.length; i++) w2[i] = q(params[l.w2 + i], qb);
  const b2 = new Int32Array(shape.buckets);
  for (let i = 0; i < shape.buckets; i++) b2[i] = Math.round(params[l.b2 + i] * qa * qb);
  return { kings: shape.kings ?? null, hidden: h, buckets: shape.buckets, activation, qa, qb, scale, w1, b1, w2, b2 };
}

/** Whether two king layouts are the same (both none, or the same map and mirroring). */
export function sameKings(a: KingBuckets | null, b: KingBuckets | null): boolean {
  if (a === null || b === null) return a === b;
  return a.mirror === b.mirror && a.map.every((x, i) => x === b.map[i]);
}
