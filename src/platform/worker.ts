// Starting worker threads on Node.js. A worker runs the same code as the
// process that starts it: in the bundle (dist/kestrel.js) the bundle file
// itself, whose entry asks workerRole() what to run; under tsx (development)
// the module that asked, which starts its worker body when it sees its role.

import { Worker, isMainThread, workerData } from 'node:worker_threads';

/** The role a worker was started in (workerData.kestrelRole), or null on the main thread. */
export function workerRole(): string | null {
  if (isMainThread) return null;
  const data = workerData as { kestrelRole?: unknown } | null | undefined;
  return data !== null && typeof data === 'object' && typeof data.kestrelRole === 'string' ? data.kestrelRole : null;
}

/** Starts a worker running moduleUrl (pass import.meta.url) with data as its workerData. */
export function startWorker<T extends { kestrelRole: string }>(moduleUrl: string, data: T): Worker {
  if (moduleUrl.endsWith('.ts')) {
    // Development under tsx: on Node.js 20 a worker does not inherit tsx's
    // module hooks, so the worker registers them before importing the module.
    try {
      const api = import.meta.resolve('tsx/esm/api');
      const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(moduleUrl)}); })`;
      return new Worker(boot, { eval: true, workerData: data });
    } catch {
      // tsx is not installed: try the plain way below.
    }
  }
  return new Worker(new URL(moduleUrl), { workerData: data });
}
