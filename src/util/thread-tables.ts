// Tables that every thread of the engine would compute alike when its
// modules load (the sliding-attack table costs a new thread about 100 ms of
// CPU and 860 KB). The first thread of a process computes each one into
// shared memory; the threads it starts receive them with their start data,
// and the host's worker start-up code hands them over (as the global
// THREAD_TABLES_GLOBAL) before any of the engine's modules load, so a new
// thread neither computes nor copies them. They are read-only once made.
//
// Where threads cannot share memory (a browser page that is not
// cross-origin isolated), each thread computes its own.

import { HAS_SHARED_MEMORY, isShared, sharedMemory } from './shared-memory.js';

/** The global through which a new thread's start-up code passes the tables it was given (see the file comment). */
export const THREAD_TABLES_GLOBAL = 'kestrelThreadTables';

type Tables = Record<string, SharedArrayBuffer>;

/** The tables this thread was started with. */
const inherited: Tables = ((globalThis as Record<string, unknown>)[THREAD_TABLES_GLOBAL] as Tables | undefined) ?? {};
/** The shared tables this thread uses (inherited or made here), for the threads it starts. */
const made: Tables = {};

/**
 * The memory of table `name` (bytes long): the one this thread was started
 * with (fresh false), else a new one (fresh true, zeroed), shared where the
 * host allows it, for the caller to fill before anything reads it. Call it
 * once per table, when the module that owns it loads.
 */
export function threadTable(name: string, bytes: number): { buffer: ArrayBufferLike; fresh: boolean } {
  const given = inherited[name];
  if (given !== undefined && isShared(given) && given.byteLength === bytes) {
    made[name] = given;
    return { buffer: given, fresh: false };
  }
  const buffer = sharedMemory(bytes);
  if (HAS_SHARED_MEMORY) made[name] = buffer;
  return { buffer, fresh: true };
}

/** The shared tables of this thread, to pass to a thread it starts (see the file comment). */
export function threadTables(): Tables {
  return { ...made };
}
