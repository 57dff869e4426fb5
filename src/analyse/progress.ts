// The analysis's progress on stderr: a bar redrawn in place on a terminal
// (games, moves, time left), a line per game otherwise.
import { clockText } from '../util/duration.js';

const BAR_WIDTH = 24;

function duration(ms: number): string {
  return clockText(Math.round(ms / 1000), 'when-needed');
}

export class Progress {
  private done = 0;
  private readonly started = performance.now();
  private lastDraw = 0;

  constructor(
    private readonly out: NodeJS.WritableStream & { isTTY?: boolean },
    private readonly games: number,
    /** Positions to search in all. */
    private readonly total: number,
    /** The time a position takes, if known in advance (--movetime). */
    private readonly msPerPosition: number | null,
  ) {}

  /** Game `game` (1-based) has `positionsDone` of its `positions` searched; `finished` counts all. */
  update(game: number, positionsDone: number, positions: number, finishedBefore: number): void {
    this.done = finishedBefore + positionsDone;
    if (this.out.isTTY !== true) return;
    const now = performance.now();
    if (now - this.lastDraw < 100 && positionsDone < positions) return;
    this.lastDraw = now;
    const fraction = this.total === 0 ? 1 : this.done / this.total;
    const filled = Math.round(fraction * BAR_WIDTH);
    const left = this.timeLeft();
    this.out.write(
      `\r\u001b[K[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${Math.floor(fraction * 100)}%  game ${game}/${this.games}  move ${Math.ceil(positionsDone / 2)}/${Math.ceil((positions - 1) / 2)}${left === null ? '' : `  time left ${duration(left)}`}`,
    );
  }

  /** A line above the bar: a game's summary, the engine's notes (a line of its own when stderr is not a terminal). */
  line(text: string): void {
    this.out.write(this.out.isTTY === true ? `\r\u001b[K${text}\n` : `${text}\n`);
  }

  /** Clears the bar. */
  finish(): void {
    if (this.out.isTTY === true) this.out.write('\r\u001b[K');
  }

  private timeLeft(): number | null {
    const remaining = this.total - this.done;
    if (this.msPerPosition !== null) return remaining * this.msPerPosition;
    if (this.done === 0) return null;
    return ((performance.now() - this.started) / this.done) * remaining;
  }
}
