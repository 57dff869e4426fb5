// The main thread's handle on the search worker: creates it on first use,
// forwards its messages, notices when it dies, and can replace it. The only
// code that starts a search worker (helpers are started by the worker's own
// ThreadPool).

import type { EngineWorker } from '../platform/index.js';
import type { FromWorker, SearchWorkerData, ToWorker } from './messages.js';
import { startSearchWorker } from './search-worker.js';
import { errorText } from '../util/errors.js';

export interface WorkerEvents {
  message(message: FromWorker): void;
  /** The worker ended without being asked to (crash, out of memory, ...). */
  died(reason: string): void;
}

/**
 * When the worker keeps a Node.js process alive: never (a UCI loop, whose
 * lifetime is its input's), while busy (the library: while a search runs or
 * waits), or always (until terminated: play and analyse).
 */
export type KeepAlive = 'never' | 'busy' | 'always';

export class WorkerHost {
  private worker: EngineWorker | null = null;
  private busy = false;

  constructor(
    /** workerData for a new worker (called once per worker started). */
    private readonly bootData: () => SearchWorkerData,
    private readonly events: WorkerEvents,
    private readonly keepAlive: KeepAlive,
  ) {}

  /** Sends a message to the worker, starting it if needed. */
  post(message: ToWorker): void {
    this.ensure().postMessage(message);
  }

  /** Starts the worker now (so that the first job does not pay for it). */
  warm(): void {
    this.ensure();
  }

  /** Whether a worker is running (or starting). */
  get alive(): boolean {
    return this.worker !== null;
  }

  /** With keepAlive 'busy': whether work is running or waiting. */
  setBusy(busy: boolean): void {
    this.busy = busy;
    this.updateRef();
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
    this.worker = worker;
    this.updateRef();
    return worker;
  }

  private updateRef(): void {
    const worker = this.worker;
    if (worker === null) return;
    if (this.keepAlive === 'always' || (this.keepAlive === 'busy' && this.busy)) worker.ref();
    else worker.unref();
  }

  /** Ends the worker (if any) without reporting it; the next post() starts a new one. */
  terminate(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker === null) return Promise.resolve();
    return worker.terminate().then(
      () => undefined,
      () => undefined,
    );
  }
}
