// The network a front end asks for (UCI's EvalFile, the library's
// networkFile): a file read, checked and decoded in this one place, with
// one set of reasons for refusing it. A file is decoded once, on the thread
// that loads it: its weights land in shared memory, which the search worker
// and its helpers use as they are (eval/index.ts).

import { EMBEDDED_NETWORK, NetworkError, decodeNetwork } from '../eval/index.js';
import type { Network } from '../eval/nnue/network.js';
import { platform } from '../platform/index.js';
import { fileProblem } from '../util/errors.js';
import { BUILT_IN_NETWORK } from './settings.js';

/** A network to evaluate with, and what to call it. */
export interface LoadedNetwork {
  /** A file's network; null: the built-in one. */
  net: Network | null;
  /** The file's name (without its folders), or the built-in network's. */
  name: string;
}

/** Why a network file cannot be used: it cannot be read, or is not a network this engine reads (the message says which). */
export class NetworkFileError extends Error {}

/**
 * The network of `file`: a path (read through the platform), a file's
 * bytes, or (empty, or BUILT_IN_NETWORK) the built-in network. Throws
 * NetworkFileError.
 */
export function loadNetwork(file: string | Uint8Array): LoadedNetwork {
  if (file === '' || file === BUILT_IN_NETWORK) return { net: null, name: EMBEDDED_NETWORK };
  let bytes = file;
  if (typeof file === 'string') {
    try {
      bytes = platform.readFile(file);
    } catch (e) {
      throw new NetworkFileError(fileProblem(e));
    }
  }
  try {
    const net = decodeNetwork(bytes as Uint8Array);
    return { net, name: typeof file === 'string' ? file.split(/[\\/]/).pop() || file : '(bytes)' };
  } catch (e) {
    if (e instanceof NetworkError) throw new NetworkFileError(e.message);
    throw e;
  }
}
