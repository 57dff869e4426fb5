// The UCI protocol loop. The main thread reads stdin line by line, answers
// what it can at once (uci, isready, setoption, position, d, eval, ...), and
// hands the long jobs (go, go perft, bench) to the search worker, which owns
// the Searcher and its transposition table (see search-worker.ts).
//
// Guarantees:
//   - every line of output goes through one Output, in order; the worker's
//     lines travel as messages and are printed here;
//   - isready is answered at once while a job runs; otherwise after the
//     worker has applied the Hash / Clear Hash / ucinewgame sent before it;
//   - each `go` gets exactly one bestmove, and nothing of that search is
//     printed after it; if the search fails, hangs or overruns its time, a
//     legal fallback move is played (the best line's first move if known,
//     else a two-ply look's choice, printed as an info line of its own);
//   - Hash, Clear Hash and ucinewgame sent during a search are applied when
//     the search ends (the worker handles messages one at a time);
//   - `go` while a job runs is refused with an info string;
//   - quit and end of input stop any search, print its bestmove, flush
//     stdout and exit with code 0;
//   - bad input gets an info string; no input crashes the engine.

import { generateMoves } from '../board/movegen.js';
import { moveToUci, parseUciMove } from '../board/notation.js';
import { Position, START_FEN } from '../board/position.js';
import { MAX_MOVES, WHITE } from '../board/types.js';
import { NetworkError, USE_NNUE_DEFAULT, decodeNetwork, embeddedNetwork, explain } from '../eval/index.js';
import { SearchControl } from '../search/control.js';
import type { GoParams, SearchOptions } from '../search/limits.js';
import { HAS_SHARED_MEMORY } from '../search/shared-memory.js';
import { computeTimeBudget } from '../search/timeman.js';
import { type UciStream, platform } from '../platform/index.js';
import { BookController } from '../book/uci-book.js';
import { boardDiagram } from './board-display.js';
import { emergencyInfo, emergencyMove } from './fallback.js';
import { parseGo } from './go-params.js';
import { WorkerHost } from './host.js';
import {
  type FromWorker,
  type NetworkChoice,
  type PositionSpec,
  type SearchWorkerData,
  applyNetworkChoice,
  errorText,
  firstPvMove,
} from './messages.js';
import { BUILT_IN_NETWORK, OptionValues, optionLines } from './options.js';
import { Output } from './output.js';
import { isSearchWorker, runSearchWorker } from './search-worker.js';
import { engineVersion } from './version.js';

/** How long after `stop` the search may take before a fallback move is played. */
const STOP_GRACE_MS = 500;
/** How long `quit` waits for the bestmove of a running search. */
const QUIT_GRACE_MS = 60;
/** How long an abandoned search may keep the worker before it is replaced. */
const HANG_LIMIT_MS = 2000;
/** Moves kept for the worker to replay before the position is re-based at the current FEN. */
const MAX_REPLAY = 1000;
/** Game length (plies) at which the main thread's undo history is dropped. */
const MAX_HISTORY = 4096;
/** setTimeout's longest delay; a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const COMMANDS = new Set([
  'uci',
  'debug',
  'isready',
  'setoption',
  'register',
  'ucinewgame',
  'position',
  'go',
  'stop',
  'ponderhit',
  'quit',
  'd',
  'eval',
  'bench',
]);

interface Job {
  kind: 'go' | 'perft' | 'bench';
  id: number;
  control: SearchControl;
  params: GoParams | null;
  /** The position searched, and the moves the search may play (UCI). */
  position: PositionSpec;
  allowed: string[];
  /** The first move of the latest best line, if any (played if the search cannot answer). */
  lastPvMove: string | null;
  /** Side to move in the position searched. */
  side: number;
  stopRequested: boolean;
  /** The watchdog: when (performance.now()) the job is given up on, and its timer. */
  deadline: number;
  timer: ReturnType<typeof setTimeout> | null;
  /**
   * Without shared memory (a browser page that is not cross-origin
   * isolated) the worker cannot hold an infinite or ponder search's answer
   * until stop: it searches without limits, and this thread holds the answer.
   */
  holdAnswer: boolean;
  held: { bestMove: string | null; ponderMove: string | null } | null;
}

/** A thrown value's message, cut to a readable length. */
function clippedError(e: unknown): string {
  return clip(errorText(e));
}

/** Input echoed in a message, cut to a readable length. */
function clip(text: string, max = 100): string {
  return text.length <= max ? text : `${text.slice(0, max)}...`;
}

class UciEngine {
  private readonly options = new OptionValues();
  private pos = new Position();
  private spare = new Position();
  /** What the worker replays: the FEN after the last irreversible move, and the moves since. */
  private spec: PositionSpec = { fen: START_FEN, moves: [], chess960: false };
  private readonly host: WorkerHost;
  private job: Job | null = null;
  private nextId = 1;
  /** Jobs given up on (fallback printed) whose worker has not answered yet, with their hang timers. */
  private readonly abandoned = new Map<number, ReturnType<typeof setTimeout>>();
  /** Maintenance messages sent / acknowledged, and isready answers waiting for them. */
  private lastSeq = 0;
  private ackedSeq = 0;
  private readyWaiters: number[] = [];
  /** The boot message of the current worker (acknowledged once it is ready). */
  private workerBootSeq = 0;
  private quitting = false;
  private readonly book = new BookController();
  /** The evaluation the search uses (UseNNUE, EvalFile), and the network's name. */
  private network: NetworkChoice = { use: USE_NNUE_DEFAULT, bytes: null };
  private networkName = embeddedNetwork().name;
  private readonly moveScratch = new Int32Array(MAX_MOVES);
  /** Stops the current worker's JIT warm-up (a new one per worker started). */
  private warmUpControl = new SearchControl();

  constructor(
    private readonly out: Output,
    private readonly exit: (code: number) => void,
  ) {
    const bootData = (): SearchWorkerData => {
      this.workerBootSeq = ++this.lastSeq;
      this.warmUpControl = new SearchControl();
      return {
        kestrelRole: 'search-worker',
        hashMb: this.options.hash,
        threads: this.threads(),
        bootSeq: this.workerBootSeq,
        warmUpControl: this.warmUpControl.buffer,
        network: this.network,
      };
    };
    this.host = new WorkerHost(bootData, {
      message: (m) => this.onWorkerMessage(m),
      died: (reason) => this.onWorkerDied(reason),
    });
  }

  /** Starts the worker in the background so that the first search does not wait for it. */
  warm(): void {
    try {
      this.host.warm();
    } catch (e) {
      this.out.info(`error: could not start the search worker: ${clippedError(e)}`);
    }
  }

  // ---------------------------------------------------------------------------
  // Input.

  /** Handles one line of input. Never throws. */
  handleLine(raw: string): void {
    if (this.quitting) return;
    try {
      const tokens = raw
        .trim()
        .split(/\s+/)
        .filter((t) => t !== '');
      if (tokens.length === 0) return;
      // As the UCI spec asks, unknown words before a command are skipped ("joho debug on").
      const at = tokens.findIndex((t) => COMMANDS.has(t.toLowerCase()));
      if (at < 0) {
        this.out.info(`unknown command: ${clip(tokens[0])}`);
        return;
      }
      if (at > 0) this.out.info(`unknown token${at > 1 ? 's' : ''} ignored: ${clip(tokens.slice(0, at).join(' '))}`);
      this.command(tokens[at].toLowerCase(), tokens.slice(at + 1));
    } catch (e) {
      this.out.info(`error: ${clippedError(e)}`);
    }
  }

  private command(cmd: string, args: string[]): void {
    switch (cmd) {
      case 'uci':
        this.out.writeLines([`id name Kestrel ${engineVersion()}`, 'id author The Kestrel developers', '', ...optionLines(), 'uciok']);
        break;
      case 'isready':
        this.isReady();
        break;
      case 'debug':
      case 'register':
        break; // accepted; nothing to do
      case 'setoption':
        this.setOption(args);
        break;
      case 'ucinewgame':
        this.postMaintenance({ type: 'clear' });
        break;
      case 'position':
        this.position(args);
        break;
      case 'go':
        this.go(args);
        break;
      case 'stop':
        this.stop();
        break;
      case 'ponderhit':
        this.ponderhit();
        break;
      case 'quit':
        void this.quit();
        break;
      case 'd':
        this.out.writeLines(boardDiagram(this.pos));
        break;
      case 'eval':
        this.out.writeLines(explain(this.pos).split('\n'));
        break;
      case 'bench':
        this.bench(args);
        break;
    }
  }

  // ---------------------------------------------------------------------------
  // Commands.

  private isReady(): void {
    // While a job runs, maintenance waits behind it in the worker: answer now.
    if (this.job !== null || this.ackedSeq >= this.lastSeq) this.out.write('readyok');
    else this.readyWaiters.push(this.lastSeq);
  }

  private postMaintenance(
    message:
      | { type: 'hash'; mb: number }
      | { type: 'threads'; threads: number }
      | { type: 'clear' }
      | { type: 'network'; choice: NetworkChoice },
  ): void {
    const seq = ++this.lastSeq;
    try {
      this.host.post({ ...message, seq });
    } catch (e) {
      this.out.info(`error: ${clippedError(e)}`);
      this.acknowledge(seq);
    }
  }

  private acknowledge(seq: number): void {
    if (seq > this.ackedSeq) this.ackedSeq = seq;
    if (this.readyWaiters.length === 0) return;
    const still: number[] = [];
    for (const s of this.readyWaiters) {
      if (s <= this.ackedSeq) this.out.write('readyok');
      else still.push(s);
    }
    this.readyWaiters = still;
  }

  private setOption(args: string[]): void {
    const result = this.options.set(args);
    for (const m of result.messages) this.out.info(m);
    switch (result.name) {
      case 'Hash':
        this.postMaintenance({ type: 'hash', mb: result.value as number });
        break;
      case 'Threads':
        if (!HAS_SHARED_MEMORY && (result.value as number) > 1) {
          this.out.info('Threads: this host has no shared memory (a page that is not cross-origin isolated); searching with 1 thread');
        }
        this.postMaintenance({ type: 'threads', threads: this.threads() });
        break;
      case 'Clear Hash':
        this.postMaintenance({ type: 'clear' });
        break;
      case 'UCI_Chess960':
        this.pos.chess960 = result.value as boolean;
        this.spare.chess960 = result.value as boolean;
        break;
      case 'OwnBook':
        this.book.setOwnBook(result.value as boolean);
        break;
      case 'BookFile':
        this.book.setFile(result.value as string);
        break;
      case 'BookMode':
        this.book.setMode(result.value as string);
        break;
      case 'BookDepth':
        this.book.setDepth(result.value as number);
        break;
      case 'UseNNUE':
        this.setNetwork({ ...this.network, use: result.value as boolean });
        break;
      case 'EvalFile':
        this.loadEvalFile(result.value as string);
        break;
      default:
        break; // read when the next search starts
    }
  }

  /** EvalFile: a network file, or the built-in network. A file that cannot be used is reported and the network in use kept. */
  private loadEvalFile(path: string): void {
    if (path === '' || path === BUILT_IN_NETWORK) {
      this.networkName = embeddedNetwork().name;
      this.setNetwork({ ...this.network, bytes: null });
      return;
    }
    try {
      const bytes = platform.readFile(path);
      const net = decodeNetwork(bytes);
      this.networkName = path.split(/[\\/]/).pop() || path;
      this.out.info(
        `EvalFile: using ${this.networkName} (768 -> 2x${net.hidden} -> ${net.buckets})${this.network.use ? '' : '; UseNNUE is false'}`,
      );
      this.setNetwork({ ...this.network, bytes });
    } catch (e) {
      const reason =
        e instanceof NetworkError ? e.message : (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : clippedError(e);
      this.out.info(`EvalFile: cannot use ${clip(path)}: ${reason}; keeping ${this.networkName}`);
    }
  }

  /** The search worker (and, for `eval`, this thread) evaluate as `choice` says. */
  private setNetwork(choice: NetworkChoice): void {
    this.network = choice;
    applyNetworkChoice(choice);
    this.postMaintenance({ type: 'network', choice });
  }

  /** `position startpos|fen <fen> [moves ...]`. A bad FEN keeps the previous position; a bad move keeps the moves before it. */
  private position(args: string[]): void {
    if (args.length === 0) {
      this.out.info('position: expected "startpos" or "fen <fen>"; position unchanged');
      return;
    }
    const kind = args[0].toLowerCase();
    let fen: string;
    let i: number;
    if (kind === 'startpos') {
      fen = START_FEN;
      i = 1;
    } else if (kind === 'fen') {
      i = 1;
      while (i < args.length && args[i].toLowerCase() !== 'moves') i++;
      fen = args.slice(1, i).join(' ');
    } else {
      this.out.info(`position: expected "startpos" or "fen", got '${clip(args[0])}'; position unchanged`);
      return;
    }
    if (i < args.length && args[i].toLowerCase() !== 'moves') {
      let j = i;
      while (j < args.length && args[j].toLowerCase() !== 'moves') j++;
      this.out.info(`position: unexpected '${clip(args.slice(i, j).join(' '))}' ignored`);
      i = j;
    }

    const next = this.spare;
    next.chess960 = this.options.chess960;
    try {
      next.setFen(fen);
    } catch (e) {
      this.out.info(`position: invalid fen '${clip(fen)}': ${clippedError(e)}; position unchanged`);
      return;
    }
    const spec: PositionSpec = { fen: next.fen(), moves: [], chess960: next.chess960 };
    for (let k = i + 1; k < args.length; k++) {
      const text = args[k].toLowerCase();
      let move: number;
      try {
        move = parseUciMove(next, text);
      } catch (e) {
        const rest = args.length - k - 1;
        this.out.info(
          `position: ${clippedError(e)} at move ${k - i}; position kept up to the move before` +
            (rest > 0 ? ` (${rest} later move${rest > 1 ? 's' : ''} ignored)` : ''),
        );
        break;
      }
      spec.moves.push(moveToUci(next, move));
      next.makeMove(move);
      // Positions before an irreversible move cannot repeat: the worker starts after it.
      if (next.halfmove === 0 || spec.moves.length > MAX_REPLAY) {
        spec.fen = next.fen();
        spec.moves = [];
      }
      if (next.ply >= MAX_HISTORY) next.clearHistory();
    }
    this.spare = this.pos;
    this.pos = next;
    this.spec = spec;
  }

  /** The Threads option as the search can use it: 1 where threads cannot share memory. */
  private threads(): number {
    return HAS_SHARED_MEMORY ? this.options.threads : 1;
  }

  private searchOptions(): SearchOptions {
    const options: SearchOptions = {
      multiPv: this.options.multiPv,
      moveOverhead: this.options.moveOverhead,
      chess960: this.options.chess960,
      showWdl: this.options.showWdl,
      driver: this.options.driver,
    };
    // A weaker level chooses among its best moves at random: a fresh seed each search.
    const strength = this.options.strength((Math.random() * 0x100000000) | 0);
    if (strength !== null) options.strength = strength;
    return options;
  }

  private legalMoves(): string[] {
    const n = generateMoves(this.pos, this.moveScratch, 0, false);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(moveToUci(this.pos, this.moveScratch[i]));
    return out;
  }

  private go(args: string[]): void {
    const receivedAt = Date.now();
    if (this.job !== null) {
      this.out.info(`a ${this.job.kind === 'go' ? 'search' : this.job.kind} is running; go ignored (send stop first)`);
      return;
    }
    const parsed = parseGo(args, (text) => moveToUci(this.pos, parseUciMove(this.pos, text)));
    for (const m of parsed.messages) this.out.info(m);
    const control = new SearchControl();
    const id = this.nextId++;
    const position: PositionSpec = { ...this.spec, moves: [...this.spec.moves], chess960: this.options.chess960 };

    if (parsed.perft !== null) {
      this.startJob({ kind: 'perft', id, control, params: null, position, allowed: [] }, () =>
        this.host.post({ type: 'perft', id, position, depth: parsed.perft!, control: control.buffer }),
      );
      return;
    }

    const params = parsed.params;
    if (!params.infinite && !params.ponder) {
      // With OwnBook, a book move is played at once; problems are reported and the engine searches.
      const pick = this.book.pickUci(this.pos, params.searchmoves);
      this.out.writeLines(pick.lines);
      if (pick.move !== 0) {
        this.out.write(`bestmove ${pick.uci}`);
        return;
      }
    }
    const legal = this.legalMoves();
    const allowed = params.searchmoves.length > 0 ? params.searchmoves : legal;
    const holdAnswer = !control.shared && (params.infinite || params.ponder);
    const job = this.startJob({ kind: 'go', id, control, params, position, allowed }, () =>
      this.host.post({
        type: 'go',
        id,
        position,
        params: holdAnswer ? { ...params, infinite: false, ponder: false } : params,
        options: this.searchOptions(),
        control: control.buffer,
        receivedAt,
      }),
    );
    if (job !== null) job.holdAnswer = holdAnswer;
    if (job !== null && !params.infinite && !params.ponder) this.armTimeWatchdog(job, params);
  }

  private bench(args: string[]): void {
    if (this.job !== null) {
      this.out.info('a job is running; bench ignored (send stop first)');
      return;
    }
    let depth: number | null = null;
    if (args.length > 0) {
      if (/^\d+$/.test(args[0]) && Number(args[0]) >= 1 && Number(args[0]) <= 64) depth = Number(args[0]);
      else this.out.info(`bench: depth '${clip(args[0])}' is not in 1..64; using the default`);
    }
    const control = new SearchControl();
    const id = this.nextId++;
    this.startJob({ kind: 'bench', id, control, params: null, position: this.spec, allowed: [] }, () =>
      this.host.post({ type: 'bench', id, depth, control: control.buffer }),
    );
  }

  private startJob(init: Pick<Job, 'kind' | 'id' | 'control' | 'params' | 'position' | 'allowed'>, post: () => void): Job | null {
    const job: Job = {
      ...init,
      side: this.pos.side,
      lastPvMove: null,
      stopRequested: false,
      deadline: Infinity,
      timer: null,
      holdAnswer: false,
      held: null,
    };
    this.job = job;
    try {
      post();
      // A job does not wait for the worker's warm-up: it ends within a few
      // hundred nodes. (After post(), which may have started a new worker.)
      this.warmUpControl.stop();
    } catch (e) {
      this.out.info(`error: could not start the ${job.kind}: ${clippedError(e)}`);
      this.finish(job, null, null);
      return null;
    }
    return job;
  }

  /**
   * A safety net for a search that overruns its clock: the search stops
   * itself at timeman's hard limit, so this only fires when it is broken (or
   * the machine stalls it). It fires a grace period after that limit, and in
   * any case the move overhead before the clock runs out: the move still has
   * to reach the GUI, and on a loaded machine that alone can take 100 ms.
   */
  private armTimeWatchdog(job: Job, params: GoParams): void {
    const overhead = this.options.moveOverhead;
    let ms: number | null = null;
    if (params.movetime !== undefined) {
      ms = params.movetime + Math.max(250, overhead);
    } else {
      const time = job.side === WHITE ? params.wtime : params.btime;
      if (time !== undefined) {
        const { hardMs } = computeTimeBudget(params, job.side, overhead);
        const lastSafeMoment = time - Math.max(20, overhead);
        ms = Math.max(50, Math.min(lastSafeMoment, hardMs + Math.max(250, hardMs / 2)));
      }
    }
    if (ms === null) return;
    this.setJobTimer(job, ms, 'the search overran its time');
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
        if (this.job === job) this.abandon(job, why);
      },
      Math.min(MAX_TIMER_MS, Math.max(1, Math.floor(ms))),
    );
  }

  private stop(): void {
    const job = this.job;
    if (job === null) return; // nothing to stop (a GUI may send stop after bestmove)
    if (job.held !== null) {
      this.finish(job, job.held.bestMove, job.held.ponderMove);
      return;
    }
    if (!job.control.shared) {
      this.stopByRestart(job);
      return;
    }
    job.control.stop();
    Atomics.notify(job.control.flags, 0);
    if (!job.stopRequested && job.kind === 'go') {
      job.stopRequested = true;
      this.setJobTimer(job, STOP_GRACE_MS, 'the search did not answer stop');
    }
  }

  private ponderhit(): void {
    const job = this.job;
    if (job === null || job.kind !== 'go' || job.params === null || !job.params.ponder || job.control.ponderhitReceived) {
      this.out.info('ponderhit without a ponder search; ignored');
      return;
    }
    if (!job.control.shared) {
      // The flag cannot reach the search: the move found while pondering is played now.
      this.out.info('ponderhit: without shared memory the ponder search ends here');
      this.stop();
      return;
    }
    job.control.ponderhit();
    Atomics.notify(job.control.flags, 0);
    // The clock runs from now: the same safety net as for a normal search.
    if (!job.stopRequested) this.armTimeWatchdog(job, { ...job.params, ponder: false });
  }

  /**
   * Stops a job whose worker no flag can reach (no shared memory): the
   * worker is replaced, and a search plays its best line's first move.
   */
  private stopByRestart(job: Job): void {
    const best = job.kind === 'go' ? this.fallback(job) : null;
    this.host.terminate();
    this.finish(job, best, null);
    this.onWorkerGone();
    if (!this.quitting) this.warm();
  }

  /** Plays the fallback move for a job the worker did not finish in time; its late answer is dropped. */
  private abandon(job: Job, why: string): void {
    job.control.stop();
    Atomics.notify(job.control.flags, 0);
    const best = job.kind === 'go' ? this.fallback(job) : null;
    this.out.info(`error: ${why}${best !== null ? `; playing ${best}` : ''}`);
    this.abandoned.set(
      job.id,
      setTimeout(() => {
        // Still no answer: the worker is stuck. Replace it.
        if (!this.abandoned.delete(job.id)) return;
        this.out.info('error: the search worker is not responding; restarting it');
        this.host.terminate();
        this.onWorkerGone();
        if (!this.quitting) this.warm();
      }, HANG_LIMIT_MS),
    );
    this.finish(job, best, null);
  }

  /**
   * The move played for a search that cannot answer: its best line's first
   * move, else a quick look, whose result is printed as an `info` line (every
   * bestmove follows one).
   */
  private fallback(job: Job): string {
    if (job.lastPvMove !== null) return job.lastPvMove;
    const choice = emergencyMove(job.position, job.allowed);
    const info = emergencyInfo(choice);
    if (info !== null) this.out.write(info);
    return choice.move;
  }

  /** Ends the current job: prints bestmove for a search (bestMove null: the fallback). Nothing of it is printed afterwards. */
  private finish(job: Job, bestMove: string | null, ponderMove: string | null): void {
    if (this.job !== job) return;
    if (job.timer !== null) clearTimeout(job.timer);
    job.timer = null;
    this.job = null;
    if (job.kind === 'go') {
      this.out.write(`bestmove ${bestMove ?? this.fallback(job)}${ponderMove !== null ? ` ponder ${ponderMove}` : ''}`);
    }
  }

  // ---------------------------------------------------------------------------
  // Worker events.

  private onWorkerMessage(m: FromWorker): void {
    try {
      switch (m.type) {
        case 'line': {
          const job = this.job;
          if (job === null || job.id !== m.id) return; // a late line of an abandoned job
          if (job.kind === 'go') {
            const pv = firstPvMove(m.text);
            if (pv !== null && job.allowed.includes(pv)) job.lastPvMove = pv;
          }
          this.out.write(m.text);
          break;
        }
        case 'done': {
          const hang = this.abandoned.get(m.id);
          if (hang !== undefined) {
            clearTimeout(hang);
            this.abandoned.delete(m.id);
          }
          const job = this.job;
          if (job !== null && job.id === m.id) {
            if (m.lines !== undefined) this.out.writeLines(m.lines);
            if (job.holdAnswer && !job.stopRequested) job.held = { bestMove: m.bestMove, ponderMove: m.ponderMove };
            else this.finish(job, m.bestMove, m.ponderMove);
          }
          break;
        }
        case 'ack':
          this.acknowledge(m.seq);
          break;
        case 'note':
          this.out.info(m.text);
          break;
      }
    } catch (e) {
      this.out.info(`error: ${clippedError(e)}`);
    }
  }

  private onWorkerDied(reason: string): void {
    // A worker that died before it was ready is not restarted at once (no crash loop).
    const wasReady = this.ackedSeq >= this.workerBootSeq;
    this.out.info(`error: the search worker stopped (${reason}); ${wasReady ? 'restarting it' : 'a new one starts on the next command'}`);
    this.onWorkerGone();
    if (wasReady && !this.quitting) this.warm();
  }

  /** The worker is gone with whatever it had queued: settle everything that waited on it. */
  private onWorkerGone(): void {
    for (const timer of this.abandoned.values()) clearTimeout(timer);
    this.abandoned.clear();
    const job = this.job;
    if (job !== null) this.finish(job, null, null);
    this.acknowledge(this.lastSeq);
  }

  // ---------------------------------------------------------------------------
  // Quitting.

  /** Stops any search, prints its bestmove, flushes stdout and exits with code 0. */
  async quit(): Promise<void> {
    if (this.quitting) return;
    this.quitting = true;
    try {
      const job = this.job;
      if (job !== null) {
        job.control.stop();
        Atomics.notify(job.control.flags, 0);
      }
      // Give the search its bestmove and the worker its pending isready answers, briefly.
      const deadline = performance.now() + QUIT_GRACE_MS;
      while ((this.job?.kind === 'go' || this.readyWaiters.length > 0) && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      // An isready still waiting was sent before the job started (isready
      // during a job is answered at once): its readyok comes first.
      for (let i = 0; i < this.readyWaiters.length; i++) this.out.write('readyok');
      this.readyWaiters = [];
      const left = this.job;
      if (left !== null && left.kind === 'go') this.finish(left, left.held?.bestMove ?? null, left.held?.ponderMove ?? null);
      await this.out.flush(200);
    } catch {
      // Exit anyway.
    }
    this.book.close();
    this.host.terminate();
    this.exit(0);
  }
}

/** Runs the UCI loop on the host's UCI stream (stdin/stdout, or a Web Worker's messages) until `quit` or end of input. */
export function runUci(stream: UciStream = platform.uciStream()): void {
  // The bundle's entry may reach here inside the search worker: serve as the worker instead.
  if (isSearchWorker()) {
    runSearchWorker();
    return;
  }
  const out = new Output(stream);
  const engine = new UciEngine(out, (code) => stream.exit(code));
  stream.start({
    line: (line) => engine.handleLine(line),
    end: () => void engine.quit(),
    broken: () => {
      out.markBroken();
      stream.exit(0);
    },
    fault: (e) => out.info(`error: ${clippedError(e)}`),
  });
  engine.warm();
}
