// The engine host: the one object every front end (the UCI loop, the library,
// play, analyse) runs searches through. It owns the search worker (through
// WorkerHost), runs jobs — go, perft, bench — one at a time in the order
// they were submitted, applies changes of hash, threads, network and clears
// in order with them, and supervises each job:
//
//   - every job ends with exactly one `done`, and nothing of it is reported
//     after that;
//   - a search that overruns its clock (a grace period after the time
//     manager's hard limit, and before the clock runs out), or does not
//     answer `stop` within stopGraceMs, is given up: the host plays its best
//     line's first move, or a two-ply look's choice when no line is known
//     (fallback.ts), and the worker gets HANG_LIMIT_MS more to answer before
//     it is replaced; the next job waits for one or the other;
//   - when the worker dies, the job running ends with the same fallback
//     (and `failure` set unless it had been stopped), everything waiting on
//     the worker is settled, and a worker that had booted is restarted;
//   - without shared memory (a page that is not cross-origin isolated) no
//     flag reaches the worker: `stop` replaces the worker instead, and an
//     infinite or ponder search's answer is held here until `stop`.
//
// The host reports structured events (search-lines.ts); it writes nothing itself.

import { generateMoves } from '../board/movegen.js';
import { moveToUci, NO_MOVE_UCI } from '../board/notation.js';
import { Position } from '../board/position.js';
import { MAX_MOVES } from '../board/types.js';
import { SearchControl } from '../search/control.js';
import type { GoParams, SearchOptions } from '../search/limits.js';
import type { SyzygySettings } from './tablebase-files.js';
import type { SearchParameterValues } from '../search/tuning.js';
import { emergencyMove } from './fallback.js';
import type { EngineLine } from './search-lines.js';
import { Job, type JobListener, type JobOutcome, type JobOwner, type JobRequest, watchdogMs } from './job.js';
import { type FromWorker, type Maintenance, type NetworkChoice, type PositionSpec, loadPosition } from './messages.js';
import { type KeepAlive, WorkerHost } from './worker-host.js';
import { errorText } from '../util/errors.js';
import { type SearchHandle, searchAsPromise } from './host-search.js';

export type { Job, JobListener, JobOutcome, JobRequest } from './job.js';

/** How long a job given up on may keep the worker before it is replaced. */
const HANG_LIMIT_MS = 2000;
/** setTimeout's longest delay: Node.js fires a longer one after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface EngineHostOptions {
  hashMb: number;
  /** Threads as the search can use them (1 where threads cannot share memory). */
  threads: number;
  /** The evaluation; absent: the engine's default. */
  network?: NetworkChoice;
  keepAlive: KeepAlive;
  /** How long a stopped search may take to answer before it is given up. */
  stopGraceMs: number;
  /** Reports of no job: the worker's notes and its death (texts like `error: ...`). */
  onNote?: (text: string) => void;
}

/**
 * What a new search worker boots with: the settings given to the host, each
 * as the last change configured left it. The host is their one owner on the
 * main thread: a front end whose options set them (the UCI loop's Hash,
 * UseNNUE, the tablebase options, a tuning build's parameters) reads their
 * current values here.
 */
export interface HostSettings {
  hashMb: number;
  /** Threads as the search can use them. */
  threads: number;
  /** Absent: the engine's default. */
  network: NetworkChoice | undefined;
  /** Absent: params.ts's. */
  params: SearchParameterValues | undefined;
  /** Absent: none. */
  syzygy: SyzygySettings | undefined;
}

export class EngineHost implements JobOwner {
  private readonly worker: WorkerHost;
  private readonly bootSettings: HostSettings;
  private readonly queue: Job[] = [];
  private current: Job | null = null;
  private nextId = 1;
  /** Jobs given up on whose worker has not answered yet, with their hang timers. */
  private readonly abandoned = new Map<number, ReturnType<typeof setTimeout>>();
  /** Maintenance messages sent and acknowledged, and callbacks waiting for them. */
  private lastSeq = 0;
  private ackedSeq = 0;
  private appliedWaiters: Array<{ seq: number; callback: () => void }> = [];
  /** The boot message of the current worker (acknowledged once it is ready). */
  private workerBootSeq = 0;
  /** Stops the current worker's JIT warm-up (a new one per worker started). */
  private warmUpControl = new SearchControl();
  private closed = false;
  private readonly scratch = new Position();
  private readonly moves = new Int32Array(MAX_MOVES);
  private readonly onNote: (text: string) => void;

  constructor(private readonly options: EngineHostOptions) {
    this.bootSettings = {
      hashMb: options.hashMb,
      threads: options.threads,
      network: options.network,
      params: undefined,
      syzygy: undefined,
    };
    this.onNote = options.onNote ?? (() => {});
    this.worker = new WorkerHost(
      () => {
        this.workerBootSeq = ++this.lastSeq;
        this.warmUpControl = new SearchControl();
        return {
          kestrelRole: 'search-worker',
          hashMb: this.bootSettings.hashMb,
          threads: this.bootSettings.threads,
          bootSeq: this.workerBootSeq,
          warmUpControl: this.warmUpControl.buffer,
          network: this.bootSettings.network,
          params: this.bootSettings.params,
          syzygy: this.bootSettings.syzygy,
        };
      },
      { message: (m) => this.onMessage(m), died: (reason) => this.onWorkerDied(reason) },
      options.keepAlive,
    );
  }

  /** Starts the worker now, so that the first job does not wait for it. Throws if it cannot start. */
  warm(): void {
    this.worker.warm();
  }

  /** The settings now: what a new worker boots with (configure() changes them). */
  get settings(): Readonly<HostSettings> {
    return this.bootSettings;
  }

  /** A job is running or waiting. */
  get busy(): boolean {
    return this.current !== null || this.queue.length > 0;
  }

  /** Queues a job; it starts when the jobs before it have ended. */
  submit(request: JobRequest, listener: JobListener): Job {
    const job = new Job(this.nextId++, request, listener, this);
    if (request.kind === 'go') {
      const pos = this.scratch;
      loadPosition(pos, request.position);
      job.side = pos.side;
      const n = generateMoves(pos, this.moves, 0, false);
      const legal: string[] = [];
      for (let i = 0; i < n; i++) legal.push(moveToUci(pos, this.moves[i]));
      const wanted = request.params.searchmoves;
      job.allowed = wanted.length > 0 ? wanted.filter((m) => legal.includes(m)) : legal;
      job.holdAnswer = !job.control.shared && (request.params.infinite || request.params.ponder);
    }
    if (this.closed) {
      this.end(job, null, null, { closed: true, failure: 'the engine was closed' });
      return job;
    }
    this.queue.push(job);
    this.startNext();
    return job;
  }

  /** A search as a promise (play, analyse): see searchAsPromise. */
  search(
    position: PositionSpec,
    params: Partial<GoParams>,
    options: Partial<SearchOptions> = {},
    onLine?: (line: EngineLine) => void,
  ): SearchHandle {
    return searchAsPromise(this, position, params, options, onLine);
  }

  /** Forgets what earlier searches learned (a new game); resolves once the worker has. */
  clear(): Promise<void> {
    this.configure({ type: 'clear' });
    return new Promise((resolve) => this.afterApplied(resolve));
  }

  /** Applies a change in order with the jobs (after the one running). */
  configure(change: Maintenance): void {
    if (change.type === 'hash') this.bootSettings.hashMb = change.mb;
    else if (change.type === 'threads') this.bootSettings.threads = change.threads;
    else if (change.type === 'network') this.bootSettings.network = change.choice;
    else if (change.type === 'params') this.bootSettings.params = change.values;
    else if (change.type === 'syzygy') this.bootSettings.syzygy = change.settings;
    const seq = ++this.lastSeq;
    try {
      this.worker.post({ ...change, seq });
    } catch (e) {
      this.onNote(`error: ${errorText(e)}`);
      this.acknowledge(seq);
    }
  }

  /** Calls back once every change configured so far has been applied (at once if it has). */
  afterApplied(callback: () => void): void {
    if (this.ackedSeq >= this.lastSeq) callback();
    else this.appliedWaiters.push({ seq: this.lastSeq, callback });
  }

  /** Whether callbacks wait in afterApplied. */
  get applying(): boolean {
    return this.appliedWaiters.length > 0;
  }

  /** Calls every callback waiting in afterApplied now (quitting). */
  flushApplied(): void {
    const waiters = this.appliedWaiters;
    this.appliedWaiters = [];
    for (const w of waiters) w.callback();
  }

  /** Ends the host: every job ends (closed), and the worker is terminated. */
  close(): Promise<void> {
    this.closed = true;
    for (const timer of this.abandoned.values()) clearTimeout(timer);
    this.abandoned.clear();
    const jobs = [...this.queue, ...(this.current !== null ? [this.current] : [])];
    this.queue.length = 0;
    for (const job of jobs) {
      job.control.stop();
      this.end(job, null, null, { closed: true, failure: 'the engine was closed' });
    }
    this.flushApplied();
    return this.worker.terminate();
  }

  // ---------------------------------------------------------------------------
  // Running jobs.

  private startNext(): void {
    // A job given up on still holds the worker: the next waits for its answer or a new worker.
    if (this.current !== null || this.closed || this.abandoned.size > 0) return;
    const job = this.queue.shift();
    if (job === undefined) {
      this.worker.setBusy(false);
      return;
    }
    this.current = job;
    job.state = 'running';
    this.worker.setBusy(true);
    try {
      this.worker.warm();
    } catch (e) {
      this.failToStart(job, e);
      return;
    }
    const waitForBoot = job.request.kind === 'go' && job.request.receivedAt === undefined;
    if (!waitForBoot || this.ackedSeq >= this.workerBootSeq) this.post(job);
  }

  private post(job: Job): void {
    job.posted = true;
    const request = job.request;
    const id = job.id;
    const control = job.control.buffer;
    try {
      if (request.kind === 'go') {
        // A ponder search whose ponderhit came while it waited runs as the timed search it became, its clock from the ponderhit.
        job.startedAt = job.ponderhitAt ?? request.receivedAt ?? Date.now();
        const params = request.params;
        this.worker.post({
          type: 'go',
          id,
          position: request.position,
          params: job.holdAnswer
            ? { ...params, infinite: false, ponder: false }
            : job.ponderhitAt !== null
              ? { ...params, ponder: false }
              : params,
          options: request.options,
          control,
          receivedAt: job.startedAt,
          san: request.san === true,
        });
      } else if (request.kind === 'perft') {
        this.worker.post({ type: 'perft', id, position: request.position, depth: request.depth, control });
      } else {
        this.worker.post({ type: 'bench', id, depth: request.depth, control });
      }
      // A job does not wait for the worker's warm-up: it ends within a few hundred nodes.
      this.warmUpControl.stop();
    } catch (e) {
      this.failToStart(job, e);
      return;
    }
    if (request.kind === 'go' && !request.params.infinite && (!request.params.ponder || job.ponderhitAt !== null)) {
      this.armTimeWatchdog(job, { ...request.params, ponder: false });
    }
    // Stopped while it waited for the worker to boot.
    if (job.stopRequested) this.stopJob(job, true);
  }

  private failToStart(job: Job, e: unknown): void {
    const text = `could not start the ${job.request.kind === 'go' ? 'search' : job.request.kind}: ${errorText(e)}`;
    job.listener.note?.(`error: ${text}`);
    this.finishWithFallback(job, text, text);
  }

  /** Arms the watchdog of a search with a clock or movetime (see watchdogMs). */
  private armTimeWatchdog(job: Job, params: GoParams): void {
    if (job.request.kind !== 'go') return;
    const ms = watchdogMs(params, job.side, job.request.options.moveOverhead);
    if (ms === null) return;
    // The clock ran while the job waited (for the worker, or for the job before it).
    const waited = params.ponder ? 0 : Math.max(0, Date.now() - job.startedAt);
    this.setJobTimer(job, Math.max(1, ms - waited), 'the search overran its time');
  }

  /** Gives up on the job after ms unless an earlier deadline is already set. */
  private setJobTimer(job: Job, ms: number, why: string): void {
    const deadline = performance.now() + ms;
    if (deadline >= job.deadline) return;
    job.deadline = deadline;
    if (job.timer !== null) clearTimeout(job.timer);
    job.timer = setTimeout(
      () => {
        job.timer = null;
        if (this.current === job) this.abandon(job, why);
      },
      Math.min(MAX_TIMER_MS, Math.max(1, Math.floor(ms))),
    );
  }

  /** Job.stop(). */
  stopJob(job: Job, again = false): void {
    if (job.state === 'done' || (job.stopRequested && !again)) return;
    job.stopRequested = true;
    job.control.stop();
    if (job.state === 'queued') {
      const at = this.queue.indexOf(job);
      if (at >= 0) this.queue.splice(at, 1);
      const best = job.request.kind === 'go' ? this.fallback(job) : null;
      this.end(job, best, null, { cancelled: true, fallback: 'stopped before it started' });
      if (!this.busy) this.worker.setBusy(false);
      return;
    }
    if (job.held !== null) {
      this.finish(job, job.held.bestMove, job.held.ponderMove);
      return;
    }
    if (!job.posted) return; // stopped while the worker boots: post() stops it at once
    if (!job.control.shared) {
      this.stopByRestart(job);
      return;
    }
    Atomics.notify(job.control.flags, 0);
    if (job.request.kind === 'go') this.setJobTimer(job, this.options.stopGraceMs, 'the search did not answer stop');
  }

  /** Job.ponderhit(). */
  ponderhit(job: Job): void {
    if (job.state === 'done' || job.request.kind !== 'go') return;
    if (job.state === 'queued') {
      // It starts as the timed search it has become (post()).
      job.ponderhitAt = Date.now();
      job.control.ponderhit();
      if (!job.request.params.infinite) job.holdAnswer = false;
      return;
    }
    if (!job.control.shared) {
      // The flag cannot reach the search: the move found while pondering is played now.
      this.stopJob(job);
      return;
    }
    job.control.ponderhit();
    Atomics.notify(job.control.flags, 0);
    // The clock runs from now: the same safety net as for a normal search.
    if (!job.stopRequested) {
      job.startedAt = Date.now();
      this.armTimeWatchdog(job, { ...job.request.params, ponder: false });
    }
  }

  /** Job.settleNow(). */
  settleNow(job: Job): void {
    if (job.state === 'done') return;
    job.control.stop();
    if (job.state === 'queued') {
      this.stopJob(job);
      return;
    }
    if (job.held !== null) this.finish(job, job.held.bestMove, job.held.ponderMove);
    else this.finishWithFallback(job, 'ended without its answer', null);
  }

  /**
   * Stops a job whose worker no flag can reach (no shared memory): the
   * worker is replaced, and a search plays its best line's first move.
   */
  private stopByRestart(job: Job): void {
    void this.worker.terminate();
    this.forgetWorker();
    // The next job, if any, starts a new worker; else one is started now.
    this.finishWithFallback(job, 'stopped by ending its worker (no shared memory)', null);
    if (!this.closed) this.warmQuietly();
  }

  /** Plays the fallback move for a job the worker did not finish in time; its late answer is dropped. */
  private abandon(job: Job, why: string): void {
    job.control.stop();
    Atomics.notify(job.control.flags, 0);
    const best = job.request.kind === 'go' ? this.fallback(job) : null;
    job.listener.note?.(`error: ${why}${best !== null ? `; playing ${best}` : ''}`);
    this.abandoned.set(
      job.id,
      setTimeout(() => {
        // Still no answer: the worker is stuck. Replace it.
        if (!this.abandoned.delete(job.id)) return;
        this.onNote('error: the search worker is not responding; restarting it');
        void this.worker.terminate();
        this.forgetWorker();
        if (!this.closed) this.warmQuietly();
        this.startNext();
      }, HANG_LIMIT_MS),
    );
    this.finish(job, best, null, why);
  }

  /**
   * The move played for a search that cannot answer: the best its lines
   * showed among the moves it may play, else a quick look, reported to the
   * listener (emergency).
   */
  private fallback(job: Job): string {
    if (job.shown.move !== null) return job.shown.move;
    if (job.request.kind !== 'go') return NO_MOVE_UCI;
    const choice = emergencyMove(job.request.position, job.allowed);
    job.listener.emergency?.(choice);
    return choice.move;
  }

  private finishWithFallback(job: Job, why: string, failure: string | null): void {
    const best = job.request.kind === 'go' ? this.fallback(job) : null;
    this.finish(job, best, null, why, failure);
  }

  /** Ends the running job, then starts the next. */
  private finish(
    job: Job,
    bestMove: string | null,
    ponderMove: string | null,
    fallback: string | null = null,
    failure: string | null = null,
    lines: string[] = [],
  ): void {
    if (this.current !== job) return;
    this.current = null;
    this.end(job, bestMove, ponderMove, { fallback, failure, lines });
    this.startNext();
  }

  private end(job: Job, bestMove: string | null, ponderMove: string | null, extra: Partial<JobOutcome>): void {
    if (job.state === 'done') return;
    job.state = 'done';
    if (job.timer !== null) clearTimeout(job.timer);
    job.timer = null;
    const outcome: JobOutcome = {
      bestMove,
      ponderMove,
      lines: [],
      fallback: null,
      failure: null,
      stopped: job.stopRequested,
      cancelled: false,
      closed: false,
      ...extra,
    };
    job.listener.done(outcome);
  }

  private warmQuietly(): void {
    try {
      this.worker.warm();
    } catch (e) {
      this.onNote(`error: could not start the search worker: ${errorText(e)}`);
    }
  }

  // ---------------------------------------------------------------------------
  // Worker events.

  private onMessage(m: FromWorker): void {
    try {
      const job = this.current;
      // Messages of a job given up on (late lines, notes) are dropped.
      const mine = job !== null && m.type !== 'ack' && job.id === m.id;
      switch (m.type) {
        case 'line': {
          if (!mine) return; // a late line of a job given up on
          const pv = m.line.pv;
          job.shown.see(m.line, pv[0], job.allowed);
          job.listener.line?.(m.line);
          break;
        }
        case 'currmove':
          if (mine) job.listener.currmove?.(m.move);
          break;
        case 'text':
          if (mine) job.listener.text?.(m.text);
          break;
        case 'note':
          if (m.id === undefined) this.onNote(m.text);
          else if (mine) job.listener.note?.(m.text);
          break;
        case 'done': {
          const hang = this.abandoned.get(m.id);
          if (hang !== undefined) {
            clearTimeout(hang);
            this.abandoned.delete(m.id);
            this.startNext();
            return;
          }
          if (!mine) return;
          if (job.holdAnswer && !job.stopRequested) {
            if (m.lines !== undefined) for (const line of m.lines) job.listener.text?.(line);
            job.held = { bestMove: m.bestMove, ponderMove: m.ponderMove };
          } else {
            this.finish(job, m.bestMove, m.ponderMove, null, null, m.lines ?? []);
          }
          break;
        }
        case 'ack':
          this.acknowledge(m.seq);
          break;
      }
    } catch (e) {
      this.onNote(`error: ${errorText(e)}`);
    }
  }

  private acknowledge(seq: number): void {
    if (seq > this.ackedSeq) this.ackedSeq = seq;
    // A job that waited for the worker to boot.
    const job = this.current;
    if (job !== null && !job.posted && this.ackedSeq >= this.workerBootSeq) this.post(job);
    if (this.appliedWaiters.length === 0) return;
    const ready = this.appliedWaiters.filter((w) => w.seq <= this.ackedSeq);
    this.appliedWaiters = this.appliedWaiters.filter((w) => w.seq > this.ackedSeq);
    for (const w of ready) w.callback();
  }

  private onWorkerDied(reason: string): void {
    // A worker that died before it was ready is not restarted at once (no crash loop).
    const wasReady = this.ackedSeq >= this.workerBootSeq;
    this.onNote(`error: the search worker stopped (${reason}); ${wasReady ? 'restarting it' : 'a new one starts on the next command'}`);
    this.onWorkerGone(`the search worker stopped (${reason})`);
    if (wasReady && !this.closed) this.warmQuietly();
    this.startNext();
  }

  /** The worker died with the job running, if any: it ends with the fallback, and everything that waited on the worker is settled. */
  private onWorkerGone(failure: string): void {
    const job = this.current;
    if (job !== null) {
      this.current = null;
      const best = job.request.kind === 'go' ? this.fallback(job) : null;
      this.end(job, best, null, { fallback: failure, failure: job.stopRequested ? null : failure });
    }
    this.forgetWorker();
  }

  /**
   * The worker is gone with whatever it had queued: jobs given up on will not
   * answer, and the changes sent to it count as applied (a new worker starts
   * with the settings as they are now).
   */
  private forgetWorker(): void {
    for (const timer of this.abandoned.values()) clearTimeout(timer);
    this.abandoned.clear();
    this.acknowledge(this.lastSeq);
  }
}
