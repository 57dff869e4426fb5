// Memory the threads of the engine share (a parallel search's searchers, the
// tables and network weights every thread reads). A SharedArrayBuffer where
// the host offers one (Node.js; a browser page that is cross-origin
// isolated); elsewhere a plain ArrayBuffer: the engine then searches with one
// thread, and a flag raised by another thread cannot reach a running search
// (Atomics.load and Atomics.store work on either kind).

/** Whether this host has SharedArrayBuffer. */
export const HAS_SHARED_MEMORY = typeof SharedArrayBuffer === 'function';

/** A zeroed buffer of `bytes`, shared between threads where the host allows it. */
export function sharedMemory(bytes: number): SharedArrayBuffer {
  return HAS_SHARED_MEMORY ? new SharedArrayBuffer(bytes) : (new ArrayBuffer(bytes) as unknown as SharedArrayBuffer);
}

/** Whether buffer is really shared (so Atomics.wait works on it and other threads see its writes). */
export function isShared(buffer: ArrayBufferLike): boolean {
  return HAS_SHARED_MEMORY && buffer instanceof SharedArrayBuffer;
}
