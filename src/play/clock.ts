// Chess clocks: time left for each side, an increment added after each
// move, and the running side's time measured from when its turn began.

import { WHITE } from '../board/types.js';
import { clockText } from '../util/duration.js';

export interface TimeControl {
  initialMs: number;
  incrementMs: number;
}

/** Reads `<minutes>+<increment seconds>` (5+3, 0.5+0, 10): null when malformed. */
export function parseTimeControl(text: string): TimeControl | null {
  const m = /^(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$/.exec(text.trim());
  if (m === null) return null;
  const initialMs = Math.round(Number(m[1]) * 60_000);
  if (initialMs <= 0) return null;
  return { initialMs, incrementMs: Math.round(Number(m[2] ?? '0') * 1000) };
}

/** The time control as PGN's TimeControl tag writes it (seconds+increment). */
export function timeControlTag(tc: TimeControl): string {
  return `${tc.initialMs / 1000}+${tc.incrementMs / 1000}`;
}

/** A clock reading: m:ss, with tenths under 20 seconds; h:mm:ss from an hour. */
export function formatClock(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 20_000) return `0:${String(Math.floor(t / 1000)).padStart(2, '0')}.${Math.floor((t % 1000) / 100)}`;
  return clockText(Math.floor(t / 1000), 'when-needed');
}

export class Clock {
  /** Time left at the start of the current turn, per side (WHITE, BLACK). */
  private readonly left: [number, number];
  private running: number | null = null;
  private since = 0;

  constructor(
    readonly control: TimeControl,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.left = [control.initialMs, control.initialMs];
  }

  /** Time left for `side` now (the running side's counting down). */
  remaining(side: number): number {
    const base = this.left[side];
    return this.running === side ? base - (this.now() - this.since) : base;
  }

  /** Starts `side`'s clock (stopping none: call punch() at the end of a move). */
  start(side: number): void {
    this.running = side;
    this.since = this.now();
  }

  /** Stops the running clock without an increment (a pause: a game over, an undo). */
  pause(): void {
    if (this.running === null) return;
    this.left[this.running] = this.remaining(this.running);
    this.running = null;
  }

  /** The running side has moved: its time is charged and the increment added. Returns its time left. */
  punch(): number {
    const side = this.running;
    if (side === null) return 0;
    this.left[side] = this.remaining(side) + this.control.incrementMs;
    this.running = null;
    return this.left[side];
  }

  get runningSide(): number | null {
    return this.running;
  }

  /** Sets both clocks (a new game). */
  reset(): void {
    this.left[0] = this.left[1] = this.control.initialMs;
    this.running = null;
  }

  /** `go` parameters for the engine to move now. */
  goParams(): { wtime: number; btime: number; winc: number; binc: number } {
    return {
      wtime: Math.max(1, Math.floor(this.remaining(WHITE))),
      btime: Math.max(1, Math.floor(this.remaining(1))),
      winc: this.control.incrementMs,
      binc: this.control.incrementMs,
    };
  }
}
