// The main thread's handle on the search worker: creates it on first use,
// forwards its messages, notices when it dies, and can replace it.

import type { EngineWorker } from '../platform/index.js';
import { errorText, type FromWorker, type SearchWorkerData, type ToWorker } from './messages.js';
import { startSearchWorker } from './search-worker.js';

export interface HostEvents {
  message(message: FromWorker): void;
  /** The worker ended without being asked to (crash, out of memory, ...). */
  died(reason: string): void;
}

export class WorkerHost {
  private worker: EngineWorker | null = null;

  constructor(
    /** workerData for a new worker (called once per worker started). */
    private readonly bootData: () => SearchWorkerData,
    private readonly events: HostEvents,
    /** False: the worker keeps the process alive (for callers whose lifetime is not stdin's). */
    private readonly unref = true,
  ) {}

  /** Sends a message to the worker, starting it if needed. */
  post(message: ToWorker): void {
    this.ensure().postMessage(message);
  }

  /** Starts the worker now (so that the first `go` does not pay for it). */
  warm(): void {
    this.ensure();
  }

  private ensure(): EngineWorker {
    if (this.worker !== null) return this.worker;
    const worker = startSearchWorker(this.bootData());
    let lastError = '';
    worker.on('message', (message: FromWorker) => {
      if (this.worker === worker) this.events.message(message);
    });
    worker.on('error', (e: unknown) => {
      lastError = errorText(e);
    });
    worker.on('exit', (code: number) => {
      if (this.worker !== worker) return; // replaced or terminated on purpose
      this.worker = null;
      this.events.died(lastError !== '' ? lastError : `exit code ${code}`);
    });
    // The UCI loop's lifetime follows stdin, not the worker.
    if (this.unref) worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Ends the worker (if any) without reporting it; the next post() starts a new one. */
  terminate(): void {
    const worker = this.worker;
    this.worker = null;
    if (worker !== null) void worker.terminate().catch(() => undefined);
  }
}
