// The evaluation's public face, for the search and the front ends: the
// network (NNUE) when one is in use, else the hand-crafted evaluation.
// Each thread has its own choice and its own accumulators.

import type { Position } from '../board/position.js';
import { evaluate as evaluateHce } from './evaluate.js';
import { explainEval } from './explain.js';
import { EMBEDDED_NETWORK_BASE64, EMBEDDED_NETWORK_NAME } from './nnue/embedded-net.js';
import { type KernelChoice, NnueEvaluator } from './nnue/evaluator.js';
import { type Network, decodeNetwork, shapeText } from './nnue/network.js';

export { NetworkError, decodeNetwork } from './nnue/network.js';

/** Whether the engine evaluates with its network unless told otherwise (UCI option UseNNUE). */
export const USE_NNUE_DEFAULT = true;

let embedded: Network | null = null;

/** The network built into the engine (decoded once per thread). */
export function embeddedNetwork(): { net: Network; name: string } {
  embedded ??= decodeNetwork(Uint8Array.from(atob(EMBEDDED_NETWORK_BASE64), (c) => c.charCodeAt(0)));
  return { net: embedded, name: EMBEDDED_NETWORK_NAME };
}

let nnue: NnueEvaluator | null = USE_NNUE_DEFAULT ? new NnueEvaluator(embeddedNetwork().net) : null;

/** Evaluate with this network from now on in this thread, or (null) with the hand-crafted evaluation. */
export function useNetwork(net: Network | null, kernel: KernelChoice = 'auto'): void {
  if (net === nnue?.net && (kernel === 'auto' || kernel === nnue.kernelName)) return;
  nnue = net === null ? null : new NnueEvaluator(net, kernel);
}

/** Which evaluation a thread uses: the network (built in, or the bytes of a network file) or the hand-crafted one. */
export interface NetworkChoice {
  use: boolean;
  /** A network file's bytes (already checked); null: the built-in network. */
  bytes: Uint8Array | null;
}

/** Makes this thread evaluate as `choice` says. */
export function applyNetworkChoice(choice: NetworkChoice): void {
  useNetwork(choice.use ? (choice.bytes === null ? embeddedNetwork().net : decodeNetwork(choice.bytes)) : null);
}

/**
 * Runs fn with the hand-crafted evaluation in this thread, then goes back to
 * the network in use, if any (its accumulators know the positions they hold,
 * so nothing is lost). The strength levels search this way.
 */
export function withHandCraftedEval<T>(fn: () => T): T {
  const saved = nnue;
  nnue = null;
  try {
    return fn();
  } finally {
    nnue = saved;
  }
}

/** The network in use in this thread, or null. */
export function networkInUse(): NnueEvaluator | null {
  return nnue;
}

/** Static evaluation in centipawns from the side to move's point of view. */
export function evaluate(pos: Position): number {
  return nnue !== null ? nnue.evaluate(pos) : evaluateHce(pos);
}

/** The `eval` command's text: the hand-crafted evaluation term by term, and the network's verdict when one is in use. */
export function explain(pos: Position): string {
  const hce = explainEval(pos);
  if (nnue === null) return `${hce}\nNNUE: not in use (UseNNUE false): the evaluation above is the engine's.`;
  const v = nnue.evaluate(pos);
  const white = pos.side === 0 ? v : -v;
  return `${hce}\nNNUE (${nnue.kernelName} kernel, ${shapeText(nnue.net)}): ${(white / 100).toFixed(2)} (White's view): the engine's evaluation.`;
}
