// The evaluation's public face, for the search and the front ends: the
// network (NNUE) when one is in use, else the hand-crafted evaluation.
// Each thread has its own choice and its own accumulators; a network's
// weights are decoded once per process and shared read-only by its threads
// (the built-in network's bytes through a thread table, a search's helpers'
// networks through ThreadEvaluation).

import type { Position } from '../board/position.js';
import { threadTable } from '../util/thread-tables.js';
import { evaluate as evaluateHce } from './evaluate.js';
import { explainEval } from './explain.js';
import { EMBEDDED_NETWORK_BASE64, EMBEDDED_NETWORK_NAME } from './nnue/embedded-net.js';
import { type KernelChoice, NnueEvaluator } from './nnue/evaluator.js';
import { type Network, decodeNetwork, shapeText } from './nnue/network.js';
import type { WasmShare } from './nnue/wasm.js';

export { NetworkError, decodeNetwork } from './nnue/network.js';

/** Whether the engine evaluates with its network unless told otherwise (UCI option UseNNUE). */
export const USE_NNUE_DEFAULT = true;

/** The file name of the network built into the engine. */
export const EMBEDDED_NETWORK = EMBEDDED_NETWORK_NAME;

let embedded: Network | null = null;

/**
 * The network built into the engine. Its bytes are decoded from base64 once
 * per process (the first thread to need them shares them with the threads
 * it starts), and the network's weights are views of them.
 */
export function embeddedNetwork(): { net: Network; name: string } {
  if (embedded === null) {
    const table = threadTable('embedded-network', base64Length(EMBEDDED_NETWORK_BASE64));
    const bytes = new Uint8Array(table.buffer);
    if (table.fresh) decodeBase64(EMBEDDED_NETWORK_BASE64, bytes);
    embedded = decodeNetwork(bytes, true);
  }
  return { net: embedded, name: EMBEDDED_NETWORK_NAME };
}

/** Bytes of base64 text (with its `=` padding). */
function base64Length(text: string): number {
  let pad = 0;
  while (pad < 2 && text.charCodeAt(text.length - 1 - pad) === 61) pad++;
  return (text.length / 4) * 3 - pad;
}

/** Decodes base64 text into out (base64Length(text) bytes long). */
function decodeBase64(text: string, out: Uint8Array): void {
  const bytes = atob(text);
  for (let i = 0; i < out.length; i++) out[i] = bytes.charCodeAt(i);
}

let nnue: NnueEvaluator | null = null;
/** The built-in network is this thread's choice but not made yet: the first evaluation makes it (a helper thread is given its network instead). */
let builtInPending = USE_NNUE_DEFAULT;

/** The evaluator in use, making the built-in network's if it is chosen and not made yet. */
function current(): NnueEvaluator | null {
  if (builtInPending) {
    builtInPending = false;
    nnue = new NnueEvaluator(embeddedNetwork().net);
  }
  return nnue;
}

/** Evaluate with this network from now on in this thread, or (null) with the hand-crafted evaluation. */
export function useNetwork(net: Network | null, kernel: KernelChoice = 'auto'): void {
  builtInPending = false;
  if (net === nnue?.net && (kernel === 'auto' || kernel === nnue.kernelName)) return;
  nnue = net === null ? null : new NnueEvaluator(net, kernel);
}

/** Which evaluation a thread uses: the network (built in, or a network file's) or the hand-crafted one. */
export interface NetworkChoice {
  use: boolean;
  /** A network file's network (decodeNetwork: its weights in memory that threads share); null: the built-in network. */
  net: Network | null;
}

/** Makes this thread evaluate as `choice` says (the built-in network is made when first used). */
export function applyNetworkChoice(choice: NetworkChoice): void {
  if (!choice.use) useNetwork(null);
  else if (choice.net !== null) useNetwork(choice.net);
  else if (nnue === null || nnue.net !== embedded) {
    nnue = null;
    builtInPending = true;
  }
}

/**
 * The evaluation of a thread, as the threads it starts (a parallel search's
 * helpers) take it over: the same network, whose weights they share
 * (WebAssembly memory with a region for each thread's accumulators, when
 * the thread uses the WebAssembly kernel).
 */
export interface ThreadEvaluation {
  /** null: the hand-crafted evaluation. */
  net: Network | null;
  /** null: the TypeScript kernel over net's arrays. */
  wasm: WasmShare | null;
}

/** This thread's evaluation for `threads` other threads: thread k (0 up) takes it with useThreadEvaluation(e, k). */
export function evaluationForThreads(threads: number): ThreadEvaluation {
  const e = current();
  return e === null ? { net: null, wasm: null } : { net: e.net, wasm: e.shareNetwork(threads) };
}

/** Evaluates as the thread that made `evaluation` does, with region `slot` of its shared memory. */
export function useThreadEvaluation(evaluation: ThreadEvaluation, slot: number): void {
  builtInPending = false;
  const { net, wasm } = evaluation;
  nnue = net === null ? null : new NnueEvaluator(net, wasm === null ? 'ts' : 'wasm', wasm === null ? null : { wasm, slot });
}

/**
 * Runs fn with the hand-crafted evaluation in this thread, then goes back to
 * the network in use, if any (its accumulators know the positions they hold,
 * so nothing is lost). The strength levels search this way.
 */
export function withHandCraftedEval<T>(fn: () => T): T {
  const saved = nnue;
  const savedPending = builtInPending;
  nnue = null;
  builtInPending = false;
  try {
    return fn();
  } finally {
    nnue = saved;
    builtInPending = savedPending;
  }
}

/** The network in use in this thread, or null. */
export function networkInUse(): NnueEvaluator | null {
  return current();
}

/** Static evaluation in centipawns from the side to move's point of view. */
export function evaluate(pos: Position): number {
  return nnue !== null ? nnue.evaluate(pos) : evaluateOther(pos);
}

/** evaluate() without a network made: the built-in one if it is chosen (made now), else the hand-crafted evaluation. */
function evaluateOther(pos: Position): number {
  const e = current();
  return e !== null ? e.evaluate(pos) : evaluateHce(pos);
}

/** The `eval` command's text: the hand-crafted evaluation term by term, and the network's verdict when one is in use. */
export function explain(pos: Position): string {
  const hce = explainEval(pos);
  const e = current();
  if (e === null) return `${hce}\nNNUE: not in use (UseNNUE false): the evaluation above is the engine's.`;
  const v = e.evaluate(pos);
  const white = pos.side === 0 ? v : -v;
  return `${hce}\nNNUE (${e.kernelName} kernel, ${shapeText(e.net)}): ${(white / 100).toFixed(2)} (White's view): the engine's evaluation.`;
}
