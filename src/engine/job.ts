// A job of the engine host (go, perft, bench): what is asked, who listens,
// how it ended, and the handle a front end holds to stop it. The host
// (host.ts) runs jobs and decides how they end; this file only describes
// them, plus the watchdog's arithmetic.

import { WHITE } from '../board/types.js';
import { SearchControl } from '../search/control.js';
import type { GoParams, SearchOptions } from '../search/limits.js';
import { computeTimeBudget } from '../search/timeman.js';
import { type EmergencyChoice, ShownMove } from './fallback.js';
import type { CurrentMove, EngineLine } from './search-lines.js';
import type { PositionSpec } from './messages.js';

export type JobRequest =
  | {
      kind: 'go';
      position: PositionSpec;
      params: GoParams;
      options: SearchOptions;
      /** Lines carry their moves in SAN too. */
      san?: boolean;
      /**
       * Date.now() when the clock started (a GUI's `go` was read): the search
       * takes the time since off its limits. Absent: the clock starts when
       * the worker is ready (the job waits for a worker that is starting).
       */
      receivedAt?: number;
    }
  | { kind: 'perft'; position: PositionSpec; depth: number }
  | { kind: 'bench'; depth: number | null };

export interface JobListener {
  line?(line: EngineLine): void;
  currmove?(move: CurrentMove): void;
  /** Output of perft and bench. */
  text?(text: string): void;
  /** A problem or remark (`error: ...`). */
  note?(text: string): void;
  /** The host plays a move the search did not give, and no line of the search is known: a two-ply look's. */
  emergency?(choice: EmergencyChoice): void;
  done(outcome: JobOutcome): void;
}

export interface JobOutcome {
  /** For go, the move to play (UCI, '0000' when there is none); else null. */
  bestMove: string | null;
  ponderMove: string | null;
  /** The job's last output lines (the totals of perft and bench). */
  lines: string[];
  /** Why the host answered instead of the search; null when the search answered. */
  fallback: string | null;
  /** Set when the worker failed while the job ran and it had not been stopped: why. */
  failure: string | null;
  /** stop() was called. */
  stopped: boolean;
  /** Stopped before it started: it never ran. */
  cancelled: boolean;
  /** The host was closed. */
  closed: boolean;
}

type JobState = 'queued' | 'running' | 'done';

/** A job, as the host hands it out. */
export class Job {
  state: JobState = 'queued';
  readonly control = new SearchControl();
  stopRequested = false;
  /** Posted to the worker (a go may wait for the worker to boot first). */
  posted = false;
  /** The best move the search's lines have shown among those it may play: the fallback. */
  readonly shown = new ShownMove();
  /** The moves the search may play (go only). */
  allowed: string[] = [];
  side = WHITE;
  /** The clock's start (Date.now()). */
  startedAt = 0;
  deadline = Infinity;
  timer: ReturnType<typeof setTimeout> | null = null;
  /** Date.now() of a ponderhit that came while the job waited in the queue. */
  ponderhitAt: number | null = null;
  /** See the header: an infinite or ponder search without shared memory. */
  holdAnswer = false;
  held: { bestMove: string | null; ponderMove: string | null } | null = null;

  constructor(
    readonly id: number,
    readonly request: JobRequest,
    readonly listener: JobListener,
    private readonly host: JobOwner,
  ) {}

  /** Stops the job: a waiting one is cancelled, a running one answers with what it has. */
  stop(): void {
    this.host.stopJob(this);
  }

  /** The opponent played the move pondered on: the clock runs from now. */
  ponderhit(): void {
    this.host.ponderhit(this);
  }

  /** Ends the job now with its held answer or the fallback, quietly (quitting). */
  settleNow(): void {
    this.host.settleNow(this);
  }

  /** Whether stop and ponderhit reach the running search (shared memory). */
  get reachable(): boolean {
    return this.control.shared;
  }
}

/** What a job's handle asks of the host that runs it. */
export interface JobOwner {
  stopJob(job: Job): void;
  ponderhit(job: Job): void;
  settleNow(job: Job): void;
}

/** The watchdog's grace after the hard limit (at least this, or half the limit, or the move overhead after a movetime). */
const WATCHDOG_GRACE_MS = 250;
/** The clock the watchdog leaves at least (or the move overhead), and the least it waits. */
const WATCHDOG_MIN_RESERVE_MS = 20;
const WATCHDOG_MIN_MS = 50;

/**
 * When to give up on a search that overruns its clock, in ms from the
 * clock's start; null without a clock or movetime. The search stops itself
 * at timeman's hard limit, so this only fires when it is broken (or the
 * machine stalls it): a grace period after that limit, and in any case the
 * move overhead before the clock runs out, since the move still has to
 * reach the GUI, and on a loaded machine that alone can take 100 ms.
 */
export function watchdogMs(params: GoParams, side: number, overhead: number): number | null {
  if (params.movetime !== undefined) return params.movetime + Math.max(WATCHDOG_GRACE_MS, overhead);
  const time = side === WHITE ? params.wtime : params.btime;
  if (time === undefined) return null;
  const { hardMs } = computeTimeBudget(params, side, overhead);
  const lastSafeMoment = time - Math.max(WATCHDOG_MIN_RESERVE_MS, overhead);
  return Math.max(WATCHDOG_MIN_MS, Math.min(lastSafeMoment, hardMs + Math.max(WATCHDOG_GRACE_MS, hardMs / 2)));
}
