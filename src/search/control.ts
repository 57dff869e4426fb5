// Flags shared between the UCI thread and the search worker(s) through a
// SharedArrayBuffer: the UCI thread raises them, the search polls them every
// few thousand nodes.

const STOP = 0;
const PONDERHIT = 1;

export class SearchControl {
  readonly flags: Int32Array;

  constructor(buffer: SharedArrayBuffer = new SharedArrayBuffer(16)) {
    this.flags = new Int32Array(buffer);
  }

  get buffer(): SharedArrayBuffer {
    return this.flags.buffer as SharedArrayBuffer;
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
