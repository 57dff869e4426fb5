// The one writer of stdout. Lines go out in the order write() is called;
// flush() resolves once every line written so far has been handed to the
// operating system (stdout on a pipe is asynchronous in Node.js, so exiting
// before that would lose output).

/** `info string <text>`, cut to 300 characters (it may echo arbitrary input). */
export function infoString(text: string): string {
  return `info string ${text.length <= 300 ? text : `${text.slice(0, 300)}...`}`;
}

export interface LineSink {
  write(chunk: string, callback: (error?: Error | null) => void): unknown;
}

export class Output {
  private pending = 0;
  private waiters: Array<() => void> = [];
  /** Set once stdout has failed (the GUI has gone away); further writes are dropped. */
  private broken = false;

  constructor(private readonly sink: LineSink) {}

  /** Writes one line (a newline is added; embedded line breaks become spaces). */
  write(line: string): void {
    this.writeRaw(`${line.replace(/[\r\n]+/g, ' ')}\n`);
  }

  /** Writes several lines as one chunk. */
  writeLines(lines: string[]): void {
    if (lines.length > 0) this.writeRaw(`${lines.map((l) => l.replace(/[\r\n]+/g, ' ')).join('\n')}\n`);
  }

  /** `info string <text>`, cut to 300 characters (it may echo arbitrary input). */
  info(text: string): void {
    this.write(infoString(text));
  }

  private writeRaw(chunk: string): void {
    if (this.broken) return;
    this.pending++;
    try {
      this.sink.write(chunk, (error) => {
        if (error) this.broken = true;
        this.settle();
      });
    } catch {
      this.broken = true;
      this.settle();
    }
  }

  private settle(): void {
    this.pending--;
    if (this.pending === 0) {
      const waiters = this.waiters;
      this.waiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  /** Marks the sink as failed (e.g. EPIPE): nothing more is written and flush() resolves. */
  markBroken(): void {
    this.broken = true;
  }

  /** Resolves when everything written so far has been handed to the OS (or after timeoutMs). */
  flush(timeoutMs = 1000): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
