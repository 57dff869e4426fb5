// Talks to the built engine (node dist/kestrel.js) over pipes, as a GUI does.
// KESTREL_ENGINE=<path to a .js file> tests another build.

import { afterEach, beforeAll } from 'vitest';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ENGINE = process.env.KESTREL_ENGINE ?? join(ROOT, 'dist', 'kestrel.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds dist/kestrel.js when it is missing or older than a file under src/ (`npm test` builds first anyway). */
function ensureBuilt(): void {
  if (process.env.KESTREL_ENGINE !== undefined) return;
  if (existsSync(ENGINE) && statSync(ENGINE).mtimeMs >= newestMtime(join(ROOT, 'src'))) return;
  const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout}\n${r.stderr}`);
}

export class EngineProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every line received, in order. */
  readonly lines: string[] = [];
  /** Receive time (performance.now()) of each line. */
  readonly times: number[] = [];
  /** Index of the first line not yet consumed by waitFor(). */
  cursor = 0;
  stderr = '';
  exitCode: number | null = null;
  private exited: Promise<number | null>;
  private partial = '';
  private listeners: Array<() => void> = [];

  /**
   * `command`: another program and its arguments instead of `node <engine>` (the Windows build under Wine).
   * dataLimitKb: the engine runs with its data segment limited to this (`ulimit -d`, POSIX shells): big allocations fail for real.
   */
  constructor(options: { engine?: string; command?: string[]; env?: Record<string, string>; dataLimitKb?: number } = {}) {
    const env = { ...process.env, ...options.env };
    const engine = options.engine ?? ENGINE;
    const [file, ...args] = options.command ?? [process.execPath, engine];
    this.child =
      options.dataLimitKb === undefined
        ? spawn(file, args, { stdio: 'pipe', env })
        : spawn('/bin/sh', ['-c', `ulimit -d ${options.dataLimitKb} && exec "$0" "$@"`, file, ...args], { stdio: 'pipe', env });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.partial += chunk;
      for (let i = this.partial.indexOf('\n'); i >= 0; i = this.partial.indexOf('\n')) {
        this.lines.push(this.partial.slice(0, i));
        this.times.push(performance.now());
        this.partial = this.partial.slice(i + 1);
      }
      this.notify();
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => (this.stderr += chunk));
    // Writing to an engine that has exited must not fail the test run.
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code) => {
        this.exitCode = code;
        this.notify();
        resolve(code);
      });
    });
  }

  private notify(): void {
    const listeners = this.listeners;
    this.listeners = [];
    for (const l of listeners) l();
  }

  /** Sends raw text (no newline added). */
  write(text: string): void {
    this.child.stdin.write(text);
  }

  /** Sends one line. */
  send(line: string): void {
    this.write(`${line}\n`);
  }

  /** Closes the engine's stdin (end of input). */
  close(): void {
    this.child.stdin.end();
  }

  /**
   * Waits for the next line (from the cursor) matching re; returns it and moves
   * the cursor past it. Rejects after timeoutMs with the lines seen.
   */
  async waitFor(re: RegExp, timeoutMs = 5000): Promise<string> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      for (let i = this.cursor; i < this.lines.length; i++) {
        if (re.test(this.lines[i])) {
          this.cursor = i + 1;
          return this.lines[i];
        }
      }
      const left = deadline - performance.now();
      if (left <= 0 || this.exitCode !== null) {
        throw new Error(
          `no line matching ${re} within ${timeoutMs} ms${this.exitCode !== null ? ` (engine exited with ${this.exitCode})` : ''}; ` +
            `last lines since cursor:\n${this.lines
              .slice(Math.max(this.cursor, this.lines.length - 40))
              .map((l) => (l.length > 200 ? `${l.slice(0, 200)}...` : l))
              .join('\n')}\nstderr:\n${this.stderr.slice(0, 2000)}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.listeners.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Lines from the cursor up to and including the next match of re (moves the cursor past it). */
  async collectUntil(re: RegExp, timeoutMs = 5000): Promise<string[]> {
    const start = this.cursor;
    await this.waitFor(re, timeoutMs);
    return this.lines.slice(start, this.cursor);
  }

  /** Sends isready and returns the lines printed before readyok (a synchronisation point). */
  async sync(timeoutMs = 5000): Promise<string[]> {
    this.send('isready');
    const lines = await this.collectUntil(/^readyok$/, timeoutMs);
    return lines.slice(0, -1);
  }

  /** Resolves with the exit code, or rejects after timeoutMs. */
  async waitExit(timeoutMs = 5000): Promise<number | null> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`engine did not exit within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the engine if it is still running (test cleanup). */
  kill(): void {
    if (this.exitCode === null) this.child.kill('SIGKILL');
  }
}

/** Starts an engine, waits until it has answered isready (worker up), and returns it. */
export async function startEngine(options: { engine?: string; env?: Record<string, string> } = {}): Promise<EngineProcess> {
  const engine = new EngineProcess(options);
  await engine.sync(15000);
  return engine;
}

/** Starts an engine; `track` hands over one made by hand (`new EngineProcess()`) for cleanup. */
export type EngineStarter = (() => Promise<EngineProcess>) & { track: (e: EngineProcess) => EngineProcess };

/**
 * For a test file: checks the build before its tests and kills every engine
 * it started after each test. Returns the function that starts one.
 */
export function useEngines(): EngineStarter {
  let engines: EngineProcess[] = [];
  beforeAll(() => ensureBuilt(), 60000);
  afterEach(() => {
    for (const e of engines) e.kill();
    engines = [];
  });
  const track = (e: EngineProcess): EngineProcess => {
    engines.push(e);
    return e;
  };
  return Object.assign(async () => track(await startEngine()), { track });
}
