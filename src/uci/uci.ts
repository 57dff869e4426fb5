// The UCI protocol loop. The main thread reads stdin line by line, answers
// what it can at once (uci, isready, setoption, position, d, eval, ...), and
// hands the long jobs (go, go perft, bench) to the engine host
// (src/engine/host.ts), whose search worker owns the Searcher and its
// transposition table. This file is the protocol only: it parses lines,
// keeps the options, and writes the host's events as UCI text.
//
// Guarantees:
//   - every line of output goes through one Output, in order;
//   - isready is answered at once while a job runs; otherwise after the
//     worker has applied the Hash / Clear Hash / ucinewgame sent before it;
//   - each `go` gets exactly one bestmove, and nothing of that search is
//     printed after it; if the search fails, hangs or overruns its time, the
//     host plays a legal fallback move (the best line's first move if known,
//     else a two-ply look's choice, printed as an info line of its own);
//   - Hash, Clear Hash and ucinewgame sent during a search are applied when
//     the search ends;
//   - `go` (or bench) after `stop` but before the stopped job's answer
//     waits for that answer and then runs (a GUI that moves on at once
//     after `stop` loses no search); `go` while a job runs that was not
//     stopped is refused with an info string;
//   - quit and end of input stop any search, print its bestmove, flush
//     stdout and exit with code 0 (a perft or bench runs to its end first);
//   - bad input gets an info string; no input crashes the engine.

import { moveToUci, NO_MOVE_UCI, parseUciMove } from '../board/notation.js';
import { WHITE } from '../board/types.js';
import { Position, START_FEN } from '../board/position.js';
import { EMBEDDED_NETWORK, explain } from '../eval/index.js';
import { shapeText } from '../eval/nnue/network.js';
import type { GoParams, SearchOptions } from '../search/limits.js';
import { type UciStream, platform } from '../platform/index.js';
import { BookController } from '../book/uci-book.js';
import { EngineHost, type Job, type JobListener, type JobOutcome, type JobRequest } from '../engine/host.js';
import { MAX_HISTORY, type NetworkChoice, type PositionSpec, appendSpecMove, applyNetworkChoice } from '../engine/messages.js';
import { isSearchWorker, runSearchWorker } from '../engine/search-worker.js';
import { type LoadedNetwork, NetworkFileError, loadNetwork } from '../engine/network-file.js';
import { DEFAULT_TABLEBASE_USE, SETTINGS, defaultIn, rangeText } from '../engine/settings.js';
import type { SyzygySettings } from '../engine/tablebase-files.js';
import { boardDiagram } from './board-display.js';
import { parseGo } from './go-params.js';
import { formatCurrentMove, formatEmergency, formatLine } from './info.js';
import { type OptionEffects, OptionValues, optionLines, usableThreads } from './options.js';
import { Output, infoString } from './output.js';
import { TuningOptions, searchParameterOptionLines } from './tuning-options.js';
import { engineVersion } from '../engine/version.js';
import { errorText } from '../util/errors.js';
import { HELP_LINES, UCI_COMMANDS } from './commands.js';

/** How long `quit` waits for the bestmove of a running search. */
const QUIT_GRACE_MS = 60;

/** A thrown value's message, cut to a readable length. */
function clippedError(e: unknown): string {
  return clip(errorText(e));
}

/** Input echoed in a message, cut to a readable length. */
function clip(text: string, max = 100): string {
  return text.length <= max ? text : `${text.slice(0, max)}...`;
}

/** A job's output, or a book move, in the order asked for (see UciEngine.answers). */
interface Answer {
  /** Null: answered without a job (a book move). */
  job: Job | null;
  /** Lines held until every answer before this one is written. */
  held: string[];
  done: boolean;
}

/** The evaluation the search uses until UseNNUE or EvalFile is set. */
const DEFAULT_NETWORK: NetworkChoice = { use: SETTINGS.useNnue.default, net: null };
/** The tables until SyzygyPath or its kin is set: none. */
const NO_TABLEBASES: SyzygySettings = { path: SETTINGS.syzygyPath.default, use: DEFAULT_TABLEBASE_USE };

class UciEngine {
  /** The options; those that set what the search worker boots with are kept by the host, and read there. */
  private readonly options = new OptionValues({
    hash: () => this.host.settings.hashMb,
    useNnue: () => this.network.use,
    syzygyPath: () => this.tablebases.path,
    syzygyProbeDepth: () => this.tablebases.use.probeDepth,
    syzygy50MoveRule: () => this.tablebases.use.rule50,
    syzygyProbeLimit: () => this.tablebases.use.probeLimit,
  });
  /** A tuning build's search parameters as options (src/search/tuning.ts), their values kept by the host. */
  private readonly tuning = new TuningOptions(() => this.host.settings.params);
  private pos = new Position();
  private spare = new Position();
  /** What the worker replays: the FEN after the last irreversible move, and the moves since. */
  private spec: PositionSpec = { fen: START_FEN, moves: [], chess960: false };
  private readonly host: EngineHost;
  /**
   * The jobs (go, perft, bench) and book answers not yet written, oldest
   * first. The first writes its output as it comes; the others, queued
   * behind a stopped job, hold theirs until those before them are done, so
   * that each bestmove follows its own search.
   */
  private answers: Answer[] = [];
  private quitting = false;
  private readonly book = new BookController();
  /** The network's name (EvalFile). */
  private networkName = EMBEDDED_NETWORK;
  /** What setting an option does here (uci/options.ts). */
  private readonly effects: OptionEffects = {
    configure: (change) => this.host.configure(change),
    info: (text) => this.out.info(text),
    book: this.book,
    setChess960: (on) => {
      this.pos.chess960 = on;
      this.spare.chess960 = on;
    },
    setUseNnue: (use) => this.setNetwork({ ...this.network, use }),
    loadEvalFile: (path) => this.loadEvalFile(path),
  };

  constructor(
    private readonly out: Output,
    private readonly exit: (code: number) => void,
  ) {
    this.host = new EngineHost({
      hashMb: SETTINGS.hash.default,
      threads: usableThreads(this.options.get('threads')),
      network: DEFAULT_NETWORK,
      keepAlive: 'never',
      stopGraceMs: defaultIn(SETTINGS.stopGraceMs, 'uci'),
      onNote: (text) => this.out.info(text),
    });
  }

  /** The evaluation the search uses (UseNNUE, EvalFile). */
  private get network(): NetworkChoice {
    return this.host.settings.network ?? DEFAULT_NETWORK;
  }

  /** The tablebases the search uses (SyzygyPath and its kin). */
  private get tablebases(): SyzygySettings {
    return this.host.settings.syzygy ?? NO_TABLEBASES;
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
      const at = tokens.findIndex((t) => UCI_COMMANDS.has(t.toLowerCase()));
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
        this.out.writeLines([
          `id name Kestrel ${engineVersion()}`,
          'id author The Kestrel developers',
          '',
          ...optionLines(),
          ...searchParameterOptionLines(),
          'uciok',
        ]);
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
        this.host.configure({ type: 'clear' });
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
      case 'help':
        this.out.writeLines(HELP_LINES);
        break;
    }
  }

  // ---------------------------------------------------------------------------
  // Commands.

  private isReady(): void {
    // While a job runs, changes wait behind it in the worker: answer now (with the oldest job's output, so
    // after a readyok or book move still waiting before it).
    const job = this.unfinished()[0];
    if (job !== undefined) {
      this.emit(job, 'readyok');
      return;
    }
    // Else once the worker has applied them, as an answer of its own: book moves and readyoks keep their order.
    const answer: Answer = { job: null, held: [], done: false };
    this.answers.push(answer);
    this.host.afterApplied(() => {
      this.emit(answer, 'readyok');
      this.settle(answer);
    });
  }

  private setOption(args: string[]): void {
    // A tuning build's search parameters (none otherwise).
    const params = this.tuning.set(args, (text) => this.out.info(text));
    if (params !== null) {
      if (params !== 'refused') this.host.configure({ type: 'params', values: params });
      return;
    }
    const result = this.options.set(args);
    for (const m of result.messages) this.out.info(m);
    this.options.apply(result, this.effects);
  }

  /** EvalFile: a network file, or the built-in network. A file that cannot be used is reported and the network in use kept. */
  private loadEvalFile(path: string): void {
    let loaded: LoadedNetwork;
    try {
      loaded = loadNetwork(path);
    } catch (e) {
      const reason = e instanceof NetworkFileError ? e.message : clippedError(e);
      this.out.info(`EvalFile: cannot use ${clip(path)}: ${reason}; keeping ${this.networkName}`);
      return;
    }
    this.networkName = loaded.name;
    if (loaded.net !== null) {
      this.out.info(`EvalFile: using ${loaded.name} (${shapeText(loaded.net)})${this.network.use ? '' : '; UseNNUE is false'}`);
    }
    this.setNetwork({ ...this.network, net: loaded.net });
  }

  /** The search worker (and, for `eval`, this thread) evaluate as `choice` says. */
  private setNetwork(choice: NetworkChoice): void {
    applyNetworkChoice(choice);
    this.host.configure({ type: 'network', choice });
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
    next.chess960 = this.options.get('chess960');
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
      const uci = moveToUci(next, move);
      next.makeMove(move);
      appendSpecMove(spec, next, uci);
      if (next.ply >= MAX_HISTORY) next.clearHistory();
    }
    this.spare = this.pos;
    this.pos = next;
    this.spec = spec;
  }

  private searchOptions(): SearchOptions {
    const options: SearchOptions = {
      multiPv: this.options.get('multiPv'),
      moveOverhead: this.options.get('moveOverhead'),
      chess960: this.options.get('chess960'),
      showWdl: this.options.get('showWdl'),
      driver: this.options.get('driver'),
    };
    // A weaker level chooses among its best moves at random: a fresh seed each search.
    const strength = this.options.strength((Math.random() * 0x100000000) | 0);
    if (strength !== null) options.strength = strength;
    return options;
  }

  /**
   * Starts a go or bench (`start` makes its job or answers it) in line after
   * the jobs before it; refuses it, saying why, while one is still running
   * unstopped. Only a stopped search is waited for: it answers within
   * milliseconds, while perft and bench run to their end.
   */
  private startAnswer(what: string, start: (answer: Answer) => void): void {
    const last = this.answers[this.answers.length - 1]?.job;
    if (last !== undefined && last !== null && last.state !== 'done' && !(last.request.kind === 'go' && last.stopRequested)) {
      this.out.info(`a ${last.request.kind === 'go' ? 'search' : last.request.kind} is running; ${what} ignored (send stop first)`);
      return;
    }
    const answer: Answer = { job: null, held: [], done: false };
    this.answers.push(answer);
    try {
      start(answer);
    } finally {
      // Neither a job nor an answer (it threw): it must not hold up the answers after it.
      if (answer.job === null && !answer.done) this.settle(answer);
    }
  }

  private go(args: string[]): void {
    const receivedAt = Date.now();
    this.startAnswer('go', (answer) => this.startGo(answer, args, receivedAt));
  }

  private startGo(answer: Answer, args: string[], receivedAt: number): void {
    const parsed = parseGo(args, (text) => moveToUci(this.pos, parseUciMove(this.pos, text)));
    for (const m of parsed.messages) this.emit(answer, infoString(m));
    const position: PositionSpec = { ...this.spec, moves: [...this.spec.moves], chess960: this.options.get('chess960') };
    if (parsed.perft !== null) {
      this.run(answer, { kind: 'perft', position, depth: parsed.perft });
      return;
    }
    const params = parsed.params;
    this.ownClock(answer, params);
    if (!params.infinite && !params.ponder) {
      // With OwnBook, a book move is played at once; problems are reported and the engine searches.
      const pick = this.book.pickUci(this.pos, params.searchmoves);
      for (const line of pick.lines) this.emit(answer, line);
      if (pick.move !== 0) {
        this.emit(answer, `bestmove ${pick.uci}`);
        this.settle(answer);
        return;
      }
    }
    this.run(answer, { kind: 'go', position, params, options: this.searchOptions(), receivedAt });
  }

  /**
   * A clock given only for the side not to move would leave a search
   * without limit (a runner would wait forever): the side to move is given
   * the same clock, and told so.
   */
  private ownClock(answer: Answer, params: GoParams): void {
    const white = this.pos.side === WHITE;
    const [own, other, ownInc, otherInc] = white
      ? (['wtime', 'btime', 'winc', 'binc'] as const)
      : (['btime', 'wtime', 'binc', 'winc'] as const);
    const limited = [params.depth, params.nodes, params.movetime, params.mate, params[own]].some((v) => v !== undefined);
    if (limited || params.infinite || params[other] === undefined) return;
    params[own] = params[other];
    params[ownInc] ??= params[otherInc];
    this.emit(answer, infoString(`go: no ${own} for ${white ? 'White' : 'Black'}, the side to move; using ${other} ${params[other]}`));
  }

  private bench(args: string[]): void {
    this.startAnswer('bench', (answer) => this.startBench(answer, args));
  }

  private startBench(answer: Answer, args: string[]): void {
    let depth: number | null = null;
    if (args.length > 0) {
      const range = SETTINGS.benchDepth;
      if (/^\d+$/.test(args[0]) && Number(args[0]) >= range.min && Number(args[0]) <= range.max) depth = Number(args[0]);
      else this.emit(answer, infoString(`bench: depth '${clip(args[0])}' is not in ${rangeText(range)}; using the default`));
    }
    this.run(answer, { kind: 'bench', depth });
  }

  /** Runs a job on the host (at once, or after the jobs before it), writing its events as UCI text through its answer. */
  private run(answer: Answer, request: JobRequest): void {
    const showWdl = this.options.get('showWdl');
    const listener: JobListener = {
      line: (line) => this.emit(answer, formatLine(line, showWdl)),
      currmove: (move) => this.emit(answer, formatCurrentMove(move)),
      text: (text) => this.emit(answer, text),
      note: (text) => this.emit(answer, infoString(text)),
      emergency: (choice) => {
        const info = formatEmergency(choice);
        if (info !== null) this.emit(answer, info);
      },
      done: (outcome) => this.jobDone(answer, request, outcome),
    };
    answer.job = this.host.submit(request, listener);
  }

  private jobDone(answer: Answer, request: JobRequest, outcome: JobOutcome): void {
    for (const line of outcome.lines) this.emit(answer, line);
    if (request.kind !== 'go' && outcome.cancelled) this.emit(answer, infoString(`${request.kind} stopped before it started`));
    if (request.kind === 'go') {
      this.emit(answer, `bestmove ${outcome.bestMove ?? NO_MOVE_UCI}${outcome.ponderMove !== null ? ` ponder ${outcome.ponderMove}` : ''}`);
    }
    this.settle(answer);
  }

  /** Writes a line of `answer`'s now if it is the oldest unanswered, else holds it. */
  private emit(answer: Answer, line: string): void {
    if (this.answers[0] === answer) this.out.write(line);
    else answer.held.push(line);
  }

  /** `answer` is complete: it and every complete one after it are written and forgotten. */
  private settle(answer: Answer): void {
    answer.done = true;
    while (this.answers.length > 0 && this.answers[0].done) {
      this.answers.shift();
      const next = this.answers[0];
      if (next !== undefined) {
        this.out.writeLines(next.held);
        next.held = [];
      }
    }
  }

  /** Resolves once no job is unfinished and the worker has applied every change. */
  async whenIdle(): Promise<void> {
    while (this.jobs().length > 0 || this.host.applying) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  /** The answers whose jobs are not yet done, oldest first. */
  private unfinished(): Answer[] {
    return this.answers.filter((a) => a.job !== null && a.job.state !== 'done');
  }

  /** The jobs not yet done, oldest first. */
  private jobs(): Job[] {
    return this.unfinished().map((a) => a.job!);
  }

  private stop(): void {
    // Nothing to stop: a GUI may send stop after bestmove. A job queued
    // behind a stopped one is stopped too: it was asked for before this stop.
    for (const job of this.jobs()) job.stop();
  }

  private ponderhit(): void {
    const job = this.answers[this.answers.length - 1]?.job ?? null;
    const request = job?.request;
    if (job === null || job.state === 'done' || request?.kind !== 'go' || !request.params.ponder || job.control.ponderhitReceived) {
      this.out.info('ponderhit without a ponder search; ignored');
      return;
    }
    // Without shared memory the flag cannot reach the search: the move found while pondering is played now.
    if (!job.reachable && job.state === 'running') this.out.info('ponderhit: without shared memory the ponder search ends here');
    job.ponderhit();
  }

  // ---------------------------------------------------------------------------
  // Quitting.

  /** Stops any search, prints its bestmove, flushes stdout and exits with code 0. */
  async quit(): Promise<void> {
    if (this.quitting) return;
    this.quitting = true;
    try {
      // Searches stop; a perft or bench asked for before quit runs to its
      // end, so that its totals are printed, as an engine that runs them on
      // its input thread does.
      for (const job of this.jobs()) if (job.request.kind === 'go') job.stop();
      while (this.jobs().some((job) => job.request.kind !== 'go')) await new Promise((resolve) => setTimeout(resolve, 5));
      // Give the searches their bestmoves and the worker its pending isready answers, briefly.
      const deadline = performance.now() + QUIT_GRACE_MS;
      while ((this.jobs().length > 0 || this.host.applying) && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      // An isready still waiting was sent before the job started (isready
      // during a job is answered at once): its readyok comes first.
      this.host.flushApplied();
      for (const job of this.jobs()) job.settleNow();
      await this.out.flush(200);
    } catch {
      // Exit anyway.
    }
    this.book.close();
    void this.host.close();
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
    idle: () => engine.whenIdle(),
  });
  engine.warm();
}
