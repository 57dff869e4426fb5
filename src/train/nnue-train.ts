// `kestrel train`: trains the network on viriformat games. The main thread
// holds the optimiser (AdamW, cosine learning-rate decay); worker threads
// compute the gradients of their share of each mini-batch over the shared
// positions and weights (SharedArrayBuffers: nothing is copied). After each
// epoch the validation loss is measured on games the training never saw;
// at the end the network is quantised, checked against the float one and
// written with a loss chart and a record of how it was made.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Worker, parentPort, workerData } from 'node:worker_threads';
import {
  type KingBuckets,
  NNUE_INPUTS,
  type Network,
  decodeNetwork,
  encodeNetwork,
  kingBuckets,
  outputBucket,
  shapeText,
} from '../eval/nnue/network.js';
import { accumulatorOf, outputOf } from '../eval/nnue/reference.js';
import { startWorker, workerRole } from '../platform/node.js';
import { lossChartSvg } from './loss-chart.js';
import {
  DEFAULT_FILTER,
  type LoadedData,
  MAX_FEATURES,
  type PositionFilter,
  type PositionSet,
  activeRows,
  loadPositions,
} from './nnue-data.js';
import {
  type GradientPass,
  type LossSettings,
  ReferencePass,
  type Shape,
  WEIGHT_CLIP,
  dequantise,
  widen,
  initParams,
  layoutOf,
  quantise,
  sameKings,
} from './nnue-model.js';
import { WasmGradients, wasmTrainerAvailable } from './wasm-gradients.js';
import { xorshift32 } from '../util/random.js';
import { clockText } from '../util/duration.js';

const ROLE = 'nnue-train-worker';

export interface TrainSettings extends Shape, LossSettings {
  data: string[];
  outDir: string;
  epochs: number;
  batch: number;
  /**
   * Learning rate at the start. It decays along a cosine to lr * lrFinal, or,
   * with lrDrops (epochs), is multiplied by lrGamma after each of those epochs.
   */
  lr: number;
  lrFinal: number;
  lrDrops: number[];
  lrGamma: number;
  weightDecay: number;
  threads: number;
  seed: number;
  /** Percent of the games held out for validation. */
  validPercent: number;
  filter: PositionFilter;
  qa: number;
  /** The smallest QB; quantise() may take a larger one (see there). */
  qb: number;
  /** Weights to start from instead of random ones: a .f32 file that train wrote, or a network file (.nnue). */
  init?: string;
  /**
   * Who computes the gradients: WebAssembly with SIMD (wasm-gradients.ts), or
   * the TypeScript reference (nnue-model.ts); the two agree to float32
   * rounding, not bit for bit.
   */
  kernel: TrainKernel;
}

export type TrainKernel = 'wasm' | 'ts';

/**
 * The recipe of generation 7 (its record: networks/kestrel-46a24609a963.json;
 * docs/records/networks.md row 37; the built-in generation 8 is the same at
 * 28 epochs), so that `kestrel train --data data/` makes the next one the same way. Why
 * each setting is what it is: docs/nnue.md, "Why the recipe is what it is".
 */
export const DEFAULT_TRAIN_SETTINGS: Omit<TrainSettings, 'data' | 'outDir'> = {
  hidden: 256,
  buckets: 8,
  kings: null,
  wdl: 0.1,
  scale: 400,
  sigmoidScale: 190,
  epochs: 40,
  batch: 4096,
  lr: 0.001,
  lrFinal: 0.05,
  lrDrops: [],
  lrGamma: 0.1,
  weightDecay: 0.01,
  threads: 2,
  seed: 1,
  validPercent: 3,
  filter: { ...DEFAULT_FILTER, mirror: true },
  qa: 255,
  qb: 64,
  kernel: 'wasm',
};

/** What a worker is given when it starts. */
interface WorkerInput {
  kestrelRole: typeof ROLE;
  shape: Shape;
  loss: LossSettings;
  kernel: TrainKernel;
  train: PositionSet;
  valid: PositionSet;
  params: Float32Array;
  grads: Float32Array;
  order: Int32Array;
}

type ToWorker = { set: 'train' | 'valid'; from: number; to: number; gradients: boolean };

interface EpochRecord {
  epoch: number;
  train: number;
  valid: number;
  lr: number;
  seconds: number;
}

export interface TrainResult {
  file: string;
  history: EpochRecord[];
  positions: number;
  validPositions: number;
  /** Quantised against float evaluation on validation positions, centipawns. */
  quantisation: { meanAbs: number; maxAbs: number; samples: number; withinTolerance: boolean };
}

/**
 * How far the quantised network may stray from the float one on validation
 * positions, in centipawns. The rounding of the weights and the truncated
 * integer output cost a few centipawns (x6: mean 5.2, max 25; x7: 5.8, 28);
 * beyond these, the file is still written but the trainer warns.
 */
const QUANTISATION_TOLERANCE = { meanAbs: 10, maxAbs: 50 };

/** The learning rate of optimiser step `step` (1-based) of `totalSteps`, in `epoch`: the step schedule (lrDrops) or the cosine. */
function learningRate(settings: TrainSettings, epoch: number, step: number, totalSteps: number): number {
  if (settings.lrDrops.length > 0) return settings.lr * settings.lrGamma ** settings.lrDrops.filter((e) => epoch > e).length;
  return settings.lr * (settings.lrFinal + (1 - settings.lrFinal) * 0.5 * (1 + Math.cos((Math.PI * (step - 1)) / totalSteps)));
}

/**
 * The weights of `file` to start training from: the float weights of a .f32
 * that train wrote, or a network file's integers turned back into floats
 * (dequantise: fine-tuning a network whose .f32 was not kept), widened when
 * the file is narrower than --hidden.
 */
function initialWeights(file: string, shape: Shape, scale: number, seed: number): Float32Array {
  const bytes = new Uint8Array(readFileSync(file));
  if (file.endsWith('.nnue')) {
    const net = decodeNetwork(bytes);
    if (net.hidden > shape.hidden || net.buckets !== shape.buckets || !sameKings(net.kings, shape.kings ?? null))
      throw new Error(`${file} is a ${shapeText(net)} network; --hidden and --buckets ask for ${shapeText(shape)}`);
    const params = dequantise(net, scale);
    return net.hidden === shape.hidden ? params : widen(params, net, shape, seed);
  }
  const recorded = recordedKings(file);
  if (recorded !== undefined && !sameKings(recorded, shape.kings ?? null))
    throw new Error(
      `${file} is a ${shapeText({ ...shape, kings: recorded })} network (its .json record); --king-buckets asks for ${shapeText(shape)}`,
    );
  const saved = new Float32Array(bytes.buffer, 0, bytes.length >> 2);
  const size = layoutOf(shape).size;
  if (saved.length !== size) throw new Error(`${file} holds ${saved.length} weights, a ${shapeText(shape)} network has ${size}`);
  return saved;
}

/**
 * The king buckets the record beside a .f32 (the .json train wrote with it)
 * names, null for none (also a record from before king buckets), undefined
 * without a record: a .f32 holds weights only, and `mirror` has as many as
 * none.
 */
export function recordedKings(f32: string): KingBuckets | null | undefined {
  const json = f32.replace(/\.f32$/, '.json');
  if (json === f32 || !existsSync(json)) return undefined;
  const kings = JSON.parse(readFileSync(json, 'utf8')).settings?.kings;
  return kings ? kingBuckets(kings.map, kings.mirror) : null;
}

const BETA1 = 0.9;
const BETA2 = 0.999;

/**
 * W1 of a network with king buckets, learnt factored: every input's weights
 * are a factor shared by all king buckets plus the bucket's own part, and
 * the network uses their sum. An input seen in one bucket then teaches all
 * the others too, so that the buckets' many weights need no more games than
 * one set does; each bucket's part learns only what is particular to it.
 * The factor starts as a one-bucket network's W1 would and the parts at
 * zero (or, from --init, the parts hold the weights and the factor is zero).
 * The trainer's kernels see the sums (params' W1), and a sum's gradient is
 * that of its part; the factor's is the sum of its parts' over the buckets.
 */
class FactoredInputs {
  private readonly rowBlock: number;
  private readonly parts: Float32Array;
  private readonly factor: Float32Array;
  private readonly mParts: Float32Array;
  private readonly vParts: Float32Array;
  private readonly mFactor: Float32Array;
  private readonly vFactor: Float32Array;
  private readonly gFactor: Float32Array;
  private readonly w1Size: number;

  /** params: the network's weights, W1 first (kingBuckets blocks of 768 inputs of `hidden` weights). */
  constructor(
    private readonly params: Float32Array,
    hidden: number,
    kingBuckets: number,
    fresh: boolean,
  ) {
    const block = NNUE_INPUTS * hidden;
    const w1Size = block * kingBuckets;
    this.rowBlock = block;
    this.w1Size = w1Size;
    this.parts = new Float32Array(w1Size);
    this.factor = new Float32Array(block);
    // Fresh: the factor takes the first bucket's initial weights (initParams), the parts are zero.
    if (fresh) this.factor.set(params.subarray(0, block));
    else this.parts.set(params.subarray(0, w1Size));
    this.mParts = new Float32Array(w1Size);
    this.vParts = new Float32Array(w1Size);
    this.mFactor = new Float32Array(block);
    this.vFactor = new Float32Array(block);
    this.gFactor = new Float32Array(block);
    this.write();
  }

  /** One AdamW step of the parts and the factor from the workers' gradients of the sums (times scale), and the sums written back. */
  step(grads: Float32Array[], scale: number, lr: number, c1: number, c2: number, decay: number): void {
    const block = this.rowBlock;
    const gFactor = this.gFactor;
    gFactor.fill(0);
    for (let base = 0; base < this.w1Size; base += block) {
      for (let j = 0; j < block; j++) {
        const i = base + j;
        let g = 0;
        for (let w = 0; w < grads.length; w++) g += grads[w][i];
        g *= scale;
        gFactor[j] += g;
        this.parts[i] = adamW(this.parts[i], g, this.mParts, this.vParts, i, lr, c1, c2, decay);
      }
    }
    for (let j = 0; j < block; j++) this.factor[j] = adamW(this.factor[j], gFactor[j], this.mFactor, this.vFactor, j, lr, c1, c2, decay);
    this.write();
  }

  /**
   * params' W1 = each bucket's part plus the factor, within the
   * quantisation's bound; a part is pulled back with its sum, so that a
   * clipped weight moves again as soon as its gradient turns.
   */
  private write(): void {
    const block = this.rowBlock;
    for (let base = 0; base < this.w1Size; base += block) {
      for (let j = 0; j < block; j++) {
        let w = this.parts[base + j] + this.factor[j];
        if (w > WEIGHT_CLIP || w < -WEIGHT_CLIP) {
          w = w > 0 ? WEIGHT_CLIP : -WEIGHT_CLIP;
          this.parts[base + j] = w - this.factor[j];
        }
        this.params[base + j] = w;
      }
    }
  }
}

/** One AdamW step of weight p with gradient g and moments m[i], v[i]. */
function adamW(
  p: number,
  g: number,
  m: Float32Array,
  v: Float32Array,
  i: number,
  lr: number,
  c1: number,
  c2: number,
  decay: number,
): number {
  m[i] = BETA1 * m[i] + (1 - BETA1) * g;
  v[i] = BETA2 * v[i] + (1 - BETA2) * g * g;
  return p - lr * ((m[i] * c1) / (Math.sqrt(v[i] * c2) + 1e-8) + decay * p);
}

/** A seeded Fisher-Yates shuffle of 0..n-1 into order (xorshift32; seed 0 counts as 1). */
function shuffle(order: Int32Array, n: number, seed: number): void {
  const random = xorshift32(seed | 0 || 1);
  for (let i = 0; i < n; i++) order[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = random() % (i + 1);
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

/** The worker threads, each with its own gradient buffer. */
class GradientWorkers {
  private readonly workers: Worker[] = [];
  readonly grads: Float32Array[] = [];

  constructor(
    threads: number,
    shape: Shape,
    loss: LossSettings,
    data: LoadedData,
    params: Float32Array,
    order: Int32Array,
    kernel: TrainKernel,
  ) {
    const size = layoutOf(shape).size;
    for (let t = 0; t < threads; t++) {
      const grads = new Float32Array(new SharedArrayBuffer(size * 4));
      this.grads.push(grads);
      const input: WorkerInput = { kestrelRole: ROLE, shape, loss, kernel, train: data.train, valid: data.valid, params, grads, order };
      this.workers.push(startWorker(import.meta.url, input));
    }
  }

  /** Positions [from, to) of the set split among the workers; resolves with the summed loss. */
  run(set: 'train' | 'valid', from: number, to: number, gradients: boolean): Promise<number> {
    const n = this.workers.length;
    const share = Math.ceil((to - from) / n);
    return Promise.all(
      this.workers.map(
        (w, i) =>
          new Promise<number>((resolve, reject) => {
            const onMessage = (loss: number): void => {
              w.off('error', reject);
              resolve(loss);
            };
            w.once('message', onMessage);
            w.once('error', reject);
            const a = Math.min(to, from + i * share);
            w.postMessage({ set, from: a, to: Math.min(to, a + share), gradients } satisfies ToWorker);
          }),
      ),
    ).then((losses) => losses.reduce((x, y) => x + y, 0));
  }

  close(): void {
    for (const w of this.workers) void w.terminate();
  }
}

/** Trains a network; progress and results go to log (one line each) and status (the progress line). */
export async function train(
  settings: TrainSettings,
  log: (line: string) => void,
  status: (line: string) => void = log,
  /** Positions to train on instead of settings.data's files (tests). */
  given?: LoadedData,
): Promise<TrainResult> {
  const shape: Shape = { hidden: settings.hidden, buckets: settings.buckets, kings: settings.kings ?? null };
  const loss: LossSettings = { wdl: settings.wdl, scale: settings.scale, sigmoidScale: settings.sigmoidScale };
  const t0 = performance.now();
  const data = given ?? loadPositions(settings.data, settings.filter, settings.validPercent);
  log(
    `${data.games} games, ${data.read} positions: ${data.train.count} for training, ${data.valid.count} for validation ` +
      `(left out: ${data.inCheck} in check, ${data.noisy} with a capture or promotion, ${data.bigScore} with |score| > ${settings.filter.maxScore}` +
      `${settings.filter.mirror ? `; training set with ${data.mirrored} mirrored copies` : ''}); ` +
      `read in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  if (data.train.count === 0 || data.valid.count === 0) throw new Error('not enough positions to train and validate on');
  const kernel: TrainKernel = settings.kernel === 'wasm' && !wasmTrainerAvailable() ? 'ts' : settings.kernel;
  if (kernel !== settings.kernel) log('WebAssembly SIMD is not available here: the TypeScript kernel computes the gradients');

  const layout = layoutOf(shape);
  const params = new Float32Array(new SharedArrayBuffer(layout.size * 4));
  if (settings.init === undefined) initParams(shape, params, settings.seed);
  else params.set(initialWeights(settings.init, shape, settings.scale, settings.seed));
  // The weights of the epoch with the lowest validation loss are the ones written.
  const best = new Float32Array(layout.size);
  let bestValid = Infinity;
  let lastValid = Infinity;
  const m = new Float32Array(layout.size);
  const v = new Float32Array(layout.size);
  // With king buckets, W1 is learnt as a shared factor plus each bucket's own part.
  const factored =
    shape.kings && shape.kings.count > 1 ? new FactoredInputs(params, shape.hidden, shape.kings.count, settings.init === undefined) : null;
  const order = new Int32Array(new SharedArrayBuffer(data.train.count * 4));
  const workers = new GradientWorkers(settings.threads, shape, loss, data, params, order, kernel);
  const history: EpochRecord[] = [];
  const batches = Math.ceil(data.train.count / settings.batch);
  const totalSteps = settings.epochs * batches;
  let step = 0;
  const trainStart = performance.now();
  try {
    const validLoss = async (): Promise<number> => (await workers.run('valid', 0, data.valid.count, false)) / data.valid.count;
    bestValid = await validLoss();
    lastValid = bestValid;
    best.set(params);
    log(`epoch 0: validation loss ${bestValid.toFixed(6)}`);
    for (let epoch = 1; epoch <= settings.epochs; epoch++) {
      const epochStart = performance.now();
      shuffle(order, data.train.count, settings.seed * 7919 + epoch);
      let trainSum = 0;
      let lr = settings.lr;
      for (let b = 0; b < batches; b++) {
        const from = b * settings.batch;
        const to = Math.min(data.train.count, from + settings.batch);
        for (const g of workers.grads) g.fill(0);
        trainSum += await workers.run('train', from, to, true);
        // AdamW, with the gradient of the batch's mean loss.
        step++;
        lr = learningRate(settings, epoch, step, totalSteps);
        const scale = 1 / (to - from);
        const c1 = 1 / (1 - BETA1 ** step);
        const c2 = 1 / (1 - BETA2 ** step);
        const grads = workers.grads;
        if (factored !== null) factored.step(grads, scale, lr, c1, c2, settings.weightDecay);
        for (let i = factored === null ? 0 : layout.b1; i < layout.size; i++) {
          let g = 0;
          for (let w = 0; w < grads.length; w++) g += grads[w][i];
          const p = adamW(params[i], g * scale, m, v, i, lr, c1, c2, settings.weightDecay);
          params[i] = p > WEIGHT_CLIP ? WEIGHT_CLIP : p < -WEIGHT_CLIP ? -WEIGHT_CLIP : p;
        }
        const done = (epoch - 1) * batches + b + 1;
        const elapsed = (performance.now() - trainStart) / 1000;
        const rate = (done * settings.batch) / elapsed;
        status(
          `epoch ${epoch}/${settings.epochs} ${'#'.repeat(Math.round((20 * (b + 1)) / batches)).padEnd(20, '.')} ` +
            `loss ${(trainSum / Math.max(1, to)).toFixed(6)}  validation ${lastValid.toFixed(6)}  ` +
            `${Math.round(rate)} positions/s  lr ${lr.toExponential(2)}  ` +
            `time left ${clockText(Math.round(((totalSteps - done) * settings.batch) / rate), 'always')}`,
        );
      }
      const record: EpochRecord = {
        epoch,
        train: trainSum / data.train.count,
        valid: await validLoss(),
        lr,
        seconds: (performance.now() - epochStart) / 1000,
      };
      history.push(record);
      lastValid = record.valid;
      if (record.valid < bestValid) {
        bestValid = record.valid;
        best.set(params);
      }
      log(
        `epoch ${epoch}: loss ${record.train.toFixed(6)}, validation loss ${record.valid.toFixed(6)}, ` +
          `${Math.round(data.train.count / record.seconds)} positions/s`,
      );
    }
  } finally {
    workers.close();
  }

  // Quantise the best epoch's weights, and check the integer network against the float one.
  params.set(best);
  const net = quantise(shape, params, settings.qa, settings.qb, settings.scale);
  const check = quantisationError(shape, params, net, data.valid, settings.scale);
  log(
    `quantised (QA ${net.qa}, QB ${net.qb}) against the float network (validation loss ${bestValid.toFixed(6)}) on ${check.samples} validation positions: ` +
      `mean |difference| ${check.meanAbs.toFixed(2)} cp, max ${check.maxAbs} cp: ` +
      (check.withinTolerance ? 'within the tolerance' : `WARNING: beyond the tolerance`) +
      ` (mean ${QUANTISATION_TOLERANCE.meanAbs} cp, max ${QUANTISATION_TOLERANCE.maxAbs} cp)`,
  );
  const bytes = encodeNetwork(net);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  mkdirSync(settings.outDir, { recursive: true });
  const base = join(settings.outDir, `kestrel-${hash}`);
  writeFileSync(`${base}.nnue`, bytes);
  writeFileSync(`${base}.f32`, new Uint8Array(params.buffer, 0, layout.size * 4));
  writeFileSync(`${base}.svg`, lossChartSvg(history, `kestrel-${hash}: ${shapeText(settings)}, ${data.train.count} positions`));
  const { filter, kings, ...rest } = settings;
  const kingsRecord = kings ? { count: kings.count, mirror: kings.mirror, map: [...kings.map] } : null;
  writeFileSync(
    `${base}.json`,
    `${JSON.stringify({ network: `kestrel-${hash}.nnue`, settings: { ...rest, kings: kingsRecord, filter, kernel }, positions: data.train.count, validPositions: data.valid.count, history, quantisation: check }, null, 2)}\n`,
  );
  return { file: `${base}.nnue`, history, positions: data.train.count, validPositions: data.valid.count, quantisation: check };
}

/** Quantised against float evaluations (centipawns) on up to 20,000 positions of set. */
function quantisationError(shape: Shape, params: Float32Array, net: Network, set: PositionSet, scale: number): TrainResult['quantisation'] {
  const samples = Math.min(set.count, 20000);
  const us = new Int16Array(net.hidden);
  const them = new Int16Array(net.hidden);
  const float = new ReferencePass(shape);
  let sum = 0;
  let max = 0;
  const inputsUs = new Int32Array(MAX_FEATURES);
  const inputsThem = new Int32Array(MAX_FEATURES);
  for (let i = 0; i < samples; i++) {
    const p = Math.floor((i * set.count) / samples);
    const n = activeRows(set, p, 1, inputsUs, inputsThem, net.kings);
    accumulatorOf(net, inputsUs, n, us);
    accumulatorOf(net, inputsThem, n, them);
    const bucket = outputBucket(n, net.buckets);
    const diff = Math.abs(outputOf(net, us, them, bucket) - float.evaluate(params, set, p) * scale);
    sum += diff;
    if (diff > max) max = diff;
  }
  const meanAbs = sum / samples;
  const maxAbs = Math.round(max);
  const withinTolerance = meanAbs <= QUANTISATION_TOLERANCE.meanAbs && maxAbs <= QUANTISATION_TOLERANCE.maxAbs;
  return { meanAbs, maxAbs, samples, withinTolerance };
}

/** True in a training worker thread. */
export function isTrainWorker(): boolean {
  return workerRole() === ROLE;
}

/** The worker body: gradients (or just the loss) of the positions it is sent. */
export function runTrainWorker(): void {
  const input = workerData as WorkerInput;
  const pass: GradientPass = input.kernel === 'wasm' ? new WasmGradients(input.shape) : new ReferencePass(input.shape);
  parentPort!.on('message', (m: ToWorker) => {
    const set = m.set === 'train' ? input.train : input.valid;
    const order = m.set === 'train' ? input.order : null;
    parentPort!.postMessage(pass.run(input.params, m.gradients ? input.grads : null, set, order, m.from, m.to, input.loss));
  });
}

// Under tsx the worker loads this module itself (see platform/node.ts).
if (isTrainWorker() && import.meta.url.endsWith('.ts')) runTrainWorker();
