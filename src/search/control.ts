// Flags shared between the engine host's thread (src/engine/host.ts) and the
// search worker(s) through a SharedArrayBuffer: the host raises them, the
// search polls them every few thousand nodes.

import type { GoParams } from './limits.js';
import { isShared, sharedMemory } from '../util/shared-memory.js';

const STOP = 0;
const PONDERHIT = 1;

export class SearchControl {
  readonly flags: Int32Array;

  constructor(buffer: SharedArrayBuffer = sharedMemory(16)) {
    this.flags = new Int32Array(buffer);
  }

  get buffer(): SharedArrayBuffer {
    return this.flags.buffer as SharedArrayBuffer;
  }

  /** Whether another thread can raise these flags (false where the host has no shared memory: see shared-memory.ts). */
  get shared(): boolean {
    return isShared(this.flags.buffer);
  }

  /** Clears both flags before a new search starts. */
  reset(): void {
    Atomics.store(this.flags, STOP, 0);
    Atomics.store(this.flags, PONDERHIT, 0);
  }

  stop(): void {
    Atomics.store(this.flags, STOP, 1);
  }

  get stopped(): boolean {
    return Atomics.load(this.flags, STOP) !== 0;
  }

  ponderhit(): void {
    Atomics.store(this.flags, PONDERHIT, 1);
  }

  get ponderhitReceived(): boolean {
    return Atomics.load(this.flags, PONDERHIT) !== 0;
  }
}

/** With `go infinite` or an unanswered `go ponder`, bestmove must wait for stop (or ponderhit): this waits. */
export function waitWhileInfinite(control: SearchControl, params: Pick<GoParams, 'infinite' | 'ponder'>): void {
  if (!params.infinite && !params.ponder) return;
  while (!control.stopped && !(params.ponder && !params.infinite && control.ponderhitReceived)) Atomics.wait(control.flags, 0, 0, 5);
}
