// The engine as a library for the commands that use it in-process (play,
// analyse): the same search worker the UCI loop runs (search-worker.ts), so
// the search runs off the main thread, which stays free for the keyboard,
// the clocks and Ctrl-C. One search at a time, as a promise; its info lines
// arrive parsed while it runs.

import { SearchControl } from '../search/control.js';
import { DEFAULT_SEARCH_OPTIONS, type GoParams, type SearchOptions } from '../search/limits.js';
import { WorkerHost } from './host.js';
import { type InfoLine, parseInfoLine } from './info.js';
import type { FromWorker, PositionSpec, SearchWorkerData } from './messages.js';

export interface SearchOutcome {
  /** UCI notation; '0000' when there is no legal move. */
  bestMove: string;
  ponderMove: string | null;
  /** The last exact line of each multipv (index 0: the best line, which agrees with bestMove), if any. */
  lines: InfoLine[];
  /** `info string` texts of the search (problems). */
  notes: string[];
}

export interface SearchHandle {
  done: Promise<SearchOutcome>;
  /** Ends the search now; `done` still resolves with its move. */
  stop(): void;
}

export interface EngineClientOptions {
  hashMb?: number;
  threads?: number;
}

interface Running {
  id: number;
  control: SearchControl;
  lines: InfoLine[];
  notes: string[];
  onInfo: ((line: InfoLine) => void) | undefined;
  resolve: (outcome: SearchOutcome) => void;
  reject: (error: Error) => void;
}

export class EngineClient {
  private readonly host: WorkerHost;
  private running: Running | null = null;
  private nextId = 1;
  private seq = 0;
  private readonly acks = new Map<number, () => void>();
  private warmUpControl = new SearchControl();
  /** Resolves when the current worker is ready to search (its boot message acknowledged). */
  private booted: Promise<void> = Promise.resolve();

  constructor(options: EngineClientOptions = {}) {
    const bootData = (): SearchWorkerData => {
      this.warmUpControl = new SearchControl();
      const bootSeq = ++this.seq;
      this.booted = new Promise((resolve) => this.acks.set(bootSeq, resolve));
      return {
        kestrelRole: 'search-worker',
        hashMb: options.hashMb ?? 16,
        threads: options.threads ?? 1,
        bootSeq,
        warmUpControl: this.warmUpControl.buffer,
      };
    };
    // The worker keeps the process alive until close().
    this.host = new WorkerHost(
      bootData,
      {
        message: (m) => this.onMessage(m),
        died: (reason) => this.onDied(reason),
      },
      false,
    );
  }

  /** Starts the worker now, so that the first search does not wait for it. */
  warm(): void {
    this.host.warm();
  }

  get busy(): boolean {
    return this.running !== null;
  }

  /**
   * Searches `position`. params: the `go` limits (nodes, movetime, clocks...);
   * options: MultiPV, strength and the rest (defaults as the UCI options').
   */
  search(
    position: PositionSpec,
    params: Partial<GoParams>,
    options: Partial<SearchOptions> = {},
    onInfo?: (line: InfoLine) => void,
  ): SearchHandle {
    if (this.running !== null) throw new Error('a search is already running');
    const id = this.nextId++;
    const control = new SearchControl();
    const done = new Promise<SearchOutcome>((resolve, reject) => {
      this.running = { id, control, lines: [], notes: [], onInfo, resolve, reject };
    });
    const post = (): void => {
      if (this.running?.id !== id) return; // closed meanwhile
      try {
        this.host.post({
          type: 'go',
          id,
          position,
          params: { infinite: false, ponder: false, searchmoves: [], ...params },
          options: { ...DEFAULT_SEARCH_OPTIONS, ...options },
          control: control.buffer,
          // The clock runs from now: not from before the worker was ready.
          receivedAt: Date.now(),
        });
        this.warmUpControl.stop();
      } catch (e) {
        this.fail(e instanceof Error ? e : new Error(String(e)));
      }
    };
    try {
      this.host.warm();
    } catch (e) {
      this.fail(e instanceof Error ? e : new Error(String(e)));
    }
    void this.booted.then(post);
    return {
      done,
      stop: () => {
        control.stop();
        Atomics.notify(control.flags, 0);
      },
    };
  }

  /** Forgets what earlier searches learned (a new game). */
  clear(): Promise<void> {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.acks.set(seq, resolve);
      try {
        this.host.post({ type: 'clear', seq });
      } catch {
        this.acks.delete(seq);
        resolve();
      }
    });
  }

  /** Ends the worker; a running search's promise is rejected. */
  close(): void {
    const running = this.running;
    if (running !== null) {
      running.control.stop();
      this.fail(new Error('the engine was closed'));
    }
    this.host.terminate();
    for (const resolve of this.acks.values()) resolve();
    this.acks.clear();
  }

  private onMessage(m: FromWorker): void {
    const running = this.running;
    switch (m.type) {
      case 'line': {
        if (running === null || running.id !== m.id) return;
        if (m.text.startsWith('info string ')) {
          running.notes.push(m.text.slice('info string '.length));
          return;
        }
        const line = parseInfoLine(m.text);
        if (line === null) return;
        if (line.bound === 'exact') running.lines[line.multipv - 1] = line;
        running.onInfo?.(line);
        break;
      }
      case 'done':
        if (running === null || running.id !== m.id) return;
        this.running = null;
        running.resolve({
          bestMove: m.bestMove ?? '0000',
          ponderMove: m.ponderMove,
          lines: running.lines.filter((l) => l !== undefined),
          notes: running.notes,
        });
        break;
      case 'ack': {
        const resolve = this.acks.get(m.seq);
        if (resolve !== undefined) {
          this.acks.delete(m.seq);
          resolve();
        }
        break;
      }
      case 'note':
        running?.notes.push(m.text);
        break;
    }
  }

  private onDied(reason: string): void {
    this.fail(new Error(`the search worker stopped (${reason})`));
    for (const resolve of this.acks.values()) resolve();
    this.acks.clear();
  }

  private fail(error: Error): void {
    const running = this.running;
    this.running = null;
    running?.reject(error);
  }
}
